//! The tree's rules on the cases of `tests/fixtures/tree_cases.json`, which the TypeScript library
//! (`packages/session-agent/src/tree.ts`) and check-agent's model of the contract run too
//! (`tests/js/agent/tree_cases.test.mjs`): one set of cases keeps the implementations in step.
//! Each case is a session from empty; each prompt one turn (its user message when it is a new one,
//! then a reply `a<n>`); after each, the current branch's ids, each of those messages' sibling
//! count and how many messages are stored are the case's.

use serde::Deserialize;
use session_agent_core::tree::{page, siblings, MemTree, Place, TreeRead, Want};

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
        let mut tree = MemTree::new();
        for (at, prompt) in case.prompts.iter().enumerate() {
            let place = Place {
                message_id: Some(&prompt.message_id),
                branch: Some(&prompt.branch),
            };
            tree.turn(place, &prompt.text);
            let what = format!("{}, prompt {}", case.name, at + 1);
            let current = page(&tree, Want::Current, 200).expect("a page");
            let ids: Vec<&str> = current.nodes.iter().map(|n| n.id.as_str()).collect();
            assert_eq!(ids, prompt.current, "{what}: the current branch");
            let counts: Vec<usize> = current
                .nodes
                .iter()
                .map(|n| siblings(&tree, n).len())
                .collect();
            assert_eq!(counts, prompt.siblings, "{what}: the siblings");
            assert_eq!(tree.len(), prompt.stored, "{what}: stored");
            if let Some(said) = &prompt.said {
                let texts: Vec<Option<String>> = current
                    .nodes
                    .iter()
                    .map(|n| tree.said(&n.key).map(str::to_owned))
                    .collect();
                assert_eq!(&texts, said, "{what}: what each says");
            }
            assert!(tree.newest().is_some());
        }
    }
}
