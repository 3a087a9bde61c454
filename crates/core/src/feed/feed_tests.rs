use serde_json::{json, Value};

use super::*;
use crate::session::parse_init;

/// An `init` of `messages` (protocol 4).
fn init(messages: Value) -> Init {
    parse_init(&json!({"type": "init", "protocol": 4, "messages": messages}).to_string()).unwrap()
}

fn user(id: &str, text: &str) -> Value {
    json!({"id": id, "role": "user", "parts": [{"type": "text", "text": text}]})
}

fn done(id: &str, reason: &str) -> Value {
    json!({"id": id, "role": "assistant", "parts": [{"type": "text", "text": "ok"}, {"type": "finish", "reason": reason}]})
}

fn running(id: &str) -> Value {
    json!({"id": id, "role": "assistant", "parts": [{"type": "text", "text": "wor"}]})
}

fn waiting(id: &str, question: &str, answer: Option<Value>) -> Value {
    let mut q = json!({"type": "question", "questionId": question, "text": "Which?"});
    if let Some(answer) = answer {
        q["answer"] = answer;
    }
    json!({"id": id, "role": "assistant", "parts": [q]})
}

/// The SSE events of `bytes`: each `(id, data)`.
fn events(bytes: &[u8]) -> Vec<(String, Value)> {
    let text = std::str::from_utf8(bytes).unwrap();
    assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
    text.split_terminator("\n\n")
        .map(|event| {
            let (id, data) = event.split_once('\n').expect("two lines");
            let id = id.strip_prefix("id: ").expect("id first");
            let data = data.strip_prefix("data: ").expect("data second");
            (id.to_owned(), serde_json::from_str(data).unwrap())
        })
        .collect()
}

fn written(step: Step) -> Vec<(String, Value)> {
    match step {
        Step::Write(bytes) => events(&bytes),
        other => panic!("expected events, got {other:?}"),
    }
}

/// The feed stands where `init` says the session is: the same state, the same name.
fn assert_lands(feed: &Feed, init: &Init) {
    assert_eq!(feed.state(), &SessionState::of(init));
}

/// Hands `feed` the `message.create` of `turn_id`, a turn it has not seen: it asks to read the
/// session again.
fn heard(feed: &mut Feed, turn_id: &str) {
    let create = format!(r#"{{"type":"message.create","turnId":"{turn_id}","requestId":"r"}}"#);
    assert_eq!(
        feed.on_frame(&create).unwrap(),
        Step::Rehydrate {
            turn_id: turn_id.into()
        }
    );
}

fn types(events: &[(String, Value)]) -> Vec<&str> {
    events
        .iter()
        .map(|(_, e)| e["type"].as_str().unwrap())
        .collect()
}

#[test]
fn a_new_feed_opens_with_the_session_as_it_is() {
    let now = init(json!([
        user("u1", "Hi"),
        done("a1", "end_turn"),
        user("u2", "More"),
        running("a2")
    ]));
    let (_, bytes) = Feed::open(&now, None);
    let events = events(&bytes);
    assert_eq!(
        events,
        vec![(
            SessionState::of(&now).key(),
            json!({"type": "sync", "messageIds": ["u1", "a1", "u2"], "turn": {"turnId": "a2"}})
        )]
    );
}

#[test]
fn a_feed_resumed_at_the_state_the_session_is_in_repeats_nothing() {
    let now = init(json!([user("u1", "Hi"), done("a1", "end_turn")]));
    let key = SessionState::of(&now).key();
    let (_, bytes) = Feed::open(&now, Some(&key));
    assert!(bytes.is_empty());
    // Another state's name (the client missed something): the session as it is.
    let (_, bytes) = Feed::open(&now, Some("0000000000000000"));
    assert_eq!(types(&events(&bytes)), ["sync"]);
    // An empty session: said once.
    let (feed, bytes) = Feed::open(&init(json!([])), None);
    assert_eq!(
        events(&bytes)[0].1,
        json!({"type": "sync", "messageIds": [], "turn": null})
    );
    assert_eq!(feed.state(), &SessionState::default());
}

#[test]
fn a_forgotten_session_is_told_as_deleted_named_as_an_empty_session_and_ends_the_feed() {
    let now = init(json!([
        user("u1", "Hi"),
        done("a1", "end_turn"),
        user("u2", "More"),
        running("a2")
    ]));
    let (mut feed, _) = Feed::open(&now, None);
    let step = feed
        .on_frame(r#"{"type":"forgotten","requestId":"f1"}"#)
        .unwrap();
    let Step::Deleted(bytes) = step else {
        panic!("expected the end of the feed, got {step:?}");
    };
    let empty = init(json!([]));
    assert_eq!(
        events(&bytes),
        vec![(SessionState::of(&empty).key(), json!({"type": "deleted"}))]
    );
    assert_lands(&feed, &empty);
    // A client that comes back with that name to the new, empty session hears nothing again.
    let (_, bytes) = Feed::open(&empty, Some(&SessionState::of(&empty).key()));
    assert!(bytes.is_empty());
}

#[test]
fn a_turn_it_has_not_seen_reads_the_session_again_and_starts_with_its_user_message() {
    let before = init(json!([user("u1", "Hi"), done("a1", "end_turn")]));
    let (mut feed, _) = Feed::open(&before, None);
    heard(&mut feed, "a2");
    let now = init(json!([
        user("u1", "Hi"),
        done("a1", "end_turn"),
        user("u2", "More"),
        running("a2")
    ]));
    let events = events(&feed.rehydrated(&now, "a2"));
    assert_eq!(
        events,
        vec![(
            SessionState::of(&now).key(),
            json!({"type": "turn-start", "turnId": "a2", "branch": ["u1", "a1"],
                   "message": {"id": "u2", "role": "user", "parts": [{"type": "text", "text": "More", "state": "done"}]}})
        )]
    );
    assert_lands(&feed, &now);
    // The turn's deltas and tools are its stream's, not the feed's.
    let delta = r#"{"type":"message.part.text-delta","turnId":"a2","delta":"x"}"#;
    assert_eq!(feed.on_frame(delta).unwrap(), Step::Nothing);
    let tool = r#"{"type":"message.part.tool-update","turnId":"a2","callId":"c","toolName":"t","status":"running"}"#;
    assert_eq!(feed.on_frame(tool).unwrap(), Step::Nothing);
    let status = r#"{"type":"agentStatus","status":"thinking"}"#;
    assert_eq!(feed.on_frame(status).unwrap(), Step::Nothing);
}

#[test]
fn a_delta_of_an_unknown_turn_reads_the_session_again_too() {
    let (mut feed, _) = Feed::open(&init(json!([])), None);
    let delta = r#"{"type":"message.part.text-delta","turnId":"a9","delta":"x"}"#;
    assert_eq!(
        feed.on_frame(delta).unwrap(),
        Step::Rehydrate {
            turn_id: "a9".into()
        }
    );
}

#[test]
fn the_turns_finalize_ends_it_where_a_new_init_would_put_it() {
    let now = init(json!([user("u1", "Hi"), running("a1")]));
    let (mut feed, _) = Feed::open(&now, None);
    for (reason, name) in [
        ("canceled", "canceled"),
        ("error", "error"),
        ("whatever", "end_turn"),
    ] {
        let (mut feed, _) = Feed::open(&now, None);
        let finalize =
            format!(r#"{{"type":"message.finalize","turnId":"a1","reason":"{reason}"}}"#);
        let events = written(feed.on_frame(&finalize).unwrap());
        assert_eq!(
            events[0].1,
            json!({"type": "turn-end", "turnId": "a1", "reason": name})
        );
    }
    let finalize = r#"{"type":"message.finalize","turnId":"a1","reason":"end_turn"}"#;
    let events = written(feed.on_frame(finalize).unwrap());
    let later = init(json!([user("u1", "Hi"), done("a1", "end_turn")]));
    assert_eq!(events[0].0, SessionState::of(&later).key());
    assert_lands(&feed, &later);
    // A late frame of the ended turn, and `complete`: nothing more.
    assert_eq!(feed.on_frame(finalize).unwrap(), Step::Nothing);
    assert_eq!(
        feed.on_frame(r#"{"type":"complete"}"#).unwrap(),
        Step::Nothing
    );
}

#[test]
fn a_question_waits_once_and_the_first_event_after_it_goes_on() {
    let (mut feed, _) = Feed::open(&init(json!([user("u1", "Hi"), running("a1")])), None);
    let question = r#"{"type":"question","questionId":"q1","text":"Which?"}"#;
    let events = written(feed.on_frame(question).unwrap());
    assert_eq!(
        events[0].1,
        json!({"type": "turn-waiting", "turnId": "a1", "questionId": "q1"})
    );
    let asked = init(json!([user("u1", "Hi"), waiting("a1", "q1", None)]));
    assert_eq!(events[0].0, SessionState::of(&asked).key());
    // The same question again (an agent that repeats itself): nothing.
    assert_eq!(feed.on_frame(question).unwrap(), Step::Nothing);
    let delta = r#"{"type":"message.part.text-delta","turnId":"a1","delta":"x"}"#;
    let events = written(feed.on_frame(delta).unwrap());
    assert_eq!(
        events[0].1,
        json!({"type": "turn-continue", "turnId": "a1"})
    );
    let answered = init(json!([
        user("u1", "Hi"),
        waiting("a1", "q1", Some(json!("eu")))
    ]));
    assert_eq!(events[0].0, SessionState::of(&answered).key());
    assert_eq!(feed.on_frame(delta).unwrap(), Step::Nothing);
    // A question with no turn in flight is nobody's.
    let (mut idle, _) = Feed::open(&init(json!([])), None);
    assert_eq!(idle.on_frame(question).unwrap(), Step::Nothing);
}

#[test]
fn a_regenerate_elsewhere_cuts_the_conversation_in_the_turn_start() {
    let before = init(json!([
        user("u1", "Hi"),
        done("a1", "end_turn"),
        user("u2", "More"),
        done("a2", "end_turn")
    ]));
    let (mut feed, _) = Feed::open(&before, None);
    heard(&mut feed, "a3");
    let now = init(json!([
        user("u1", "Hi"),
        done("a1", "end_turn"),
        user("u2", "Less"),
        running("a3")
    ]));
    let events = events(&feed.rehydrated(&now, "a3"));
    assert_eq!(types(&events), ["turn-start"]);
    assert_eq!(events[0].1["branch"], json!(["u1", "a1"]));
    assert_eq!(events[0].1["message"]["parts"][0]["text"], "Less");
    assert_lands(&feed, &now);
}

#[test]
fn a_turn_over_before_the_session_was_read_starts_and_ends() {
    let (mut feed, _) = Feed::open(
        &init(json!([user("u1", "Hi"), done("a1", "end_turn")])),
        None,
    );
    heard(&mut feed, "a2");
    let now = init(json!([
        user("u1", "Hi"),
        done("a1", "end_turn"),
        user("u2", "More"),
        done("a2", "canceled")
    ]));
    let events = events(&feed.rehydrated(&now, "a2"));
    assert_eq!(types(&events), ["turn-start", "turn-end"]);
    assert_eq!(events[1].1["reason"], "canceled");
    // Each event is named by the state it leads to: the start's, a turn in flight.
    let started = SessionState {
        ids: vec!["u1".into(), "a1".into(), "u2".into()],
        refs: Vec::new(),
        turn: Some(TurnInFlight {
            turn_id: "a2".into(),
            question_id: None,
        }),
    };
    assert_eq!(events[0].0, started.key());
    assert_eq!(events[1].0, SessionState::of(&now).key());
    assert_lands(&feed, &now);
}

#[test]
fn a_turn_that_asked_before_the_session_was_read_starts_and_waits() {
    let (mut feed, _) = Feed::open(&init(json!([])), None);
    heard(&mut feed, "a1");
    let now = init(json!([user("u1", "Hi"), waiting("a1", "q1", None)]));
    let events = events(&feed.rehydrated(&now, "a1"));
    assert_eq!(types(&events), ["turn-start", "turn-waiting"]);
    assert_eq!(events[0].1["branch"], json!([]));
    assert_lands(&feed, &now);
}

#[test]
fn the_followed_turn_ends_before_the_next_one_starts() {
    let (mut feed, _) = Feed::open(&init(json!([user("u1", "Hi"), running("a1")])), None);
    // Its finalize was missed (a garbled frame); the next turn's create arrives.
    assert!(feed.on_frame("{not json").is_err());
    heard(&mut feed, "a2");
    let now = init(json!([
        user("u1", "Hi"),
        done("a1", "error"),
        user("u2", "Again"),
        running("a2")
    ]));
    let events = events(&feed.rehydrated(&now, "a2"));
    assert_eq!(types(&events), ["turn-end", "turn-start"]);
    assert_eq!(
        events[0].1,
        json!({"type": "turn-end", "turnId": "a1", "reason": "error"})
    );
    assert_eq!(events[1].1["branch"], json!(["u1", "a1"]));
    assert_lands(&feed, &now);
}

#[test]
fn complete_while_a_turn_seems_to_run_reads_the_session_again() {
    let (mut feed, _) = Feed::open(&init(json!([user("u1", "Hi"), running("a1")])), None);
    assert_eq!(
        feed.on_frame(r#"{"type":"complete"}"#).unwrap(),
        Step::Rehydrate {
            turn_id: "a1".into()
        }
    );
    let now = init(json!([user("u1", "Hi"), done("a1", "end_turn")]));
    let events = events(&feed.rehydrated(&now, "a1"));
    assert_eq!(types(&events), ["turn-end"]);
    assert_lands(&feed, &now);
    // Read again with nothing changed: nothing to say.
    assert!(feed.rehydrated(&now, "a1").is_empty());
}

#[test]
fn anything_else_that_changed_is_a_sync() {
    let (mut feed, _) = Feed::open(
        &init(json!([user("u1", "Hi"), done("a1", "end_turn")])),
        None,
    );
    // The turn heard of is gone (taken back), nothing runs, and the history changed.
    let now = init(json!([user("u9", "Other")]));
    let events = events(&feed.rehydrated(&now, "a7"));
    assert_eq!(types(&events), ["sync"]);
    assert_eq!(events[0].1["messageIds"], json!(["u9"]));
    assert_lands(&feed, &now);
}

#[test]
fn a_turn_with_no_user_message_before_it_starts_without_one() {
    let (mut feed, _) = Feed::open(&init(json!([])), None);
    let _ = feed.on_frame(r#"{"type":"message.create","turnId":"a1"}"#);
    let now = init(json!([done("a0", "end_turn"), running("a1")]));
    let events = events(&feed.rehydrated(&now, "a1"));
    assert_eq!(events[0].1["message"], Value::Null);
    assert_eq!(events[0].1["branch"], json!(["a0"]));
    assert_lands(&feed, &now);
}

#[test]
fn a_garbled_frame_is_an_error_and_changes_nothing() {
    let now = init(json!([user("u1", "Hi"), running("a1")]));
    let (mut feed, _) = Feed::open(&now, None);
    for garbled in ["", "[]", "{\"type\":3}", "{\"type\":\"message.finalize\"}"] {
        assert!(feed.on_frame(garbled).is_err(), "{garbled}");
    }
    assert_lands(&feed, &now);
}

/// The events docs/endpoint.md shows ("The session feed") are a feed's, byte for byte: a
/// conversation of one turn, a second that asks a question, is answered and ends; then the session
/// is deleted.
#[test]
fn the_endpoint_pages_events_are_a_feeds() {
    let page = include_str!("../../../../docs/endpoint.md");
    let section = &page[page.find("## The session feed").expect("the section")..];
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("its text block");
    let before = init(json!([user("u1", "Hi"), done("msg_a1", "end_turn")]));
    let (mut feed, mut out) = Feed::open(&before, None);
    heard(&mut feed, "msg_a2");
    let now = init(json!([
        user("u1", "Hi"),
        done("msg_a1", "end_turn"),
        user("u2", "Deploy it"),
        running("msg_a2")
    ]));
    out.extend(feed.rehydrated(&now, "msg_a2"));
    for frame in [
        r#"{"type":"question","questionId":"q1","text":"Deploy now?"}"#,
        r#"{"type":"message.part.text-delta","turnId":"msg_a2","delta":"Deploying"}"#,
        r#"{"type":"message.finalize","turnId":"msg_a2","reason":"end_turn"}"#,
    ] {
        match feed.on_frame(frame).unwrap() {
            Step::Write(bytes) => out.extend(bytes),
            other => panic!("{other:?}"),
        }
    }
    // Then the session is deleted: the feed's last event.
    match feed
        .on_frame(r#"{"type":"forgotten","requestId":"f1"}"#)
        .unwrap()
    {
        Step::Deleted(bytes) => out.extend(bytes),
        other => panic!("{other:?}"),
    }
    let written = String::from_utf8(out).unwrap();
    assert_eq!(
        block,
        written.trim_end_matches('\n').to_owned() + "\n",
        "the page shows:\n{block}\nthe feed writes:\n{written}"
    );
}
