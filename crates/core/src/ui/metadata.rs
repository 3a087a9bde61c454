//! `messageMetadata` of the `start` and `finish` chunks: which turn a message is, when it
//! started, how long it took and how many tools it ran (the panel shows
//! "Worked for 12 s · 3 tools"), and what it cost when the agent says (`usage`, `model`: the
//! place the AI SDK's docs give usage in a UI message stream). ai@5.0.0's strict schema accepts `messageMetadata` on both
//! chunks (and any JSON in it); the client keeps it as `message.metadata`, the later value's
//! fields merged over the earlier. An agent's own metadata (protocol 6, `message-metadata` chunks
//! mid-stream) may name none of these keys (`crate::v2::RESERVED_METADATA_KEYS`), so neither
//! clobbers the other.

use serde::Serialize;

use crate::v2::Usage;

/// On `start`: the turn, and when it started (ms since the Unix epoch).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StartMetadata {
    pub turn_id: String,
    pub created_at: u64,
}

/// On `finish` (and, for a stopped turn, on the `message-metadata` before its `abort`): the
/// turn, how long it ran as this stream saw it (ms), the tool calls it showed, how many of them
/// failed, `stopped: true` when it was stopped (absent otherwise), and the tokens it used and the
/// model that answered when the agent's `message.finalize` reported them (absent otherwise).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FinishMetadata {
    pub turn_id: String,
    pub duration_ms: u64,
    pub tool_calls: u64,
    pub tool_errors: u64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}
