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
        key: None,
        parent: None,
        siblings: Vec::new(),
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
#[path = "rows_tests.rs"]
mod tests;
