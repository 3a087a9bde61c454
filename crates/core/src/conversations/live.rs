//! A user's list, live (`GET /api/sessions` asked for `text/event-stream`, docs/sessions.md
//! "Live lists"): what the index object tells every open list feed of its list after a write, and
//! the feed's bounds. A session made or moved by a turn, renamed, or titled by its agent is
//! [`changed`]; a deleted one (by its user, or retention) is [`deleted`]. Each event is one SSE
//! `data:` line of JSON, the object's words as it wrote them: the worker carries the bytes.

use super::walk::{session_json, Listed};
use crate::json_out;
use crate::pages::query_pairs;
use crate::refusal::{Refusal, INVALID_QUERY};

/// The most list feeds one user's list holds open at once, counted by its object whatever the
/// isolate: 16, a person's tabs and devices (the session feed's `MAX_USER_FEEDS`); past it, 429
/// `too_many_feeds`.
pub const MAX_LIST_FEEDS: usize = 16;

/// The operation that opens a list feed on the object (a WebSocket it keeps, hibernating).
pub const FOLLOW: &str = "follow";

/// The tag the object's sockets of list feeds carry (`state.acceptWebSocket(ws, [tag])`).
pub const FOLLOWER_TAG: &str = "list-feed";

/// How often the worker writes a keep-alive to a live list's client: every 5 s, the session
/// feed's `KEEP_ALIVE_MS` (`crate::feed`), for the same reason (a client that left is found out
/// at the next write).
pub const KEEP_ALIVE_MS: u64 = crate::feed::KEEP_ALIVE_MS;

/// Every how many keep-alives the worker also pings the list's object: 6, every 30 s, the
/// session feed's default `LIVENESS_PING_MS` (an idle socket to a Durable Object can die with no
/// close frame, cloudflare/agents #2242). The object answers without waking (its WebSocket
/// auto-response). Pinging at every keep-alive cost an idle live list 2.85 ms of CPU a minute
/// against 1.9 (bench/README.md, "Live lists").
pub const PING_EVERY_KEEP_ALIVES: u32 = 6;

/// Pings in a row with no answer before the object's socket counts as lost: 2, so a lost socket
/// ends its feed within a minute, as a session feed's does (its client then opens another).
pub const SILENT_PINGS: u32 = 2;

/// Whether `url`'s query asks for the live list (`live=1`): then no `limit` nor `cursor` may come
/// with it (a feed has no pages), nor another value of `live`; either is a `400 invalid_query`.
pub fn asked(url: &str) -> Result<bool, Refusal> {
    let (mut live, mut paged, mut bad) = (false, false, false);
    for (name, raw) in query_pairs(url) {
        match name {
            "live" => (live, bad) = (true, bad || raw != "1"),
            "limit" | "cursor" => paged = true,
            _ => {}
        }
    }
    if live && (bad || paged) {
        return Err(Refusal::new(
            INVALID_QUERY,
            "A live list is `live=1`, with no `limit` or `cursor` (it has no pages).",
        ));
    }
    Ok(live)
}

/// `{"type":"session","session":{…}}`: a session as the list now shows it (made, moved, renamed,
/// or titled by its agent); a client puts it in its place by `updatedAt`.
pub fn changed(session: &Listed) -> String {
    changed_json(&session_json(session))
}

/// [`changed`] of a session already written as the list's JSON (a rename's answer).
pub fn changed_json(session: &str) -> String {
    format!(r#"{{"type":"session","session":{session}}}"#)
}

/// `{"type":"deleted","id":"…"}`: a session out of the list.
pub fn deleted(id: &str) -> String {
    json_out::to_string(32 + id.len(), |out| {
        json_out::field(out, br#"{"type":"deleted","id":"#, id);
        out.push(b'}');
    })
}

#[cfg(test)]
#[path = "live_tests.rs"]
mod tests;
