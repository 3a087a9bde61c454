//! The frames the adapter sends the agent: `prompt` (with, from protocol 4, where its message
//! goes in the conversation), `abort`, `answer`, `forget` (protocol 7; docs/agent-protocol.md,
//! "Adapter → agent"), and the disconnect policy a `prompt` or an `answer` carries.

use serde::Serialize;
use serde_json::Value;

use super::attachment::Attachment;
use crate::json_out;

/// What a client's going away does to the turn it started (`ON_DISCONNECT`, the body's
/// `onDisconnect`, and the `onDisconnect` of the `prompt` or `answer` the adapter sends).
///
/// On the wire it tells the agent what the socket closing means: under `abort`, a socket that
/// closes before the turn ends (with or without an `abort` frame first) stops the turn, so a
/// turn is not left running for nobody when the adapter's request ends without a word (its
/// isolate evicted, a crash, a runtime that cancels it); under `detach`, the turn runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OnDisconnect {
    /// Send the agent `abort`: the turn stops (the default).
    #[default]
    Abort,
    /// Close the socket and send nothing: the turn runs to its end, and a resume shows it.
    Detach,
}

impl OnDisconnect {
    /// Reads `"abort"` or `"detach"`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "abort" => Some(OnDisconnect::Abort),
            "detach" => Some(OnDisconnect::Detach),
            _ => None,
        }
    }

    /// The wire value: `"abort"` or `"detach"`.
    pub fn as_str(self) -> &'static str {
        match self {
            OnDisconnect::Abort => "abort",
            OnDisconnect::Detach => "detach",
        }
    }
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
enum Outgoing<'a> {
    /// Written by hand ([`prompt_frame`]); serde's form is the tests' reference.
    #[cfg(test)]
    #[serde(rename_all = "camelCase")]
    Prompt {
        content: &'a str,
        request_id: &'a str,
        on_disconnect: OnDisconnect,
        #[serde(skip_serializing_if = "Option::is_none")]
        message_id: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        branch: Option<&'a serde_json::value::RawValue>,
        #[serde(skip_serializing_if = "<[Attachment]>::is_empty")]
        attachments: &'a [Attachment],
        #[serde(skip_serializing_if = "Option::is_none")]
        context: Option<&'a serde_json::value::RawValue>,
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
        on_disconnect: OnDisconnect,
    },
    #[serde(rename_all = "camelCase")]
    Forget { request_id: &'a str },
}

fn to_json(frame: &Outgoing<'_>) -> String {
    // Serialising these plain structs to a String cannot fail: no maps with
    // non-string keys, no failing Serialize impls.
    serde_json::to_string(frame).unwrap_or_default()
}

/// The protocol from which an agent takes messages back (docs/agent-protocol.md, "Versions"): a
/// regenerate or an edit is sent only to an agent that says it on its upgrade's answer.
pub const TAKE_BACK_PROTOCOL: u32 = 4;

/// The protocol from which an agent keeps every message as a tree (docs/agent-protocol.md,
/// "Branches"): nothing a take-back replaces is deleted, a prompt needs no check against its
/// `init`, and a branch or an older page can be asked of it.
pub const TREE_PROTOCOL: u32 = 5;

/// The protocol from which an agent forgets a session on the adapter's `forget` frame
/// (docs/agent-protocol.md, "`forget`"): a delete is sent only to an agent that says it in its
/// `init`; an older one cannot be asked (`409 agent_cannot_forget`).
pub const FORGET_PROTOCOL: u32 = 7;

/// The `prompt` frame the adapter sends once per POST, right after the socket opens
/// (docs/agent-protocol.md, `prompt`).
#[derive(Debug, Clone, Copy)]
pub struct Prompt<'a> {
    /// The user's text.
    pub content: &'a str,
    /// The request's id.
    pub request_id: &'a str,
    pub on_disconnect: OnDisconnect,
    /// The id the client gave the user message (protocol 4).
    pub message_id: Option<&'a str>,
    /// The ids of the client's messages before it, oldest first: a JSON array of strings, copied
    /// as it is (protocol 4; the request parser made it, `crate::request::Place::branch`).
    pub branch: Option<&'a str>,
    pub attachments: &'a [Attachment],
    /// The JSON text of the body's `context`, an object the request parser has read
    /// (`crate::request::ChatRequest::context`), copied as it came.
    pub context: Option<&'a str>,
}

impl Prompt<'_> {
    /// The frame: written by hand, as serde writes `Outgoing::Prompt` (the tests compare the
    /// two), since every request sends one.
    pub fn to_frame(&self) -> String {
        // The constant bytes are 69 at most (with "detach"); 50 more cover the new fields' keys
        // and a few escapes.
        let capacity = self.content.len()
            + self.request_id.len()
            + self.message_id.map_or(0, str::len)
            + self.branch.map_or(0, str::len)
            + self.context.map_or(0, str::len)
            + 120;
        json_out::to_string(capacity, |out| {
            json_out::field(out, br#"{"type":"prompt","content":"#, self.content);
            json_out::field(out, br#","requestId":"#, self.request_id);
            out.extend_from_slice(br#","onDisconnect":""#);
            out.extend_from_slice(self.on_disconnect.as_str().as_bytes());
            out.push(b'"');
            if let Some(id) = self.message_id {
                json_out::field(out, br#","messageId":"#, id);
            }
            if let Some(branch) = self.branch {
                out.extend_from_slice(br#","branch":"#);
                out.extend_from_slice(branch.as_bytes());
            }
            if !self.attachments.is_empty() {
                out.extend_from_slice(br#","attachments":"#);
                // Writing into a Vec cannot fail.
                let _ = serde_json::to_writer(&mut *out, self.attachments);
            }
            if let Some(context) = self.context {
                out.extend_from_slice(br#","context":"#);
                out.extend_from_slice(context.as_bytes());
            }
            out.push(b'}');
        })
    }
}

/// The `abort` frame: of the turn the prompt with `request_id` started (the HTTP client went
/// away), or, without one, of whatever turn is in flight (an explicit stop, or the client of an
/// answer's stream went away).
pub fn abort_frame(request_id: Option<&str>) -> String {
    to_json(&Outgoing::Abort { request_id })
}

/// The `answer` frame (extension): `answer` to the pending question `question_id`, any JSON
/// the client sent, and what the answering socket's closing means for the rest of the turn.
pub fn answer_frame(question_id: &str, answer: &Value, on_disconnect: OnDisconnect) -> String {
    to_json(&Outgoing::Answer {
        question_id,
        answer,
        on_disconnect,
    })
}

/// The `forget` frame (protocol 7): the agent keeps nothing of the session, then answers
/// `forgotten` with `request_id`.
pub fn forget_frame(request_id: &str) -> String {
    to_json(&Outgoing::Forget { request_id })
}

#[cfg(test)]
#[path = "outgoing_tests.rs"]
mod tests;
