//! What a client sends the demo agent (`docs/agent-protocol.md`, "Adapter → agent": `prompt`,
//! `abort`, `answer`, `history`, `forget`), read tolerantly: a frame that is not JSON, of another type, or
//! missing what its type needs is [`ClientFrame::Other`], which the agent ignores.

use serde_json::Value;

use crate::v2::{Attachment, OnDisconnect};

/// A `prompt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// The prompt's text; empty when missing or not a string.
    pub content: String,
    pub request_id: Option<String>,
    /// The attachments of a usable shape (the others are skipped).
    pub attachments: Vec<Attachment>,
    /// What the socket's closing means for the turn; `None` when missing or not a policy (an
    /// older adapter: the closing means nothing).
    pub on_disconnect: Option<OnDisconnect>,
    /// The id the client gave the user message (protocol 4); `None` when missing, empty or not
    /// a string.
    pub message_id: Option<String>,
    /// The ids of the client's messages before it, oldest first (protocol 4); `None` when
    /// missing or not an array of strings (the turn is then appended).
    pub branch: Option<Vec<String>>,
}

/// A `history` frame (protocol 5): one page of one branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryRequest {
    pub request_id: String,
    /// The branch through this message (a `ref`), to its newest descendant.
    pub leaf: Option<String>,
    /// The messages before this one on its branch (an older page). With `leaf` too, it decides:
    /// the messages before it are one branch whatever `leaf` says.
    pub before: Option<String>,
    /// The most messages the page may hold; `None` when missing or not a whole number (the
    /// core's `page` bounds it: 1 to 200).
    pub limit: Option<usize>,
}

/// One frame from a client, as far as the demo cares.
#[derive(Debug, Clone, PartialEq)]
pub enum ClientFrame {
    Prompt(Prompt),
    /// Abort the turn of the prompt with this `requestId`, or, without one, whatever turn runs.
    Abort {
        request_id: Option<String>,
    },
    /// Answer the pending question `question_id` (a missing `answer` reads as `null`).
    Answer {
        question_id: String,
        answer: Value,
        on_disconnect: Option<OnDisconnect>,
    },
    /// Read a page of the tree (a `history` frame without a string `requestId` is
    /// [`ClientFrame::Other`]: its answer could not say which request it answers).
    History(HistoryRequest),
    /// Forget the session (protocol 7; a `forget` without a string `requestId` is
    /// [`ClientFrame::Other`]: its answer could not say which request it answers).
    Forget {
        request_id: String,
    },
    Other,
}

/// Reads one text frame.
pub fn parse(text: &str) -> ClientFrame {
    let Ok(Value::Object(mut frame)) = serde_json::from_str::<Value>(text) else {
        return ClientFrame::Other;
    };
    let field = |name: &str| frame.get(name).and_then(Value::as_str).map(str::to_owned);
    let on_disconnect = field("onDisconnect").and_then(|policy| OnDisconnect::parse(&policy));
    match frame.get("type").and_then(Value::as_str) {
        Some("prompt") => {
            let content = field("content").unwrap_or_default();
            let request_id = field("requestId");
            let message_id = field("messageId").filter(|id| !id.is_empty());
            let branch = frame
                .remove("branch")
                .and_then(|branch| serde_json::from_value(branch).ok());
            let attachments = match frame.remove("attachments") {
                Some(Value::Array(items)) => items
                    .into_iter()
                    .filter_map(|item| serde_json::from_value(item).ok())
                    .collect(),
                _ => Vec::new(),
            };
            ClientFrame::Prompt(Prompt {
                content,
                request_id,
                attachments,
                on_disconnect,
                message_id,
                branch,
            })
        }
        Some("abort") => ClientFrame::Abort {
            request_id: field("requestId"),
        },
        Some("answer") => match field("questionId") {
            Some(question_id) => ClientFrame::Answer {
                question_id,
                answer: frame.remove("answer").unwrap_or(Value::Null),
                on_disconnect,
            },
            None => ClientFrame::Other,
        },
        Some("history") => match field("requestId") {
            Some(request_id) => ClientFrame::History(HistoryRequest {
                request_id,
                leaf: field("leaf"),
                before: field("before"),
                limit: frame
                    .get("limit")
                    .and_then(Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok()),
            }),
            None => ClientFrame::Other,
        },
        Some("forget") => match field("requestId") {
            Some(request_id) => ClientFrame::Forget { request_id },
            None => ClientFrame::Other,
        },
        _ => ClientFrame::Other,
    }
}

#[cfg(test)]
#[path = "client_frame_tests.rs"]
mod tests;
