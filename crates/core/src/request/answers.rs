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
mod tests {
    use super::*;
    use serde_json::json;

    fn answers(parts: Value) -> Result<Vec<Answer>, Malformed> {
        read_answers(parts.as_array().unwrap())
    }

    fn one(question_id: &str, answer: Value, denied_call: Option<&str>) -> Answer {
        Answer {
            question_id: question_id.into(),
            answer,
            denied_call: denied_call.map(Into::into),
        }
    }

    #[test]
    fn each_kind_of_answered_part_is_an_answer() {
        let parts = json!([
            {"type": "step-start"},
            {"type": "text", "text": "Let me ask.", "state": "done"},
            {"type": "dynamic-tool", "toolName": "ls", "toolCallId": "c0", "state": "output-available", "input": {}, "output": 1},
            {"type": "tool-askUser", "toolCallId": "q1", "state": "output-available",
             "input": {"questionId": "q1", "text": "Which?", "options": ["a", "b"]}, "output": "a"},
            {"type": "tool-approveToolCall", "toolCallId": "q2:question", "state": "output-available",
             "input": {"questionId": "q2", "text": "Run?", "toolCallId": "c2", "toolName": "rm", "input": null},
             "output": {"approved": true, "extra": 1}},
            {"type": "tool-approveToolCall", "toolCallId": "q3", "state": "output-error",
             "input": {"questionId": "q3"}, "errorText": "no way"},
            {"type": "dynamic-tool", "toolName": "deploy", "toolCallId": "c4", "state": "approval-responded",
             "input": {}, "approval": {"id": "q4", "approved": false, "reason": "Friday"}},
            {"type": "tool-deploy", "toolCallId": "c5", "state": "approval-responded",
             "input": {}, "approval": {"id": "q5", "approved": true}}
        ]);
        assert_eq!(
            answers(parts).unwrap(),
            vec![
                one("q1", json!("a"), None),
                one("q2", json!({"approved": true}), None),
                one("q3", json!({"approved": false, "reason": "no way"}), None),
                one(
                    "q4",
                    json!({"approved": false, "reason": "Friday"}),
                    Some("c4")
                ),
                one("q5", json!({"approved": true}), None),
            ]
        );
    }

    #[test]
    fn parts_that_answer_nothing_are_not_answers() {
        let parts = json!([
            {"type": "tool-askUser", "toolCallId": "q1", "state": "input-available", "input": {"questionId": "q1"}},
            {"type": "dynamic-tool", "toolCallId": "c1", "state": "approval-requested", "approval": {"id": "q2"}},
            {"type": "tool-other", "toolCallId": "c2", "state": "output-available", "output": 1},
            {"type": "data-question", "id": "q3", "data": {"questionId": "q3"}},
            {"type": "text", "text": "hi"}
        ]);
        assert_eq!(answers(parts).unwrap(), vec![]);
    }

    #[test]
    fn the_newest_answer_must_be_well_formed() {
        let bad_approval = json!({"type": "dynamic-tool", "toolCallId": "c", "state": "approval-responded", "approval": {"id": "q9"}});
        let err = answers(json!([bad_approval])).unwrap_err();
        assert!(err.contains("boolean `approved`"), "{err}");
        let bad_output = json!({"type": "tool-approveToolCall", "toolCallId": "q", "state": "output-available", "input": {"questionId": "q"}, "output": "yes"});
        assert!(answers(json!([bad_output]))
            .unwrap_err()
            .contains("{ approved: boolean, reason?: string }"));
        let refused = json!({"type": "tool-askUser", "toolCallId": "q", "state": "output-error", "input": {"questionId": "q"}, "errorText": "x"});
        assert!(answers(json!([refused.clone()]))
            .unwrap_err()
            .contains("answer the agent's question with an output"));
        // An earlier round's broken part is history: the newest answer stands.
        let good = json!({"type": "tool-askUser", "toolCallId": "q2", "state": "output-available", "input": {"questionId": "q2"}, "output": "b"});
        assert_eq!(
            answers(json!([refused, good])).unwrap(),
            vec![one("q2", json!("b"), None)]
        );
    }

    #[test]
    fn a_question_without_input_is_named_by_its_call_id() {
        let part = json!({"type": "tool-askUser", "toolCallId": "q7", "state": "output-available", "output": null});
        assert_eq!(
            answers(json!([part])).unwrap(),
            vec![one("q7", Value::Null, None)]
        );
        let nameless = json!({"type": "tool-askUser", "state": "output-available", "output": 1});
        assert!(answers(json!([nameless]))
            .unwrap_err()
            .contains("names no question"));
    }
}
