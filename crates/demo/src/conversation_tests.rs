//! Tests of `conversation`, on a real SQLite: prompts of stale and current devices keep every
//! message, regenerates and edits are told apart by content (a shortened row included), what
//! `message.create` carries, a full store, `/grow`, the model's input and the pages.

use serde_json::{json, Value};

use super::*;
use crate::frames::finalize;
use crate::session::{parse_message, Part};
use crate::sqlite_tests::Sqlite;
use crate::v2::parse_frame;

const NOW: &str = "2026-12-02T10:00:00.000Z";

/// A session on a database: prompts, each turn finished at once unless asked not to.
struct Demo<'a> {
    store: TreeStore<&'a Sqlite>,
    turns: usize,
}

impl<'a> Demo<'a> {
    fn new(db: &'a Sqlite) -> Self {
        Demo {
            store: TreeStore::new(db),
            turns: 0,
        }
    }

    fn begin(&mut self, id: &str, branch: &[&str], text: &str, files: &[Attachment]) -> Started {
        self.try_begin(id, branch, text, files, None)
            .expect("room in the store")
    }

    fn try_begin(
        &mut self,
        id: &str,
        branch: &[&str],
        text: &str,
        files: &[Attachment],
        grow: Option<usize>,
    ) -> Result<Started, Full> {
        self.turns += 1;
        let branch: Vec<String> = branch.iter().map(|s| (*s).to_owned()).collect();
        let turn = format!("msg_{}", self.turns);
        start(
            &self.store,
            Start {
                content: text,
                attachments: files,
                place: Place {
                    message_id: Some(id),
                    branch: Some(&branch),
                },
                turn_id: &turn,
                fresh_ref: format!("u_{}", self.turns),
                fresh_id: format!("user_{}", self.turns),
                now: json!(NOW),
                grow: grow.map(|n| (n, format!("g{}", self.turns))),
            },
        )
    }

    /// A whole turn: started, then finished; the user message's ref and the reply's.
    fn turn(&mut self, id: &str, branch: &[&str], text: &str) -> (String, String) {
        let mut started = self.begin(id, branch, text, &[]);
        self.end(&mut started.reply);
        (started.user, started.reply.id)
    }

    fn end(&self, reply: &mut Message) {
        let end = finalize(&reply.id, "end_turn", Some("ok"), None).to_string();
        reply.apply(&parse_frame(&end).expect("a finalize"));
        self.store.finish(reply);
    }

    /// The current branch's messages as `id` (and refs, to check parents).
    fn current(&self) -> Vec<Value> {
        let page = page_messages(&self.store, Want::Current, 200, None, true).expect("a page");
        page.iter().map(|m| parse(m)).collect()
    }
}

fn parse(json: &str) -> Value {
    serde_json::from_str(json).expect("JSON")
}

fn ids(messages: &[Value]) -> Vec<&str> {
    messages
        .iter()
        .map(|m| m["id"].as_str().unwrap_or("?"))
        .collect()
}

#[test]
fn a_stale_devices_send_makes_a_branch_and_every_message_stays() {
    let db = Sqlite::new();
    let mut s = Demo::new(&db);
    let (u1, a1) = s.turn("u1", &[], "hi");
    // Device B loaded the history and sent u2; device A never saw it, and sends u3.
    let (u2, a2) = s.turn("u2", &["u1", &a1], "from b");
    let mut third = s.begin("u3", &["u1", &a1], "from a", &[]);
    let current = s.current();
    assert_eq!(ids(&current), ["u1", &a1, "u3", "msg_3"]);
    assert_eq!(current[2]["parent"], json!(a1));
    assert_eq!(current[2]["siblings"], json!([u2, third.user]));
    assert_eq!(
        current[3]["parts"],
        json!([]),
        "the turn in flight, as stored"
    );
    assert_eq!(s.store.len(), 6, "nothing deleted");
    // Its message.create names the user message and its place.
    let create = parse(&format!("{{{}}}", third.create_fields));
    assert_eq!(create["message"]["ref"], json!(third.user));
    assert_eq!(create["message"]["parent"], json!(a1));
    assert_eq!(create["message"]["siblings"], json!([u2, third.user]));
    assert_eq!(
        create.get("siblings"),
        None,
        "a first reply has no siblings"
    );
    // The model is given the path to u3: not u2, not a2.
    let seen = model_input(&s.store, &third.user, &third.user_json);
    let seen: Vec<Value> = seen.iter().map(|m| parse(m)).collect();
    assert_eq!(ids(&seen), ["u1", &a1, "u3"]);
    // Device B's branch is one request away.
    s.end(&mut third.reply);
    let other = page_messages(&s.store, Want::Leaf(&u2), 200, None, true).expect("stored");
    let other: Vec<Value> = other.iter().map(|m| parse(m)).collect();
    assert_eq!(ids(&other), ["u1", &a1, "u2", &a2]);
    assert_eq!(other[0]["ref"], json!(u1));
    assert!(
        db.failures.borrow().is_empty(),
        "{:?}",
        db.failures.borrow()
    );
}

#[test]
fn a_regenerate_is_a_new_reply_to_the_same_message_and_an_edit_a_new_message() {
    let db = Sqlite::new();
    let mut s = Demo::new(&db);
    let (u1, a1) = s.turn("u1", &[], "hi");
    let mut again = s.begin("u1", &[], "hi", &[]);
    assert_eq!(again.user, u1, "the same user message");
    assert_eq!(s.store.len(), 3, "one message more: the reply");
    let create = parse(&format!("{{{}}}", again.create_fields));
    assert_eq!(create["siblings"], json!([a1, "msg_2"]), "the replies");
    assert_eq!(create["message"]["ref"], json!(u1));
    s.end(&mut again.reply);
    // An edit keeps the id, says something else: a new message beside it.
    let (edited, _) = s.turn("u1", &[], "hello");
    assert_ne!(edited, u1);
    let current = s.current();
    assert_eq!(ids(&current), ["u1", "msg_3"]);
    assert_eq!(current[0]["siblings"], json!([u1, edited]));
    assert_eq!(s.store.len(), 5);
}

#[test]
fn a_message_whose_row_was_shortened_is_still_the_same_content() {
    let db = Sqlite::new();
    let mut s = Demo::new(&db);
    let big = [Attachment {
        media_type: "text/plain".into(),
        url: format!("data:,{}", "x".repeat(3_000_000)),
        filename: None,
        size: None,
    }];
    let first = s.begin("u1", &[], "read this", &big);
    let stored = &s.current()[0];
    assert_eq!(
        stored["parts"].as_array().map(Vec::len),
        Some(1),
        "the row dropped the file"
    );
    let mut first_reply = first.reply;
    s.end(&mut first_reply);
    let again = s.begin("u1", &[], "read this", &big);
    assert_eq!(again.user, first.user, "a regenerate, not an edit");
    let other = [Attachment {
        url: format!("data:,{}", "y".repeat(3_000_000)),
        ..big[0].clone()
    }];
    let mut again_reply = again.reply;
    s.end(&mut again_reply);
    let edit = s.begin("u1", &[], "read this", &other);
    assert_ne!(edit.user, first.user, "another file: an edit");
}

#[test]
fn a_full_store_refuses_a_prompt_and_stores_nothing() {
    let db = Sqlite::new();
    let mut s = Demo::new(&db);
    s.store.grow(None, MAX_SESSION_MESSAGES / 2 - 1, "f0", NOW);
    let last = s.store.newest().expect("grown").key;
    let mut lone = crate::rows::user_message("x".into(), "one more", &[], None);
    lone.key = Some("u_x".into());
    lone.parent = Some(Some(last.clone()));
    s.store.insert(&lone, None, false);
    assert_eq!(s.store.len(), MAX_SESSION_MESSAGES - 1);
    // A send needs two messages: refused, nothing stored.
    let refused = s.try_begin("new", &["x"], "hello", &[], None);
    assert_eq!(refused.err(), Some(Full));
    assert_eq!(s.store.len(), MAX_SESSION_MESSAGES - 1);
    assert_eq!(s.store.newest().map(|n| n.key).as_deref(), Some("u_x"));
    // A regenerate needs one: it fits, and then nothing more does.
    let reply = s
        .try_begin("x", &[], "one more", &[], None)
        .expect("room for one");
    assert_eq!(reply.user, "u_x");
    assert_eq!(s.store.len(), MAX_SESSION_MESSAGES);
    let refused = s.try_begin("x", &[], "one more", &[], None);
    assert_eq!(refused.err(), Some(Full));
}

#[test]
fn grow_stores_its_exchanges_before_its_own_message_and_within_the_cap() {
    let db = Sqlite::new();
    let mut s = Demo::new(&db);
    let (_, a1) = s.turn("u1", &[], "hi");
    let mut grown = s
        .try_begin("u2", &["u1", &a1], "/grow 3", &[], Some(3))
        .expect("room");
    assert_eq!(grown.grown, 3);
    s.end(&mut grown.reply);
    let current = s.current();
    let texts: Vec<&str> = current
        .iter()
        .map(|m| m["parts"][0]["text"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(
        texts,
        ["hi", "ok", "g1", "r1", "g2", "r2", "g3", "r3", "/grow 3", "ok"]
    );
    assert_eq!(current[8]["parent"], json!("msg_g2_r3"));
    assert_eq!(current[2]["parent"], json!(a1));
    // Near the cap, as many as fit, the turn's own two messages kept room for.
    s.store.grow(
        Some("msg_2"),
        (MAX_SESSION_MESSAGES - 12) / 2 - 1,
        "h0",
        NOW,
    );
    assert_eq!(s.store.len(), MAX_SESSION_MESSAGES - 4);
    let last = s.store.newest().expect("grown").id;
    let near = s
        .try_begin("u3", &[&last], "/grow 5", &[], Some(5))
        .expect("room");
    assert_eq!(near.grown, 1);
    assert_eq!(s.store.len(), MAX_SESSION_MESSAGES);
}

#[test]
fn pages_list_the_turn_in_flight_within_their_bounds() {
    let db = Sqlite::new();
    let mut s = Demo::new(&db);
    let (_, a1) = s.turn("u1", &[], "hi");
    let (u2, _) = s.turn("u2", &["u1", &a1], "more");
    let mut live = s.begin("u3", &["u1", &a1, "u2", "msg_2"], "go", &[]).reply;
    live.parts.push(Part::Text {
        text: "hal".into(),
        streaming: Some(true),
    });
    let page = page_messages(&s.store, Want::Current, 200, Some(&live), true).expect("a page");
    let last = parse_message(page.last().expect("a message")).expect("a message");
    assert_eq!(last.id, "msg_3");
    assert!(!last.is_finished());
    assert!(matches!(&last.parts[0], Part::Text { text, .. } if text == "hal"));
    assert_eq!(last.parent, Some(Some("u_3".into())));
    // Left out for an agent that does not list it.
    let page = page_messages(&s.store, Want::Current, 200, Some(&live), false).expect("a page");
    assert_eq!(
        ids(&page.iter().map(|m| parse(m)).collect::<Vec<_>>()),
        ["u1", &a1, "u2", "msg_2", "u3"]
    );
    // Older pages, by a limit and a cursor.
    let newest = page_messages(&s.store, Want::Current, 2, Some(&live), true).expect("a page");
    assert_eq!(newest.len(), 2);
    let older = page_messages(&s.store, Want::Before("u_3"), 2, None, true).expect("a page");
    let older: Vec<Value> = older.iter().map(|m| parse(m)).collect();
    assert_eq!(ids(&older), ["u2", "msg_2"]);
    assert_eq!(older[0]["ref"], json!(u2));
    assert_eq!(
        page_messages(&s.store, Want::Leaf("nope"), 200, None, true),
        None
    );
    assert_eq!(
        page_messages(&s.store, Want::Before("nope"), 200, None, true),
        None
    );
    let first = page_messages(&s.store, Want::Before("u_1"), 200, None, true);
    assert_eq!(first, Some(Vec::new()), "nothing before the first message");
}

#[test]
fn a_page_holds_at_most_its_bytes_the_newest_first() {
    let db = Sqlite::new();
    let mut s = Demo::new(&db);
    let mut branch: Vec<String> = Vec::new();
    let text = "x".repeat(500_000);
    for i in 0..8 {
        let refs: Vec<&str> = branch.iter().map(String::as_str).collect();
        let (_, reply) = s.turn(&format!("u{i}"), &refs, &text);
        branch.push(format!("u{i}"));
        branch.push(reply);
    }
    let page = page_messages(&s.store, Want::Current, 200, None, true).expect("a page");
    let bytes: usize = page.iter().map(|m| m.len() + 1).sum();
    assert!(bytes <= MAX_PAGE_BYTES, "{bytes}");
    // Six user messages of 500 KB fit in 3 MiB, a seventh does not: the newest 13 of 16.
    assert_eq!(page.len(), 13);
    let listed: Vec<Value> = page.iter().map(|m| parse(m)).collect();
    let tail: Vec<&str> = branch[3..].iter().map(String::as_str).collect();
    assert_eq!(ids(&listed), tail);
}

#[test]
fn a_failing_store_lets_the_turn_go_on() {
    let db = Sqlite::new();
    let mut s = Demo::new(&db);
    s.turn("u1", &[], "hi");
    *db.fail_on.borrow_mut() = Some("INSERT");
    let started = s.begin("u2", &[], "more", &[]);
    let create = parse(&format!("{{{}}}", started.create_fields));
    assert_eq!(
        create["message"]["id"],
        json!("u2"),
        "the message as it would be"
    );
    assert_eq!(db.failures.borrow().len(), 2, "{:?}", db.failures.borrow());
    assert_eq!(
        model_input(&s.store, &started.user, &started.user_json),
        std::slice::from_ref(&started.user_json)
    );
    // Its reply was not stored: `init` lists it all the same, the turn in flight last.
    let page = page_messages(&s.store, Want::Current, 200, Some(&started.reply), true);
    let page: Vec<Value> = page.expect("a page").iter().map(|m| parse(m)).collect();
    assert_eq!(ids(&page), ["u1", "msg_1", "msg_2"]);
}
