//! The answers in the assistant message a chat client sends back after the user answered a
//! question on its tool part (`sendAutomaticallyWhen` with the AI SDK's
//! `lastAssistantMessageIsComplete…` helpers): a question tool's output (`addToolOutput`; ai 5:
//! `addToolResult`), or a tool approval's response (`addToolApprovalResponse`).
//!
//! | part | state | the answer sent to the agent |
//! | --- | --- | --- |
//! | `tool-askUser` | `output-available` | its `output` |
//! | `tool-approveToolCall` | `output-available` | its `output`, `{ approved, reason? }` |
//! | `tool-approveToolCall` | `output-error` | `{ approved: false, reason: errorText }` |
//! | any tool part | `approval-responded` | `{ approved, reason? }` from its `approval` |
//!
//! The message keeps every question the turn asked, answered in earlier rounds too: each is a
//! candidate, and the route answers the one the agent waits on. Only the last candidate must be
//! well formed (it is the newest answer); an earlier one that is not is history, skipped.

use serde_json::{Map, Value};

use crate::questions::{APPROVE_TOOL_CALL, ASK_USER};

/// The user's answer to the agent's question: a `data-answer` part's `data`, or what a question's
/// tool part says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub question_id: String,
    /// Any JSON, forwarded as it came (an approval's as `{ approved, reason? }`).
    pub answer: Value,
    /// The tool call whose approval the user denied on its own part (`approval-responded`,
    /// `approved: false`): the answer's stream ends it `output-denied`.
    pub denied_call: Option<String>,
}

/// Why a part that answers a question cannot be read: a sentence on what is wrong with it.
pub(super) type Malformed = String;

/// The answers of an assistant message's parts, in order, the newest last.
pub(super) fn read_answers(parts: &[Value]) -> Result<Vec<Answer>, Malformed> {
    let mut answers = Vec::new();
    let mut last_error = None;
    for (i, part) in parts.iter().enumerate() {
        match read_answer(i, part) {
            None => {}
            Some(Ok(answer)) => {
                answers.push(answer);
                last_error = None;
            }
            Some(Err(err)) => last_error = Some(err),
        }
    }
    match last_error {
        Some(err) => Err(err),
        None => Ok(answers),
    }
}

/// The answer part `i` gives, if it answers a question.
fn read_answer(i: usize, part: &Value) -> Option<Result<Answer, Malformed>> {
    let kind = part.get("type").and_then(Value::as_str)?;
    let state = part.get("state").and_then(Value::as_str)?;
    let is_tool = kind == "dynamic-tool" || kind.starts_with("tool-");
    let question_tool = kind
        .strip_prefix("tool-")
        .filter(|name| *name == ASK_USER || *name == APPROVE_TOOL_CALL);
    match (state, question_tool) {
        ("approval-responded", _) if is_tool => Some(approval_response(i, part)),
        ("output-available", Some(tool)) => Some(tool_output(i, part, tool)),
        ("output-error", Some(tool)) => Some(tool_error(i, part, tool)),
        _ => None,
    }
}

/// A tool part in `approval-responded`: `approval: { id, approved, reason? }`, `id` being the
/// question's (the `approvalId` the stream gave).
fn approval_response(i: usize, part: &Value) -> Result<Answer, Malformed> {
    let approval = part.get("approval");
    let id = approval.and_then(|a| a.get("id")).and_then(Value::as_str);
    let approved = approval
        .and_then(|a| a.get("approved"))
        .and_then(Value::as_bool);
    let (Some(id), Some(approved)) = (id, approved) else {
        return Err(format!(
            "tool part {i} is `approval-responded` but its `approval` lacks a string `id` or a boolean `approved`"
        ));
    };
    let reason = approval
        .and_then(|a| a.get("reason"))
        .and_then(Value::as_str);
    let call_id = part.get("toolCallId").and_then(Value::as_str);
    Ok(Answer {
        question_id: id.to_owned(),
        answer: approval_answer(approved, reason),
        denied_call: call_id.filter(|_| !approved).map(str::to_owned),
    })
}

/// A question tool's `output-available`: its output is the answer (an approval's must be
/// `{ approved, reason? }`).
fn tool_output(i: usize, part: &Value, tool: &str) -> Result<Answer, Malformed> {
    let output = part.get("output").cloned().unwrap_or(Value::Null);
    let answer = if tool == APPROVE_TOOL_CALL {
        let approved = output.get("approved").and_then(Value::as_bool);
        let reason = output.get("reason").and_then(Value::as_str);
        match approved {
            Some(approved) => approval_answer(approved, reason),
            None => {
                return Err(format!(
                    "the output of `tool-{APPROVE_TOOL_CALL}` part {i} must be {{ approved: boolean, reason?: string }}"
                ))
            }
        }
    } else {
        output
    };
    Ok(Answer {
        question_id: question_id(i, part)?,
        answer,
        denied_call: None,
    })
}

/// A question tool's `output-error`: a denial for an approval; a free question has no answer.
fn tool_error(i: usize, part: &Value, tool: &str) -> Result<Answer, Malformed> {
    if tool != APPROVE_TOOL_CALL {
        return Err(format!(
            "`tool-{tool}` part {i} ended in `output-error`: answer the agent's question with an output (addToolOutput({{ tool, toolCallId, output }}))"
        ));
    }
    let reason = part.get("errorText").and_then(Value::as_str);
    Ok(Answer {
        question_id: question_id(i, part)?,
        answer: approval_answer(false, reason),
        denied_call: None,
    })
}

/// The question a question tool's part answers: its input's `questionId` (the stream put it
/// there), else its call id.
fn question_id(i: usize, part: &Value) -> Result<String, Malformed> {
    let from_input = part.get("input").and_then(|input| input.get("questionId"));
    let id = from_input
        .or_else(|| part.get("toolCallId"))
        .and_then(Value::as_str);
    id.map(str::to_owned).ok_or_else(|| {
        format!("question tool part {i} names no question: no string `input.questionId` or `toolCallId`")
    })
}

/// `{ approved, reason? }`, what the agent gets for an approval question.
fn approval_answer(approved: bool, reason: Option<&str>) -> Value {
    let mut answer = Map::new();
    answer.insert("approved".into(), approved.into());
    if let Some(reason) = reason.filter(|r| !r.is_empty()) {
        answer.insert("reason".into(), reason.into());
    }
    Value::Object(answer)
}

#[cfg(test)]
#[path = "answers_tests.rs"]
mod tests;
