//! A page of a list, and the JSON a client reads. A walk through a list by pages keeps the order
//! the list had when its first page was read (its cursor's `as_of`): each session has its place
//! as of then, its activity time and its id, the newest first. A session a turn moved since (to
//! the top of a new first page) keeps its old place in the walk, so that a walk gives every
//! session it started with exactly once, whatever turns happen while it pages: keyset paging on
//! the live order alone would skip a session moved from below the cursor to above it, or give
//! twice one moved the other way. A session made after the first page is not in the walk: it is
//! at the top of a new first page.

use super::cursor::Cursor;
use crate::json_out;

/// A session as a list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    pub id: String,
    pub title: String,
    /// Its first listed turn, ms since the Unix epoch.
    pub created_at: u64,
    /// Its latest turn (a rename is not activity).
    pub updated_at: u64,
}

/// A session with its place in a walk: its activity time as of the walk's first page (its
/// `updated_at` then; for a session moved since, what the move replaced).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub session: Listed,
    pub at: u64,
}

impl Placed {
    /// Its place, to compare: later first, then the greater id.
    fn key(&self) -> (u64, &str) {
        (self.at, &self.session.id)
    }
}

/// A page: its sessions, and the cursor of the next (`None` on the last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub sessions: Vec<Listed>,
    pub next: Option<Cursor>,
}

/// The page of a walk begun at `as_of` that starts after the place `after` (the previous page's
/// last; a first page's is `(as_of, "")`, before every place): at most `limit` sessions, from
/// `unmoved` (the sessions with no turn since `as_of`, placed after `after`, in order, the first
/// `limit + 1` of them) and `moved` (every session made before `as_of` that a turn moved since,
/// placed where it was then, in any order).
pub fn page(
    unmoved: Vec<Placed>,
    moved: Vec<Placed>,
    as_of: u64,
    after: (u64, &str),
    limit: usize,
) -> Page {
    // The unmoved are in order already, and the moved few: each goes in at its place.
    let mut placed = unmoved;
    for row in moved.into_iter().filter(|row| row.key() < after) {
        let at = placed.partition_point(|other| other.key() > row.key());
        placed.insert(at, row);
    }
    let more = placed.len() > limit;
    placed.truncate(limit);
    let next = placed.last().filter(|_| more).map(|last| Cursor {
        as_of,
        at: last.at,
        id: last.session.id.clone(),
    });
    Page {
        sessions: placed.into_iter().map(|row| row.session).collect(),
        next,
    }
}

/// `{"id":…,"title":…,"createdAt":…,"updatedAt":…}`: a session, as a list and a rename answer it.
pub fn session_json(session: &Listed) -> String {
    json_out::to_string(96 + session.title.len(), |out| write_session(out, session))
}

fn write_session(out: &mut Vec<u8>, session: &Listed) {
    json_out::field(out, br#"{"id":"#, &session.id);
    json_out::field(out, br#","title":"#, &session.title);
    json_out::number_field(out, br#","createdAt":"#, session.created_at);
    json_out::number_field(out, br#","updatedAt":"#, session.updated_at);
    out.push(b'}');
}

/// `{"sessions":[…],"next":"…"}` (`"next":null` on the last page): a list's answer.
pub fn page_json(page: &Page) -> String {
    json_out::to_string(64 + page.sessions.len() * 160, |out| {
        out.extend_from_slice(br#"{"sessions":"#);
        json_out::array(out, &page.sessions, write_session);
        match &page.next {
            Some(next) => json_out::field(out, br#","next":"#, &next.encode()),
            None => out.extend_from_slice(br#","next":null"#),
        }
        out.push(b'}');
    })
}

#[cfg(test)]
#[path = "walk_tests.rs"]
mod tests;
