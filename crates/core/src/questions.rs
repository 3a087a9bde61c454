//! How the agent's questions reach a chat client, and how its answers come back: as the AI SDK's
//! own tool parts (a client-side tool call every version answers with `addToolOutput`, or a tool
//! approval ai 6 and later answer with `addToolApprovalResponse`), or as this project's
//! `data-question` / `data-answer` parts for apps built on them.
//!
//! | [`QuestionParts`] | a free question | a question that gates a tool call (`toolCallId`) |
//! | --- | --- | --- |
//! | `tools` (default: every AI SDK version) | an [`ASK_USER`] tool call | an [`APPROVE_TOOL_CALL`] tool call |
//! | `approvals` (ai 6 and later) | an [`ASK_USER`] tool call | `tool-approval-request` on the call's own part |
//! | `data` | a `data-question` part | a `data-question` part |
//!
//! `docs/sessions.md` ("Questions") is the page that says this to users; `docs/agent-protocol.md`
//! ("Approval questions") says what the agent sends and gets.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::trace::{Trace, TraceMode};
use crate::v2::Question;

/// The name of the client-side tool a free question is: its part is `tool-askUser`, its input
/// `{ questionId, text, options? }`, its output the user's answer (any JSON, usually a string).
pub const ASK_USER: &str = "askUser";

/// The name of the client-side tool an approval question is where the client cannot take a tool
/// approval: its input `{ questionId, text, toolCallId, toolName, input }`, its output
/// `{ approved, reason? }`.
pub const APPROVE_TOOL_CALL: &str = "approveToolCall";

/// The header a request names its [`QuestionParts`] in, on every session route (the chat POST,
/// the resume, the history): a transport's `headers` reach the POST and its resume alike.
pub const QUESTIONS_HEADER: &str = "x-questions";

/// What a question becomes in the UI message stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QuestionParts {
    /// Client-side tool calls: [`ASK_USER`] and [`APPROVE_TOOL_CALL`]. Every AI SDK version
    /// parses them.
    #[default]
    Tools,
    /// A question that gates a tool call becomes a tool approval on that call's part
    /// (`tool-approval-request`, and `tool-output-denied` for a refusal): ai 6 and later only.
    /// A free question is an [`ASK_USER`] call, as in [`QuestionParts::Tools`].
    Approvals,
    /// `data-question` parts, answered by a user message with a `data-answer` part.
    Data,
}

impl QuestionParts {
    /// The names [`QuestionParts::parse`] reads, as an error message says what a value must be.
    pub const NAMES: &'static str = "\"tools\", \"approvals\" or \"data\"";

    /// The name on the wire: `"tools"`, `"approvals"` or `"data"`.
    pub fn name(self) -> &'static str {
        match self {
            QuestionParts::Tools => "tools",
            QuestionParts::Approvals => "approvals",
            QuestionParts::Data => "data",
        }
    }

    /// Reads `"tools"`, `"approvals"` or `"data"`.
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim() {
            "tools" => Some(QuestionParts::Tools),
            "approvals" => Some(QuestionParts::Approvals),
            "data" => Some(QuestionParts::Data),
            _ => None,
        }
    }
}

/// How one stream shows questions: the parts asked for, seen through the stream's trace mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QuestionView {
    parts: QuestionParts,
    trace: Trace,
}

impl QuestionView {
    /// The view of `parts` in a stream traced by `trace`.
    pub fn new(parts: QuestionParts, trace: Trace) -> Self {
        QuestionView { parts, trace }
    }

    /// The parts this stream uses. `minimal` shows no tool, so there is no card to approve on:
    /// an approval comes as an [`APPROVE_TOOL_CALL`] call there.
    pub fn parts(&self) -> QuestionParts {
        match (self.parts, self.trace.mode) {
            (QuestionParts::Approvals, TraceMode::Minimal) => QuestionParts::Tools,
            (parts, _) => parts,
        }
    }

    /// The gated call's `input` inside an [`APPROVE_TOOL_CALL`] call: what the user approves,
    /// shown as far as the trace shows a tool's input (shortened in `full`, `null` below it).
    pub fn gated_input(&self, raw: &RawValue) -> Box<RawValue> {
        self.trace.question_tool_input(raw)
    }
}

/// Whether `answer` approves the call its question gates (`docs/agent-protocol.md`, "Approval
/// questions"): `{"approved": true}`, or the question's first option (an app built on
/// `data-answer` parts answers with the option it shows).
pub fn approves(answer: &Value, options: Option<&Value>) -> bool {
    if let Some(approved) = answer.get("approved") {
        return approved == &Value::Bool(true);
    }
    let first = options.and_then(|o| o.get(0));
    answer.is_string() && first == Some(answer)
}

/// The `input` of an [`ASK_USER`] call.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AskInput<'a> {
    question_id: &'a str,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    options: Option<&'a Value>,
}

/// The `input` of an [`APPROVE_TOOL_CALL`] call.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ApproveInput<'a> {
    question_id: &'a str,
    text: &'a str,
    tool_call_id: &'a str,
    tool_name: &'a str,
    input: &'a RawValue,
}

/// The `input` of the [`ASK_USER`] call `question` becomes.
pub fn ask_input(question: &Question) -> Box<RawValue> {
    raw(&AskInput {
        question_id: &question.question_id,
        text: &question.text,
        options: question.options.as_ref(),
    })
}

/// The `input` of the [`APPROVE_TOOL_CALL`] call `question` becomes, for the gated call
/// `tool_name` with `input` (as the stream shows it: [`QuestionView::gated_input`]).
pub fn approve_input(question: &Question, tool_name: &str, input: &RawValue) -> Box<RawValue> {
    raw(&ApproveInput {
        question_id: &question.question_id,
        text: &question.text,
        tool_call_id: question.tool_call_id.as_deref().unwrap_or_default(),
        tool_name,
        input,
    })
}

/// The call id of the client-side tool call that stands for question `question_id`: the
/// question's id, or, when a tool call of the turn (or an earlier question's call) already has
/// it (`taken`), the id with `:question`, then `:question2`, … after it. The answer names its
/// question in the call's input, not by this id.
pub fn client_call_id(question_id: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut id = question_id.to_owned();
    let mut n = 1;
    while taken(&id) {
        id = match n {
            1 => format!("{question_id}:question"),
            _ => format!("{question_id}:question{n}"),
        };
        n += 1;
    }
    id
}

/// A value as raw JSON, on one line (serde writes these values without fail).
pub(crate) fn raw(value: &impl Serialize) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

#[cfg(test)]
#[path = "questions_tests.rs"]
mod tests;
