//! A tree in memory: the rules' plainest store, for the tests (and for any caller that keeps a
//! session in memory). Every question is a scan: fine for the few thousand messages of a test.

use super::store::{Node, TreeRead};
use crate::session::Role;

/// Messages in the order they were stored.
#[derive(Debug, Clone, Default)]
pub struct MemTree {
    nodes: Vec<Node>,
}

impl MemTree {
    pub fn new() -> Self {
        MemTree::default()
    }

    /// Stores a message with `id` and `role` after `parent`, under the key `key`; returns it.
    pub fn insert(&mut self, key: &str, id: &str, role: Role, parent: Option<&str>) -> Node {
        let node = Node {
            key: key.to_owned(),
            id: id.to_owned(),
            role,
            parent: parent.map(str::to_owned),
            seq: self.nodes.len() as u64 + 1,
        };
        self.nodes.push(node.clone());
        node
    }

    /// How many messages it holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every message, oldest first.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }
}

impl TreeRead for MemTree {
    fn node(&self, key: &str) -> Option<Node> {
        self.nodes.iter().find(|n| n.key == key).cloned()
    }

    fn newest(&self) -> Option<Node> {
        self.nodes.last().cloned()
    }

    fn with_id(&self, id: &str) -> Vec<Node> {
        self.nodes.iter().filter(|n| n.id == id).cloned().collect()
    }

    fn children(&self, parent: Option<&str>) -> Vec<Node> {
        self.nodes
            .iter()
            .filter(|n| n.parent.as_deref() == parent)
            .cloned()
            .collect()
    }

    fn newest_under(&self, key: &str) -> Option<Node> {
        // Children are stored after their parent, so one pass in order finds the whole subtree.
        let mut under = vec![key];
        let mut newest = self.node(key)?;
        for node in &self.nodes {
            if node.parent.as_deref().is_some_and(|p| under.contains(&p)) {
                under.push(&node.key);
                newest = node.clone();
            }
        }
        Some(newest)
    }
}
