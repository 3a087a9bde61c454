//! Tests of `rows`.

use super::*;
use crate::record::Record;
use crate::session::parse_init;
use crate::v2::{FinishReason, Usage};

fn text(message: &Message, i: usize) -> &str {
    match &message.parts[i] {
        Part::Text { text, .. } | Part::Reasoning { text } => text,
        _ => "",
    }
}

fn reread(row: &str) -> Message {
    let init = parse_init(&init_frame("s", &[row.to_owned()], Some(5))).unwrap();
    assert_eq!(init.skipped, 0);
    init.messages.into_iter().next().unwrap()
}

#[test]
fn a_small_message_is_stored_whole() {
    let files = [Attachment {
        media_type: "image/png".into(),
        url: "data:image/png;base64,AA==".into(),
        filename: Some("a.png".into()),
        size: None,
    }];
    let user = user_message("user_1".into(), "look", &files, Some("2025".into()));
    let row = row_json(&user);
    assert_eq!(
        serde_json::from_str::<Value>(&row).unwrap(),
        serde_json::json!({"id": "user_1", "role": "user", "createdAt": "2025", "parts": [
                {"type": "text", "text": "look"},
                {"type": "file", "mediaType": "image/png", "url": "data:image/png;base64,AA==",
                 "filename": "a.png"}]})
    );
}

#[test]
fn long_texts_are_shortened_to_fit() {
    let mut message = Message::assistant("t");
    message.parts.push(Part::Reasoning {
        text: "r".repeat(100),
    });
    message.parts.push(Part::Text {
        text: "é\"".repeat(400_000),
        streaming: None,
    });
    message.parts.push(Part::Finish {
        reason: FinishReason::EndTurn,
        usage: Some(Usage {
            input_tokens: Some(3),
            output_tokens: None,
        }),
        model: Some("m".into()),
    });
    let row = row_json(&message);
    assert!(row.len() <= MAX_ROW_BYTES, "{}", row.len());
    let back = reread(&row);
    assert_eq!(
        text(&back, 0),
        "r".repeat(100),
        "a short text is kept whole"
    );
    assert!(text(&back, 1).ends_with(SHORTENED_MARK));
    assert!(
        text(&back, 1).len() > MAX_ROW_BYTES / 4,
        "the text keeps a fair share"
    );
    assert_eq!(back.finish_reason(), Some(FinishReason::EndTurn));
    let Some(Part::Finish { usage, model, .. }) = back.parts.last() else {
        panic!("no finish part: {:?}", back.parts);
    };
    assert_eq!(usage.and_then(|u| u.input_tokens), Some(3), "usage is kept");
    assert_eq!(model.as_deref(), Some("m"), "the model is kept");
}

#[test]
fn a_huge_attachment_is_dropped_before_the_text_is_cut() {
    let files = [Attachment {
        media_type: "text/plain".into(),
        url: format!("data:,{}", "x".repeat(3_000_000)),
        filename: None,
        size: None,
    }];
    let user = user_message("u".into(), "read this", &files, None);
    let back = reread(&row_json(&user));
    assert_eq!(back.parts.len(), 1);
    assert_eq!(text(&back, 0), "read this");
}

#[test]
fn init_carries_the_newest_rows_within_bounds() {
    let rows = (0..10).rev().map(|i| format!("{{\"n\":{i}}}"));
    assert_eq!(
        recent_rows(rows, 3),
        ["{\"n\":7}", "{\"n\":8}", "{\"n\":9}"]
    );
    let big = "x".repeat(MAX_INIT_HISTORY_BYTES / 2);
    let rows = vec![big.clone(), big.clone(), big.clone()];
    assert_eq!(recent_rows(rows, 10).len(), 1);
    let huge = "x".repeat(MAX_INIT_HISTORY_BYTES + 1);
    assert_eq!(recent_rows(vec![huge], 10).len(), 1);
}

#[test]
fn init_frames_parse_back() {
    let user = row_json(&user_message("u1".into(), "hi", &[], None));
    let mut turn = Message::assistant("t1");
    turn.parts.push(Part::Text {
        text: "wor".into(),
        streaming: Some(true),
    });
    let frame = init_frame("s\"1", &[user, message_json(&turn)], Some(5));
    let init = parse_init(&frame).unwrap();
    assert_eq!(init.protocol, 5);
    assert_eq!(init.messages.len(), 2);
    assert_eq!(init.in_flight().map(|m| m.id.as_str()), Some("t1"));
    let value: Value = serde_json::from_str(&frame).unwrap();
    assert_eq!(
        value["session"],
        serde_json::json!({"id": "s\"1", "agent": "demo"})
    );
    assert_eq!(
        init_frame("s", &[], None),
        r#"{"type":"init","messages":[],"session":{"id":"s","agent":"demo"}}"#
    );
    assert_eq!(
        init_frame("s", &[], Some(4)),
        r#"{"type":"init","protocol":4,"messages":[],"session":{"id":"s","agent":"demo"}}"#
    );
    // An init that says no protocol and lists no turn in flight cannot be trusted to.
    let silent = parse_init(&init_frame("s", &[], None)).unwrap();
    assert_eq!((silent.protocol, silent.lists_in_flight()), (0, false));
    let said = parse_init(&init_frame("s", &[], Some(5))).unwrap();
    assert!(said.lists_in_flight());
}

#[test]
fn siblings_are_spliced_into_a_row_as_text() {
    let mut reply = Message::assistant("m_2");
    reply.key = Some("m_2".into());
    reply.parent = Some(Some("u_1".into()));
    let row = row_json(&reply);
    let refs = vec!["m_1".to_owned(), "m_2".to_owned()];
    let listed = with_siblings(&row, &refs);
    let back = reread(&listed);
    assert_eq!(back.siblings, refs);
    assert_eq!(back.key.as_deref(), Some("m_2"));
    assert_eq!(back.parent, Some(Some("u_1".into())));
    let spliced: Value = serde_json::from_str(&listed).unwrap();
    let mut expected: Value = serde_json::from_str(&row).unwrap();
    expected["siblings"] = serde_json::json!(["m_1", "m_2"]);
    assert_eq!(spliced, expected, "the row is otherwise as stored");
    // One ref alone (or none) is no siblings: the row as it is.
    assert_eq!(with_siblings(&row, &refs[..1]), row);
    assert_eq!(with_fields("{}", r#""a":1"#), r#"{"a":1}"#);
    assert_eq!(with_fields(r#"{"b":2} "#, r#""a":1"#), r#"{"b":2,"a":1}"#);
    assert_eq!(
        with_fields("[1]", r#""a":1"#),
        "[1]",
        "not an object: as it is"
    );
    assert_eq!(with_fields(r#"{"b":2}"#, ""), r#"{"b":2}"#);
}

#[test]
fn history_frames_parse_back() {
    let row = row_json(&user_message("u1".into(), "hi", &[], None));
    let frame = history_frame("h\"1", &[row]);
    let page = crate::session::parse_history(&frame).unwrap();
    assert_eq!(page.request_id.as_deref(), Some("h\"1"));
    assert_eq!(page.messages.len(), 1);
    assert_eq!(page.skipped, 0);
    assert_eq!(
        history_frame("h", &[]),
        r#"{"type":"history","requestId":"h","messages":[]}"#
    );
}
