//! The [`UiChunk`] enum, the data of its `data-*` chunks, and its exact JSON shape.

use serde::Serialize;
use serde_json::value::RawValue;

use super::metadata::{FinishMetadata, StartMetadata};

/// One chunk of the UI message stream, serialised as `{"type": "...", ...}`.
///
/// Tool chunks always carry `providerExecuted: true` (the tool ran in the agent, the
/// client must not run it) and `dynamic: true` (the client has no static types for
/// the agent's tools); both fields exist in ai@5.0.0's schema.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum UiChunk {
    /// Opens the assistant message. `messageId` is the agent's turn id.
    #[serde(rename_all = "camelCase")]
    Start {
        #[serde(skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        message_metadata: Option<StartMetadata>,
    },
    /// Opens a step (the client adds a `step-start` part).
    StartStep,
    /// Closes a step; no text or reasoning part may stay open across it.
    FinishStep,
    TextStart {
        id: String,
    },
    TextDelta {
        id: String,
        delta: String,
    },
    TextEnd {
        id: String,
    },
    ReasoningStart {
        id: String,
    },
    ReasoningDelta {
        id: String,
        delta: String,
    },
    ReasoningEnd {
        id: String,
    },
    #[serde(rename_all = "camelCase")]
    ToolInputStart {
        tool_call_id: String,
        tool_name: String,
        provider_executed: bool,
        dynamic: bool,
    },
    #[serde(rename_all = "camelCase")]
    ToolInputAvailable {
        tool_call_id: String,
        tool_name: String,
        input: Box<RawValue>,
        provider_executed: bool,
        dynamic: bool,
    },
    #[serde(rename_all = "camelCase")]
    ToolOutputAvailable {
        tool_call_id: String,
        output: Box<RawValue>,
        provider_executed: bool,
        dynamic: bool,
    },
    #[serde(rename_all = "camelCase")]
    ToolOutputError {
        tool_call_id: String,
        error_text: String,
        provider_executed: bool,
        dynamic: bool,
    },
    /// Asks the user to approve the tool call `toolCallId` (ai 6 and later): its part goes to
    /// `approval-requested`, answered by `addToolApprovalResponse({ id: approvalId, … })`.
    /// `{"type":"tool-approval-request","approvalId":"q2","toolCallId":"c2"}`
    #[serde(rename_all = "camelCase")]
    ToolApprovalRequest {
        approval_id: String,
        tool_call_id: String,
    },
    /// The user denied the tool call: its part ends `output-denied` (ai 6 and later).
    /// `{"type":"tool-output-denied","toolCallId":"c2"}`
    #[serde(rename_all = "camelCase")]
    ToolOutputDenied {
        tool_call_id: String,
    },
    /// The agent's phase; transient, so the client never stores it in the message.
    #[serde(rename = "data-status")]
    DataStatus {
        data: StatusData,
        transient: bool,
    },
    /// A question of the agent; persists in the message as a `data-question` part.
    #[serde(rename = "data-question")]
    DataQuestion {
        id: String,
        data: QuestionData,
    },
    /// The turn failed; the client shows `errorText`.
    #[serde(rename_all = "camelCase")]
    Error {
        error_text: String,
    },
    /// Metadata for the message before its end: a stopped turn's (its `abort` has no place for
    /// it), so that a client still learns how long it ran and that it was stopped.
    #[serde(rename_all = "camelCase")]
    MessageMetadata {
        message_metadata: FinishMetadata,
    },
    /// The turn was canceled.
    Abort,
    /// The message is complete.
    #[serde(rename_all = "camelCase")]
    Finish {
        #[serde(skip_serializing_if = "Option::is_none")]
        message_metadata: Option<FinishMetadata>,
    },
}

/// The `data` of a `data-question` chunk.
pub type QuestionData = crate::v2::Question;

/// What the agent is doing, as the client shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StatusPhase {
    Thinking,
    ToolUse,
    Compacting,
}

/// The `data` of a `data-status` chunk: `{ phase, label? }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatusData {
    pub phase: StatusPhase,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl UiChunk {
    /// Whether this chunk ends the stream (`finish` or `abort`).
    pub fn is_ending(&self) -> bool {
        matches!(self, UiChunk::Finish { .. } | UiChunk::Abort)
    }

    /// Whether this chunk belongs to a question the client answers (`crate::questions`): a tool
    /// chunk of a client-side tool (not `dynamic`: the agent's own tools all are), or an
    /// approval's request or denial.
    pub fn is_question_tool(&self) -> bool {
        match self {
            UiChunk::ToolInputStart { dynamic, .. }
            | UiChunk::ToolInputAvailable { dynamic, .. }
            | UiChunk::ToolOutputAvailable { dynamic, .. }
            | UiChunk::ToolOutputError { dynamic, .. } => !dynamic,
            UiChunk::ToolApprovalRequest { .. } | UiChunk::ToolOutputDenied { .. } => true,
            _ => false,
        }
    }

    /// The chunk as serde writes it: the tests' oracle for the writer the stream uses
    /// (`crate::sse::layout`, by hand), never the stream's own path.
    #[cfg(test)]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn raw(value: Value) -> Box<RawValue> {
        serde_json::value::to_raw_value(&value).unwrap()
    }

    fn j(c: UiChunk) -> String {
        c.to_json()
    }

    #[test]
    fn message_chunks_are_exact() {
        assert_eq!(
            j(UiChunk::Start {
                message_id: Some("t1".into()),
                message_metadata: None,
            }),
            r#"{"type":"start","messageId":"t1"}"#
        );
        assert_eq!(
            j(UiChunk::Start {
                message_id: None,
                message_metadata: None
            }),
            r#"{"type":"start"}"#
        );
        assert_eq!(
            j(UiChunk::Start {
                message_id: Some("t1".into()),
                message_metadata: Some(StartMetadata {
                    turn_id: "t1".into(),
                    created_at: 1_700_000_000_000
                }),
            }),
            r#"{"type":"start","messageId":"t1","messageMetadata":{"turnId":"t1","createdAt":1700000000000}}"#
        );
        assert_eq!(
            j(UiChunk::Finish {
                message_metadata: Some(FinishMetadata {
                    turn_id: "t1".into(),
                    duration_ms: 12_000,
                    tool_calls: 3,
                    tool_errors: 1,
                    stopped: false,
                    usage: None,
                    model: None,
                })
            }),
            r#"{"type":"finish","messageMetadata":{"turnId":"t1","durationMs":12000,"toolCalls":3,"toolErrors":1}}"#
        );
        assert_eq!(j(UiChunk::StartStep), r#"{"type":"start-step"}"#);
        assert_eq!(j(UiChunk::FinishStep), r#"{"type":"finish-step"}"#);
        assert_eq!(
            j(UiChunk::Finish {
                message_metadata: None
            }),
            r#"{"type":"finish"}"#
        );
        assert_eq!(j(UiChunk::Abort), r#"{"type":"abort"}"#);
        assert_eq!(
            j(UiChunk::Error {
                error_text: "x".into()
            }),
            r#"{"type":"error","errorText":"x"}"#
        );
    }

    #[test]
    fn text_and_reasoning_chunks_are_exact() {
        let id = || "a".to_string();
        assert_eq!(
            j(UiChunk::TextStart { id: id() }),
            r#"{"type":"text-start","id":"a"}"#
        );
        assert_eq!(
            j(UiChunk::TextDelta {
                id: id(),
                delta: "hi".into()
            }),
            r#"{"type":"text-delta","id":"a","delta":"hi"}"#
        );
        assert_eq!(
            j(UiChunk::TextEnd { id: id() }),
            r#"{"type":"text-end","id":"a"}"#
        );
        assert_eq!(
            j(UiChunk::ReasoningStart { id: id() }),
            r#"{"type":"reasoning-start","id":"a"}"#
        );
        assert_eq!(
            j(UiChunk::ReasoningDelta {
                id: id(),
                delta: "h".into()
            }),
            r#"{"type":"reasoning-delta","id":"a","delta":"h"}"#
        );
        assert_eq!(
            j(UiChunk::ReasoningEnd { id: id() }),
            r#"{"type":"reasoning-end","id":"a"}"#
        );
    }

    #[test]
    fn tool_chunks_are_exact() {
        assert_eq!(
            j(UiChunk::ToolInputStart {
                tool_call_id: "c".into(),
                tool_name: "ls".into(),
                provider_executed: true,
                dynamic: true
            }),
            r#"{"type":"tool-input-start","toolCallId":"c","toolName":"ls","providerExecuted":true,"dynamic":true}"#
        );
        assert_eq!(
            j(UiChunk::ToolInputAvailable {
                tool_call_id: "c".into(),
                tool_name: "ls".into(),
                input: raw(json!({"p": "/"})),
                provider_executed: true,
                dynamic: true
            }),
            r#"{"type":"tool-input-available","toolCallId":"c","toolName":"ls","input":{"p":"/"},"providerExecuted":true,"dynamic":true}"#
        );
        assert_eq!(
            j(UiChunk::ToolOutputAvailable {
                tool_call_id: "c".into(),
                output: raw(Value::Null),
                provider_executed: true,
                dynamic: true
            }),
            r#"{"type":"tool-output-available","toolCallId":"c","output":null,"providerExecuted":true,"dynamic":true}"#
        );
        assert_eq!(
            j(UiChunk::ToolOutputError {
                tool_call_id: "c".into(),
                error_text: "no".into(),
                provider_executed: true,
                dynamic: true
            }),
            r#"{"type":"tool-output-error","toolCallId":"c","errorText":"no","providerExecuted":true,"dynamic":true}"#
        );
    }

    #[test]
    fn approval_chunks_are_exact() {
        assert_eq!(
            j(UiChunk::ToolApprovalRequest {
                approval_id: "q2".into(),
                tool_call_id: "c2".into(),
            }),
            r#"{"type":"tool-approval-request","approvalId":"q2","toolCallId":"c2"}"#
        );
        assert_eq!(
            j(UiChunk::ToolOutputDenied {
                tool_call_id: "c2".into()
            }),
            r#"{"type":"tool-output-denied","toolCallId":"c2"}"#
        );
    }

    #[test]
    fn question_tools_are_the_static_ones() {
        let start = |dynamic| UiChunk::ToolInputStart {
            tool_call_id: "q".into(),
            tool_name: "askUser".into(),
            provider_executed: false,
            dynamic,
        };
        assert!(start(false).is_question_tool());
        assert!(
            !start(true).is_question_tool(),
            "the agent's tools are dynamic"
        );
        assert!(UiChunk::ToolOutputDenied {
            tool_call_id: "c".into()
        }
        .is_question_tool());
        assert!(!UiChunk::FinishStep.is_question_tool());
    }

    #[test]
    fn data_chunks_are_exact() {
        assert_eq!(
            j(UiChunk::DataQuestion {
                id: "q".into(),
                data: QuestionData {
                    question_id: "q".into(),
                    text: "Go?".into(),
                    options: Some(json!(["y", "n"])),
                    tool_call_id: None,
                    answer: None,
                }
            }),
            r#"{"type":"data-question","id":"q","data":{"questionId":"q","text":"Go?","options":["y","n"]}}"#
        );
    }

    #[test]
    fn only_finish_and_abort_end() {
        assert!(UiChunk::Finish {
            message_metadata: None
        }
        .is_ending());
        assert!(UiChunk::Abort.is_ending());
        assert!(!UiChunk::FinishStep.is_ending());
        assert!(!UiChunk::Error {
            error_text: String::new()
        }
        .is_ending());
    }
}
