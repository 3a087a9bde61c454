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
