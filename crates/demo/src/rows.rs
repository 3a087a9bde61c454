//! The session's messages as text: the user message a prompt makes, the bounded JSON row one
//! message is stored as, a message's siblings added to its row as it is read (without parsing it
//! again), which stored rows a protocol-4 `init` carries, and the `init` and `history` frames.
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

/// Most bytes of stored rows a protocol-4 `init` carries (older rows are left out first): a page's
/// bound ([`crate::tree::MAX_PAGE_BYTES`], three quarters of the adapter's default frame limit),
/// so that with the turn in flight and the envelope an `init` still fits in one frame the adapter
/// accepts.
pub const MAX_INIT_HISTORY_BYTES: usize = crate::tree::MAX_PAGE_BYTES;

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
        key: None,
        parent: None,
        siblings: Vec::new(),
        role: Role::User,
        parts,
        created_at,
        completed_at: None,
    }
}

/// `message` as JSON, whole (the turn in flight, listed as it is).
pub fn message_json(message: &Message) -> String {
    to_json(message)
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

/// Of stored rows, newest first, the ones a protocol-4 `init` carries: at most `max_messages`, at
/// most [`MAX_INIT_HISTORY_BYTES`] in all (the newest row always, if it alone is over). Returned
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

/// `object` (a JSON object's text) with `fields` (`"name":value`, comma-separated) added at its
/// end; unchanged when it is not an object's text.
pub fn with_fields(object: &str, fields: &str) -> String {
    let Some(inner) = object
        .trim_end()
        .strip_suffix('}')
        .filter(|o| o.starts_with('{'))
    else {
        return object.to_owned();
    };
    if fields.is_empty() {
        return object.to_owned();
    }
    let comma = if inner.trim_end() == "{" { "" } else { "," };
    format!("{inner}{comma}{fields}}}")
}

/// The field `"siblings":[…]` of `refs` (protocol 5, R-siblings).
pub fn siblings_field(refs: &[String]) -> String {
    format!(r#""siblings":{}"#, to_json(&refs))
}

/// A stored `row` as it is listed: with its `siblings` when it has (two or more refs: its own
/// among them), spliced in as text.
pub fn with_siblings(row: &str, siblings: &[String]) -> String {
    if siblings.len() < 2 {
        return row.to_owned();
    }
    with_fields(row, &siblings_field(siblings))
}

/// The `init` frame: `messages` (JSON messages, oldest first, the turn in flight last), spliced
/// in as they are, not parsed again, and the session. `protocol`, when given, is the one the agent
/// says it keeps (which promises that the turn in flight is listed); the demo's `noinit-` and
/// `noinflight-` sessions say none.
pub fn init_frame(session_id: &str, messages: &[String], protocol: Option<u64>) -> String {
    let protocol = protocol
        .map(|p| format!(r#""protocol":{p},"#))
        .unwrap_or_default();
    format!(
        r#"{{"type":"init",{protocol}"messages":[{}],"session":{{"id":{},"agent":"demo"}}}}"#,
        messages.join(","),
        to_json(&session_id)
    )
}

/// The `history` frame (protocol 5): the page a `history` frame with `request_id` asked for,
/// `messages` oldest first.
pub fn history_frame(request_id: &str, messages: &[String]) -> String {
    format!(
        r#"{{"type":"history","requestId":{},"messages":[{}]}}"#,
        to_json(&request_id),
        messages.join(",")
    )
}

#[cfg(test)]
#[path = "rows_tests.rs"]
mod tests;
