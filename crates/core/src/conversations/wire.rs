//! What the worker and a user's index object say to each other: an operation's name (the path
//! of the object's URL) and its body, one small JSON object; the object answers with a status and
//! the JSON a client reads (`super::store::Index::serve`). Only the worker's own code reaches the
//! object (a Durable Object has no address but its binding), so the object trusts what it reads
//! and refuses anything else with a `400`.

use serde::Deserialize;

use super::query::ListQuery;
use crate::json_out;

/// A turn of the session: list it (its title made from `title`), or move it to the top.
pub const TOUCH: &str = "touch";
/// A page of the list.
pub const LIST: &str = "list";
/// A session's new title.
pub const RENAME: &str = "rename";
/// A session out of the list.
pub const DELETE: &str = "delete";

/// An operation's body, every member optional: each operation reads those it needs.
#[derive(Debug, Default, Deserialize)]
pub struct OpBody {
    pub id: Option<String>,
    pub title: Option<String>,
    pub limit: Option<usize>,
    pub cursor: Option<String>,
}

/// `{"id":…,"title":…}`: [`TOUCH`] and [`RENAME`]'s body.
pub fn titled(id: &str, title: &str) -> String {
    json_out::to_string(32 + id.len() + title.len(), |out| {
        json_out::field(out, br#"{"id":"#, id);
        json_out::field(out, br#","title":"#, title);
        out.push(b'}');
    })
}

/// `{"id":…}`: [`DELETE`]'s body.
pub fn named(id: &str) -> String {
    json_out::to_string(16 + id.len(), |out| {
        json_out::field(out, br#"{"id":"#, id);
        out.push(b'}');
    })
}

/// `{"limit":…,"cursor":…}`: [`LIST`]'s body (no `cursor` for a first page).
pub fn listing(query: &ListQuery) -> String {
    json_out::to_string(160, |out| {
        json_out::number_field(out, br#"{"limit":"#, query.limit as u64);
        if let Some(cursor) = &query.cursor {
            json_out::field(out, br#","cursor":"#, &cursor.encode());
        }
        out.push(b'}');
    })
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
