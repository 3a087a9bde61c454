//! The protocol-4 persona's rule (`proto4-` sessions, [`crate::persona`]; docs/agent-protocol.md,
//! "Agents of protocol 4"): an agent that keeps a list, not a tree, and deletes before a turn what
//! the turn does not follow (a regenerate, an edit, a fork, and a stale device's send alike), so
//! that the adapter's `409 stale_conversation` can be tried against a real one. The agent of
//! protocol 5 keeps every message instead (the core's `tree`).
//!
//! The rule, in order: a stored message with the prompt's `messageId` is replaced (it and every
//! message after it are taken back); else the newest message of the prompt's `branch` that is
//! stored is the one the turn follows (every message after it is taken back); else nothing is
//! taken back (the turn is appended). Pure: no storage, no clock.

use std::collections::HashMap;

/// How many of `stored` (the stored messages' ids, oldest first) stay for a prompt with
/// `message_id` and `branch` (the ids of the client's messages before the new one, oldest first).
pub fn kept(stored: &[&str], message_id: Option<&str>, branch: Option<&[String]>) -> usize {
    // An id stored twice (not made by this rule, which keeps ids unique) counts where it is last.
    let at: HashMap<&str, usize> = stored.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    if let Some(i) = message_id.and_then(|id| at.get(id)) {
        return *i;
    }
    let newest = branch
        .unwrap_or_default()
        .iter()
        .rev()
        .find_map(|id| at.get(id.as_str()));
    match newest {
        Some(i) => i + 1,
        None => stored.len(),
    }
}

#[cfg(test)]
#[path = "proto4_tests.rs"]
mod tests;
