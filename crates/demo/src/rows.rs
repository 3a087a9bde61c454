//! The session's messages as text: the user message a prompt makes, the bounded JSON row one
//! message is stored as, which stored rows an `init` carries, and the `init` frame itself.
//!
//! Pure: no `worker::` type, no clock (times are passed in).

use serde_json::Value;

use crate::session::{Message, Part, Role};
use crate::v2::Attachment;

/// Largest JSON row one message is stored as, in bytes. SQLite-backed Durable Objects cap a
/// string, BLOB or row at 2 MB; a quarter of that leaves room for the row's other columns and
/// keeps an `init` of many messages small. A larger message is stored with its text and
/// reasoning parts shortened ([`SHORTENED_MARK`]), and, if its other parts alone take more
/// than half of this (a big attachment or tool result), with the largest of those dropped.
pub const MAX_ROW_BYTES: usize = 512 * 1024;

/// Most messages an `init` carries (the turn in flight included): the last ones. A long
/// session's `init` stays a few hundred messages, as a chat UI shows on load.
pub const MAX_INIT_MESSAGES: usize = 200;

/// Most bytes of stored rows an `init` carries (older rows are left out first): three quarters
/// of the edge's default frame limit ([`crate::config::DEFAULT_MAX_FRAME_BYTES`], 4 MiB), so
/// that with the turn in flight and the envelope an `init` still fits in one frame the edge
/// accepts.
pub const MAX_INIT_HISTORY_BYTES: usize = crate::config::DEFAULT_MAX_FRAME_BYTES / 4 * 3;

/// The protocol the demo agent keeps (docs/agent-protocol.md, "Versions"), said in its `init` and
/// on its upgrade's answer (`X-Agent-Protocol`).
pub const PROTOCOL: u64 = 4;

/// What ends a text shortened to fit in a row.
pub const SHORTENED_MARK: &str = " [… shortened]";

/// The user message of a prompt: a `text` part with its content, a `file` part per attachment.
pub fn user_message(
    id: String,
    content: &str,
    attachments: &[Attachment],
    created_at: Option<Value>,
) -> Message {
    let mut parts = vec![Part::Text {
        text: content.to_owned(),
        streaming: None,
    }];
    parts.extend(attachments.iter().cloned().map(Part::File));
    Message {
        id,
        role: Role::User,
        parts,
        created_at,
        completed_at: None,
    }
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    // Plain structs and JSON values: serialising them to a String cannot fail.
    serde_json::to_string(value).unwrap_or_default()
}

fn is_text(part: &Part) -> bool {
    matches!(part, Part::Text { .. } | Part::Reasoning { .. })
}

fn text_mut(part: &mut Part) -> Option<&mut String> {
    match part {
        Part::Text { text, .. } | Part::Reasoning { text } => Some(text),
        _ => None,
    }
}

/// `text` cut to at most `max` bytes (at a character boundary) plus [`SHORTENED_MARK`];
/// unchanged when it is no longer than `max`.
fn shorten(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{SHORTENED_MARK}", &text[..end])
}

/// The JSON row `message` is stored as: the message itself when it fits in [`MAX_ROW_BYTES`],
/// else a shortened copy (see there). Every text part is kept, however short; a message that
/// still does not fit (thousands of parts) is returned as small as it got.
pub fn row_json(message: &Message) -> String {
    let json = to_json(message);
    if json.len() <= MAX_ROW_BYTES {
        return json;
    }
    // The texts are set aside: what is left is what the other parts take.
    let mut slim = message.clone();
    let originals: Vec<String> = slim
        .parts
        .iter_mut()
        .filter_map(text_mut)
        .map(std::mem::take)
        .collect();
    // Those take at most half of the row: the largest of them are dropped.
    while to_json(&slim).len() > MAX_ROW_BYTES / 2 {
        let largest = slim
            .parts
            .iter()
            .enumerate()
            .filter(|(_, part)| !is_text(part) && !matches!(part, Part::Finish { .. }))
            .max_by_key(|(_, part)| to_json(part).len())
            .map(|(i, _)| i);
        let Some(i) = largest else { break };
        slim.parts.remove(i);
    }
    // Then each text gets an equal share, halved until the row fits.
    let texts = originals.len().max(1);
    let mut share = MAX_ROW_BYTES / texts;
    loop {
        for (text, original) in slim.parts.iter_mut().filter_map(text_mut).zip(&originals) {
            *text = shorten(original, share);
        }
        let json = to_json(&slim);
        if json.len() <= MAX_ROW_BYTES || share == 0 {
            return json;
        }
        share /= 2;
    }
}

/// Of stored rows, newest first, the ones an `init` carries: at most `max_messages`, at most
/// [`MAX_INIT_HISTORY_BYTES`] in all (the newest row always, if it alone is over). Returned
/// oldest first.
pub fn recent_rows(
    newest_first: impl IntoIterator<Item = String>,
    max_messages: usize,
) -> Vec<String> {
    let mut rows = Vec::new();
    let mut bytes = 0;
    for row in newest_first.into_iter().take(max_messages) {
        bytes += row.len() + 1;
        if bytes > MAX_INIT_HISTORY_BYTES && !rows.is_empty() {
            break;
        }
        rows.push(row);
    }
    rows.reverse();
    rows
}

/// The `init` frame: the stored `rows` (JSON messages, oldest first), then the turn in flight,
/// and the session. The rows are spliced in as they are stored, not parsed again. `protocol`
/// says protocol [`PROTOCOL`] (the turn in flight is always listed); the demo's `noinflight-`
/// sessions, which leave it out, say nothing.
pub fn init_frame(
    session_id: &str,
    rows: &[String],
    in_flight: Option<&Message>,
    protocol: bool,
) -> String {
    let in_flight = in_flight.map(to_json);
    let messages: Vec<&str> = rows
        .iter()
        .map(String::as_str)
        .chain(in_flight.as_deref())
        .collect();
    format!(
        r#"{{"type":"init",{}"messages":[{}],"session":{{"id":{},"agent":"demo"}}}}"#,
        if protocol { r#""protocol":4,"# } else { "" },
        messages.join(","),
        to_json(&session_id)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::session::parse_init;
    use crate::v2::{FinishReason, Usage};

    fn text(message: &Message, i: usize) -> &str {
        match &message.parts[i] {
            Part::Text { text, .. } | Part::Reasoning { text } => text,
            _ => "",
        }
    }

    fn reread(row: &str) -> Message {
        let init = parse_init(&init_frame("s", &[row.to_owned()], None, true)).unwrap();
        assert_eq!(init.skipped, 0);
        init.messages.into_iter().next().unwrap()
    }

    #[test]
    fn a_small_message_is_stored_whole() {
        let files = [Attachment {
            media_type: "image/png".into(),
            url: "data:image/png;base64,AA==".into(),
            filename: Some("a.png".into()),
        }];
        let user = user_message("user_1".into(), "look", &files, Some("2025".into()));
        let row = row_json(&user);
        assert_eq!(
            serde_json::from_str::<Value>(&row).unwrap(),
            serde_json::json!({"id": "user_1", "role": "user", "createdAt": "2025", "parts": [
                {"type": "text", "text": "look"},
                {"type": "file", "mediaType": "image/png", "url": "data:image/png;base64,AA==",
                 "filename": "a.png"}]})
        );
    }

    #[test]
    fn long_texts_are_shortened_to_fit() {
        let mut message = Message::assistant("t");
        message.parts.push(Part::Reasoning {
            text: "r".repeat(100),
        });
        message.parts.push(Part::Text {
            text: "é\"".repeat(400_000),
            streaming: None,
        });
        message.parts.push(Part::Finish {
            reason: FinishReason::EndTurn,
            usage: Some(Usage {
                input_tokens: Some(3),
                output_tokens: None,
            }),
            model: Some("m".into()),
        });
        let row = row_json(&message);
        assert!(row.len() <= MAX_ROW_BYTES, "{}", row.len());
        let back = reread(&row);
        assert_eq!(
            text(&back, 0),
            "r".repeat(100),
            "a short text is kept whole"
        );
        assert!(text(&back, 1).ends_with(SHORTENED_MARK));
        assert!(
            text(&back, 1).len() > MAX_ROW_BYTES / 4,
            "the text keeps a fair share"
        );
        assert_eq!(back.finish_reason(), Some(FinishReason::EndTurn));
        let Some(Part::Finish { usage, model, .. }) = back.parts.last() else {
            panic!("no finish part: {:?}", back.parts);
        };
        assert_eq!(usage.and_then(|u| u.input_tokens), Some(3), "usage is kept");
        assert_eq!(model.as_deref(), Some("m"), "the model is kept");
    }

    #[test]
    fn a_huge_attachment_is_dropped_before_the_text_is_cut() {
        let files = [Attachment {
            media_type: "text/plain".into(),
            url: format!("data:,{}", "x".repeat(3_000_000)),
            filename: None,
        }];
        let user = user_message("u".into(), "read this", &files, None);
        let back = reread(&row_json(&user));
        assert_eq!(back.parts.len(), 1);
        assert_eq!(text(&back, 0), "read this");
    }

    #[test]
    fn init_carries_the_newest_rows_within_bounds() {
        let rows = (0..10).rev().map(|i| format!("{{\"n\":{i}}}"));
        assert_eq!(
            recent_rows(rows, 3),
            ["{\"n\":7}", "{\"n\":8}", "{\"n\":9}"]
        );
        let big = "x".repeat(MAX_INIT_HISTORY_BYTES / 2);
        let rows = vec![big.clone(), big.clone(), big.clone()];
        assert_eq!(recent_rows(rows, 10).len(), 1);
        let huge = "x".repeat(MAX_INIT_HISTORY_BYTES + 1);
        assert_eq!(recent_rows(vec![huge], 10).len(), 1);
    }

    #[test]
    fn init_frames_parse_back() {
        let user = row_json(&user_message("u1".into(), "hi", &[], None));
        let mut turn = Message::assistant("t1");
        turn.parts.push(Part::Text {
            text: "wor".into(),
            streaming: Some(true),
        });
        let frame = init_frame("s\"1", &[user], Some(&turn), true);
        let init = parse_init(&frame).unwrap();
        assert_eq!(init.protocol, PROTOCOL);
        assert_eq!(init.messages.len(), 2);
        assert_eq!(init.in_flight().map(|m| m.id.as_str()), Some("t1"));
        let value: Value = serde_json::from_str(&frame).unwrap();
        assert_eq!(
            value["session"],
            serde_json::json!({"id": "s\"1", "agent": "demo"})
        );
        assert_eq!(
            init_frame("s", &[], None, false),
            r#"{"type":"init","messages":[],"session":{"id":"s","agent":"demo"}}"#
        );
        assert_eq!(
            init_frame("s", &[], None, true),
            r#"{"type":"init","protocol":4,"messages":[],"session":{"id":"s","agent":"demo"}}"#
        );
        // An init that says no protocol and lists no turn in flight cannot be trusted to.
        let silent = parse_init(&init_frame("s", &[], None, false)).unwrap();
        assert_eq!((silent.protocol, silent.lists_in_flight()), (0, false));
        let said = parse_init(&init_frame("s", &[], None, true)).unwrap();
        assert!(said.lists_in_flight());
    }
}
