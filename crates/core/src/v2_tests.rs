//! Tests of the V2 frame parsing and the adapter's outgoing frames.

use super::*;
use serde_json::json;

#[test]
fn parses_every_known_frame() {
    let create = parse_frame(
        r#"{"type":"message.create","turnId":"t1","channelType":"web","requestId":"r1","x":1}"#,
    )
    .unwrap();
    let Frame::MessageCreate(create) = create else {
        panic!("not a message.create")
    };
    assert_eq!(
        (create.turn_id, create.channel_type, create.request_id),
        ("t1".into(), Some("web".into()), Some("r1".into()))
    );
    assert!(create.message.is_none());
    // Protocol 5: the turn's user message, kept as written.
    let user = r#"{"id":"u1","ref":"u_1","parent":null,"role":"user","parts":[]}"#;
    let Ok(Frame::MessageCreate(create)) = parse_frame(&format!(
        r#"{{"type":"message.create","turnId":"t2","message":{user}}}"#
    )) else {
        panic!("not a message.create")
    };
    assert_eq!(
        create.message.map(|m| m.get().to_owned()).as_deref(),
        Some(user)
    );
    let tool = parse_frame(
        r#"{"type":"message.part.tool-update","turnId":"t","callId":"c","toolName":"ls","status":"running","args":{"p":1}}"#,
    )
    .unwrap();
    let Frame::ToolUpdate(tool) = tool else {
        panic!("not a tool update")
    };
    assert_eq!(tool.status, ToolStatus::Running);
    assert_eq!(
        tool.args.map(|a| a.get().to_owned()).as_deref(),
        Some(r#"{"p":1}"#)
    );
    assert!(matches!(
        parse_frame(r#"{"type":"complete"}"#),
        Ok(Frame::Complete)
    ));
    let fin = parse_frame(r#"{"type":"message.finalize","turnId":"t","reason":"later"}"#);
    assert!(matches!(fin, Ok(Frame::Finalize(f)) if f.reason == FinishReason::Unknown));
}

#[test]
fn the_type_may_stand_anywhere() {
    let late = r#"{"turnId":"t","delta":"x","type":"message.part.text-delta"}"#;
    let spaced = r#" { "type" : "message.part.text-delta", "turnId":"t","delta":"x"}"#;
    let escaped = r#"{"type":"message.part.text\u002ddelta","turnId":"t","delta":"x"}"#;
    for text in [late, spaced, escaped] {
        assert!(
            matches!(parse_frame(text), Ok(Frame::TextDelta(_))),
            "{text}"
        );
    }
    assert!(matches!(
        parse_frame(r#"{"x":1,"type":"complete"}"#),
        Ok(Frame::Complete)
    ));
}

#[test]
fn the_type_is_read_from_either_end_only_where_it_is_the_top_levels() {
    // The demo agent's key order (serde_json sorts keys): `type` last.
    let sorted = r#"{"delta":"x","messageId":"m","partId":"p","turnId":"t","type":"message.part.text-delta"}"#;
    assert_eq!(sniff_type(sorted), Some("message.part.text-delta"));
    assert!(matches!(parse_frame(sorted), Ok(Frame::TextDelta(d)) if d.delta == "x"));
    assert_eq!(sniff_type(r#"{"type":"complete"}"#), Some("complete"));
    // Not the top level's, or not plainly written: no answer, and the tag pass decides.
    for text in [
        r#"{"a":{"type":"complete"}}"#,
        r#"{"x\"type":"complete"}"#,
        r#"{"a":1, "type":"complete"}"#,
        r#"{"a":1,"type":"compl\u0065te"}"#,
        r#"{"type":"a","b":"c"}"#,
    ] {
        let sniffed = sniff_type(text);
        assert!(
            sniffed.is_none() || sniffed == Some("a"),
            "{text}: {sniffed:?}"
        );
    }
    assert!(parse_frame(r#"{"a":{"type":"complete"}}"#).is_err());
    assert!(parse_frame(r#"{"x\"type":"complete"}"#).is_err());
    assert!(matches!(
        parse_frame(r#"{"a":1, "type":"complete"}"#),
        Ok(Frame::Complete)
    ));
    // A text that only looks like it ends with a `type` is still parsed whole, and fails.
    assert!(parse_frame(r#"{"a":"z,"type":"complete"}"#).is_err());
}

#[test]
fn unknown_types_are_other_and_garbage_is_an_error() {
    assert!(matches!(
        parse_frame(r#"{"type":"git-state","x":[1]}"#),
        Ok(Frame::Other)
    ));
    assert!(matches!(
        parse_frame(r#"{"type":"init","messages":[]}"#),
        Ok(Frame::Init { protocol: 0 })
    ));
    assert!(matches!(
        parse_frame(r#"{"type":"init","protocol":3,"messages":[{"id":"m"}]}"#),
        Ok(Frame::Init { protocol: 3 })
    ));
    assert!(matches!(
        parse_frame(r#"{"type":"init","protocol":"3"}"#),
        Ok(Frame::Init { protocol: 0 })
    ));
    for bad in [
        "",
        "not json",
        "[1,2]",
        "42",
        r#"{"no":"type"}"#,
        r#"{"type":7}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":5}"#,
        r#"{"type":"message.part.tool-update","turnId":"t","callId":"c","toolName":"x","status":"weird"}"#,
        r#"{"type":"complete""#,
        r#"{"type":"git-state",}"#,
        r#"{"type":"message.create"}"#,
    ] {
        assert!(parse_frame(bad).is_err(), "{bad:?} parsed");
    }
}

#[test]
fn turn_events_name_their_turn() {
    for (text, turn) in [
        (r#"{"type":"message.create","turnId":"a"}"#, Some("a")),
        (
            r#"{"type":"message.part.reasoning-delta","turnId":"b","delta":""}"#,
            Some("b"),
        ),
        (
            r#"{"type":"message.finalize","turnId":"c","reason":"end_turn"}"#,
            Some("c"),
        ),
        (r#"{"type":"complete"}"#, None),
        (r#"{"type":"chunk","content":"x"}"#, None),
    ] {
        assert_eq!(parse_frame(text).unwrap().turn_id(), turn, "{text}");
    }
}

#[test]
fn default_channel_is_absent_or_web() {
    let mk = |c: Option<&str>| MessageCreate {
        turn_id: "t".into(),
        channel_type: c.map(Into::into),
        request_id: None,
        message: None,
    };
    assert!(mk(None).is_default_channel());
    assert!(mk(Some("web")).is_default_channel());
    assert!(!mk(Some("slack")).is_default_channel());
}

#[test]
fn error_text_reads_strings_and_messages() {
    assert_eq!(error_text(&json!("boom")), Some("boom".into()));
    assert_eq!(error_text(&json!({"message": "bad"})), Some("bad".into()));
    assert_eq!(error_text(&json!("  ")), None);
    assert_eq!(error_text(&json!(3)), None);
    let e = SessionError {
        code: None,
        message: None,
        error: Some(RawValue::from_string(r#""x""#.into()).unwrap()),
    };
    assert_eq!(e.text(), Some("x".into()));
}
