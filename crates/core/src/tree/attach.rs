//! Where a prompt's turn goes in the tree (protocol 5, docs/agent-protocol.md, "Branches"): the
//! message it follows, and its user message. The rule, in two steps:
//!
//! 1. **The anchor**, the message the user message follows: the newest id of the prompt's
//!    `branch` that names a stored message. The edits of one user message keep its id, so an id
//!    may name several: the one whose earlier messages match the ids before it in `branch` the
//!    furthest back, then the newest. When no id of `branch` is stored (a client's first message,
//!    one that sends only its last message, a branch of the client's own messages), the prompt's
//!    `messageId` decides: a first message with that id stays first (the anchor is the root); else
//!    the anchor is the parent of the newest user message with that id (a regenerate or an edit
//!    of it); else the newest message (the turn goes on the current branch).
//! 2. **The user message**: a user message with the prompt's `messageId` and the same content
//!    that already follows the anchor is the turn's own (a regenerate: a new reply to it). Else a
//!    new user message follows the anchor (a send, an edit, a fork; an id that names a message of
//!    the other role or of other content never replaces it: both stay).
//!
//! The turn's reply then follows its user message. Nothing is ever taken out of the tree.

use super::store::{Node, TreeRead};
use crate::session::Role;

/// Where a prompt says its message goes: the `prompt`'s `messageId` and `branch`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Place<'a> {
    /// The id the client gave its user message.
    pub message_id: Option<&'a str>,
    /// The ids of the client's messages before it, oldest first.
    pub branch: Option<&'a [String]>,
}

/// The turn's user message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attach {
    /// This stored message: the turn is a new reply to it.
    Existing(Node),
    /// A new message, stored after `parent` (`None`: a new conversation's first message).
    New { parent: Option<String> },
}

impl Attach {
    /// The key of the message the user message follows.
    pub fn parent(&self) -> Option<&str> {
        match self {
            Attach::Existing(node) => node.parent.as_deref(),
            Attach::New { parent } => parent.as_deref(),
        }
    }
}

/// Where a prompt with `place` puts its turn in `store`. `same_content(node)` tells whether the
/// stored user message `node` says what the prompt says (its text and files).
pub fn attach(
    store: &impl TreeRead,
    place: Place<'_>,
    same_content: impl Fn(&Node) -> bool,
) -> Attach {
    let parent = anchor(store, place).map(|node| node.key);
    let own = place.message_id.and_then(|id| {
        store
            .children(parent.as_deref())
            .into_iter()
            .rev()
            .find(|node| node.role == Role::User && node.id == id && same_content(node))
    });
    match own {
        Some(node) => Attach::Existing(node),
        None => Attach::New { parent },
    }
}

/// The message the turn's user message follows (`None`: the root).
fn anchor(store: &impl TreeRead, place: Place<'_>) -> Option<Node> {
    let branch = place.branch.unwrap_or_default();
    for (at, id) in branch.iter().enumerate().rev() {
        let named = store.with_id(id);
        if !named.is_empty() {
            return best_match(store, named, &branch[..at]);
        }
    }
    let named: Vec<Node> = place
        .message_id
        .map(|id| store.with_id(id))
        .unwrap_or_default()
        .into_iter()
        .filter(|node| node.role == Role::User)
        .collect();
    // A first message edited or regenerated (its list had nothing before it) stays first.
    if named.iter().any(|node| node.parent.is_none()) {
        return None;
    }
    match named.into_iter().max_by_key(|node| node.seq) {
        Some(edited) => edited.parent.and_then(|parent| store.node(&parent)),
        None => store.newest(),
    }
}

/// Of `named` (stored messages of one id), the one whose earlier messages match `before` (the
/// branch's ids before that id) the furthest back; among equals, the newest.
fn best_match(store: &impl TreeRead, named: Vec<Node>, before: &[String]) -> Option<Node> {
    if named.len() == 1 {
        return named.into_iter().next();
    }
    named
        .into_iter()
        .map(|node| (matching(store, &node, before), node))
        .max_by_key(|(matched, node)| (*matched, node.seq))
        .map(|(_, node)| node)
}

/// How many of `node`'s earlier messages, nearest first, have the ids of `before`, newest first.
fn matching(store: &impl TreeRead, node: &Node, before: &[String]) -> usize {
    let earlier = node
        .parent
        .as_deref()
        .map(|parent| store.lineage(parent, before.len()))
        .unwrap_or_default();
    earlier
        .iter()
        .zip(before.iter().rev())
        .take_while(|(stored, id)| &stored.id == *id)
        .count()
}

#[cfg(test)]
#[path = "attach_tests.rs"]
mod tests;
