//! Tests of `trace`.

use super::*;

#[test]
fn a_cap_lowers_a_mode_above_it_and_keeps_one_below() {
    let full = Trace::default().with_mode(Some(TraceMode::Full));
    assert_eq!(full.capped(TraceMode::Normal).mode, TraceMode::Normal);
    assert_eq!(full.capped(TraceMode::Minimal).mode, TraceMode::Minimal);
    let minimal = Trace::default().with_mode(Some(TraceMode::Minimal));
    assert_eq!(minimal.capped(TraceMode::Full).mode, TraceMode::Minimal);
    assert_eq!(minimal.capped(TraceMode::Normal).mode, TraceMode::Minimal);
    assert_eq!(full.capped(TraceMode::Full), full);
}

fn raw(text: &str) -> Box<RawValue> {
    RawValue::from_string(text.to_owned()).unwrap()
}

fn output(json: &str) -> UiChunk {
    UiChunk::ToolOutputAvailable {
        tool_call_id: "c".into(),
        output: raw(json),
        provider_executed: true,
        dynamic: true,
    }
}

fn trace(mode: TraceMode, max: usize) -> Trace {
    Trace {
        mode,
        max_tool_json_chars: max,
    }
}

#[test]
fn keeps_parts_says_what_apply_does() {
    for mode in [TraceMode::Full, TraceMode::Normal, TraceMode::Minimal] {
        let t = trace(mode, 10);
        for (kind, chunk) in [
            (
                DeltaKind::Text,
                UiChunk::TextDelta {
                    id: "t".into(),
                    delta: "d".into(),
                },
            ),
            (
                DeltaKind::Reasoning,
                UiChunk::ReasoningDelta {
                    id: "r".into(),
                    delta: "d".into(),
                },
            ),
        ] {
            let applied = t.apply(chunk.clone());
            assert_eq!(t.keeps_parts(kind), applied.is_some(), "{mode:?} {kind:?}");
            if let Some(kept) = applied {
                assert_eq!(kept.to_json(), chunk.to_json());
            }
        }
    }
}

#[test]
fn full_shortens_long_tool_json_to_its_preview() {
    let long = r#"{"text":"héllo wörld"}"#; // 22 characters, 24 bytes
    let shortened = trace(TraceMode::Full, 10).apply(output(long)).unwrap();
    assert_eq!(
        shortened.to_json(),
        r#"{"type":"tool-output-available","toolCallId":"c","output":{"fullLength":22,"preview":"{\"text\":\"h","truncated":true},"providerExecuted":true,"dynamic":true}"#
    );
    // At the limit: kept as it is.
    let exact = trace(TraceMode::Full, 22).apply(output(long)).unwrap();
    assert_eq!(exact.to_json(), output(long).to_json());
    let input = UiChunk::ToolInputAvailable {
        tool_call_id: "c".into(),
        tool_name: "t".into(),
        input: raw(r#"[1,2,3,4,5]"#),
        provider_executed: true,
        dynamic: true,
    };
    let shortened = trace(TraceMode::Full, 4).apply(input).unwrap().to_json();
    assert!(
        shortened.contains(r#""input":{"fullLength":11,"preview":"[1,2","truncated":true}"#),
        "{shortened}"
    );
}

#[test]
fn normal_shows_each_tool_without_its_data() {
    let normal = trace(TraceMode::Normal, 1_000);
    let input = UiChunk::ToolInputAvailable {
        tool_call_id: "c".into(),
        tool_name: "lookup".into(),
        input: raw(r#"{"customer":"alice@example.com"}"#),
        provider_executed: true,
        dynamic: true,
    };
    assert_eq!(
        normal.apply(input).unwrap().to_json(),
        r#"{"type":"tool-input-available","toolCallId":"c","toolName":"lookup","input":null,"providerExecuted":true,"dynamic":true}"#
    );
    assert_eq!(
        normal.apply(output(r#""order 5531""#)).unwrap().to_json(),
        r#"{"type":"tool-output-available","toolCallId":"c","output":null,"providerExecuted":true,"dynamic":true}"#
    );
    let error = |text: &str| UiChunk::ToolOutputError {
        tool_call_id: "c".into(),
        error_text: text.into(),
        provider_executed: true,
        dynamic: true,
    };
    assert_eq!(
        normal
            .apply(error("no such file /home/alice"))
            .unwrap()
            .to_json(),
        r#"{"type":"tool-output-error","toolCallId":"c","errorText":"","providerExecuted":true,"dynamic":true}"#
    );
    // The adapter's own words for a tool the end cut off say nothing of the tool's data.
    for reason in tool_reasons::ALL {
        assert_eq!(
            normal.apply(error(reason)).unwrap().to_json(),
            error(reason).to_json()
        );
    }
    // The tool's start, and its history form, as the stream shows it.
    let start = UiChunk::ToolInputStart {
        tool_call_id: "c".into(),
        tool_name: "lookup".into(),
        provider_executed: true,
        dynamic: true,
    };
    assert_eq!(
        normal.apply(start.clone()).unwrap().to_json(),
        start.to_json()
    );
    assert_eq!(
        normal.tool_json(&raw(r#"{"a":1}"#)),
        serde_json::Value::Null
    );
    assert_eq!(
        trace(TraceMode::Full, 1_000).tool_json(&raw(r#"{"a":1}"#)),
        json!({"a": 1})
    );
}

#[test]
fn minimal_keeps_text_questions_and_endings_only() {
    let m = trace(TraceMode::Minimal, 10);
    assert!(m.apply(output("1")).is_none());
    assert!(m
        .apply(UiChunk::ReasoningDelta {
            id: "r".into(),
            delta: "x".into()
        })
        .is_none());
    assert!(m
        .apply(UiChunk::TextDelta {
            id: "t".into(),
            delta: "x".into()
        })
        .is_some());
    assert!(m.apply(UiChunk::FinishStep).is_some());
    assert!(m.apply(UiChunk::Abort).is_some());
}

#[test]
fn full_under_the_limit_changes_nothing_and_modes_parse() {
    let long = "[".to_owned() + &"1,".repeat(100) + "1]";
    assert_eq!(
        trace(TraceMode::Full, DEFAULT_MAX_TOOL_JSON_CHARS)
            .apply(output(&long))
            .unwrap()
            .to_json(),
        output(&long).to_json()
    );
    assert_eq!(TraceMode::parse("normal"), Some(TraceMode::Normal));
    for mode in [TraceMode::Minimal, TraceMode::Normal, TraceMode::Full] {
        assert_eq!(TraceMode::parse(mode.name()), Some(mode));
    }
    assert_eq!(TraceMode::parse("Full"), None);
    assert_eq!(TraceMode::default(), TraceMode::Full);
}

#[test]
fn a_query_names_the_mode() {
    let from = TraceMode::from_query;
    assert_eq!(
        from("https://w/api/sessions/s/chat/c/stream?trace=minimal"),
        Some(TraceMode::Minimal)
    );
    assert_eq!(
        from("https://w/x?a=1&trace=normal#frag"),
        Some(TraceMode::Normal)
    );
    assert_eq!(
        from("https://w/x?trace=full&trace=minimal"),
        Some(TraceMode::Full)
    );
    for none in [
        "https://w/x",
        "https://w/x?trace=",
        "https://w/x?trace=loud",
        "https://w/x?xtrace=full",
        "https://w/x#?trace=full",
    ] {
        assert_eq!(from(none), None, "{none}");
    }
}
