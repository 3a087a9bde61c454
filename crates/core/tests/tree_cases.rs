//! The tree's rules on the cases of `tests/fixtures/tree_cases.json`, which the TypeScript library
//! (`packages/session-agent/src/tree.ts`) and check-agent's model of the contract run too
//! (`tests/js/agent/tree_cases.test.mjs`): one set of cases keeps the implementations in step.
//! Each case is a session from empty; each prompt one turn (its user message when it is a new one,
//! then a reply `a<n>`); after each, the current branch's ids, each of those messages' sibling
//! count and how many messages are stored are the case's.

use std::collections::HashMap;

use serde::Deserialize;
use session_agent_core::session::Role;
use session_agent_core::tree::{attach, page, siblings, Attach, MemTree, Place, TreeRead, Want};

#[derive(Deserialize)]
struct Cases {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    name: String,
    prompts: Vec<Prompt>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Prompt {
    message_id: String,
    branch: Vec<String>,
    text: String,
    current: Vec<String>,
    siblings: Vec<usize>,
    stored: usize,
    /// What each message of the current branch says (null: a reply), where two branches have the
    /// same ids.
    #[serde(default)]
    said: Option<Vec<Option<String>>>,
}

/// A session: the tree, each user message's text, and how many turns it had.
#[derive(Default)]
struct Session {
    tree: MemTree,
    text: HashMap<String, String>,
    turns: usize,
}

impl Session {
    fn turn(&mut self, prompt: &Prompt) {
        let place = Place {
            message_id: Some(&prompt.message_id),
            branch: Some(&prompt.branch),
        };
        let texts = &self.text;
        let attached = attach(&self.tree, place, |node| {
            texts.get(&node.key) == Some(&prompt.text)
        });
        let user = match attached {
            Attach::Existing(node) => node.key,
            Attach::New { parent } => {
                let key = format!("k{}", self.tree.len() + 1);
                self.tree
                    .insert(&key, &prompt.message_id, Role::User, parent.as_deref());
                self.text.insert(key.clone(), prompt.text.clone());
                key
            }
        };
        self.turns += 1;
        let reply = format!("a{}", self.turns);
        self.tree
            .insert(&reply, &reply, Role::Assistant, Some(&user));
    }
}

#[test]
fn the_shared_cases_hold() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/tree_cases.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/fixtures/tree_cases.json");
    let cases: Cases = serde_json::from_str(&text).expect("the cases parse");
    assert!(cases.cases.len() >= 12, "the cases are found");
    for case in &cases.cases {
        let mut session = Session::default();
        for (at, prompt) in case.prompts.iter().enumerate() {
            session.turn(prompt);
            let what = format!("{}, prompt {}", case.name, at + 1);
            let current = page(&session.tree, Want::Current, 200).expect("a page");
            let ids: Vec<&str> = current.nodes.iter().map(|n| n.id.as_str()).collect();
            assert_eq!(ids, prompt.current, "{what}: the current branch");
            let counts: Vec<usize> = current
                .nodes
                .iter()
                .map(|n| siblings(&session.tree, n).len())
                .collect();
            assert_eq!(counts, prompt.siblings, "{what}: the siblings");
            assert_eq!(session.tree.len(), prompt.stored, "{what}: stored");
            if let Some(said) = &prompt.said {
                let texts: Vec<Option<String>> = current
                    .nodes
                    .iter()
                    .map(|n| session.text.get(&n.key).cloned())
                    .collect();
                assert_eq!(&texts, said, "{what}: what each says");
            }
            assert!(session.tree.newest().is_some());
        }
    }
}
