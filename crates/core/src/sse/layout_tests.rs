//! The hand-written JSON against `serde_json`'s, for every chunk and any strings.

use proptest::prelude::*;
use serde_json::value::{to_raw_value, RawValue};
use serde_json::{json, Value};

use super::*;
use crate::json_out::any_text;
use crate::ui::QuestionData;
use crate::v2::Usage;

fn derived(chunk: &UiChunk) -> String {
    serde_json::to_string(chunk).unwrap()
}

fn by_hand(chunk: &UiChunk) -> Option<String> {
    let mut out = Vec::new();
    write_json(&mut out, chunk);
    Some(String::from_utf8(out).unwrap())
}

fn raw(value: Value) -> Box<RawValue> {
    to_raw_value(&value).unwrap()
}

fn any_raw() -> impl Strategy<Value = Box<RawValue>> {
    prop::sample::select(vec![
        json!(null),
        json!({"path": "/", "n": [1, 2.5, -3], "s": "a\"b"}),
        json!("text"),
        json!([]),
    ])
    .prop_map(raw)
}

fn any_chunk() -> impl Strategy<Value = UiChunk> {
    let text = any_text;
    let phase = prop::sample::select(vec![
        StatusPhase::Thinking,
        StatusPhase::ToolUse,
        StatusPhase::Compacting,
    ]);
    prop_oneof![
        (
            prop::option::of(text()),
            prop::option::of((text(), any::<u64>()))
        )
            .prop_map(|(message_id, meta)| UiChunk::Start {
                message_id,
                message_metadata: meta.map(|(turn_id, created_at)| StartMetadata {
                    turn_id,
                    created_at
                }),
            }),
        Just(UiChunk::StartStep),
        Just(UiChunk::FinishStep),
        text().prop_map(|id| UiChunk::TextStart { id }),
        (text(), text()).prop_map(|(id, delta)| UiChunk::TextDelta { id, delta }),
        text().prop_map(|id| UiChunk::TextEnd { id }),
        text().prop_map(|id| UiChunk::ReasoningStart { id }),
        (text(), text()).prop_map(|(id, delta)| UiChunk::ReasoningDelta { id, delta }),
        text().prop_map(|id| UiChunk::ReasoningEnd { id }),
        (text(), text(), any::<bool>(), any::<bool>()).prop_map(|(c, n, p, d)| {
            UiChunk::ToolInputStart {
                tool_call_id: c,
                tool_name: n,
                provider_executed: p,
                dynamic: d,
            }
        }),
        (text(), text(), any_raw(), any::<bool>()).prop_map(|(c, n, input, f)| {
            UiChunk::ToolInputAvailable {
                tool_call_id: c,
                tool_name: n,
                input,
                provider_executed: f,
                dynamic: !f,
            }
        }),
        (text(), any_raw(), any::<bool>()).prop_map(|(c, output, f)| {
            UiChunk::ToolOutputAvailable {
                tool_call_id: c,
                output,
                provider_executed: f,
                dynamic: f,
            }
        }),
        (text(), text(), any::<bool>()).prop_map(|(c, error_text, f)| {
            UiChunk::ToolOutputError {
                tool_call_id: c,
                error_text,
                provider_executed: !f,
                dynamic: f,
            }
        }),
        (text(), text()).prop_map(|(approval_id, tool_call_id)| {
            UiChunk::ToolApprovalRequest {
                approval_id,
                tool_call_id,
            }
        }),
        text().prop_map(|tool_call_id| UiChunk::ToolOutputDenied { tool_call_id }),
        (phase, prop::option::of(text()), any::<bool>()).prop_map(|(phase, label, transient)| {
            UiChunk::DataStatus {
                data: StatusData { phase, label },
                transient,
            }
        }),
        text().prop_map(|error_text| UiChunk::Error { error_text }),
        Just(UiChunk::Abort),
        prop::option::of(finish_metadata())
            .prop_map(|message_metadata| UiChunk::Finish { message_metadata }),
        finish_metadata()
            .prop_map(|message_metadata| UiChunk::MessageMetadata { message_metadata }),
        any_raw().prop_map(|message_metadata| UiChunk::AgentMetadata { message_metadata }),
        (text(), text(), prop::option::of(text())).prop_map(|(source_id, url, title)| {
            UiChunk::SourceUrl {
                source_id,
                url,
                title,
            }
        }),
        (text(), text(), text(), prop::option::of(text())).prop_map(
            |(source_id, media_type, title, filename)| UiChunk::SourceDocument {
                source_id,
                media_type,
                title,
                filename,
            }
        ),
        (text(), prop::option::of(text()), any_raw(), any::<bool>()).prop_map(
            |(name, id, data, transient)| UiChunk::AppData(AppData {
                name,
                id,
                data,
                transient,
            })
        ),
        (
            text(),
            text(),
            text(),
            prop::option::of(any_raw()),
            prop::option::of(text()),
            prop::option::of(any_raw())
        )
            .prop_map(|(id, question_id, text, options, tool_call_id, answer)| {
                let value = |raw: Box<RawValue>| serde_json::from_str(raw.get()).unwrap();
                UiChunk::DataQuestion {
                    id,
                    data: QuestionData {
                        question_id,
                        text,
                        options: options.map(value),
                        tool_call_id,
                        answer: answer.map(value),
                    },
                }
            }),
    ]
}

fn finish_metadata() -> impl Strategy<Value = FinishMetadata> {
    (
        any_text(),
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
        any::<bool>(),
        prop::option::of((
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
        )),
        prop::option::of(any_text()),
    )
        .prop_map(
            |(turn_id, duration_ms, tool_calls, tool_errors, stopped, usage, model)| {
                FinishMetadata {
                    turn_id,
                    duration_ms,
                    tool_calls,
                    tool_errors,
                    stopped,
                    usage: usage.map(|(input_tokens, output_tokens)| Usage {
                        input_tokens,
                        output_tokens,
                    }),
                    model,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_chunk_is_written_as_serde_writes_it(chunk in any_chunk()) {
        prop_assert_eq!(by_hand(&chunk), Some(derived(&chunk)));
    }

}

#[test]
fn a_question_is_written_as_serde_writes_it() {
    // Its data holds whatever JSON the agent sent: here an answer already given.
    let data = QuestionData {
        question_id: "q7".into(),
        text: "Which file?".into(),
        options: None,
        tool_call_id: None,
        answer: Some(json!({"file": "a.txt"})),
    };
    let question = UiChunk::DataQuestion {
        id: "q7".into(),
        data,
    };
    assert_eq!(by_hand(&question), Some(derived(&question)));
    assert_eq!(
        by_hand(&question).unwrap(),
        r#"{"type":"data-question","id":"q7","data":{"questionId":"q7","text":"Which file?","answer":{"file":"a.txt"}}}"#
    );
}

#[test]
fn the_fixed_chunks_of_a_turn_are_exact() {
    let start = UiChunk::Start {
        message_id: Some("t1".into()),
        message_metadata: Some(StartMetadata {
            turn_id: "t1".into(),
            created_at: 1_700_000_000_000,
        }),
    };
    assert_eq!(
        by_hand(&start).unwrap(),
        r#"{"type":"start","messageId":"t1","messageMetadata":{"turnId":"t1","createdAt":1700000000000}}"#
    );
    let finish = UiChunk::Finish {
        message_metadata: Some(FinishMetadata {
            turn_id: "t\"1".into(),
            duration_ms: 12,
            tool_calls: 0,
            tool_errors: u64::MAX,
            stopped: false,
            usage: Some(Usage {
                input_tokens: None,
                output_tokens: Some(40),
            }),
            model: Some("m\\1".into()),
        }),
    };
    assert_eq!(
        by_hand(&finish).unwrap(),
        r#"{"type":"finish","messageMetadata":{"turnId":"t\"1","durationMs":12,"toolCalls":0,"toolErrors":18446744073709551615,"usage":{"outputTokens":40},"model":"m\\1"}}"#
    );
    let stopped = UiChunk::MessageMetadata {
        message_metadata: FinishMetadata {
            turn_id: "t1".into(),
            duration_ms: 3,
            tool_calls: 1,
            tool_errors: 1,
            stopped: true,
            usage: Some(Usage {
                input_tokens: Some(5),
                output_tokens: Some(0),
            }),
            model: None,
        },
    };
    assert_eq!(
        by_hand(&stopped).unwrap(),
        r#"{"type":"message-metadata","messageMetadata":{"turnId":"t1","durationMs":3,"toolCalls":1,"toolErrors":1,"stopped":true,"usage":{"inputTokens":5,"outputTokens":0}}}"#
    );
}
