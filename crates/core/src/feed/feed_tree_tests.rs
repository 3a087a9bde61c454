//! Tests of the feed on an agent of protocol 5, whose `message.create` carries the turn's user
//! message and where it attaches: a turn started anywhere is told from that frame alone (no
//! second `init`), cut where the turn attaches; a feed that cannot place it reads the session
//! again.

use serde_json::{json, Value};

use super::*;
use crate::session::parse_init;

/// A protocol 5 message: its ref is its id for a reply, `k<id>` for a user message.
fn msg(id: &str, role: &str, parent: Option<&str>, finished: bool) -> Value {
    let key = if role == "user" {
        format!("k{id}")
    } else {
        id.to_owned()
    };
    let mut parts = vec![json!({"type": "text", "text": id})];
    if finished {
        parts.push(json!({"type": "finish", "reason": "end_turn"}));
    }
    json!({"id": id, "ref": key, "parent": parent, "role": role, "parts": parts})
}

/// The conversation u1 a1 u2 a2, finished.
fn conversation() -> Init {
    let messages = json!([
        msg("u1", "user", None, false),
        msg("a1", "assistant", Some("ku1"), true),
        msg("u2", "user", Some("a1"), false),
        msg("a2", "assistant", Some("ku2"), true),
    ]);
    parse_init(&json!({"type": "init", "protocol": 5, "messages": messages}).to_string()).unwrap()
}

/// The `message.create` of `turn_id` for the user message `user` after `parent`.
fn create(turn_id: &str, user: &str, parent: Option<&str>) -> String {
    let mut message = msg(user, "user", parent, false);
    message["siblings"] = json!(["kold", format!("k{user}")]);
    json!({"type": "message.create", "turnId": turn_id, "requestId": "r", "message": message})
        .to_string()
}

fn written(step: Step) -> Vec<Value> {
    let Step::Write(bytes) = step else {
        panic!("expected events, got {step:?}")
    };
    let text = String::from_utf8(bytes).unwrap();
    text.split_terminator("\n\n")
        .map(|event| serde_json::from_str(event.split_once("\ndata: ").unwrap().1).unwrap())
        .collect()
}

#[test]
fn a_turn_after_the_last_message_is_told_from_its_create_alone() {
    let (mut feed, _) = Feed::open(&conversation(), None);
    let events = written(feed.on_frame(&create("a3", "u3", Some("a2"))).unwrap());
    assert_eq!(events.len(), 1);
    let start = &events[0];
    assert_eq!(start["type"], "turn-start");
    assert_eq!(start["branch"], json!(["u1", "a1", "u2", "a2"]));
    assert_eq!(start["message"]["id"], "u3");
    assert_eq!(
        start["message"]["metadata"],
        json!({"ref": "ku3", "siblings": {"index": 1, "count": 2, "refs": ["kold", "ku3"]}})
    );
    // Its events are the turn's own; its end lands where a later init would.
    let delta = r#"{"type":"message.part.text-delta","turnId":"a3","delta":"x"}"#;
    assert_eq!(feed.on_frame(delta).unwrap(), Step::Nothing);
    let end = r#"{"type":"message.finalize","turnId":"a3","reason":"end_turn"}"#;
    assert_eq!(written(feed.on_frame(end).unwrap())[0]["type"], "turn-end");
    assert_eq!(
        feed.state().ids,
        ["u1", "a1", "u2", "a2", "u3", "a3"].map(String::from)
    );
    // The next turn follows the reply the feed saw end: still no second init.
    let next = written(feed.on_frame(&create("a4", "u4", Some("a3"))).unwrap());
    assert_eq!(next[0]["branch"].as_array().unwrap().len(), 6);
}

#[test]
fn a_turn_that_attaches_earlier_cuts_the_clients_conversation_there() {
    // A stale device's send after a1, a regenerate of u1 (a new reply to it), a new first message.
    for (parent, branch) in [
        (Some("a1"), json!(["u1", "a1"])),
        (Some("ku1"), json!(["u1"])),
        (None, json!([])),
    ] {
        let (mut feed, _) = Feed::open(&conversation(), None);
        let events = written(feed.on_frame(&create("a3", "u3", parent)).unwrap());
        assert_eq!(events[0]["branch"], branch, "after {parent:?}");
    }
}

#[test]
fn a_turn_the_feed_cannot_place_reads_the_session_again() {
    let rehydrate = Step::Rehydrate {
        turn_id: "a3".into(),
    };
    // A parent the feed does not hold (a branch older than its init showed).
    let (mut feed, _) = Feed::open(&conversation(), None);
    assert_eq!(
        feed.on_frame(&create("a3", "u3", Some("nobody"))).unwrap(),
        rehydrate
    );
    // A message it cannot read, or one with no word on its parent.
    let (mut feed, _) = Feed::open(&conversation(), None);
    let broken = r#"{"type":"message.create","turnId":"a3","message":{"id":7}}"#;
    assert_eq!(feed.on_frame(broken).unwrap(), rehydrate);
    let (mut feed, _) = Feed::open(&conversation(), None);
    let silent =
        r#"{"type":"message.create","turnId":"a3","message":{"id":"u3","role":"user","parts":[]}}"#;
    assert_eq!(feed.on_frame(silent).unwrap(), rehydrate);
    // An older agent's create, with no message: as before.
    let (mut feed, _) = Feed::open(&conversation(), None);
    let old = r#"{"type":"message.create","turnId":"a3"}"#;
    assert_eq!(feed.on_frame(old).unwrap(), rehydrate);
}

#[test]
fn a_create_while_the_feed_follows_a_turn_reads_the_session_again() {
    let (mut feed, _) = Feed::open(&conversation(), None);
    written(feed.on_frame(&create("a3", "u3", Some("a2"))).unwrap());
    // The end of a3 was missed: a4 starts.
    assert_eq!(
        feed.on_frame(&create("a4", "u4", Some("a3"))).unwrap(),
        Step::Rehydrate {
            turn_id: "a4".into()
        }
    );
    // A repeated create of a turn the client was told ended: nothing.
    let (mut feed, _) = Feed::open(&conversation(), None);
    assert_eq!(
        feed.on_frame(&create("a2", "u2", Some("a1"))).unwrap(),
        Step::Nothing
    );
}

#[test]
fn a_user_message_over_the_cap_goes_as_null_and_the_feed_still_follows_its_turn() {
    let (mut feed, _) = Feed::open(&conversation(), None);
    let mut big = msg("u3", "user", Some("a2"), false);
    let image = format!("data:image/png;base64,{}", "A".repeat(MAX_MESSAGE_BYTES));
    big["parts"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "file", "mediaType": "image/png", "url": image}));
    let frame = json!({"type": "message.create", "turnId": "a3", "requestId": "r", "message": big});
    let events = written(feed.on_frame(&frame.to_string()).unwrap());
    assert_eq!(events[0]["type"], "turn-start");
    assert_eq!(events[0]["message"], Value::Null, "no image in the feed");
    assert_eq!(events[0]["branch"], json!(["u1", "a1", "u2", "a2"]));
    let end = r#"{"type":"message.finalize","turnId":"a3","reason":"end_turn"}"#;
    assert_eq!(written(feed.on_frame(end).unwrap())[0]["type"], "turn-end");
    assert_eq!(
        feed.state().ids,
        ["u1", "a1", "u2", "a2", "u3", "a3"].map(String::from),
        "the message is held by id, as a client that reads the history holds it"
    );
    // A message just under the cap goes whole; every event of the turn stays small.
    let (mut feed, _) = Feed::open(&conversation(), None);
    let mut text = msg("u3", "user", Some("a2"), false);
    text["parts"][0]["text"] = json!("a".repeat(MAX_MESSAGE_BYTES - 200));
    let frame =
        json!({"type": "message.create", "turnId": "a3", "requestId": "r", "message": text});
    let Step::Write(bytes) = feed.on_frame(&frame.to_string()).unwrap() else {
        panic!("a turn-start")
    };
    assert!(bytes.len() < MAX_MESSAGE_BYTES + 200, "{}", bytes.len());
    let start: Value = serde_json::from_str(
        std::str::from_utf8(&bytes)
            .unwrap()
            .split_once("\ndata: ")
            .unwrap()
            .1
            .trim_end(),
    )
    .unwrap();
    assert_eq!(start["message"]["id"], "u3");
}

#[test]
fn a_turn_read_from_the_session_again_drops_a_user_message_over_the_cap_too() {
    let (mut feed, _) = Feed::open(&conversation(), None);
    let mut big = msg("u3", "user", Some("a2"), false);
    big["parts"][0]["text"] = json!("a".repeat(MAX_MESSAGE_BYTES + 1));
    let messages = json!([
        msg("u1", "user", None, false),
        msg("a1", "assistant", Some("ku1"), true),
        msg("u2", "user", Some("a1"), false),
        msg("a2", "assistant", Some("ku2"), true),
        big,
        msg("a3", "assistant", Some("ku3"), false),
    ]);
    let init = parse_init(
        &json!({"type": "init", "protocol": 5, "messages": messages, "turn": {"turnId": "a3"}})
            .to_string(),
    )
    .unwrap();
    let bytes = feed.rehydrated(&init, "a3");
    let start = written(Step::Write(bytes))
        .into_iter()
        .find(|e| e["type"] == "turn-start")
        .expect("a turn-start");
    assert_eq!(start["message"], Value::Null);
    assert_eq!(start["turnId"], "a3");
}

#[test]
fn a_sync_names_the_state_the_feed_holds() {
    let (feed, opening) = Feed::open(&conversation(), None);
    assert_eq!(feed.sync(), opening, "the same event a new feed opens with");
}
