//! What a client sends the demo agent (`docs/agent-protocol.md`, "Adapter → agent"), read
//! tolerantly: a frame that is not JSON, of another type, or missing what its type needs is
//! [`ClientFrame::Other`], which the agent ignores.

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
        _ => ClientFrame::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prompts_keep_their_usable_attachments() {
        let frame = json!({"type": "prompt", "content": "hi", "requestId": "r1", "onDisconnect": "abort", "attachments": [
            {"mediaType": "image/png", "url": "data:,x", "filename": "a.png"},
            {"url": "no media type"},
            7,
        ]});
        assert_eq!(
            parse(&frame.to_string()),
            ClientFrame::Prompt(Prompt {
                content: "hi".into(),
                request_id: Some("r1".into()),
                attachments: vec![Attachment {
                    media_type: "image/png".into(),
                    url: "data:,x".into(),
                    filename: Some("a.png".into()),
                }],
                on_disconnect: Some(OnDisconnect::Abort),
                message_id: None,
                branch: None,
            })
        );
        assert_eq!(
            parse(r#"{"type":"prompt","content":5,"attachments":{},"onDisconnect":"later"}"#),
            ClientFrame::Prompt(Prompt {
                content: String::new(),
                request_id: None,
                attachments: Vec::new(),
                on_disconnect: None,
                message_id: None,
                branch: None,
            })
        );
    }

    #[test]
    fn prompts_say_where_their_message_goes() {
        let frame = r#"{"type":"prompt","content":"x","messageId":"u2","branch":["u1","a1"]}"#;
        let ClientFrame::Prompt(prompt) = parse(frame) else {
            panic!("not a prompt");
        };
        assert_eq!(prompt.message_id.as_deref(), Some("u2"));
        assert_eq!(prompt.branch, Some(vec!["u1".to_owned(), "a1".to_owned()]));
        // Of another shape: as if absent.
        for frame in [
            r#"{"type":"prompt","messageId":"","branch":["u1",2]}"#,
            r#"{"type":"prompt","messageId":7,"branch":"u1"}"#,
        ] {
            let ClientFrame::Prompt(prompt) = parse(frame) else {
                panic!("not a prompt");
            };
            assert_eq!((prompt.message_id, prompt.branch), (None, None), "{frame}");
        }
    }

    #[test]
    fn aborts_and_answers() {
        assert_eq!(
            parse(r#"{"type":"abort"}"#),
            ClientFrame::Abort { request_id: None }
        );
        assert_eq!(
            parse(r#"{"type":"abort","requestId":"r"}"#),
            ClientFrame::Abort {
                request_id: Some("r".into())
            }
        );
        assert_eq!(
            parse(
                r#"{"type":"answer","questionId":"q","answer":{"a":[1]},"onDisconnect":"detach"}"#
            ),
            ClientFrame::Answer {
                question_id: "q".into(),
                answer: json!({"a": [1]}),
                on_disconnect: Some(OnDisconnect::Detach),
            }
        );
        assert_eq!(
            parse(r#"{"type":"answer","questionId":"q"}"#),
            ClientFrame::Answer {
                question_id: "q".into(),
                answer: Value::Null,
                on_disconnect: None,
            }
        );
    }

    #[test]
    fn anything_else_is_ignored() {
        for text in [
            "",
            "nope",
            "[1]",
            r#"{"type":"answer","answer":"yes"}"#,
            r#"{"type":"answer","questionId":3}"#,
            r#"{"type":"hello"}"#,
            r#"{"content":"no type"}"#,
        ] {
            assert_eq!(parse(text), ClientFrame::Other, "{text}");
        }
    }
}
