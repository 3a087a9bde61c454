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
    /// The agent's own metadata of the message (`message.metadata`, protocol 6): an object whose
    /// keys are none of the adapter's, merged by the client into `message.metadata`.
    #[serde(rename = "message-metadata", rename_all = "camelCase")]
    AgentMetadata {
        message_metadata: Box<RawValue>,
    },
    /// A web page the turn cites (`message.part.source` with a `url`, protocol 6).
    #[serde(rename_all = "camelCase")]
    SourceUrl {
        source_id: String,
        url: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
    /// A document the turn cites (`message.part.source` with a `mediaType`, protocol 6).
    #[serde(rename_all = "camelCase")]
    SourceDocument {
        source_id: String,
        media_type: String,
        title: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        filename: Option<String>,
    },
    /// The turn was canceled.
    Abort,
    /// The message is complete.
    #[serde(rename_all = "camelCase")]
    Finish {
        #[serde(skip_serializing_if = "Option::is_none")]
        message_metadata: Option<FinishMetadata>,
    },
    /// An app's data part (`message.part.data`, protocol 6), `data-<name>`: its type is its name's,
    /// so it is written by [`AppData`]'s own `Serialize` (last: serde's untagged variant).
    #[serde(untagged)]
    AppData(AppData),
}

/// The chunk of an app's data part: `{"type":"data-<name>","id"?,"data","transient"?}`.
#[derive(Debug, Clone)]
pub struct AppData {
    pub name: String,
    pub id: Option<String>,
    pub data: Box<RawValue>,
    pub transient: bool,
}

impl Serialize for AppData {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", &format!("data-{}", self.name))?;
        if let Some(id) = &self.id {
            map.serialize_entry("id", id)?;
        }
        map.serialize_entry("data", &self.data)?;
        if self.transient {
            map.serialize_entry("transient", &true)?;
        }
        map.end()
    }
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
