//! `/seen`: what the demo agent's model would be given for a turn, said back as its reply, so
//! that tests can see that messages set aside (a regenerate, an edit, a fork, a stale device's
//! send) are not in it (docs/agent-protocol.md, "Branches", R-branch-model). The demo has no
//! model: its "model input" is the conversation a real agent hands its model, the branch from the
//! first message to the turn's own user message (for the `proto4-` persona: its list after the
//! cut).
//!
//! The reply is one line of JSON, `[{"id":"u1","role":"user","text":"hello"},…]`: each message's
//! id, role and text parts joined by newlines. Pure: the session passes the stored rows.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The command.
pub const SEEN: &str = "/seen";

/// Whether `content` is the `/seen` command.
pub fn is_seen(content: &str) -> bool {
    content.split_whitespace().next() == Some(SEEN)
}

#[derive(Deserialize)]
struct Row {
    id: String,
    role: String,
    #[serde(default)]
    parts: Vec<Value>,
}

#[derive(Serialize)]
struct Seen<'a> {
    id: &'a str,
    role: &'a str,
    text: String,
}

/// The reply to `/seen`: the messages of `rows` (stored message rows, JSON, oldest first), in
/// order; a row that is not a message is left out.
pub fn model_input(rows: &[String]) -> String {
    let rows: Vec<Row> = rows
        .iter()
        .filter_map(|row| serde_json::from_str(row).ok())
        .collect();
    let seen: Vec<Seen<'_>> = rows
        .iter()
        .map(|row| Seen {
            id: &row.id,
            role: &row.role,
            text: text_of(&row.parts),
        })
        .collect();
    serde_json::to_string(&seen).unwrap_or_default()
}

/// The text parts of `parts`, joined by newlines.
fn text_of(parts: &[Value]) -> String {
    let texts: Vec<&str> = parts
        .iter()
        .filter(|part| part.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    texts.join("\n")
}

#[cfg(test)]
#[path = "seen_tests.rs"]
mod tests;
