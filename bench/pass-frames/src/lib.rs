//! What the Rust passthroughs do with a chat turn: the prompt read from the AI SDK's body, and
//! each burst of the agent's frames written as SSE events, `data: <frame>\n\n`.
#![forbid(unsafe_code)]

use serde::Deserialize;

/// The demo agent's last frame of a turn, as it writes it.
const COMPLETE: &[u8] = br#"{"type":"complete"}"#;

/// U+001E, the record separator that joins the frames of one burst (RFC 7464): JSON text never
/// holds it raw.
const SEPARATOR: u8 = 0x1e;

/// What a passthrough reads of the AI SDK's body: the last message's first text part.
#[derive(Deserialize)]
struct Body {
    messages: Vec<Message>,
}

#[derive(Deserialize)]
struct Message {
    parts: Vec<Part>,
}

#[derive(Deserialize)]
struct Part {
    #[serde(rename = "type")]
    kind: String,
    text: Option<String>,
}

/// The prompt of a chat request's body: its last message's first text part; `None` when the
/// body is not the AI SDK's.
pub fn prompt_of(body: &[u8]) -> Option<String> {
    let body: Body = serde_json::from_slice(body).ok()?;
    let part = body
        .messages
        .last()?
        .parts
        .iter()
        .find(|p| p.kind == "text")?;
    part.text.clone()
}

/// Appends one burst of frames (joined by U+001E) to `out` as SSE events; true when the turn's
/// last frame was among them.
pub fn write_burst(frames: &[u8], out: &mut Vec<u8>) -> bool {
    let mut complete = false;
    for frame in frames.split(|&b| b == SEPARATOR) {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(frame);
        out.extend_from_slice(b"\n\n");
        complete |= frame == COMPLETE;
    }
    complete
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_is_the_last_messages_first_text_part() {
        let body = br#"{"messages":[{"parts":[{"type":"text","text":"a"}]},
            {"parts":[{"type":"file"},{"type":"text","text":"b"},{"type":"text","text":"c"}]}]}"#;
        assert_eq!(prompt_of(body).as_deref(), Some("b"));
        assert_eq!(prompt_of(b"{}"), None);
    }

    #[test]
    fn a_burst_is_one_event_a_frame() {
        let mut out = Vec::new();
        assert!(!write_burst(b"{\"a\":1}\x1e{\"b\":2}", &mut out));
        assert_eq!(out, b"data: {\"a\":1}\n\ndata: {\"b\":2}\n\n");
        assert!(write_burst(br#"{"type":"complete"}"#, &mut out));
    }
}
