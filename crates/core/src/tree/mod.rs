//! A session's messages as a tree (protocol 5, docs/agent-protocol.md, "Branches"): every message
//! an agent ever stored, each naming the message it follows (its parent), so that a regenerate,
//! an edit, a fork or a stale device's send makes a new branch and sets the old one aside instead
//! of deleting it. The rules are here, on any store that can answer a few questions ([`TreeRead`]);
//! an agent keeps the messages (the demo agent in SQLite, `crates/demo/src/agent/tree_store.rs`;
//! the TypeScript library keeps the same rules in `packages/session-agent/src/tree.ts`).
//!
//! - [`attach`]: where a prompt's turn goes: the message it follows, and whether its user message
//!   is one already stored (a regenerate) or a new one (a send, an edit, a fork).
//! - [`page`]: the current branch (the branch of the newest message: what `init` and a reload
//!   show), the branch through any message to its newest descendant, and older pages, each with
//!   its messages' siblings.
//! - [`MemTree`]: a store in memory, for tests and as the rules' plainest caller.
//!
//! Pure: no storage, no clock.

mod attach;
mod mem;
mod page;

pub use attach::{attach, Attach, Place};
pub use mem::MemTree;
pub use page::{page, siblings, Page, Want, MAX_PAGE_BYTES, MAX_PAGE_MESSAGES};

use crate::session::Role;

/// Most messages a session's store holds (protocol 5: the reference agents' cap, which
/// docs/agent-protocol.md states). A turn adds two; past the cap a prompt is refused
/// (`session_full`) and nothing is deleted. 10,000 messages of at most 512 KiB each (the demo
/// agent's row) stay under half of the 10 GB a Durable Object may store, and 5,000 turns are many
/// times the longest conversation a person keeps.
pub const MAX_SESSION_MESSAGES: usize = 10_000;

/// The largest `ref` a message may have, in bytes: the session id's bound, so that a ref fits in
/// a URL's query as plainly as a session id fits in its path.
pub const MAX_REF_BYTES: usize = 128;

/// Whether `value` can be a message's `ref`: 1 to [`MAX_REF_BYTES`] characters of
/// `[A-Za-z0-9._:~-]` (unreserved in a URL, so a ref goes into a query as it is).
pub fn is_ref(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= MAX_REF_BYTES
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'~' | b'-'))
}

/// One stored message as the rules see it (its parts are the store's business).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// Its name in the store (`ref` on the wire): unique in the session for good.
    pub key: String,
    /// The client's id (a user message's; the same for every edit of one message) or the turn's
    /// id (an assistant message's, which is also its key).
    pub id: String,
    pub role: Role,
    /// The key of the message it follows; `None` for a conversation's first message (a root).
    pub parent: Option<String>,
    /// Its place in the order of storing: larger is newer.
    pub seq: u64,
}

/// What the rules ask of a store. Every answer is about stored messages only; a store that cannot
/// read answers as if it held nothing there (the agent logs its own failure).
pub trait TreeRead {
    /// The message `key`.
    fn node(&self, key: &str) -> Option<Node>;
    /// The newest message: the end of the current branch.
    fn newest(&self) -> Option<Node>;
    /// The messages whose id is `id`, oldest first.
    fn with_id(&self, id: &str) -> Vec<Node>;
    /// The messages that follow `parent` (`None`: the roots), oldest first.
    fn children(&self, parent: Option<&str>) -> Vec<Node>;
    /// The newest message of `key`'s subtree (`key` itself when nothing follows it).
    fn newest_under(&self, key: &str) -> Option<Node>;

    /// `key` and the messages before it on its branch, nearest first, at most `limit`. A store
    /// that can read a branch in one query (SQLite's `WITH RECURSIVE`) answers it itself.
    fn lineage(&self, key: &str, limit: usize) -> Vec<Node> {
        let mut out = Vec::new();
        let mut next = self.node(key);
        while let Some(node) = next.filter(|_| out.len() < limit) {
            next = node.parent.as_deref().and_then(|parent| self.node(parent));
            out.push(node);
        }
        out
    }
}
