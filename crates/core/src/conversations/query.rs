//! A list request's query (`GET /api/sessions?limit=&cursor=`): how many sessions its page holds
//! (1 to [`MAX_LIMIT`], default [`DEFAULT_LIMIT`]) and where it starts (a `next` an earlier page
//! gave, within [`CURSOR_TTL_MS`] of its walk's first page). A value it cannot read is a
//! `400 invalid_query` that says which, before the index is asked.

use super::cursor::Cursor;
use super::{CURSOR_TTL_MS, DEFAULT_LIMIT, MAX_LIMIT};
use crate::pages::{query_pairs, read_limit};
use crate::refusal::{Refusal, INVALID_QUERY};

/// A list request's query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListQuery {
    /// Most sessions of the page, 1 to [`MAX_LIMIT`].
    pub limit: usize,
    /// Where the page starts; `None`: the first page.
    pub cursor: Option<Cursor>,
}

impl ListQuery {
    /// Reads the query of `url` (the request's URL) at `now_ms` (ms since the Unix epoch). An
    /// empty `cursor=` is the first page, as a client that sends `cursor=${next ?? ""}` means.
    /// Other parameters are not its business.
    pub fn from_url(url: &str, now_ms: u64) -> Result<ListQuery, Refusal> {
        let mut out = ListQuery {
            limit: DEFAULT_LIMIT,
            cursor: None,
        };
        for (name, raw) in query_pairs(url) {
            match name {
                "limit" => out.limit = read_limit(raw, MAX_LIMIT)?,
                "cursor" if raw.is_empty() => out.cursor = None,
                "cursor" => {
                    let cursor = Cursor::decode(raw).ok_or_else(invalid_cursor)?;
                    if cursor.as_of.saturating_add(CURSOR_TTL_MS) < now_ms {
                        return Err(expired_cursor());
                    }
                    out.cursor = Some(cursor);
                }
                _ => {}
            }
        }
        Ok(out)
    }
}

fn invalid_cursor() -> Refusal {
    Refusal::new(
        INVALID_QUERY,
        "`cursor` must be the `next` of an earlier page of this list, as it was given.",
    )
}

fn expired_cursor() -> Refusal {
    Refusal::new(
        INVALID_QUERY,
        "`cursor` is from a list whose first page was read over a day ago: list again from the first page.",
    )
}

#[cfg(test)]
#[path = "query_tests.rs"]
mod tests;
