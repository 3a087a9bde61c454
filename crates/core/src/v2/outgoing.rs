//! The frames the adapter sends the agent: `prompt` (with, from protocol 4, where its message
//! goes in the conversation), `abort`, `answer` (docs/agent-protocol.md,
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
}

fn to_json(frame: &Outgoing<'_>) -> String {
    // Serialising these plain structs to a String cannot fail: no maps with
    // non-string keys, no failing Serialize impls.
    serde_json::to_string(frame).unwrap_or_default()
}

/// The protocol from which an agent takes messages back (docs/agent-protocol.md, "Versions"): a
/// regenerate or an edit is sent only to an agent that says it on its upgrade's answer.
pub const TAKE_BACK_PROTOCOL: u32 = 4;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use serde_json::value::RawValue;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

        #[test]
        fn the_prompt_is_what_serde_writes(
            content in crate::json_out::any_text(),
            request_id in crate::json_out::any_text(),
            detach: bool,
            files in proptest::collection::vec((crate::json_out::any_text(), proptest::option::of(crate::json_out::any_text())), 0..3),
            context in proptest::option::of(crate::json_out::any_text()),
            message_id in proptest::option::of(crate::json_out::any_text()),
            branch in proptest::option::of(proptest::collection::vec(crate::json_out::any_text(), 0..4)),
        ) {
            let context = context.map(|text| serde_json::value::to_raw_value(&serde_json::json!({ "page": text })).unwrap());
            let attachments: Vec<Attachment> = files
                .into_iter()
                .map(|(url, filename)| Attachment { media_type: "text/plain".into(), url, filename })
                .collect();
            let on_disconnect = if detach { OnDisconnect::Detach } else { OnDisconnect::Abort };
            let branch = branch.map(|ids| serde_json::value::to_raw_value(&ids).unwrap());
            let derived = to_json(&Outgoing::Prompt {
                content: &content,
                request_id: &request_id,
                on_disconnect,
                message_id: message_id.as_deref(),
                branch: branch.as_deref(),
                attachments: &attachments,
                context: context.as_deref(),
            });
            let prompt = Prompt {
                content: &content,
                request_id: &request_id,
                on_disconnect,
                message_id: message_id.as_deref(),
                branch: branch.as_deref().map(RawValue::get),
                attachments: &attachments,
                context: context.as_deref().map(RawValue::get),
            };
            proptest::prop_assert_eq!(prompt.to_frame(), derived);
        }
    }

    /// A prompt of `content` and request `r`, under abort, with nothing else.
    fn plain(content: &str) -> Prompt<'_> {
        Prompt {
            content,
            request_id: "r",
            on_disconnect: OnDisconnect::Abort,
            message_id: None,
            branch: None,
            attachments: &[],
            context: None,
        }
    }

    #[test]
    fn outgoing_frames_are_exact() {
        let prompt = Prompt {
            request_id: "r1",
            ..plain("hi \"you\"")
        };
        assert_eq!(
            prompt.to_frame(),
            r#"{"type":"prompt","content":"hi \"you\"","requestId":"r1","onDisconnect":"abort"}"#
        );
        let files = [Attachment {
            media_type: "image/png".into(),
            url: "data:image/png;base64,AA==".into(),
            filename: None,
        }];
        let prompt = Prompt {
            on_disconnect: OnDisconnect::Detach,
            attachments: &files,
            ..plain("x")
        };
        assert_eq!(
            prompt.to_frame(),
            r#"{"type":"prompt","content":"x","requestId":"r","onDisconnect":"detach","attachments":[{"mediaType":"image/png","url":"data:image/png;base64,AA=="}]}"#
        );
        let context = r#"{"page":"/pricing","plan":"pro"}"#;
        let prompt = Prompt {
            context: Some(context),
            ..plain("x")
        };
        assert_eq!(
            prompt.to_frame(),
            r#"{"type":"prompt","content":"x","requestId":"r","onDisconnect":"abort","context":{"page":"/pricing","plan":"pro"}}"#
        );
        let prompt = Prompt {
            message_id: Some("u\"2"),
            branch: Some(r#"["u1","msg_a1"]"#),
            ..plain("x")
        };
        assert_eq!(
            prompt.to_frame(),
            r#"{"type":"prompt","content":"x","requestId":"r","onDisconnect":"abort","messageId":"u\"2","branch":["u1","msg_a1"]}"#
        );
        assert_eq!(
            abort_frame(Some("r9")),
            r#"{"type":"abort","requestId":"r9"}"#
        );
        assert_eq!(abort_frame(None), r#"{"type":"abort"}"#);
        assert_eq!(
            answer_frame("q\"1", &json!({"pick": ["a", 1]}), OnDisconnect::Abort),
            r#"{"type":"answer","questionId":"q\"1","answer":{"pick":["a",1]},"onDisconnect":"abort"}"#
        );
    }

    #[test]
    fn the_policy_reads_only_its_two_words() {
        assert_eq!(OnDisconnect::parse("abort"), Some(OnDisconnect::Abort));
        assert_eq!(OnDisconnect::parse("detach"), Some(OnDisconnect::Detach));
        for other in ["", "Abort", "stop", " detach"] {
            assert_eq!(OnDisconnect::parse(other), None, "{other:?}");
        }
        assert_eq!(OnDisconnect::Detach.as_str(), "detach");
    }
}
