//! Tests of `frames`.

use super::*;

#[test]
fn answers_read_as_text() {
    assert_eq!(answer_reply(&json!("yes")), "You answered: yes.");
    assert_eq!(answer_reply(&json!("a \"b\"")), "You answered: a \"b\".");
    assert_eq!(
        answer_reply(&json!({"pick": [1, "x"]})),
        r#"You answered: {"pick":[1,"x"]}."#
    );
    assert_eq!(answer_reply(&Value::Null), "You answered: null.");
    assert_eq!(answer_reply(&json!(true)), "You answered: true.");
}

#[test]
fn frames_are_exact() {
    let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap_or_default();
    assert_eq!(
        finalize("t", "error", Some("x"), Some("boom")),
        json!({"type": "message.finalize", "turnId": "t", "reason": "error",
                "finalText": "x", "error": "boom"})
    );
    assert_eq!(
        question(&question_id("t"), "Go?"),
        json!({"type": "question", "questionId": "t-q1", "text": "Go?",
                "options": ["yes", "no"]})
    );
    assert_eq!(
        parse(&busy_frame()),
        json!({"type": "error", "code": "busy",
                "message": "The agent is busy with another turn."})
    );
    assert_eq!(
        parse(&not_pending_frame())["code"],
        json!("question_not_pending")
    );
    let open = [("c1".to_owned(), "work".to_owned())];
    let cancel: Vec<Value> = cancel_frames("t", &open).iter().map(|f| parse(f)).collect();
    assert_eq!(
        cancel,
        [
            json!({"type": "message.part.tool-update", "turnId": "t", "callId": "c1",
                    "toolName": "work", "status": "error", "error": "Canceled"}),
            json!({"type": "message.finalize", "turnId": "t", "reason": "canceled"}),
            json!({"type": "agentStatus", "status": "idle"}),
            json!({"type": "complete"}),
        ]
    );
}

#[test]
fn a_full_store_and_an_unknown_ref_say_their_codes() {
    let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap_or_default();
    assert_eq!(
        parse(&session_full_frame(10_000)),
        json!({"type": "error", "code": "session_full",
                "message": "This conversation is full (10,000 messages): start a new one."})
    );
    assert_eq!(
        parse(&not_found_frame("u_\"x")),
        json!({"type": "error", "code": "not_found",
                "message": "There is no message \"u_\\\"x\" in this session."})
    );
    let grouped: Vec<String> = [0, 7, 999, 1_000, 12_345, 1_234_567]
        .into_iter()
        .map(thousands)
        .collect();
    assert_eq!(grouped, ["0", "7", "999", "1,000", "12,345", "1,234,567"]);
}
