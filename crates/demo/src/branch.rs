//! Where a prompt's turn attaches in the conversation (docs/agent-protocol.md, "Taking messages
//! back", protocol 4): which stored messages stay, the rest being taken back before the turn
//! starts (a regenerate, an edit, a fork).
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
#[path = "branch_tests.rs"]
mod tests;
