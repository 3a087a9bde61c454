//! A prompt to an agent of protocol 4, which keeps a list and deletes what a turn does not follow
//! (docs/agent-protocol.md, "Agents of protocol 4"): the adapter reads the agent's `init` first
//! and sends the prompt only when nothing the client does not show would be deleted. A stale
//! device's send, a client whose reply never came, or a client that numbers its messages again
//! would otherwise delete another device's turns for good; the user is told to reload instead.
//!
//! Let through: a prompt that deletes nothing; an explicit regenerate or edit of the last exchange
//! (it replaces the user message it names, and nothing follows but that message's reply); and an
//! explicit edit, or a regenerate that names its message, of an earlier message the client shares
//! with the agent (the newest message of its `branch` the agent has is the one right before the
//! replaced message). A fork looks like a stale send, and is refused with it.

use std::collections::HashMap;

use crate::refusal::Refusal;
use crate::request::{ChatRequest, Place, REGENERATE};

/// How many of `stored` (the agent's messages' ids, oldest first) an agent of protocol 4 keeps
/// for a prompt with `message_id` after `branch`: a stored `message_id` is replaced (it and every
/// message after it go); else the newest stored id of `branch` is followed (every message after
/// it goes); else all stay (the turn is appended).
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

/// What the request asks, as far as a take-back goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Intent {
    /// A send (or a fork, which looks the same).
    Send,
    /// `regenerate()`; `named`: `regenerate({ messageId })`, which names the message.
    Regenerate { named: bool },
    /// `sendMessage({ text, messageId })`: an edit of the message it names.
    Edit,
}

impl Intent {
    /// What `chat` asks.
    pub fn of(chat: &ChatRequest) -> Intent {
        match (chat.trigger.as_deref(), chat.target_id.is_some()) {
            (Some(REGENERATE), named) => Intent::Regenerate { named },
            (_, true) => Intent::Edit,
            _ => Intent::Send,
        }
    }
}

/// Whether a prompt at `place` with `intent` may go to an agent of protocol 4 whose `init` lists
/// `stored` (its messages' ids, oldest first) and no turn in flight: `Err` with `409
/// stale_conversation` when the agent would delete a message the client does not show.
pub fn check(stored: &[&str], place: &Place, intent: Intent) -> Result<(), Refusal> {
    let branch: Option<Vec<String>> = place
        .branch
        .as_deref()
        .and_then(|json| serde_json::from_str(json).ok());
    let message_id = place.message_id.as_deref();
    let keep = kept(stored, message_id, branch.as_deref());
    let deleted = &stored[keep..];
    if deleted.is_empty() {
        return Ok(());
    }
    let replaced = message_id.is_some_and(|id| deleted[0] == id);
    let shared = branch
        .unwrap_or_default()
        .iter()
        .rev()
        .find(|id| stored.contains(&id.as_str()))
        .map(String::as_str)
        == keep.checked_sub(1).map(|i| stored[i]);
    // The last exchange: the user message the prompt names and its one reply go, nothing more.
    let last_exchange = replaced && deleted.len() <= 2;
    match intent {
        Intent::Send => Err(Refusal::stale_conversation()),
        Intent::Regenerate { named: false } if last_exchange => Ok(()),
        Intent::Regenerate { named: true } | Intent::Edit
            if last_exchange || replaced && shared =>
        {
            Ok(())
        }
        _ => Err(Refusal::stale_conversation()),
    }
}

#[cfg(test)]
#[path = "protocol4_tests.rs"]
mod tests;
