//! A user's conversations (docs/sessions.md, "Your conversations"): the index of the sessions a
//! user has made, the newest activity first, with their titles, kept in a Durable Object of the
//! user's own (`SESSION_INDEX`, one object a user, so that no one writer takes every user's
//! turns). Every rule is here; the edge only carries bytes (`crates/adapter/src/index/`, and the
//! routes in `crates/adapter/src/handlers/conversations.rs`):
//!
//! * whose list a request reads or a turn writes ([`owner`]);
//! * a title made from a session's first message, and a rename's ([`title`]);
//! * a list request's `limit` and `cursor` ([`query`], [`cursor`]);
//! * the object's store in SQLite: its tables, the touch a turn makes, the walk of a list by pages
//!   that neither repeats nor misses a session while turns move them ([`store`], [`walk`]);
//! * what the worker and its object say to each other ([`wire`]), and the JSON a client reads;
//! * what the object tells a list's open feeds after each write, and their bound ([`live`]).

pub mod cursor;
pub mod live;
pub mod owner;
pub mod query;
pub mod retention;
pub mod store;
pub mod title;
pub mod walk;
pub mod wire;

/// A list's page when the request names no `limit`: 20 sessions, a sidebar's or a phone list's
/// screen and a bit (issue 69's API).
pub const DEFAULT_LIMIT: usize = 20;

/// The most sessions a page holds: 100 (issue 69's API), an answer of at most about 100 KB
/// (a session id of 128 bytes and a title of 200 characters, 4 bytes each at most, a row).
pub const MAX_LIMIT: usize = 100;

/// How long a list's `next` cursor serves, in milliseconds: a day. A walk through a list keeps
/// its order as it was at its first page (a session a turn moved since is shown where it was), and
/// the object keeps what it needs for that (the moves) this long: a day holds any walk a person
/// pages through, a sidebar left open overnight among them; an older cursor is refused
/// (`400 invalid_query`) and the client lists again from the first page.
pub const CURSOR_TTL_MS: u64 = 24 * 60 * 60 * 1000;

/// How long the object keeps a move (a session's place before a turn moved it), in milliseconds:
/// [`CURSOR_TTL_MS`] and an hour, for the clocks of the worker that checks a cursor's age and of
/// the object that keeps the moves, which are different machines' (NTP keeps them within
/// milliseconds; an hour of a user's moves is a few rows more).
pub const MOVES_KEPT_MS: u64 = CURSOR_TTL_MS + 60 * 60 * 1000;

/// How often an instance of the object prunes the moves no cursor can need, in milliseconds: an
/// hour, so that a move is kept [`MOVES_KEPT_MS`] and at most an hour more (a few rows more of a
/// user's), and a turn's write runs its prune once an hour, not every time.
pub const PRUNE_EVERY_MS: u64 = 60 * 60 * 1000;

use crate::refusal::{Refusal, INDEX_NOT_CONFIGURED, SESSION_NOT_FOUND};

/// A rename or a delete of a session the caller's list does not hold: one nobody made and
/// another user's alike, so that ids cannot be probed.
pub fn session_not_found() -> Refusal {
    Refusal::new(
        SESSION_NOT_FOUND,
        "Your conversations hold no session with this id.",
    )
}

/// The list routes of a worker with no `SESSION_INDEX` binding: closed, never open.
pub fn index_not_configured() -> Refusal {
    Refusal::new(
        INDEX_NOT_CONFIGURED,
        "This service keeps no list of conversations (no SESSION_INDEX binding).",
    )
}
