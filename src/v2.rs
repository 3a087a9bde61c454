//! The SessionAgent V2 WebSocket protocol: frames the agent sends, frames the adapter sends.
//!
//! Parsing is tolerant, as `shared/protocol/session-agent.md` demands: an unknown `type`
//! parses to [`Frame::Other`] and unknown fields are ignored. A frame that is not a JSON
//! object with a string `type`, or a known frame whose fields have the wrong shape, is a
//! [`FrameError`]: the caller skips and logs it; nothing panics.

use std::borrow::Cow;

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;

/// The `type` of the hydration frame a SessionAgent sends first on every socket
/// ([`crate::session::parse_init`] reads it; [`parse_frame`] leaves it as [`Frame::Other`]).
pub const INIT: &str = "init";

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
    /// Any other frame (`init`, `message`, `status`, domain events, future types).
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
            _ => None,
        }
    }
}

/// `message.create`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MessageCreate {
    pub turn_id: String,
    #[serde(default)]
    pub channel_type: Option<String>,
    /// Extension: the `requestId` of the prompt that started this turn.
    #[serde(default)]
    pub request_id: Option<String>,
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
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finalize {
    pub turn_id: String,
    pub reason: FinishReason,
    #[serde(default)]
    pub final_text: Option<String>,
    #[serde(default)]
    pub error: Option<Value>,
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Value>,
}

/// `error`: a session-level failure, with its text in `message` or `error`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SessionError {
    #[serde(default)]
    pub message: Option<Value>,
    #[serde(default)]
    pub error: Option<Value>,
}

impl SessionError {
    /// The error's text, if the agent gave one.
    pub fn text(&self) -> Option<String> {
        self.message
            .as_ref()
            .and_then(error_text)
            .or_else(|| self.error.as_ref().and_then(error_text))
    }
}

/// A frame that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameError(pub String);

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses one WebSocket text message.
///
/// The `type` is read first — straight from the text when the frame starts with it, as
/// agents write it, else in a tag-only pass — and then the frame is parsed once, into the
/// struct of that type: no intermediate tree of the whole frame is built.
pub fn parse_frame(text: &str) -> Result<Frame, FrameError> {
    let kind = frame_type(text)?;
    Ok(match kind.as_ref() {
        "message.create" => Frame::MessageCreate(typed(text)?),
        "message.part.text-delta" => Frame::TextDelta(typed(text)?),
        "message.part.reasoning-delta" => Frame::ReasoningDelta(typed(text)?),
        "message.part.tool-update" => Frame::ToolUpdate(typed(text)?),
        "message.finalize" => Frame::Finalize(typed(text)?),
        "agentStatus" => Frame::AgentStatus(typed(text)?),
        "chunk" => Frame::Chunk(typed(text)?),
        "question" => Frame::Question(typed(text)?),
        "error" => Frame::Error(typed(text)?),
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

/// Parses `text` as `T`, any serde error becoming a [`FrameError`].
pub(crate) fn typed<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, FrameError> {
    serde_json::from_str(text).map_err(|e| FrameError(e.to_string()))
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
    let sniffed = text
        .strip_prefix(r#"{"type":""#)
        .and_then(|rest| rest.split_once('"'))
        .map(|(kind, _)| kind)
        .filter(|kind| !kind.contains('\\'));
    Ok(match sniffed {
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

/// A file sent with a prompt (and a `file` part of a user message in `init`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    pub media_type: String,
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
enum Outgoing<'a> {
    #[serde(rename_all = "camelCase")]
    Prompt {
        content: &'a str,
        request_id: &'a str,
        #[serde(skip_serializing_if = "<[Attachment]>::is_empty")]
        attachments: &'a [Attachment],
    },
    #[serde(rename_all = "camelCase")]
    Abort {
        #[serde(skip_serializing_if = "Option::is_none")]
        request_id: Option<&'a str>,
    },
    #[serde(rename_all = "camelCase")]
    Answer {
        question_id: &'a str,
        answer: &'a Value,
    },
}

fn to_json(frame: &Outgoing<'_>) -> String {
    // Serialising these plain structs to a String cannot fail: no maps with
    // non-string keys, no failing Serialize impls.
    serde_json::to_string(frame).unwrap_or_default()
}

/// The `prompt` frame the adapter sends once per POST, right after the socket opens.
pub fn prompt_frame(content: &str, request_id: &str, attachments: &[Attachment]) -> String {
    to_json(&Outgoing::Prompt {
        content,
        request_id,
        attachments,
    })
}

/// The `abort` frame: of the turn the prompt with `request_id` started (the HTTP client went
/// away), or, without one, of whatever turn is in flight (an explicit stop).
pub fn abort_frame(request_id: Option<&str>) -> String {
    to_json(&Outgoing::Abort { request_id })
}

/// The `answer` frame (extension): `answer` to the pending question `question_id`, any JSON
/// the client sent.
pub fn answer_frame(question_id: &str, answer: &Value) -> String {
    to_json(&Outgoing::Answer {
        question_id,
        answer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_every_known_frame() {
        let create = parse_frame(
            r#"{"type":"message.create","turnId":"t1","channelType":"web","requestId":"r1","x":1}"#,
        )
        .unwrap();
        let Frame::MessageCreate(create) = create else {
            panic!("not a message.create")
        };
        assert_eq!(
            create,
            MessageCreate {
                turn_id: "t1".into(),
                channel_type: Some("web".into()),
                request_id: Some("r1".into()),
            }
        );
        let tool = parse_frame(
            r#"{"type":"message.part.tool-update","turnId":"t","callId":"c","toolName":"ls","status":"running","args":{"p":1}}"#,
        )
        .unwrap();
        let Frame::ToolUpdate(tool) = tool else {
            panic!("not a tool update")
        };
        assert_eq!(tool.status, ToolStatus::Running);
        assert_eq!(
            tool.args.map(|a| a.get().to_owned()).as_deref(),
            Some(r#"{"p":1}"#)
        );
        assert!(matches!(
            parse_frame(r#"{"type":"complete"}"#),
            Ok(Frame::Complete)
        ));
        let fin = parse_frame(r#"{"type":"message.finalize","turnId":"t","reason":"later"}"#);
        assert!(matches!(fin, Ok(Frame::Finalize(f)) if f.reason == FinishReason::Unknown));
    }

    #[test]
    fn the_type_may_stand_anywhere() {
        let late = r#"{"turnId":"t","delta":"x","type":"message.part.text-delta"}"#;
        let spaced = r#" { "type" : "message.part.text-delta", "turnId":"t","delta":"x"}"#;
        let escaped = r#"{"type":"message.part.text\u002ddelta","turnId":"t","delta":"x"}"#;
        for text in [late, spaced, escaped] {
            assert!(
                matches!(parse_frame(text), Ok(Frame::TextDelta(_))),
                "{text}"
            );
        }
        assert!(matches!(
            parse_frame(r#"{"x":1,"type":"complete"}"#),
            Ok(Frame::Complete)
        ));
    }

    #[test]
    fn unknown_types_are_other_and_garbage_is_an_error() {
        assert!(matches!(
            parse_frame(r#"{"type":"git-state","x":[1]}"#),
            Ok(Frame::Other)
        ));
        assert!(matches!(
            parse_frame(r#"{"type":"init","messages":[]}"#),
            Ok(Frame::Other)
        ));
        for bad in [
            "",
            "not json",
            "[1,2]",
            "42",
            r#"{"no":"type"}"#,
            r#"{"type":7}"#,
            r#"{"type":"message.part.text-delta","turnId":"t","delta":5}"#,
            r#"{"type":"message.part.tool-update","turnId":"t","callId":"c","toolName":"x","status":"weird"}"#,
            r#"{"type":"complete""#,
            r#"{"type":"git-state",}"#,
            r#"{"type":"message.create"}"#,
        ] {
            assert!(parse_frame(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn turn_events_name_their_turn() {
        for (text, turn) in [
            (r#"{"type":"message.create","turnId":"a"}"#, Some("a")),
            (
                r#"{"type":"message.part.reasoning-delta","turnId":"b","delta":""}"#,
                Some("b"),
            ),
            (
                r#"{"type":"message.finalize","turnId":"c","reason":"end_turn"}"#,
                Some("c"),
            ),
            (r#"{"type":"complete"}"#, None),
            (r#"{"type":"chunk","content":"x"}"#, None),
        ] {
            assert_eq!(parse_frame(text).unwrap().turn_id(), turn, "{text}");
        }
    }

    #[test]
    fn default_channel_is_absent_or_web() {
        let mk = |c: Option<&str>| MessageCreate {
            turn_id: "t".into(),
            channel_type: c.map(Into::into),
            request_id: None,
        };
        assert!(mk(None).is_default_channel());
        assert!(mk(Some("web")).is_default_channel());
        assert!(!mk(Some("slack")).is_default_channel());
    }

    #[test]
    fn error_text_reads_strings_and_messages() {
        assert_eq!(error_text(&json!("boom")), Some("boom".into()));
        assert_eq!(error_text(&json!({"message": "bad"})), Some("bad".into()));
        assert_eq!(error_text(&json!("  ")), None);
        assert_eq!(error_text(&json!(3)), None);
        let e = SessionError {
            message: None,
            error: Some(json!("x")),
        };
        assert_eq!(e.text(), Some("x".into()));
    }

    #[test]
    fn outgoing_frames_are_exact() {
        assert_eq!(
            prompt_frame("hi \"you\"", "r1", &[]),
            r#"{"type":"prompt","content":"hi \"you\"","requestId":"r1"}"#
        );
        let files = [Attachment {
            media_type: "image/png".into(),
            url: "data:image/png;base64,AA==".into(),
            filename: None,
        }];
        assert_eq!(
            prompt_frame("x", "r", &files),
            r#"{"type":"prompt","content":"x","requestId":"r","attachments":[{"mediaType":"image/png","url":"data:image/png;base64,AA=="}]}"#
        );
        assert_eq!(
            abort_frame(Some("r9")),
            r#"{"type":"abort","requestId":"r9"}"#
        );
        assert_eq!(abort_frame(None), r#"{"type":"abort"}"#);
        assert_eq!(
            answer_frame("q\"1", &json!({"pick": ["a", 1]})),
            r#"{"type":"answer","questionId":"q\"1","answer":{"pick":["a",1]}}"#
        );
    }
}
