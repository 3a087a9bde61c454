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
#[path = "chunk_tests.rs"]
mod tests;
