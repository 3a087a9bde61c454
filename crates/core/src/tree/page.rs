//! What a client reads of the tree (protocol 5, docs/agent-protocol.md, "Branches"): one branch,
//! a page at a time, newest first. The current branch is the branch of the newest message (the
//! newest turn's); any message's branch goes on to that message's newest descendant; an older
//! page is the messages before a given one on its branch. Each message of a page comes with its
//! siblings (the messages that follow the same one: the edits of a user message, the retries of a
//! reply), which is how a client finds the branches it does not show.

use super::store::{Node, TreeRead};

/// Most messages one page holds (an `init`, a `history` answer): the newest 200 of a branch, a
/// long conversation's worth on one screen and more, and what `init` carried before pages.
pub const MAX_PAGE_MESSAGES: usize = 200;

/// Most bytes of messages one page holds: 3 MiB, three quarters of the adapter's default frame
/// limit (`DEFAULT_MAX_FRAME_BYTES` in `crate::config`, 4 MiB; `tests/tree_properties.rs` holds
/// the two together), so that a page with its envelope always fits in one frame the adapter
/// accepts.
pub const MAX_PAGE_BYTES: usize = 3 * 1024 * 1024;

/// Which page of which branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want<'a> {
    /// The newest page of the current branch.
    Current,
    /// The newest page of the branch through this message, to its newest descendant.
    Leaf(&'a str),
    /// The page of messages just before this one on its branch.
    Before(&'a str),
}

/// A page: its messages, oldest first, and whether the branch has older ones.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Page {
    pub nodes: Vec<Node>,
    pub more: bool,
}

/// The page `want` asks for, at most `limit` messages (and never more than
/// [`MAX_PAGE_MESSAGES`]); `None` when it names a message the store does not hold.
pub fn page(store: &impl TreeRead, want: Want<'_>, limit: usize) -> Option<Page> {
    let limit = limit.clamp(1, MAX_PAGE_MESSAGES);
    let end = match want {
        Want::Current => store.newest(),
        Want::Leaf(key) => {
            store.node(key)?;
            store.newest_under(key)
        }
        Want::Before(key) => store.node(key)?.parent.and_then(|p| store.node(&p)),
    };
    let Some(end) = end else {
        return Some(Page::default());
    };
    let mut nodes = store.lineage(&end.key, limit + 1);
    let more = nodes.len() > limit;
    nodes.truncate(limit);
    nodes.reverse();
    Some(Page { nodes, more })
}

/// The keys of `node`'s siblings and its own, oldest first; empty when it has none (a client shows
/// no branch picker then).
pub fn siblings(store: &impl TreeRead, node: &Node) -> Vec<String> {
    let all = store.children(node.parent.as_deref());
    if all.len() < 2 {
        return Vec::new();
    }
    all.into_iter().map(|sibling| sibling.key).collect()
}

#[cfg(test)]
#[path = "page_tests.rs"]
mod tests;
