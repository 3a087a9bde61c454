//! Tests of `session`.

use super::*;

#[test]
fn the_turn_in_flight_is_the_last_unfinished_assistant_message() {
    let init = parse_init(
            r#"{"type":"init","session":{"id":"s"},"messages":[
              {"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}]},
              {"id":"a1","role":"assistant","parts":[{"type":"text","text":"yo"},{"type":"finish","reason":"end_turn"}]},
              {"id":"u2","role":"user","parts":[{"type":"text","text":"more"}]},
              {"id":"t9","role":"assistant","parts":[{"type":"text","text":"wor","streaming":true}]}
            ]}"#,
        )
        .unwrap();
    assert_eq!(init.messages.len(), 4);
    assert_eq!(init.skipped, 0);
    assert_eq!(init.in_flight().map(|m| m.id.as_str()), Some("t9"));
    assert!(init.messages[1].is_finished());
    assert_eq!(
        init.messages[1].finish_reason(),
        Some(FinishReason::EndTurn)
    );
}

#[test]
fn no_turn_in_flight_when_every_assistant_message_finished() {
    let init = parse_init(
            r#"{"type":"init","messages":[{"id":"a","role":"assistant","parts":[{"type":"finish","reason":"canceled"}]}]}"#,
        )
        .unwrap();
    assert!(init.in_flight().is_none());
    assert!(parse_init(r#"{"type":"init"}"#)
        .unwrap()
        .in_flight()
        .is_none());
}

#[test]
fn unusable_messages_and_parts_are_skipped_and_counted() {
    let init = parse_init(
            r#"{"type":"init","messages":[
              {"role":"user","parts":[]},
              7,
              {"id":"a","role":"assistant","parts":[
                {"type":"text"},
                {"type":"hologram","x":1},
                {"type":"tool-call","callId":"c","toolName":"ls","status":"running","args":{"p":"/"}},
                {"type":"question","questionId":"q","text":"Go?","options":["yes","no"]}
              ]},
              {"id":"x","role":"system","parts":[]}
            ]}"#,
        )
        .unwrap();
    assert_eq!(init.skipped, 4);
    assert_eq!(init.messages.len(), 2);
    assert_eq!(init.messages[1].role, Role::Other);
    let a = &init.messages[0];
    assert_eq!(a.parts.len(), 2);
    assert_eq!(a.pending_question().map(|q| q.text.as_str()), Some("Go?"));
    assert!(matches!(&a.parts[0], Part::ToolCall(c) if c.status == ToolStatus::Running));
}

#[test]
fn other_frames_and_garbage_are_errors() {
    for bad in [
        r#"{"type":"complete"}"#,
        "nope",
        r#"{"type":"init","messages":{}}"#,
    ] {
        assert!(parse_init(bad).is_err(), "{bad}");
    }
}

#[test]
fn parts_serialise_back_to_the_protocol_shape() {
    let part = Part::parse(
            r#"{"type":"tool-call","callId":"c","toolName":"ls","status":"completed","result":{"n":1}}"#,
        )
        .unwrap();
    assert_eq!(
        serde_json::to_string(&part).unwrap(),
        r#"{"type":"tool-call","callId":"c","toolName":"ls","status":"completed","result":{"n":1}}"#
    );
    let file = Part::parse(r#"{"type":"file","mediaType":"text/plain","url":"data:,x"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&file).unwrap(),
        r#"{"type":"file","mediaType":"text/plain","url":"data:,x"}"#
    );
}

#[test]
fn protocol_5_messages_name_their_place_in_the_tree() {
    let init = parse_init(
        r#"{"type":"init","protocol":5,"messages":[
        {"id":"u1","ref":"u_1","parent":null,"role":"user","parts":[],"siblings":["u_0","u_1"]},
        {"id":"a1","ref":"a1","parent":"u_1","role":"assistant","parts":[{"type":"finish","reason":"end_turn"}]},
        {"id":"u2","ref":"bad ref","parent":{"x":1},"role":"user","parts":[],"siblings":["u_9","u_8"]},
        {"id":"u3","role":"user","parts":[]}]}"#,
    )
    .unwrap();
    let [first, reply, odd, old] = &init.messages[..] else {
        panic!("four messages")
    };
    assert_eq!(first.key.as_deref(), Some("u_1"));
    assert_eq!(first.parent, Some(None), "null: the root");
    assert_eq!(first.siblings, ["u_0", "u_1"]);
    assert_eq!(reply.parent, Some(Some("u_1".to_owned())));
    assert!(reply.siblings.is_empty());
    // A ref of the wrong shape is none, an odd parent no word, siblings without its own none.
    assert_eq!((odd.key.as_deref(), &odd.parent), (None, &None));
    assert!(odd.siblings.is_empty());
    assert_eq!(
        (old.key.as_deref(), &old.parent),
        (None, &None),
        "an older agent's"
    );
    // And back as the agent wrote them.
    assert_eq!(
        serde_json::to_string(first).unwrap(),
        r#"{"id":"u1","ref":"u_1","parent":null,"siblings":["u_0","u_1"],"role":"user","parts":[]}"#
    );
}

#[test]
fn a_history_page_says_whether_older_messages_exist() {
    let page = parse_history(
        r#"{"type":"history","requestId":"h1","messages":[
        {"id":"a1","ref":"a1","parent":"u_1","role":"assistant","parts":[]},"garbage"]}"#,
    )
    .unwrap();
    assert_eq!(page.request_id.as_deref(), Some("h1"));
    assert_eq!(page.messages.len(), 1);
    assert_eq!(page.skipped, 1);
    assert_eq!(page.older(), Some("a1"));
    let first = parse_history(
        r#"{"type":"history","messages":[{"id":"u1","ref":"u_1","parent":null,"role":"user","parts":[]}]}"#,
    )
    .unwrap();
    assert_eq!(first.older(), None);
    assert_eq!(
        parse_history(r#"{"type":"history","messages":[]}"#)
            .unwrap()
            .older(),
        None
    );
    assert!(parse_history(r#"{"type":"init","messages":[]}"#).is_err());
    assert!(
        parse_history(r#"{"type":"history"}"#).is_err(),
        "no messages: no page"
    );
    let message = parse_message(r#"{"id":"u3","ref":"u_3","parent":"a1","role":"user","parts":[{"type":"text","text":"hi"},{"type":"nope"}]}"#).unwrap();
    assert_eq!(message.parts.len(), 1);
    assert_eq!(message.parent, Some(Some("a1".to_owned())));
}
