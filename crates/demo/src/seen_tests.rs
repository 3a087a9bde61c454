//! Tests of `seen`.

use super::*;
use crate::record::Record;
use crate::rows::{row_json, user_message};
use crate::session::{Message, Part};

#[test]
fn the_model_input_is_each_message_in_order() {
    let mut reply = Message::assistant("msg_1");
    reply.parts.push(Part::Reasoning { text: "hm".into() });
    reply.parts.push(Part::Text {
        text: "one".into(),
        streaming: None,
    });
    reply.parts.push(Part::Text {
        text: "two \"q\"".into(),
        streaming: None,
    });
    let rows = vec![
        row_json(&user_message("u1".into(), "hello", &[], None)),
        "not json".to_owned(),
        row_json(&reply),
        row_json(&user_message("u2".into(), "/seen", &[], None)),
    ];
    assert_eq!(
        model_input(&rows),
        r#"[{"id":"u1","role":"user","text":"hello"},{"id":"msg_1","role":"assistant","text":"one\ntwo \"q\""},{"id":"u2","role":"user","text":"/seen"}]"#
    );
    assert_eq!(model_input(&[]), "[]");
}

#[test]
fn only_the_command_is_seen() {
    assert!(is_seen("/seen"));
    assert!(is_seen("  /seen now"));
    assert!(!is_seen("/seens"));
    assert!(!is_seen("what have you /seen"));
}
