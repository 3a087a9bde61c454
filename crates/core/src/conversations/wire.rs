//! What the worker and a user's index object say to each other: an operation's name (the path
//! of the object's URL) and its body, a line or two of text (a session id holds no newline, so it
//! ends the first line; a title is the rest, whatever it holds); the object answers with a status
//! and the JSON a client reads (`super::store::Index::serve`). Only the worker's own code reaches
//! the object (a Durable Object has no address but its binding), so the object trusts what it
//! reads, and refuses anything else with a `400`. Text, not JSON: the object reads it with no
//! parser (the production wasm's size, bench/README.md).

use super::cursor::Cursor;
use super::query::ListQuery;

/// A turn of the session: list it (its title made from `title`), or move it to the top.
pub const TOUCH: &str = "touch";
/// A page of the list.
pub const LIST: &str = "list";
/// A session's new title.
pub const RENAME: &str = "rename";
/// A session's title from its agent (`title`, protocol 7): kept unless a rename titled it.
pub const TITLE: &str = "title";
/// A session out of the list.
pub const DELETE: &str = "delete";
/// Whether the list holds a session (a delete asks before the agent forgets it).
pub const HOLDS: &str = "holds";
/// The list's sessions idle since before a time (retention: `super::retention`).
pub const EXPIRED: &str = "expired";
/// The list is in the directory now (its touch answered `201` until then).
pub const ENLISTED: &str = "enlisted";
/// The directory's: a list and its oldest activity, added (or its oldest made earlier).
pub const ENLIST: &str = "enlist";
/// The directory's: the lists whose oldest activity is before a time.
pub const DUE: &str = "due";
/// The directory's: a list's oldest activity after a run (`0`: it has no session left).
pub const SETTLE: &str = "settle";

/// An operation, as the object reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op<'a> {
    Touch {
        id: &'a str,
        title: &'a str,
    },
    List {
        limit: usize,
        cursor: Option<Cursor>,
    },
    Rename {
        id: &'a str,
        title: &'a str,
    },
    Title {
        id: &'a str,
        title: &'a str,
    },
    Delete {
        id: &'a str,
    },
    Holds {
        id: &'a str,
    },
    Expired {
        before: u64,
        limit: usize,
    },
    Enlisted,
    Enlist {
        list: &'a str,
        oldest: u64,
    },
    Due {
        before: u64,
        limit: usize,
    },
    Settle {
        list: &'a str,
        oldest: u64,
    },
}

impl<'a> Op<'a> {
    /// Operation `name` with `body`, or `None` for anything the worker does not send.
    pub fn read(name: &str, body: &'a str) -> Option<Op<'a>> {
        let (first, rest) = match body.split_once('\n') {
            Some((first, rest)) => (first, Some(rest)),
            None => (body, None),
        };
        Some(match (name, rest) {
            (TOUCH, Some(title)) => Op::Touch { id: first, title },
            (RENAME, Some(title)) => Op::Rename { id: first, title },
            (TITLE, Some(title)) => Op::Title { id: first, title },
            (DELETE, None) => Op::Delete { id: first },
            (HOLDS, None) => Op::Holds { id: first },
            (ENLISTED, None) if first.is_empty() => Op::Enlisted,
            (EXPIRED, Some(limit)) => Op::Expired {
                before: first.parse().ok()?,
                limit: limit.parse().ok()?,
            },
            (DUE, Some(limit)) => Op::Due {
                before: first.parse().ok()?,
                limit: limit.parse().ok()?,
            },
            (ENLIST, Some(oldest)) => Op::Enlist {
                list: first,
                oldest: oldest.parse().ok()?,
            },
            (SETTLE, Some(oldest)) => Op::Settle {
                list: first,
                oldest: oldest.parse().ok()?,
            },
            (LIST, cursor) => Op::List {
                limit: first.parse().ok()?,
                cursor: match cursor {
                    Some(cursor) => Some(Cursor::decode(cursor)?),
                    None => None,
                },
            },
            _ => return None,
        })
    }
}

/// `first`, a newline, `second`: [`EXPIRED`], [`DUE`], [`ENLIST`] and [`SETTLE`]'s body.
pub fn pair(first: &str, second: u64) -> String {
    format!("{first}\n{second}")
}

/// `id`, a newline, `title`: [`TOUCH`], [`RENAME`] and [`TITLE`]'s body.
pub fn titled(id: &str, title: &str) -> String {
    format!("{id}\n{title}")
}

/// `id`: [`DELETE`]'s body.
pub fn named(id: &str) -> String {
    id.to_owned()
}

/// The limit, and for a page after the first a newline and the cursor: [`LIST`]'s body.
pub fn listing(query: &ListQuery) -> String {
    match &query.cursor {
        Some(cursor) => format!("{}\n{}", query.limit, cursor.encode()),
        None => query.limit.to_string(),
    }
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
