//! A tree in memory: the rules' plainest store, for the tests (and for any caller that keeps a
//! session in memory), with the turns an agent stores in it ([`MemTree::turn`]). Every question
//! is a scan: fine for the few thousand messages of a test.

use std::collections::HashMap;

use super::attach::{attach, Attach, Place};
use super::store::{Node, TreeRead};
use crate::session::Role;

/// Messages in the order they were stored, and what each user message said.
#[derive(Debug, Clone, Default)]
pub struct MemTree {
    nodes: Vec<Node>,
    said: HashMap<String, String>,
    turns: usize,
}

/// One turn [`MemTree::turn`] stored: where the rules attached it, its user message and its reply.
#[derive(Debug, Clone)]
pub struct Turned {
    pub attached: Attach,
    pub user: Node,
    pub reply: Node,
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

    /// What the user message `key` said, as [`MemTree::turn`] stored it.
    pub fn said(&self, key: &str) -> Option<&str> {
        self.said.get(key).map(String::as_str)
    }

    /// One turn of a prompt at `place` saying `text`, as an agent stores it: attached by the rules
    /// (a stored user message says the same when its text is `text`), its user message stored
    /// when it is a new one (key `k<n>`, `n` the messages stored before it, plus one), then its
    /// reply (`a<n>`, `n` the turns so far: its id and its key).
    pub fn turn(&mut self, place: Place<'_>, text: &str) -> Turned {
        let said = &self.said;
        let attached = attach(self, place, |node| {
            said.get(&node.key).map(String::as_str) == Some(text)
        });
        let user = match &attached {
            Attach::Existing(node) => node.clone(),
            Attach::New { parent } => {
                let key = format!("k{}", self.nodes.len() + 1);
                let id = place.message_id.unwrap_or(&key).to_owned();
                self.said.insert(key.clone(), text.to_owned());
                self.insert(&key, &id, Role::User, parent.as_deref())
            }
        };
        self.turns += 1;
        let id = format!("a{}", self.turns);
        let reply = self.insert(&id, &id, Role::Assistant, Some(&user.key));
        Turned {
            attached,
            user,
            reply,
        }
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
