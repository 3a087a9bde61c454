//! `/grow N`: a long conversation in one step, for the tests and the benchmark of long sessions
//! (the first page of a session of 5,000 messages, its older pages, a turn made elsewhere). It
//! stores N exchanges, each a user message `g<i>` and a short finished reply `r<i>`, where the
//! prompt's turn attaches, in one SQL statement and without a frame each (`tree_sql::GROW`); then
//! the prompt's own user message follows the last of them, and its turn says what was stored.
//!
//! Pure: the command and its reply; the session stores ([`crate::conversation::start`]).

use crate::frames::thousands;
use crate::tree::MAX_SESSION_MESSAGES;

/// The command.
pub const GROW: &str = "/grow";

/// Most exchanges one `/grow` stores: as many as the session's cap holds (two messages each).
pub const MAX_GROW: usize = MAX_SESSION_MESSAGES / 2;

/// How many exchanges `/grow` stores when no number follows it: a page's worth of messages
/// (`tree::MAX_PAGE_MESSAGES`, 200), the least that makes a second page.
pub const DEFAULT_GROW: usize = 100;

/// The exchanges `content` asks for, when it is the `/grow` command (at most [`MAX_GROW`]).
pub fn asked(content: &str) -> Option<usize> {
    let mut words = content.split_whitespace();
    if words.next() != Some(GROW) {
        return None;
    }
    let n = words
        .next()
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(DEFAULT_GROW);
    Some(n.min(MAX_GROW))
}

/// What the turn says once `grown` of the `asked` exchanges are stored (fewer when the store
/// could not hold them all).
pub fn reply(asked: usize, grown: usize) -> String {
    let mut said = format!(
        "Grew the conversation by {} exchanges ({} messages).",
        thousands(grown),
        thousands(grown * 2)
    );
    if grown < asked {
        said.push_str(&format!(
            " {} were asked: the session holds at most {} messages.",
            thousands(asked),
            thousands(MAX_SESSION_MESSAGES)
        ));
    }
    said
}

/// What the turn says to an agent that keeps a list (the `proto4-` persona): it grows nothing.
pub const LIST_REPLY: &str = "This session keeps protocol 4: /grow needs a session of protocol 5.";

#[cfg(test)]
#[path = "grow_tests.rs"]
mod tests;
