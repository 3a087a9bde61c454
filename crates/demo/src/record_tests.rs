//! Tests of `record`.

use super::*;
use crate::v2::parse_frame;

fn grow(frames: &[&str]) -> Message {
    let mut message = Message::assistant("t1");
    for f in frames {
        message.apply(&parse_frame(f).unwrap());
    }
    message
}

fn parts_json(message: &Message) -> String {
    serde_json::to_string(&message.parts).unwrap()
}

#[test]
fn deltas_join_their_part_until_another_kind_comes() {
    let m = grow(&[
        r#"{"type":"message.part.reasoning-delta","turnId":"t1","delta":"hm"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"Hel"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"lo"}"#,
        r#"{"type":"message.part.text-delta","turnId":"other","delta":"!"}"#,
        r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"running","args":{"p":1}}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"done"}"#,
    ]);
    assert_eq!(
        parts_json(&m),
        r#"[{"type":"reasoning","text":"hm"},{"type":"text","text":"Hello","streaming":true},{"type":"tool-call","callId":"c","toolName":"ls","status":"running","args":{"p":1}},{"type":"text","text":"done","streaming":true}]"#
    );
    assert!(!m.is_finished());
}

#[test]
fn tools_update_in_place_and_never_go_back() {
    let m = grow(&[
        r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"pending"}"#,
        r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"completed","args":{"p":1},"result":[1]}"#,
        r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"running"}"#,
    ]);
    assert_eq!(
        parts_json(&m),
        r#"[{"type":"tool-call","callId":"c","toolName":"ls","status":"completed","args":{"p":1},"result":[1]}]"#
    );
}

#[test]
fn questions_are_answered_once() {
    let mut m = grow(&[r#"{"type":"question","questionId":"q1","text":"Go?"}"#]);
    assert_eq!(
        m.pending_question().map(|q| q.question_id.as_str()),
        Some("q1")
    );
    assert!(!m.answer("q2", "yes".into()));
    assert!(m.answer("q1", "yes".into()));
    assert!(!m.answer("q1", "no".into()));
    assert!(m.pending_question().is_none());
    assert_eq!(
        parts_json(&m),
        r#"[{"type":"question","questionId":"q1","text":"Go?","answer":"yes"}]"#
    );
}

#[test]
fn the_finalize_closes_the_message() {
    let m = grow(&[
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"a"}"#,
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn","finalText":"ignored"}"#,
    ]);
    assert_eq!(
        parts_json(&m),
        r#"[{"type":"text","text":"a"},{"type":"finish","reason":"end_turn"}]"#
    );
    let failed = grow(&[
        r#"{"type":"message.finalize","turnId":"t1","reason":"error","finalText":"partial","error":{"message":"boom"}}"#,
    ]);
    assert_eq!(
        parts_json(&failed),
        r#"[{"type":"text","text":"partial"},{"type":"error","message":"boom"},{"type":"finish","reason":"error"}]"#
    );
    assert!(failed.is_finished());
}

#[test]
fn the_finish_keeps_what_the_turn_cost_and_drops_a_garbled_usage() {
    let m = grow(&[
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn","usage":{"inputTokens":3,"outputTokens":-1},"model":"m"}"#,
    ]);
    assert_eq!(
        parts_json(&m),
        r#"[{"type":"finish","reason":"end_turn","usage":{"inputTokens":3},"model":"m"}]"#
    );
    let garbled = grow(&[
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn","usage":"many","model":7}"#,
    ]);
    assert_eq!(
        parts_json(&garbled),
        r#"[{"type":"finish","reason":"end_turn"}]"#
    );
}

#[test]
fn data_parts_sources_and_metadata_are_kept_as_the_client_keeps_them() {
    let m = grow(&[
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"Hi"}"#,
        r#"{"type":"message.part.data","turnId":"t1","name":"progress","data":1,"transient":true}"#,
        r#"{"type":"message.part.data","turnId":"t1","name":"w","id":"w1","data":{"t":null}}"#,
        r#"{"type":"message.metadata","turnId":"t1","metadata":{"a":1}}"#,
        r#"{"type":"message.part.data","turnId":"t1","name":"w","id":"w1","data":{"t":18}}"#,
        r#"{"type":"message.part.data","turnId":"other","name":"w","data":0}"#,
        r#"{"type":"message.part.source","turnId":"t1","sourceId":"s1","url":"https://e.com"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"!"}"#,
    ]);
    assert_eq!(
        parts_json(&m),
        r#"[{"type":"text","text":"Hi","streaming":true},{"type":"data","name":"w","id":"w1","data":{"t":18}},{"type":"metadata","metadata":{"a":1}},{"type":"source","sourceId":"s1","url":"https://e.com"},{"type":"text","text":"!","streaming":true}]"#
    );
}
