//! Tests of `ui::chunk`.

use super::*;
use serde_json::{json, Value};

fn raw(value: Value) -> Box<RawValue> {
    serde_json::value::to_raw_value(&value).unwrap()
}

fn j(c: UiChunk) -> String {
    c.to_json()
}

#[test]
fn message_chunks_are_exact() {
    assert_eq!(
        j(UiChunk::Start {
            message_id: Some("t1".into()),
            message_metadata: None,
        }),
        r#"{"type":"start","messageId":"t1"}"#
    );
    assert_eq!(
        j(UiChunk::Start {
            message_id: None,
            message_metadata: None
        }),
        r#"{"type":"start"}"#
    );
    assert_eq!(
        j(UiChunk::Start {
            message_id: Some("t1".into()),
            message_metadata: Some(StartMetadata {
                turn_id: "t1".into(),
                created_at: 1_700_000_000_000
            }),
        }),
        r#"{"type":"start","messageId":"t1","messageMetadata":{"turnId":"t1","createdAt":1700000000000}}"#
    );
    assert_eq!(
        j(UiChunk::Finish {
            message_metadata: Some(FinishMetadata {
                turn_id: "t1".into(),
                duration_ms: 12_000,
                tool_calls: 3,
                tool_errors: 1,
                stopped: false,
                usage: None,
                model: None,
            })
        }),
        r#"{"type":"finish","messageMetadata":{"turnId":"t1","durationMs":12000,"toolCalls":3,"toolErrors":1}}"#
    );
    assert_eq!(j(UiChunk::StartStep), r#"{"type":"start-step"}"#);
    assert_eq!(j(UiChunk::FinishStep), r#"{"type":"finish-step"}"#);
    assert_eq!(
        j(UiChunk::Finish {
            message_metadata: None
        }),
        r#"{"type":"finish"}"#
    );
    assert_eq!(j(UiChunk::Abort), r#"{"type":"abort"}"#);
    assert_eq!(
        j(UiChunk::Error {
            error_text: "x".into()
        }),
        r#"{"type":"error","errorText":"x"}"#
    );
}

#[test]
fn text_and_reasoning_chunks_are_exact() {
    let id = || "a".to_string();
    assert_eq!(
        j(UiChunk::TextStart { id: id() }),
        r#"{"type":"text-start","id":"a"}"#
    );
    assert_eq!(
        j(UiChunk::TextDelta {
            id: id(),
            delta: "hi".into()
        }),
        r#"{"type":"text-delta","id":"a","delta":"hi"}"#
    );
    assert_eq!(
        j(UiChunk::TextEnd { id: id() }),
        r#"{"type":"text-end","id":"a"}"#
    );
    assert_eq!(
        j(UiChunk::ReasoningStart { id: id() }),
        r#"{"type":"reasoning-start","id":"a"}"#
    );
    assert_eq!(
        j(UiChunk::ReasoningDelta {
            id: id(),
            delta: "h".into()
        }),
        r#"{"type":"reasoning-delta","id":"a","delta":"h"}"#
    );
    assert_eq!(
        j(UiChunk::ReasoningEnd { id: id() }),
        r#"{"type":"reasoning-end","id":"a"}"#
    );
}

#[test]
fn tool_chunks_are_exact() {
    assert_eq!(
        j(UiChunk::ToolInputStart {
            tool_call_id: "c".into(),
            tool_name: "ls".into(),
            provider_executed: true,
            dynamic: true
        }),
        r#"{"type":"tool-input-start","toolCallId":"c","toolName":"ls","providerExecuted":true,"dynamic":true}"#
    );
    assert_eq!(
        j(UiChunk::ToolInputAvailable {
            tool_call_id: "c".into(),
            tool_name: "ls".into(),
            input: raw(json!({"p": "/"})),
            provider_executed: true,
            dynamic: true
        }),
        r#"{"type":"tool-input-available","toolCallId":"c","toolName":"ls","input":{"p":"/"},"providerExecuted":true,"dynamic":true}"#
    );
    assert_eq!(
        j(UiChunk::ToolOutputAvailable {
            tool_call_id: "c".into(),
            output: raw(Value::Null),
            provider_executed: true,
            dynamic: true
        }),
        r#"{"type":"tool-output-available","toolCallId":"c","output":null,"providerExecuted":true,"dynamic":true}"#
    );
    assert_eq!(
        j(UiChunk::ToolOutputError {
            tool_call_id: "c".into(),
            error_text: "no".into(),
            provider_executed: true,
            dynamic: true
        }),
        r#"{"type":"tool-output-error","toolCallId":"c","errorText":"no","providerExecuted":true,"dynamic":true}"#
    );
}

#[test]
fn approval_chunks_are_exact() {
    assert_eq!(
        j(UiChunk::ToolApprovalRequest {
            approval_id: "q2".into(),
            tool_call_id: "c2".into(),
        }),
        r#"{"type":"tool-approval-request","approvalId":"q2","toolCallId":"c2"}"#
    );
    assert_eq!(
        j(UiChunk::ToolOutputDenied {
            tool_call_id: "c2".into()
        }),
        r#"{"type":"tool-output-denied","toolCallId":"c2"}"#
    );
}

#[test]
fn question_tools_are_the_static_ones() {
    let start = |dynamic| UiChunk::ToolInputStart {
        tool_call_id: "q".into(),
        tool_name: "askUser".into(),
        provider_executed: false,
        dynamic,
    };
    assert!(start(false).is_question_tool());
    assert!(
        !start(true).is_question_tool(),
        "the agent's tools are dynamic"
    );
    assert!(UiChunk::ToolOutputDenied {
        tool_call_id: "c".into()
    }
    .is_question_tool());
    assert!(!UiChunk::FinishStep.is_question_tool());
}

#[test]
fn data_chunks_are_exact() {
    assert_eq!(
        j(UiChunk::DataQuestion {
            id: "q".into(),
            data: QuestionData {
                question_id: "q".into(),
                text: "Go?".into(),
                options: Some(json!(["y", "n"])),
                tool_call_id: None,
                answer: None,
            }
        }),
        r#"{"type":"data-question","id":"q","data":{"questionId":"q","text":"Go?","options":["y","n"]}}"#
    );
}

#[test]
fn only_finish_and_abort_end() {
    assert!(UiChunk::Finish {
        message_metadata: None
    }
    .is_ending());
    assert!(UiChunk::Abort.is_ending());
    assert!(!UiChunk::FinishStep.is_ending());
    assert!(!UiChunk::Error {
        error_text: String::new()
    }
    .is_ending());
}
