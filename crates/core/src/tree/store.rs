//! What the tree's rules see of a stored message ([`Node`]), and what they ask of a store
//! ([`TreeRead`]): the demo agent answers with SQLite queries, [`super::MemTree`] with scans.

use crate::session::Role;

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
