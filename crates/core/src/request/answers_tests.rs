//! Tests of `request::answers`.

use super::*;
use serde_json::json;

fn answers(parts: Value) -> Result<Vec<Answer>, Malformed> {
    read_answers(parts.as_array().unwrap())
}

fn one(question_id: &str, answer: Value, denied_call: Option<&str>) -> Answer {
    Answer {
        question_id: question_id.into(),
        answer,
        denied_call: denied_call.map(Into::into),
    }
}

#[test]
fn each_kind_of_answered_part_is_an_answer() {
    let parts = json!([
        {"type": "step-start"},
        {"type": "text", "text": "Let me ask.", "state": "done"},
        {"type": "dynamic-tool", "toolName": "ls", "toolCallId": "c0", "state": "output-available", "input": {}, "output": 1},
        {"type": "tool-askUser", "toolCallId": "q1", "state": "output-available",
         "input": {"questionId": "q1", "text": "Which?", "options": ["a", "b"]}, "output": "a"},
        {"type": "tool-approveToolCall", "toolCallId": "q2:question", "state": "output-available",
         "input": {"questionId": "q2", "text": "Run?", "toolCallId": "c2", "toolName": "rm", "input": null},
         "output": {"approved": true, "extra": 1}},
        {"type": "tool-approveToolCall", "toolCallId": "q3", "state": "output-error",
         "input": {"questionId": "q3"}, "errorText": "no way"},
        {"type": "dynamic-tool", "toolName": "deploy", "toolCallId": "c4", "state": "approval-responded",
         "input": {}, "approval": {"id": "q4", "approved": false, "reason": "Friday"}},
        {"type": "tool-deploy", "toolCallId": "c5", "state": "approval-responded",
         "input": {}, "approval": {"id": "q5", "approved": true}}
    ]);
    assert_eq!(
        answers(parts).unwrap(),
        vec![
            one("q1", json!("a"), None),
            one("q2", json!({"approved": true}), None),
            one("q3", json!({"approved": false, "reason": "no way"}), None),
            one(
                "q4",
                json!({"approved": false, "reason": "Friday"}),
                Some("c4")
            ),
            one("q5", json!({"approved": true}), None),
        ]
    );
}

#[test]
fn parts_that_answer_nothing_are_not_answers() {
    let parts = json!([
        {"type": "tool-askUser", "toolCallId": "q1", "state": "input-available", "input": {"questionId": "q1"}},
        {"type": "dynamic-tool", "toolCallId": "c1", "state": "approval-requested", "approval": {"id": "q2"}},
        {"type": "tool-other", "toolCallId": "c2", "state": "output-available", "output": 1},
        {"type": "data-question", "id": "q3", "data": {"questionId": "q3"}},
        {"type": "text", "text": "hi"}
    ]);
    assert_eq!(answers(parts).unwrap(), vec![]);
}

#[test]
fn the_newest_answer_must_be_well_formed() {
    let bad_approval = json!({"type": "dynamic-tool", "toolCallId": "c", "state": "approval-responded", "approval": {"id": "q9"}});
    let err = answers(json!([bad_approval])).unwrap_err();
    assert!(err.contains("boolean `approved`"), "{err}");
    let bad_output = json!({"type": "tool-approveToolCall", "toolCallId": "q", "state": "output-available", "input": {"questionId": "q"}, "output": "yes"});
    assert!(answers(json!([bad_output]))
        .unwrap_err()
        .contains("{ approved: boolean, reason?: string }"));
    let refused = json!({"type": "tool-askUser", "toolCallId": "q", "state": "output-error", "input": {"questionId": "q"}, "errorText": "x"});
    assert!(answers(json!([refused.clone()]))
        .unwrap_err()
        .contains("answer the agent's question with an output"));
    // An earlier round's broken part is history: the newest answer stands.
    let good = json!({"type": "tool-askUser", "toolCallId": "q2", "state": "output-available", "input": {"questionId": "q2"}, "output": "b"});
    assert_eq!(
        answers(json!([refused, good])).unwrap(),
        vec![one("q2", json!("b"), None)]
    );
}

#[test]
fn a_question_without_input_is_named_by_its_call_id() {
    let part = json!({"type": "tool-askUser", "toolCallId": "q7", "state": "output-available", "output": null});
    assert_eq!(
        answers(json!([part])).unwrap(),
        vec![one("q7", Value::Null, None)]
    );
    let nameless = json!({"type": "tool-askUser", "state": "output-available", "output": 1});
    assert!(answers(json!([nameless]))
        .unwrap_err()
        .contains("names no question"));
}
