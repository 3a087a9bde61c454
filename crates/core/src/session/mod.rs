//! A session's messages as a SessionAgent's `init` frame carries them: the types, tolerant
//! parsing, and which assistant message is the turn in flight.
//!
//! `docs/agent-protocol.md` ("Sessions") fixes the shape: `init` is the first frame on
//! every socket; its `messages` are the history, oldest first; an assistant message with no
//! `finish` part is the turn in flight, its `id` the live `turnId`. Parsing is as tolerant as
//! [`crate::v2`]'s: a part or message of an unknown or broken shape is skipped, never an error
//! for the whole snapshot.
//!
//! [`crate::history`] makes the finished messages AI SDK `UIMessage`s (`GET …/messages`); the
//! demo agent's `record` grows a message from the turn events it sends.

pub mod when;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::v2::{frame_type, typed, Attachment, FinishReason, FrameError, Question, ToolStatus};
use crate::v2::{parse_data_part, parse_metadata_part, parse_source_part, DataFields, Source};
use crate::v2::{read_raw_model, read_raw_usage, Usage};
use crate::v2::{ToolUpdate, HISTORY, INIT};

/// Who wrote a message. Roles other than these two are kept as [`Role::Other`] and skipped by
/// every reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    #[serde(other)]
    Other,
}

/// One message of the session's history.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    pub id: String,
    /// Its name in the agent's store (protocol 5, `ref`: [`is_ref`]); `None` from an older agent,
    /// or when it is no ref.
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The `ref` of the message it follows (protocol 5): `Some(None)` for a conversation's first
    /// message (`"parent": null`), `None` when the agent says nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<Option<String>>,
    /// The refs of its siblings and its own, oldest first, when it has siblings (protocol 5).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub siblings: Vec<String>,
    pub role: Role,
    pub parts: Vec<Part>,
    /// When the message was written (a user's) or its turn started (an assistant's): ms since
    /// the epoch, or an RFC 3339 string ([`when`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<Value>,
    /// When its turn ended (an assistant's, once finished), in the same forms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completed_at: Option<Value>,
}

/// One part of a message (`MessagePart` of the protocol page). Read with [`Part::parse`].
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Part {
    /// Text; `streaming` while the turn is still writing it.
    Text {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        streaming: Option<bool>,
    },
    /// The model's thinking (`docs/agent-protocol.md`, `init`).
    Reasoning { text: String },
    /// A tool call in its latest state.
    ToolCall(ToolCallPart),
    /// The turn ended: the message is complete. `usage` and `model` as its `message.finalize`
    /// reported them (protocol 3), read as leniently ([`crate::v2::read_usage`]).
    Finish {
        reason: FinishReason,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model: Option<String>,
    },
    /// A failure the agent recorded in the message.
    Error {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<Value>,
    },
    /// A question to the user (extension), with `answer` once answered.
    Question(Question),
    /// A file sent with a user message.
    File(Attachment),
    /// An app's data part (protocol 6), as its last `message.part.data` of that name and id left
    /// it; never a transient one.
    Data(DataFields),
    /// A source the turn cited (protocol 6).
    Source(Source),
    /// Metadata the agent gave the message (protocol 6, `message.metadata`): the message's
    /// metadata is each of them merged in order ([`crate::v2::merge_metadata`]).
    Metadata { metadata: Box<RawValue> },
}

/// `ToolCallPart`: a tool call as the snapshot has it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallPart {
    pub call_id: String,
    pub tool_name: String,
    pub status: ToolStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Box<RawValue>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Box<RawValue>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
}

#[derive(Deserialize)]
struct TextFields {
    text: String,
    #[serde(default)]
    streaming: Option<bool>,
}

#[derive(Deserialize)]
struct FinishFields {
    reason: FinishReason,
    /// Kept raw, as the finalize's ([`crate::v2::Finalize`]).
    #[serde(default)]
    usage: Option<Box<RawValue>>,
    #[serde(default)]
    model: Option<Box<RawValue>>,
}

#[derive(Deserialize)]
struct ErrorFields {
    #[serde(default)]
    message: Option<Value>,
}

impl Part {
    /// Parses one part: its `type` first, then its fields straight into that type's struct (an
    /// internally tagged enum would buffer the part, which loses the raw JSON of tool `args`
    /// and `result`). An unknown `type` is an error, which the caller skips.
    pub fn parse(text: &str) -> Result<Part, FrameError> {
        Ok(match frame_type(text)?.as_ref() {
            "text" => {
                let TextFields { text, streaming } = typed(text)?;
                Part::Text { text, streaming }
            }
            "reasoning" => Part::Reasoning {
                text: typed::<TextFields>(text)?.text,
            },
            "tool-call" => Part::ToolCall(typed(text)?),
            "finish" => {
                let FinishFields {
                    reason,
                    usage,
                    model,
                } = typed(text)?;
                Part::Finish {
                    reason,
                    usage: read_raw_usage(usage.as_deref()),
                    model: read_raw_model(model.as_deref()),
                }
            }
            "error" => Part::Error {
                message: typed::<ErrorFields>(text)?.message,
            },
            "question" => Part::Question(typed(text)?),
            "file" => Part::File(typed(text)?),
            "data" => Part::Data(parse_data_part(text)?),
            "source" => Part::Source(parse_source_part(text)?),
            "metadata" => Part::Metadata {
                metadata: parse_metadata_part(text)?,
            },
            other => return Err(FrameError(format!("unknown part type {other:?}"))),
        })
    }
}

impl ToolCallPart {
    /// The tool update that brings a call from nothing to this state, in turn `turn_id`.
    pub fn to_update(&self, turn_id: &str) -> ToolUpdate {
        ToolUpdate {
            turn_id: turn_id.to_owned(),
            call_id: self.call_id.clone(),
            tool_name: self.tool_name.clone(),
            status: self.status,
            args: self.args.clone(),
            result: self.result.clone(),
            error: self.error.clone(),
        }
    }
}

impl Message {
    /// Whether the message is a turn in flight: the assistant's, without a `finish` part.
    fn is_in_flight(&self) -> bool {
        self.role == Role::Assistant && !self.is_finished()
    }

    /// Whether the message is complete: it has a `finish` part.
    pub fn is_finished(&self) -> bool {
        self.parts.iter().any(|p| matches!(p, Part::Finish { .. }))
    }

    /// How the message's turn ended, when it has.
    pub fn finish_reason(&self) -> Option<FinishReason> {
        self.parts.iter().find_map(|p| match p {
            Part::Finish { reason, .. } => Some(*reason),
            _ => None,
        })
    }

    /// The question waiting for its answer, if the message has one.
    pub fn pending_question(&self) -> Option<&Question> {
        self.parts.iter().find_map(|p| match p {
            Part::Question(q) if q.answer.is_none() => Some(q),
            _ => None,
        })
    }
}

/// The `init` frame: the session's history.
#[derive(Debug, Clone, Default)]
pub struct Init {
    pub messages: Vec<Message>,
    /// The protocol the agent says it keeps (`"protocol": 1`), 0 when it says none. From 1 on,
    /// `init` lists the turn in flight whenever one runs (docs/agent-protocol.md, "Versions").
    pub protocol: u64,
    /// Messages and parts skipped because their shape was unusable (for the log).
    pub skipped: usize,
}

impl Init {
    /// Whether this `init` can be trusted to list the turn in flight: the agent says protocol 1
    /// or later, or it lists one. Otherwise no turn in flight in it may mean "idle" or "not
    /// listed", and the adapter lets the agent decide (forwards a stop's `abort`, an answer).
    pub fn lists_in_flight(&self) -> bool {
        self.protocol >= 1 || self.in_flight().is_some()
    }

    /// The turn in flight: the last assistant message without a `finish` part.
    pub fn in_flight(&self) -> Option<&Message> {
        in_flight(&self.messages)
    }
}

/// The turn in flight of `messages` (an `init`'s, a page's): the last assistant message without a
/// `finish` part.
pub fn in_flight(messages: &[Message]) -> Option<&Message> {
    messages.iter().rev().find(|m| m.is_in_flight())
}

impl Init {
    /// The turn in flight, taken out of the `init` ([`Init::in_flight`]).
    pub fn take_in_flight(mut self) -> Option<Message> {
        let at = self.messages.iter().rposition(Message::is_in_flight)?;
        Some(self.messages.swap_remove(at))
    }
}

/// A message as it arrives, before its parts are read one by one.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawMessage<'a> {
    id: String,
    #[serde(default, rename = "ref")]
    key: Option<Value>,
    /// Absent, `null` or a string: read by [`read_parent`].
    #[serde(default, deserialize_with = "present")]
    parent: Option<Value>,
    #[serde(default)]
    siblings: Option<Value>,
    role: Role,
    #[serde(default, borrow)]
    parts: Vec<&'a RawValue>,
    #[serde(default)]
    created_at: Option<Value>,
    #[serde(default)]
    completed_at: Option<Value>,
}

#[derive(Deserialize)]
struct RawInit<'a> {
    #[serde(default, borrow)]
    messages: Vec<&'a RawValue>,
    /// Any JSON: only a non-negative integer counts.
    #[serde(default)]
    protocol: Option<Value>,
}

/// Parses an `init` frame. Not an `init`, or not a JSON object with a `messages` array (when
/// present): an error. A message or part that does not parse is skipped and counted.
pub fn parse_init(text: &str) -> Result<Init, FrameError> {
    if frame_type(text)? != INIT {
        return Err(FrameError("not an init frame".into()));
    }
    let raw: RawInit<'_> = typed(text)?;
    let mut init = Init {
        protocol: raw.protocol.as_ref().and_then(Value::as_u64).unwrap_or(0),
        ..Init::default()
    };
    init.messages = parse_messages(&raw.messages, &mut init.skipped);
    Ok(init)
}

/// A `history` frame (protocol 5): the page a `history` frame asked for.
#[derive(Debug, Clone, Default)]
pub struct HistoryPage {
    /// The `requestId` of the `history` frame it answers.
    pub request_id: Option<String>,
    /// The page's messages, oldest first.
    pub messages: Vec<Message>,
    /// Messages and parts skipped because their shape was unusable (for the log).
    pub skipped: usize,
}

impl HistoryPage {
    /// The ref of the message before the page, when the branch goes on before it: the first
    /// message names a parent. What `?before=` asks for next.
    pub fn older(&self) -> Option<&str> {
        let first = self.messages.first()?;
        first.parent.as_ref()?.as_ref()?;
        first.key.as_deref()
    }
}

/// Parses a `history` frame: a JSON object with `type` `history`, its `requestId` and a
/// `messages` array; a message or part that does not parse is skipped and counted.
pub fn parse_history(text: &str) -> Result<HistoryPage, FrameError> {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct RawHistory<'a> {
        #[serde(default)]
        request_id: Option<Value>,
        #[serde(borrow)]
        messages: Vec<&'a RawValue>,
    }
    if frame_type(text)? != HISTORY {
        return Err(FrameError("not a history frame".into()));
    }
    let raw: RawHistory<'_> = typed(text)?;
    let mut page = HistoryPage {
        request_id: raw.request_id.and_then(|id| id.as_str().map(str::to_owned)),
        ..HistoryPage::default()
    };
    page.messages = parse_messages(&raw.messages, &mut page.skipped);
    Ok(page)
}

/// Parses one message (`message.create`'s `message`, protocol 5). Its parts that do not parse
/// are left out.
pub fn parse_message(text: &str) -> Result<Message, FrameError> {
    let mut skipped = 0;
    let raw: RawMessage<'_> = typed(text)?;
    Ok(message_of(raw, &mut skipped))
}

/// The messages of `raw`, each with the parts that parse; what does not is counted in `skipped`.
fn parse_messages(raw: &[&RawValue], skipped: &mut usize) -> Vec<Message> {
    let mut messages = Vec::with_capacity(raw.len());
    for message in raw {
        match typed::<RawMessage<'_>>(message.get()) {
            Ok(message) => messages.push(message_of(message, skipped)),
            Err(_) => *skipped += 1,
        }
    }
    messages
}

fn message_of(message: RawMessage<'_>, skipped: &mut usize) -> Message {
    let mut parts = Vec::with_capacity(message.parts.len());
    for part in message.parts {
        match Part::parse(part.get()) {
            Ok(part) => parts.push(part),
            Err(_) => *skipped += 1,
        }
    }
    let key = message.key.as_ref().and_then(read_ref);
    let siblings = match message.siblings {
        Some(Value::Array(list)) => list.iter().map(read_ref).collect::<Option<Vec<_>>>(),
        _ => None,
    };
    Message {
        id: message.id,
        parent: message.parent.as_ref().and_then(read_parent),
        // Siblings name themselves among them: a list without its own message's ref is none.
        siblings: siblings
            .filter(|list| list.len() > 1 && key.as_ref().is_some_and(|k| list.contains(k)))
            .unwrap_or_default(),
        key,
        role: message.role,
        parts,
        created_at: message.created_at,
        completed_at: message.completed_at,
    }
}

/// The largest `ref` a message may have, in bytes: the session id's bound, so that a ref fits in
/// a URL's query as plainly as a session id fits in its path.
pub const MAX_REF_BYTES: usize = 128;

/// Whether `value` can be a message's `ref` (protocol 5): 1 to [`MAX_REF_BYTES`] characters of
/// `[A-Za-z0-9._:~-]` (unreserved in a URL, so a ref goes into a query as it is).
pub fn is_ref(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= MAX_REF_BYTES
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'~' | b'-'))
}

/// A ref, when `value` is one ([`is_ref`]).
fn read_ref(value: &Value) -> Option<String> {
    value.as_str().filter(|s| is_ref(s)).map(str::to_owned)
}

/// A message's `parent`: `null` is the root (`Some(None)`), a ref the message it follows; any
/// other value is no word on it.
fn read_parent(value: &Value) -> Option<Option<String>> {
    match value {
        Value::Null => Some(None),
        other => read_ref(other).map(Some),
    }
}

/// A field present in the JSON, `null` included (serde's default reads `null` as absent).
fn present<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
