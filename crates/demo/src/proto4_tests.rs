//! Tests of the protocol-4 persona's rule, where a turn attaches in a list: the rule case by case, and, as a property, that a stock AI SDK
//! client's operations, read by the adapter's request parser and cut by this rule, leave the same
//! conversation as the AI SDK's own example server keeps (and the client shows).

use proptest::prelude::*;
use serde_json::json;
use session_agent_core::request::{parse_chat_request, Limits, REGENERATE};

use super::kept;

fn strings(ids: &[&str]) -> Vec<String> {
    ids.iter().map(|id| (*id).to_owned()).collect()
}

#[test]
fn a_known_message_id_is_replaced() {
    let stored = ["u1", "a1", "u2", "a2"];
    let branch = strings(&["u1", "a1"]);
    assert_eq!(kept(&stored, Some("u2"), Some(&branch)), 2);
    assert_eq!(
        kept(&stored, Some("u1"), Some(&[])),
        0,
        "the first message edited"
    );
    // Known, it wins over the branch, whatever the branch says.
    assert_eq!(kept(&stored, Some("u2"), None), 2);
}

#[test]
fn else_the_newest_known_message_of_the_branch_is_followed() {
    let stored = ["u1", "a1", "u2", "a2"];
    // A fork after a1: u2 and a2 are taken back.
    assert_eq!(kept(&stored, Some("new"), Some(&strings(&["u1", "a1"]))), 2);
    // A send: nothing is taken back.
    let all = strings(&["u1", "a1", "u2", "a2"]);
    assert_eq!(kept(&stored, Some("new"), Some(&all)), 4);
    // The client's own messages the agent never had (a refused send, its error): passed over.
    let with_unknown = strings(&["u1", "a1", "u2", "a2", "refused", "its-error"]);
    assert_eq!(kept(&stored, Some("new"), Some(&with_unknown)), 4);
    let unknown_between = strings(&["u1", "a1", "refused"]);
    assert_eq!(kept(&stored, Some("new"), Some(&unknown_between)), 2);
}

#[test]
fn an_unknown_branch_takes_nothing_back() {
    let stored = ["u1", "a1"];
    for branch in [None, Some(strings(&[])), Some(strings(&["x", "y"]))] {
        assert_eq!(
            kept(&stored, Some("new"), branch.as_deref()),
            2,
            "{branch:?}"
        );
        assert_eq!(kept(&stored, None, branch.as_deref()), 2, "{branch:?}");
    }
    assert_eq!(kept(&[], Some("u1"), Some(&strings(&["welcome"]))), 0);
}

/// A list of one message whose id the agent does not know cannot be told from a client that
/// sends only its last message, or a new `Chat` that did not load the history: it is appended,
/// whatever the client's list looked like before (docs/sessions.md, "Regenerate and edit").
#[test]
fn a_fork_of_the_first_message_is_appended() {
    let stored = ["u1", "a1", "u2", "a2"];
    assert_eq!(kept(&stored, Some("fork"), Some(&[])), 4);
}

/// One message, as the AI SDK client and the example server keep it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Msg {
    id: String,
    role: &'static str,
    text: String,
}

/// What a stock `Chat` does, as the AI SDK defines it.
#[derive(Debug, Clone)]
enum Op {
    /// `sendMessage({ text })`.
    Send,
    /// `regenerate()` (`None`) or `regenerate({ messageId })` of the message at this position
    /// (taken modulo the list's length).
    Regenerate(Option<usize>),
    /// `sendMessage({ text, messageId })` of the user message at this position among the user
    /// messages (modulo their number).
    Edit(usize),
    /// assistant-ui's edit: the list cut before the user message at this position among the user
    /// messages, then a new message with a new id and no `messageId`. Not of the first message:
    /// a list of the new message alone is appended ([`a_fork_of_the_first_message_is_appended`]).
    Fork(usize),
}

/// The three holders of the conversation: the client's `Chat`, the agent (the adapter's reading
/// and [`kept`]), and the AI SDK's example server (the reference).
#[derive(Default)]
struct World {
    client: Vec<Msg>,
    agent: Vec<Msg>,
    server: Vec<Msg>,
    counter: usize,
    /// The client sends only its last message (`prepareSendMessagesRequest`).
    last_only: bool,
}

impl World {
    fn fresh_id(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    fn user_positions(&self) -> Vec<usize> {
        (0..self.client.len())
            .filter(|i| self.client[*i].role == "user")
            .collect()
    }

    /// Applies `op`; false when the client cannot do it (the SDK would throw: nothing to
    /// regenerate or edit).
    fn apply(&mut self, op: &Op) -> bool {
        let text = format!("t{}", self.counter);
        let (trigger, target) = match op {
            Op::Send => {
                let id = self.fresh_id("u");
                self.client.push(Msg {
                    id,
                    role: "user",
                    text,
                });
                ("submit-message", None)
            }
            Op::Regenerate(at) => {
                if self.client.is_empty() {
                    return false;
                }
                let index = at.map_or(self.client.len() - 1, |at| at % self.client.len());
                let cut = if self.client[index].role == "assistant" {
                    index
                } else {
                    index + 1
                };
                if cut == 0 {
                    return false;
                }
                let target = at.map(|_| self.client[index].id.clone());
                self.client.truncate(cut);
                (REGENERATE, target)
            }
            Op::Edit(at) => {
                let users = self.user_positions();
                if users.is_empty() {
                    return false;
                }
                let index = users[at % users.len()];
                let id = self.client[index].id.clone();
                self.client.truncate(index);
                self.client.push(Msg {
                    id: id.clone(),
                    role: "user",
                    text,
                });
                ("submit-message", Some(id))
            }
            Op::Fork(at) => {
                let users = self.user_positions();
                let Some(&cut) = users.get(at % users.len().max(1)).filter(|cut| **cut > 0) else {
                    return false;
                };
                self.client.truncate(cut);
                let id = self.fresh_id("f");
                self.client.push(Msg {
                    id,
                    role: "user",
                    text,
                });
                ("submit-message", None)
            }
        };
        let reply = Msg {
            id: self.fresh_id("msg_"),
            role: "assistant",
            text: "reply".into(),
        };
        self.serve(op, trigger, target.as_deref(), reply.clone());
        self.turn(trigger, target.as_deref(), reply.clone());
        self.client.push(reply);
        true
    }

    /// The example server: a send appends; an edit cuts at the message it names and appends the
    /// new one; a regenerate cuts the message it names (or the last one) as the client did;
    /// assistant-ui's fork keeps what the client's list keeps (the rows the list no longer has
    /// are deleted).
    fn serve(&mut self, op: &Op, trigger: &str, target: Option<&str>, reply: Msg) {
        let last = self.client.last().cloned().expect("a message");
        let position = |list: &[Msg], id: &str| list.iter().position(|m| m.id == id);
        match (op, trigger, target) {
            (Op::Fork(_), _, _) => self.server = self.client.clone(),
            (_, REGENERATE, _) => {
                let at = target.and_then(|id| position(&self.server, id));
                let index = at.unwrap_or(self.server.len() - 1);
                let cut = if self.server[index].role == "assistant" {
                    index
                } else {
                    index + 1
                };
                self.server.truncate(cut);
            }
            (_, _, Some(id)) => {
                let at = position(&self.server, id).expect("the edited message");
                self.server.truncate(at);
                self.server.push(last);
            }
            _ => self.server.push(last),
        }
        self.server.push(reply);
    }

    /// The body the client posts, read by the adapter, then cut by the agent's rule.
    fn turn(&mut self, trigger: &str, target: Option<&str>, reply: Msg) {
        let list = if self.last_only {
            &self.client[self.client.len() - 1..]
        } else {
            &self.client[..]
        };
        let messages: Vec<_> = list
            .iter()
            .map(|m| json!({"id": m.id, "role": m.role, "parts": [{"type": "text", "text": m.text}]}))
            .collect();
        let mut body = json!({"id": "chat", "trigger": trigger, "messages": messages});
        if let Some(target) = target {
            body["messageId"] = json!(target);
        }
        let request = parse_chat_request(body.to_string().as_bytes(), &Limits::default()).unwrap();
        let branch: Option<Vec<String>> = request
            .place
            .branch
            .as_deref()
            .map(|json| serde_json::from_str(json).unwrap());
        let stored: Vec<&str> = self.agent.iter().map(|m| m.id.as_str()).collect();
        let keep = kept(
            &stored,
            request.place.message_id.as_deref(),
            branch.as_deref(),
        );
        self.agent.truncate(keep);
        let id = request.place.message_id.expect("the client's id");
        self.agent.push(Msg {
            id,
            role: "user",
            text: request.text,
        });
        self.agent.push(reply);
    }
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => Just(Op::Send),
        1 => Just(Op::Regenerate(None)),
        1 => (0..20usize).prop_map(|i| Op::Regenerate(Some(i))),
        1 => (0..20usize).prop_map(Op::Edit),
        1 => (0..20usize).prop_map(Op::Fork),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// After any sequence of stock operations, the agent keeps the conversation the example
    /// server keeps, and the client shows: the same ids, roles and texts.
    #[test]
    fn the_agent_keeps_what_the_example_server_keeps(ops in proptest::collection::vec(op(), 1..25)) {
        let mut world = World::default();
        for op in &ops {
            if world.apply(op) {
                prop_assert_eq!(&world.agent, &world.server, "after {:?}", op);
                prop_assert_eq!(&world.agent, &world.client, "after {:?}", op);
            }
        }
    }

    /// A client that sends only its last message: sends, regenerates and edits still keep one
    /// conversation (a message the agent has is replaced; a new one is appended).
    #[test]
    fn a_client_sending_its_last_message_only_keeps_it_too(
        ops in proptest::collection::vec(op().prop_filter("no fork", |op| !matches!(op, Op::Fork(_))), 1..25),
    ) {
        let mut world = World { last_only: true, ..World::default() };
        for op in &ops {
            if world.apply(op) {
                prop_assert_eq!(&world.agent, &world.server, "after {:?}", op);
            }
        }
    }
}
