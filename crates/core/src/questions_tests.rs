//! Tests of `questions`.

use super::*;
use serde_json::json;

fn question(options: Option<Value>) -> Question {
    Question {
        question_id: "q1".into(),
        text: "Deploy?".into(),
        options,
        tool_call_id: Some("c1".into()),
        answer: None,
    }
}

#[test]
fn an_approval_is_approved_true_or_the_first_option() {
    let options = json!(["Approve", "Deny"]);
    for (answer, approved) in [
        (json!({"approved": true}), true),
        (json!({"approved": true, "reason": "ok"}), true),
        (json!({"approved": false}), false),
        (json!({"approved": "yes"}), false),
        (json!("Approve"), true),
        (json!("Deny"), false),
        (json!("approve"), false),
        (json!(true), false),
        (Value::Null, false),
    ] {
        assert_eq!(approves(&answer, Some(&options)), approved, "{answer}");
    }
    assert!(!approves(&json!("Approve"), None), "no options, no option");
}

#[test]
fn minimal_has_no_card_to_approve_on() {
    let trace = |mode| Trace {
        mode,
        ..Trace::default()
    };
    let view = |mode| QuestionView::new(QuestionParts::Approvals, trace(mode)).parts();
    assert_eq!(view(TraceMode::Full), QuestionParts::Approvals);
    assert_eq!(view(TraceMode::Normal), QuestionParts::Approvals);
    assert_eq!(view(TraceMode::Minimal), QuestionParts::Tools);
    let data = QuestionView::new(QuestionParts::Data, trace(TraceMode::Minimal));
    assert_eq!(data.parts(), QuestionParts::Data);
}

#[test]
fn the_inputs_carry_the_question() {
    assert_eq!(
        ask_input(&question(Some(json!(["a", "b"])))).get(),
        r#"{"questionId":"q1","text":"Deploy?","options":["a","b"]}"#
    );
    assert_eq!(
        ask_input(&question(None)).get(),
        r#"{"questionId":"q1","text":"Deploy?"}"#
    );
    let args = RawValue::from_string(r#"{"target":"prod"}"#.into()).unwrap();
    assert_eq!(
        approve_input(&question(None), "deploy", &args).get(),
        r#"{"questionId":"q1","text":"Deploy?","toolCallId":"c1","toolName":"deploy","input":{"target":"prod"}}"#
    );
}

#[test]
fn names_read_back() {
    for parts in [
        QuestionParts::Tools,
        QuestionParts::Approvals,
        QuestionParts::Data,
    ] {
        assert_eq!(QuestionParts::parse(parts.name()), Some(parts));
    }
    assert_eq!(QuestionParts::parse("approval"), None);
}
