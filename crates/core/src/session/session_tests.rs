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
