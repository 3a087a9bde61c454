//! Unit tests of the tool-call state machine.

use serde_json::{json, Value};

use super::*;

fn raw(value: Value) -> Box<RawValue> {
    serde_json::value::to_raw_value(&value).unwrap()
}

fn update(
    call: &str,
    status: ToolStatus,
    args: Option<Value>,
    result: Option<Value>,
) -> ToolUpdate {
    ToolUpdate {
        turn_id: "t".into(),
        call_id: call.into(),
        tool_name: "read".into(),
        status,
        args: args.map(raw),
        result: result.map(raw),
        error: None,
    }
}

fn types(out: &[UiChunk]) -> Vec<String> {
    out.iter().map(UiChunk::to_json).collect()
}

const START: &str = r#"{"type":"tool-input-start","toolCallId":"c","toolName":"read","providerExecuted":true,"dynamic":true}"#;

#[test]
fn full_lifecycle_emits_one_chunk_per_state() {
    let mut tools = Tools::default();
    let mut out = Vec::new();
    tools.apply(update("c", ToolStatus::Pending, None, None), &mut out);
    tools.apply(
        update("c", ToolStatus::Running, Some(json!({"p": "a"})), None),
        &mut out,
    );
    tools.apply(
        update("c", ToolStatus::Completed, None, Some(json!("ok"))),
        &mut out,
    );
    assert_eq!(
        types(&out),
        [
            START,
            r#"{"type":"tool-input-available","toolCallId":"c","toolName":"read","input":{"p":"a"},"providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"tool-output-available","toolCallId":"c","output":"ok","providerExecuted":true,"dynamic":true}"#,
        ]
    );
}

#[test]
fn repeats_emit_nothing_and_late_args_are_used() {
    let mut tools = Tools::default();
    let mut out = Vec::new();
    tools.apply(update("c", ToolStatus::Pending, None, None), &mut out);
    let pending = update("c", ToolStatus::Pending, None, None);
    assert!(!tools.would_emit(&pending));
    tools.apply(pending, &mut out);
    let running = update("c", ToolStatus::Running, None, None);
    assert!(!tools.would_emit(&running));
    tools.apply(running, &mut out);
    assert_eq!(out.len(), 1);
    let late = update("c", ToolStatus::Running, Some(json!([1])), None);
    assert!(tools.would_emit(&late));
    tools.apply(late, &mut out);
    assert_eq!(out.len(), 2);
    assert!(matches!(&out[1], UiChunk::ToolInputAvailable { input, .. } if input.get() == "[1]"));
    let done = update("c", ToolStatus::Completed, None, None);
    tools.apply(done.clone(), &mut out);
    assert!(!tools.would_emit(&done));
    tools.apply(done, &mut out);
    assert_eq!(out.len(), 3);
    assert!(matches!(
        &out[2],
        UiChunk::ToolOutputAvailable { output, .. } if output.get() == "null"
    ));
}

#[test]
fn raw_json_keeps_its_bytes_unless_it_spans_lines() {
    let mut tools = Tools::default();
    let mut out = Vec::new();
    let mut first = update("c", ToolStatus::Running, None, None);
    first.args = Some(RawValue::from_string(r#"{"z":1,"a":1.50}"#.into()).unwrap());
    tools.apply(first, &mut out);
    let mut done = update("c", ToolStatus::Completed, None, None);
    done.result = Some(RawValue::from_string("{\n  \"b\": [1,\r\n 2]\n}".into()).unwrap());
    tools.apply(done, &mut out);
    assert!(
        matches!(&out[1], UiChunk::ToolInputAvailable { input, .. } if input.get() == r#"{"z":1,"a":1.50}"#)
    );
    assert!(
        matches!(&out[2], UiChunk::ToolOutputAvailable { output, .. } if output.get() == r#"{"b":[1,2]}"#)
    );
}

#[test]
fn finished_calls_ignore_repeats_and_leave_no_open_state() {
    let mut tools = Tools::default();
    let mut out = Vec::new();
    for i in 0..1000 {
        let id = format!("c{i}");
        tools.apply(
            update(&id, ToolStatus::Completed, Some(json!({"i": i})), None),
            &mut out,
        );
    }
    assert!(tools.open.is_empty());
    assert_eq!(tools.finished.len(), 1000);
    let before = out.len();
    tools.apply(update("c7", ToolStatus::Error, None, None), &mut out);
    tools.close_all("Canceled", &mut out);
    assert_eq!(out.len(), before);
}

#[test]
fn skipped_states_are_synthesised_with_empty_input() {
    let mut tools = Tools::default();
    let mut out = Vec::new();
    tools.apply(
        update("c", ToolStatus::Completed, None, Some(json!(1))),
        &mut out,
    );
    assert_eq!(
        types(&out),
        [
            START,
            r#"{"type":"tool-input-available","toolCallId":"c","toolName":"read","input":{},"providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"tool-output-available","toolCallId":"c","output":1,"providerExecuted":true,"dynamic":true}"#,
        ]
    );
}

#[test]
fn error_status_uses_the_error_text_or_a_default() {
    let mut tools = Tools::default();
    let mut out = Vec::new();
    let mut failed = update("c", ToolStatus::Error, Some(json!({"a": 1})), None);
    failed.error = Some(json!({"message": "disk full"}));
    tools.apply(failed, &mut out);
    assert_eq!(out.len(), 3);
    assert!(
        matches!(&out[1], UiChunk::ToolInputAvailable { input, .. } if input.get() == r#"{"a":1}"#)
    );
    assert!(
        matches!(&out[2], UiChunk::ToolOutputError { error_text, .. } if error_text == "disk full")
    );
    tools.apply(update("d", ToolStatus::Error, None, None), &mut out);
    assert!(
        matches!(out.last(), Some(UiChunk::ToolOutputError { error_text, .. }) if error_text == DEFAULT_TOOL_ERROR)
    );
}

#[test]
fn completed_results_that_report_failure_are_errors() {
    let cases = [
        (
            json!({"success": false, "error": {"message": "nope"}}),
            Some("nope"),
        ),
        (json!({"success": false}), Some(DEFAULT_FAILURE)),
        (json!({"error": true, "message": "bad"}), Some("bad")),
        (json!({"error": true}), Some(DEFAULT_FAILURE)),
        (json!({"error": "missing file"}), Some("missing file")),
        (json!({"error": ""}), Some(DEFAULT_FAILURE)),
        (json!({"success": true, "data": 1}), None),
        (json!({"error": false}), None),
        (json!({"error": null}), None),
        (json!("error"), None),
        (json!([{"error": "x"}]), None),
    ];
    for (result, expected) in cases {
        assert_eq!(
            failure_text(&raw(result.clone())).as_deref(),
            expected,
            "{result}"
        );
        let mut tools = Tools::default();
        let mut out = Vec::new();
        tools.apply(
            update("c", ToolStatus::Completed, None, Some(result.clone())),
            &mut out,
        );
        let last = out.last().map(UiChunk::to_json).unwrap_or_default();
        assert_eq!(
            last.contains("tool-output-error"),
            expected.is_some(),
            "{result}"
        );
    }
}

#[test]
fn close_all_ends_open_calls_in_order_of_appearance() {
    let mut tools = Tools::default();
    let mut out = Vec::new();
    for id in ["z", "a", "m"] {
        tools.apply(update(id, ToolStatus::Pending, None, None), &mut out);
    }
    tools.apply(update("a", ToolStatus::Completed, None, None), &mut out);
    out.clear();
    tools.apply(
        update("m", ToolStatus::Running, Some(json!({"q": 1})), None),
        &mut out,
    );
    out.clear();
    tools.close_all("Canceled", &mut out);
    assert_eq!(
        types(&out),
        [
            r#"{"type":"tool-input-available","toolCallId":"z","toolName":"read","input":{},"providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"tool-output-error","toolCallId":"z","errorText":"Canceled","providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"tool-output-error","toolCallId":"m","errorText":"Canceled","providerExecuted":true,"dynamic":true}"#,
        ]
    );
    out.clear();
    tools.close_all("Canceled", &mut out);
    assert!(out.is_empty());
}

#[test]
fn the_first_tool_name_sticks() {
    let mut tools = Tools::default();
    let mut out = Vec::new();
    tools.apply(update("c", ToolStatus::Pending, None, None), &mut out);
    let mut renamed = update("c", ToolStatus::Running, Some(json!({})), None);
    renamed.tool_name = "other".into();
    tools.apply(renamed, &mut out);
    assert!(
        matches!(&out[1], UiChunk::ToolInputAvailable { tool_name, .. } if tool_name == "read")
    );
}
