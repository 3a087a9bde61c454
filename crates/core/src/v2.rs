//! The SessionAgent V2 WebSocket protocol: frames the agent sends, frames the adapter sends.
//!
//! Parsing is tolerant, as `docs/agent-protocol.md` demands: an unknown `type`
//! parses to [`Frame::Other`] and unknown fields are ignored. A frame that is not a JSON
//! object with a string `type`, or a known frame whose fields have the wrong shape, is a
//! [`FrameError`]: the caller skips and logs it; nothing panics.

mod attachment;
mod extras;
mod frame_error;
mod outgoing;
mod plain;
mod shape;
pub mod title;
mod usage;

use std::borrow::Cow;

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

pub use attachment::Attachment;
pub use extras::{
    merge_metadata, parse_data_part, parse_metadata_part, parse_source_part, read_metadata,
    DataFields, Source, TurnPart, MAX_DATA_NAME_CHARS, MAX_EXTRA_BYTES, MAX_PART_ID_BYTES,
    RESERVED_DATA_NAMES, RESERVED_METADATA_KEYS,
};
pub(crate) use frame_error::typed;
pub use frame_error::FrameError;
pub use outgoing::{
    abort_frame, answer_frame, forget_frame, OnDisconnect, Prompt, FORGET_PROTOCOL,
    TAKE_BACK_PROTOCOL, TREE_PROTOCOL,
};
use plain::sniff_type;
pub use plain::{read_plain_delta, DeltaKind, PlainDelta};
pub use shape::{DeltaShape, ShapeMatch};
pub use usage::{
    read_code, read_model, read_raw, read_raw_model, read_raw_usage, read_usage, Usage,
    MAX_CODE_BYTES, MAX_MODEL_BYTES, MAX_TOKENS,
};

/// The `type` of the hydration frame a SessionAgent sends first on every socket
/// ([`crate::session::parse_init`] reads it whole; [`parse_frame`] reads only its `protocol`,
/// as [`Frame::Init`]).
pub const INIT: &str = "init";

/// The `type` of a page of the session's tree (protocol 5): the agent's answer to the adapter's
/// `history` frame of the same name ([`crate::session::parse_history`] reads it).
pub const HISTORY: &str = "history";

/// The `type` of the agent's word that the session was forgotten (protocol 7): its answer to
/// the adapter's `forget`, and its notice to every other socket of the session.
pub const FORGOTTEN: &str = "forgotten";

/// The `type` of the agent's title for its session (protocol 7): the caller's list shows it
/// until a rename ([`title::from_agent`] says what one may be).
pub const TITLE: &str = "title";

/// The adapter's liveness check of a socket (`docs/agent-protocol.md`, R-pong): exactly these
/// bytes, which the runtime's WebSocket auto-response matches whole ([`crate::liveness`]).
/// `packages/session-agent/src/protocol.ts` holds a copy (tests/js/worker/wire_constants.test.mjs).
pub const PING: &str = r#"{"type":"ping"}"#;

/// The agent's answer to [`PING`], exactly these bytes.
pub const PONG: &str = r#"{"type":"pong"}"#;

/// One frame received from the Durable Object.
#[derive(Debug, Clone)]
pub enum Frame {
    /// A new assistant turn starts (`message.create`).
    MessageCreate(MessageCreate),
    /// An incremental text token of a turn (`message.part.text-delta`).
    TextDelta(TurnDelta),
    /// An incremental token of the model's reasoning (`message.part.reasoning-delta`,
    /// extension).
    ReasoningDelta(TurnDelta),
    /// A tool call's lifecycle step (`message.part.tool-update`).
    ToolUpdate(ToolUpdate),
    /// An app's data part (`message.part.data`, protocol 6).
    Data(TurnPart<DataFields>),
    /// A source the turn cites (`message.part.source`, protocol 6).
    Source(TurnPart<Source>),
    /// The agent's metadata of the turn's message (`message.metadata`, protocol 6).
    Metadata(TurnPart<Box<RawValue>>),
    /// A turn ended (`message.finalize`).
    Finalize(Finalize),
    /// The agent is idle and ready for the next prompt (`complete`).
    Complete,
    /// The agent's activity phase (`agentStatus`).
    AgentStatus(AgentStatus),
    /// Legacy text delta of the current turn (`chunk`).
    Chunk(Chunk),
    /// The agent asks the user something (`question`).
    Question(Question),
    /// A session-level error (`error`).
    Error(SessionError),
    /// The session's `init`, of which a turn's stream reads only the protocol the agent keeps
    /// (0 when it says none): for the turn's record.
    Init { protocol: u64 },
    /// The session was forgotten (`forgotten`, protocol 7): the answer to the `forget` with
    /// `request_id` on its own socket; on any other, the end of whatever it streams.
    Forgotten { request_id: Option<String> },
    /// The agent's title for the session (`title`, protocol 7), as the list keeps it.
    Title(String),
    /// Any other frame (`message`, `status`, domain events, future types).
    Other,
}

impl Frame {
    /// The turn a turn event belongs to; `None` for every other frame.
    pub fn turn_id(&self) -> Option<&str> {
        match self {
            Frame::MessageCreate(f) => Some(&f.turn_id),
            Frame::TextDelta(f) | Frame::ReasoningDelta(f) => Some(&f.turn_id),
            Frame::ToolUpdate(f) => Some(&f.turn_id),
            Frame::Finalize(f) => Some(&f.turn_id),
            Frame::Data(f) => Some(&f.turn_id),
            Frame::Source(f) => Some(&f.turn_id),
            Frame::Metadata(f) => Some(&f.turn_id),
            _ => None,
        }
    }
}

/// `message.create`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageCreate {
    pub turn_id: String,
    #[serde(default)]
    pub channel_type: Option<String>,
    /// Extension: the `requestId` of the prompt that started this turn.
    #[serde(default)]
    pub request_id: Option<String>,
    /// The turn's user message as `init` lists it (protocol 5), kept as the agent wrote it: read
    /// by the session feed only ([`crate::session::parse_message`]).
    #[serde(default)]
    pub message: Option<Box<RawValue>>,
}

impl MessageCreate {
    /// Whether the turn runs on the default channel: no `channelType`, or `web`.
    pub fn is_default_channel(&self) -> bool {
        matches!(self.channel_type.as_deref(), None | Some("web"))
    }
}

/// `message.part.text-delta` and `message.part.reasoning-delta`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnDelta {
    pub turn_id: String,
    pub delta: String,
}

/// Where a tool call is in its lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolStatus {
    Pending,
    Running,
    Completed,
    Error,
}

impl ToolStatus {
    /// Still open: `pending` or `running`, not yet `completed` or `error`.
    pub fn is_open(self) -> bool {
        matches!(self, ToolStatus::Pending | ToolStatus::Running)
    }
}

/// `message.part.tool-update`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolUpdate {
    pub turn_id: String,
    pub call_id: String,
    pub tool_name: String,
    pub status: ToolStatus,
    /// The tool's input, kept as the agent wrote it (never rebuilt as a tree).
    #[serde(default)]
    pub args: Option<Box<RawValue>>,
    /// The tool's output, kept as the agent wrote it.
    #[serde(default)]
    pub result: Option<Box<RawValue>>,
    /// The failure text of a tool in `error`; agents send a string or `{ message }`.
    #[serde(default)]
    pub error: Option<Value>,
}

/// Why a turn ended. An unknown reason reads as [`FinishReason::EndTurn`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    EndTurn,
    Error,
    Canceled,
    #[serde(other)]
    Unknown,
}

/// `message.finalize`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finalize {
    pub turn_id: String,
    pub reason: FinishReason,
    #[serde(default)]
    pub final_text: Option<String>,
    /// What failed, kept as `usage` is: read only when the turn failed ([`Finalize::error_text`],
    /// [`Finalize::error_code`]).
    #[serde(default)]
    pub error: Option<Box<RawValue>>,
    /// Tokens the turn used (protocol 3, [`read_usage`]), kept as the agent wrote it: read
    /// once, at the turn's end ([`read_raw_usage`]), which keeps the frame's parser small.
    #[serde(default)]
    pub usage: Option<Box<RawValue>>,
    /// The model that answered (protocol 3, [`read_model`]), kept as `usage` is.
    #[serde(default)]
    pub model: Option<Box<RawValue>>,
}

impl Finalize {
    /// The text of the turn's `error` ([`error_text`]).
    pub fn error_text(&self) -> Option<String> {
        error_text(&read_raw(self.error.as_deref())?)
    }

    /// The `code` of a failed turn's `error`, when it is an object that gives one.
    pub fn error_code(&self) -> Option<String> {
        read_raw(self.error.as_deref())?
            .get("code")
            .and_then(read_code)
    }
}

/// `agentStatus`: the agent's phase, with an optional free-form `detail`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct AgentStatus {
    pub status: String,
    #[serde(default)]
    pub detail: Option<Value>,
}

/// `chunk`: legacy text delta.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Chunk {
    pub content: String,
}

/// `question`: the agent waits for the user's answer. In a message snapshot (`init`) the
/// same shape is a `question` part, with `answer` once the user answered.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Question {
    pub question_id: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Value>,
    /// The tool call of the turn the question gates (an approval question, protocol 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
}

/// `error`: a session-level failure, with its text in `message` or `error`. The fields are kept
/// as the agent wrote them, read when the error is handled ([`read_raw`]).
#[derive(Debug, Clone, Deserialize)]
pub struct SessionError {
    /// What kind of error (`busy`, `question_not_pending`, an agent's own: R-error-code).
    #[serde(default)]
    pub code: Option<Box<RawValue>>,
    #[serde(default)]
    pub message: Option<Box<RawValue>>,
    #[serde(default)]
    pub error: Option<Box<RawValue>>,
}

impl SessionError {
    /// The error's text, if the agent gave one.
    pub fn text(&self) -> Option<String> {
        let text = |raw: &Option<Box<RawValue>>| error_text(&read_raw(raw.as_deref())?);
        text(&self.message).or_else(|| text(&self.error))
    }

    /// The error's `code`, if it gives one ([`read_code`]).
    pub fn code(&self) -> Option<String> {
        read_code(&read_raw(self.code.as_deref())?)
    }
}

/// Parses one WebSocket text message.
///
/// The `type` is read first — straight from the text when the frame starts with it, as
/// agents write it, else in a tag-only pass — and then the frame is parsed once, into the
/// struct of that type: no intermediate tree of the whole frame is built.
pub fn parse_frame(text: &str) -> Result<Frame, FrameError> {
    parse_as(text, &frame_type(text)?)
}

/// A frame as the stream reads it: a [`PlainDelta`] when [`read_plain_delta`] reads it, else
/// what [`parse_frame`] makes of it.
#[derive(Debug)]
pub enum FrameRead<'a> {
    Plain(PlainDelta<'a>),
    Parsed(Frame),
}

/// [`read_plain_delta`], then [`parse_frame`] for a frame it declines, with the look at the
/// frame's ends for its type taken once: a frame that is no delta is parsed as the type the look
/// found.
pub fn read_frame(text: &str) -> Result<FrameRead<'_>, FrameError> {
    match plain::glance(text) {
        plain::Glance::Other(kind) => parse_as(text, kind).map(FrameRead::Parsed),
        plain::Glance::MaybeDelta => match plain::read_members(text) {
            Some(delta) => Ok(FrameRead::Plain(delta)),
            None => parse_frame(text).map(FrameRead::Parsed),
        },
    }
}

impl PlainDelta<'_> {
    /// The frame [`parse_frame`] reads from the same text.
    pub fn to_frame(self) -> Frame {
        let delta = TurnDelta {
            turn_id: self.turn_id.to_owned(),
            delta: self.delta.to_owned(),
        };
        match self.kind {
            DeltaKind::Text => Frame::TextDelta(delta),
            DeltaKind::Reasoning => Frame::ReasoningDelta(delta),
        }
    }
}

/// Parses `text` as a frame of type `kind`.
fn parse_as(text: &str, kind: &str) -> Result<Frame, FrameError> {
    Ok(match kind {
        "message.create" => Frame::MessageCreate(typed(text)?),
        "message.part.text-delta" => Frame::TextDelta(typed(text)?),
        "message.part.reasoning-delta" => Frame::ReasoningDelta(typed(text)?),
        "message.part.tool-update" => Frame::ToolUpdate(typed(text)?),
        "message.finalize" => Frame::Finalize(typed(text)?),
        "message.part.data" => Frame::Data(extras::parse_data(text)?),
        "message.part.source" => Frame::Source(extras::parse_source(text)?),
        "message.metadata" => Frame::Metadata(extras::parse_metadata(text)?),
        "agentStatus" => Frame::AgentStatus(typed(text)?),
        "chunk" => Frame::Chunk(typed(text)?),
        "question" => Frame::Question(typed(text)?),
        "error" => Frame::Error(typed(text)?),
        FORGOTTEN => {
            #[derive(Deserialize)]
            #[serde(rename_all = "camelCase")]
            struct Forgotten {
                #[serde(default)]
                request_id: Option<Value>,
            }
            let forgotten: Forgotten = typed(text)?;
            Frame::Forgotten {
                request_id: forgotten
                    .request_id
                    .as_ref()
                    .and_then(Value::as_str)
                    .map(str::to_owned),
            }
        }
        TITLE => {
            #[derive(Deserialize)]
            struct Titled<'a> {
                #[serde(borrow)]
                title: Cow<'a, str>,
            }
            let titled: Titled<'_> = typed(text)?;
            let title = title::from_agent(&titled.title).ok_or_else(title::not_a_title)?;
            Frame::Title(title)
        }
        INIT => {
            #[derive(Deserialize)]
            struct Head {
                #[serde(default)]
                protocol: Option<Value>,
            }
            let head: Head = typed(text)?;
            let protocol = head.protocol.as_ref().and_then(Value::as_u64);
            Frame::Init {
                protocol: protocol.unwrap_or(0),
            }
        }
        other => {
            // Still a whole JSON value: a frame cut short is malformed, not ignored.
            typed::<IgnoredAny>(text)?;
            if other == "complete" {
                Frame::Complete
            } else {
                Frame::Other
            }
        }
    })
}

/// The `type` of a frame, without parsing the rest of it: straight from the text when the
/// frame starts with it, else in a tag-only pass. Not a JSON object with a string `type`: an
/// error.
pub fn frame_type(text: &str) -> Result<Cow<'_, str>, FrameError> {
    #[derive(Deserialize)]
    struct Tag<'a> {
        #[serde(rename = "type", borrow)]
        kind: Cow<'a, str>,
    }
    Ok(match sniff_type(text) {
        Some(kind) => Cow::Borrowed(kind),
        None => typed::<Tag<'_>>(text)?.kind,
    })
}

/// The human text of an error value: a non-empty string, or an object's `message` string.
pub fn error_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Object(map) => map.get("message").and_then(error_text),
        _ => None,
    }
}

#[cfg(test)]
#[path = "v2_tests.rs"]
mod tests;
