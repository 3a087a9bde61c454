//! The tree's rules (`session_agent_core::tree`) as properties, on random sequences of what three
//! AI SDK clients do on one session: a `Chat` that loads the history and numbers nothing, one
//! whose ids are `"1"`, `"2"`, … (and start again at each reload), and one that sends only its
//! last message (`prepareSendMessagesRequest`). They send, regenerate, edit and fork, reload,
//! miss a reply, and fall behind each other (a stale device), in any order.
//!
//! After every operation:
//! - the rules agree with a second implementation of the contract's wording (a model that keeps
//!   each message's whole path instead of its parent);
//! - nothing is lost: every message ever stored is still stored, and reachable from the current
//!   branch by the pages and siblings a client reads;
//! - the turn's branch is the client's conversation: the path to the new reply ends with what the
//!   client holds (for a client that says its branch), and the current branch is that path;
//! - at most one message of a branch is a given reply (replies are never moved or copied).

use std::collections::HashSet;

use proptest::prelude::*;
use session_agent_core::session::Role;
use session_agent_core::tree::{page, siblings, Attach, MemTree, Node, Place, TreeRead, Want};

/// How a client says where its message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The stock transport: the whole list; its own random ids.
    Whole,
    /// The whole list, ids numbered from 1, again from 1 after a reload.
    Numbered,
    /// Only the last message (`branch` is then `[]`).
    LastOnly,
}

const KINDS: [Kind; 3] = [Kind::Whole, Kind::Numbered, Kind::LastOnly];

#[derive(Debug, Clone, PartialEq, Eq)]
struct Msg {
    id: String,
    role: Role,
    text: String,
}

#[derive(Debug, Clone)]
enum Op {
    /// `sendMessage({ text })`; `missed`: the reply never reaches this client.
    Send { text: u8, missed: bool },
    /// `regenerate()` or `regenerate({ messageId })` of the message at this fraction of the list.
    Regenerate { at: Option<u8> },
    /// `sendMessage({ text, messageId })` of the user message at this fraction of the list.
    Edit { at: u8, text: u8 },
    /// assistant-ui's edit: the list cut before a user message, a new one with a new id.
    Fork { at: u8, text: u8 },
    /// A reload: the list is the history's (the current branch).
    Reload,
}

fn op() -> impl Strategy<Value = Op> {
    let text = 0u8..4;
    prop_oneof![
        4 => (text.clone(), prop::bool::weighted(0.15)).prop_map(|(text, missed)| Op::Send { text, missed }),
        2 => prop::option::of(any::<u8>()).prop_map(|at| Op::Regenerate { at }),
        2 => (any::<u8>(), text.clone()).prop_map(|(at, text)| Op::Edit { at, text }),
        1 => (any::<u8>(), text).prop_map(|(at, text)| Op::Fork { at, text }),
        1 => Just(Op::Reload),
    ]
}

/// One client: its list, as a `Chat` holds it.
#[derive(Debug, Clone)]
struct Client {
    kind: Kind,
    list: Vec<Msg>,
    next: usize,
    name: usize,
    /// Whether its list starts at the conversation's first message (it loaded the history, or
    /// began the session): then the turn's branch is its list exactly.
    rooted: bool,
}

impl Client {
    fn new_id(&mut self) -> String {
        self.next += 1;
        match self.kind {
            Kind::Numbered => self.next.to_string(),
            _ => format!("c{}m{}", self.name, self.next),
        }
    }
}

/// The session as the agent keeps it.
#[derive(Default)]
struct Agent {
    tree: MemTree,
}

impl Agent {
    /// One turn: attached by the rules (checked against the model), stored; the reply's node.
    fn turn(&mut self, message_id: &str, branch: &[String], text: &str) -> Node {
        let expected = model_attach(&self.tree, message_id, branch, text);
        let place = Place {
            message_id: Some(message_id),
            branch: Some(branch),
        };
        let turned = self.tree.turn(place, text);
        assert_eq!(
            turned.attached, expected,
            "the rules and the model disagree"
        );
        turned.reply
    }

    /// The messages of `end`'s branch, oldest first.
    fn path(&self, end: &str) -> Vec<Node> {
        let mut nodes = self.tree.lineage(end, usize::MAX);
        nodes.reverse();
        nodes
    }

    fn msg(&self, node: &Node) -> Msg {
        let text = self.tree.said(&node.key).unwrap_or_default().to_owned();
        Msg {
            id: node.id.clone(),
            role: node.role,
            text,
        }
    }

    /// What a reload shows: the current branch, read page by page as a client reads it.
    fn history(&self) -> Vec<Msg> {
        let mut out = Vec::new();
        let mut before: Option<String> = None;
        loop {
            let want = match &before {
                None => Want::Current,
                Some(key) => Want::Before(key),
            };
            let got = page(&self.tree, want, 7).expect("a page");
            out.splice(0..0, got.nodes.iter().map(|n| self.msg(n)));
            before = match (got.more, got.nodes.first()) {
                (true, Some(first)) => Some(first.key.clone()),
                _ => return out,
            };
        }
    }
}

/// The contract's rule as docs/agent-protocol.md words it, on each message's whole path.
fn model_attach(tree: &MemTree, message_id: &str, branch: &[String], text: &str) -> Attach {
    let nodes = tree.nodes();
    fn path_of<'a>(nodes: &'a [Node], node: &'a Node) -> Vec<&'a Node> {
        let mut path = vec![];
        let mut at = Some(node);
        while let Some(n) = at {
            path.push(n);
            at = n
                .parent
                .as_ref()
                .and_then(|p| nodes.iter().find(|m| &m.key == p));
        }
        path.reverse();
        path
    }
    // The anchor: the newest id of the branch that is stored …
    let mut anchor: Option<Option<&Node>> = None;
    for j in (0..branch.len()).rev() {
        let named: Vec<&Node> = nodes.iter().filter(|n| n.id == branch[j]).collect();
        if named.is_empty() {
            continue;
        }
        // … the one whose earlier messages match the branch furthest back, then the newest.
        let best = named.into_iter().max_by_key(|n| {
            let path = path_of(nodes, n);
            let earlier = &path[..path.len() - 1];
            let matched = earlier
                .iter()
                .rev()
                .zip(branch[..j].iter().rev())
                .take_while(|(m, id)| &m.id == *id)
                .count();
            (matched, n.seq)
        });
        anchor = Some(best);
        break;
    }
    let anchor = anchor.unwrap_or_else(|| {
        // … else the root, when a first message has the prompt's id; else the parent of the
        // newest user message with it; else the newest message.
        if nodes
            .iter()
            .any(|n| n.role == Role::User && n.id == message_id && n.parent.is_none())
        {
            return None;
        }
        match nodes
            .iter()
            .rfind(|n| n.role == Role::User && n.id == message_id)
        {
            Some(edited) => {
                let path = path_of(nodes, edited);
                path.len().checked_sub(2).map(|i| path[i])
            }
            None => nodes.last(),
        }
    });
    let parent = anchor.map(|n| n.key.clone());
    // The user message: one of the prompt's id and text already after the anchor (the newest).
    let own = nodes.iter().rev().find(|n| {
        n.parent == parent
            && n.role == Role::User
            && n.id == message_id
            && tree.said(&n.key) == Some(text)
    });
    match own {
        Some(node) => Attach::Existing(node.clone()),
        None => Attach::New { parent },
    }
}

/// Every message a client reaches from the current branch: the branch, then each sibling's branch
/// (`Want::Leaf`), and so on, page by page.
fn reachable(agent: &Agent) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut queue: Vec<Option<String>> = vec![None];
    let mut visited_leaves = HashSet::new();
    while let Some(leaf) = queue.pop() {
        if !visited_leaves.insert(leaf.clone()) {
            continue;
        }
        let end = match &leaf {
            None => agent.tree.newest(),
            Some(key) => {
                let first = page(&agent.tree, Want::Leaf(key), 1).expect("a known leaf");
                first.nodes.last().cloned()
            }
        };
        let Some(end) = end else { continue };
        for node in agent.path(&end.key) {
            seen.insert(node.key.clone());
            for sibling in siblings(&agent.tree, &node) {
                queue.push(Some(sibling));
            }
        }
    }
    seen
}

/// Whether `branch` cannot say which message it ends at: its newest stored id names several
/// messages whose earlier messages all match it (a user message edited elsewhere, which keeps its
/// id, at the end of a list whose reply never came). The turn then follows the newest of them,
/// which the client may not hold (docs/agent-protocol.md, "Branches").
fn ambiguous(agent: &Agent, branch: &[String]) -> bool {
    let Some(j) = branch
        .iter()
        .rposition(|id| !agent.tree.with_id(id).is_empty())
    else {
        return false;
    };
    let full = agent
        .tree
        .with_id(&branch[j])
        .into_iter()
        .filter(|node| {
            let path = agent.path(&node.key);
            let earlier: Vec<&str> = path[..path.len() - 1]
                .iter()
                .map(|n| n.id.as_str())
                .collect();
            let want: Vec<&str> = branch[..j].iter().map(String::as_str).collect();
            earlier.ends_with(&want) || want.ends_with(&earlier)
        })
        .count();
    full > 1
}

/// The place in `list` of the user message at the fraction `at` of its user messages.
fn user_at(list: &[Msg], at: u8) -> Option<usize> {
    let users: Vec<usize> = (0..list.len())
        .filter(|&i| list[i].role == Role::User)
        .collect();
    (!users.is_empty()).then(|| users[frac(at, users.len())])
}

fn frac(at: u8, len: usize) -> usize {
    (at as usize * len) / 256
}

/// Runs `ops`, checking every property after each.
fn run(ops: Vec<(usize, Op)>) {
    let mut agent = Agent::default();
    let mut clients: Vec<Client> = KINDS
        .iter()
        .enumerate()
        .map(|(name, &kind)| Client {
            kind,
            list: Vec::new(),
            next: 0,
            name,
            rooted: false,
        })
        .collect();
    let texts = ["hello", "more", "again", "other"];
    for (who, op) in ops {
        let client = &mut clients[who];
        if client.list.is_empty() {
            client.rooted = agent.tree.is_empty();
        }
        let mut missed = false;
        // The client's list once the operation has cut it, ending with the user message it sends.
        match op {
            Op::Send { text, missed: m } => {
                missed = m;
                let id = client.new_id();
                client.list.push(Msg {
                    id,
                    role: Role::User,
                    text: texts[text as usize].to_owned(),
                });
            }
            Op::Regenerate { at } => {
                let i = match at {
                    None if client.list.is_empty() => continue,
                    None => client.list.len() - 1,
                    Some(at) if client.list.is_empty() => frac(at, 1),
                    Some(at) => frac(at, client.list.len()),
                };
                let Some(target) = client.list.get(i) else {
                    continue;
                };
                let keep = if target.role == Role::Assistant {
                    i
                } else {
                    i + 1
                };
                client.list.truncate(keep);
                if client.list.last().is_none_or(|m| m.role != Role::User) {
                    continue;
                }
            }
            Op::Edit { at, text } => {
                let Some(i) = user_at(&client.list, at) else {
                    continue;
                };
                client.list.truncate(i + 1);
                client.list[i].text = texts[text as usize].to_owned();
            }
            Op::Fork { at, text } => {
                let Some(i) = user_at(&client.list, at) else {
                    continue;
                };
                client.list.truncate(i);
                // A fork of the first message reads as a client that sends only its last one: it
                // goes on the current branch (docs/agent-protocol.md, "Branches").
                client.rooted &= i > 0;
                let id = client.new_id();
                client.list.push(Msg {
                    id,
                    role: Role::User,
                    text: texts[text as usize].to_owned(),
                });
            }
            Op::Reload => {
                client.list = agent.history();
                client.rooted = true;
                if client.kind == Kind::Numbered {
                    client.next = 0;
                }
                continue;
            }
        }
        let user = client.list.last().expect("a user message").clone();
        let before: Vec<String> = client.list[..client.list.len() - 1]
            .iter()
            .map(|m| m.id.clone())
            .collect();
        let branch = if client.kind == Kind::LastOnly {
            Vec::new()
        } else {
            before
        };
        let ambiguous = ambiguous(&agent, &branch);
        let stored_before = agent.tree.len();
        let reply = agent.turn(&user.id, &branch, &user.text);
        let path: Vec<Msg> = agent
            .path(&reply.key)
            .iter()
            .map(|n| agent.msg(n))
            .collect();
        if !missed {
            client.list.push(agent.msg(&reply));
        }

        // Nothing lost: one or two new messages, none gone, all reachable.
        let added = agent.tree.len() - stored_before;
        assert!(
            (1..=2).contains(&added),
            "a turn stores its user message and its reply"
        );
        let all: HashSet<String> = agent.tree.nodes().iter().map(|n| n.key.clone()).collect();
        assert_eq!(
            reachable(&agent),
            all,
            "every message reachable from the current branch"
        );

        // The current branch is the turn's.
        let current: Vec<String> = agent.history().iter().map(|m| m.id.clone()).collect();
        let turn: Vec<String> = path.iter().map(|m| m.id.clone()).collect();
        assert_eq!(current, turn, "the current branch is the newest turn's");

        // The turn's branch is the client's conversation (its ids; the texts of what it sent):
        // exactly, for a client whose list starts at the first message and names each message
        // once; else it ends with the client's list.
        let held: Vec<String> = client.list.iter().map(|m| m.id.clone()).collect();
        let distinct = held.iter().collect::<HashSet<_>>().len() == held.len();
        // An ambiguous list may have been attached after another edit than the client holds:
        // its list says what it shows, the store what it followed, until it reloads.
        client.rooted &= !ambiguous;
        if client.kind != Kind::LastOnly && client.rooted && distinct {
            let ended: Vec<&Msg> = path[..path.len() - usize::from(missed)].iter().collect();
            let list: Vec<&Msg> = client.list.iter().collect();
            assert_eq!(ended, list, "the turn's branch is the client's list");
        }
        if client.kind != Kind::LastOnly {
            let held: Vec<String> = client.list.iter().map(|m| m.id.clone()).collect();
            let ended = if missed {
                &turn[..turn.len() - 1]
            } else {
                &turn[..]
            };
            assert!(
                ended.ends_with(&held),
                "the turn's branch {ended:?} ends with the client's list {held:?}"
            );
            let sent = &path[path.len() - 2];
            assert_eq!((&sent.id, &sent.text), (&user.id, &user.text));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn three_clients_on_one_session_lose_nothing(ops in prop::collection::vec((0usize..3, op()), 1..40)) {
        run(ops);
    }
}

/// The issue's own sequence, as a fixed case: device A sends u1; B (a reload) sends u2; A, stale,
/// sends u3, then regenerates its old reply.
#[test]
fn two_devices_a_stale_send_then_a_stale_regenerate() {
    run(vec![
        (
            0,
            Op::Send {
                text: 0,
                missed: false,
            },
        ),
        (1, Op::Reload),
        (
            1,
            Op::Send {
                text: 1,
                missed: false,
            },
        ),
        (
            0,
            Op::Send {
                text: 2,
                missed: false,
            },
        ),
        (1, Op::Regenerate { at: None }),
        (0, Op::Reload),
        (0, Op::Edit { at: 0, text: 3 }),
    ]);
}

/// A page's bytes fit in one frame the adapter takes by default, with room for its envelope.
#[test]
fn a_page_fits_in_a_frame() {
    use session_agent_core::config::DEFAULT_MAX_FRAME_BYTES;
    use session_agent_core::tree::MAX_PAGE_BYTES;
    assert_eq!(MAX_PAGE_BYTES, DEFAULT_MAX_FRAME_BYTES / 4 * 3);
}
