//! Tests of the turn's record: its line is what serde writes, every outcome maps to its word and
//! `error.type`, the stream's facts are counted on both of its paths, the data point has the
//! layout docs/operations.md gives, and no text of the chat reaches it.

use proptest::prelude::*;
use serde_json::Value;

use super::*;
use crate::json_out::any_text;
use crate::request_log::{any_request_log, RequestLog};
use crate::turn_stream::TurnStream;

fn request() -> TurnRequest<'static> {
    TurnRequest {
        request_id: "r1",
        session: "s1",
        caller: Some("alice"),
        trigger: Some(Trigger::Submit),
        started_at: 1_000,
        ended_at: 2_500,
        bytes: 900,
    }
}

fn facts(ended: StreamOutcome) -> TurnFacts<'static> {
    TurnFacts {
        turn_id: Some("t1"),
        agent_protocol: Some(3),
        first_frame_at: Some(1_012),
        first_text_at: Some(1_340),
        events: 9,
        chunks: 12,
        tool_calls: 2,
        tool_errors: 1,
        ended: Some(ended),
        error_code: None,
        usage: Some(Usage {
            input_tokens: Some(120),
            output_tokens: Some(48),
        }),
        model: Some("@cf/meta/llama-3.1-8b-instruct"),
    }
}

#[test]
fn a_finished_turn_is_one_line_with_the_conventions_names_and_seconds() {
    let record = TurnRecord::of_stream(request(), facts(StreamOutcome::Finished), false);
    assert_eq!(
        record.to_line(),
        r#"{"event.name":"turn","turn.request_id":"r1","turn.id":"t1","gen_ai.conversation.id":"s1","user.id":"alice","turn.trigger":"submit","turn.outcome":"finished","turn.agent_protocol":3,"turn.time_to_first_frame":0.012,"gen_ai.server.time_to_first_token":0.340,"gen_ai.client.operation.duration":1.500,"turn.events":9,"turn.chunks":12,"turn.bytes":900,"turn.tool_calls":2,"turn.tool_errors":1,"gen_ai.usage.input_tokens":120,"gen_ai.usage.output_tokens":48,"gen_ai.response.model":"@cf/meta/llama-3.1-8b-instruct"}"#
    );
}

#[test]
fn each_ending_has_its_outcome_and_error_type() {
    let of = |ended: StreamOutcome, code: Option<&'static str>, abort_sent: bool| {
        let facts = TurnFacts {
            error_code: code,
            ..facts(ended)
        };
        let record = TurnRecord::of_stream(request(), facts, abort_sent);
        (record.outcome, record.error_type)
    };
    assert_eq!(of(StreamOutcome::Finished, None, false), ("finished", None));
    assert_eq!(of(StreamOutcome::Canceled, None, false), ("stopped", None));
    assert_eq!(
        of(StreamOutcome::Cut(EndCause::ClientGone), None, true),
        ("aborted", None)
    );
    assert_eq!(
        of(StreamOutcome::Cut(EndCause::ClientGone), None, false),
        ("detached", None)
    );
    assert_eq!(
        of(StreamOutcome::AwaitingAnswer, None, false),
        ("awaiting_answer", None)
    );
    let error = Some;
    assert_eq!(
        of(StreamOutcome::AgentError, Some("busy"), false),
        ("agent_error", error("busy"))
    );
    assert_eq!(
        of(StreamOutcome::AgentError, None, false),
        ("agent_error", error("agent_error"))
    );
    for (cause, word) in [
        (EndCause::Timeout, "timeout"),
        (EndCause::SocketClosed, "connection_lost"),
        (EndCause::FrameTooLarge, "frame_too_large"),
        (EndCause::SlowClient, "slow_client"),
    ] {
        let cut = StreamOutcome::Cut(cause);
        assert_eq!(of(cut, None, true), (word, error(word)));
    }
    assert_eq!(
        of(StreamOutcome::Cut(EndCause::Crashed), None, true),
        ("crashed", None)
    );
    let refused = TurnRecord::refused(request(), "rate_limited");
    assert_eq!(
        refused.to_line(),
        r#"{"event.name":"turn","turn.request_id":"r1","gen_ai.conversation.id":"s1","user.id":"alice","turn.trigger":"submit","turn.outcome":"refused","error.type":"rate_limited","gen_ai.client.operation.duration":1.500,"turn.events":0,"turn.chunks":0,"turn.bytes":900,"turn.tool_calls":0,"turn.tool_errors":0}"#
    );
}

/// `text` for the life of the test run: a record borrows its texts, a strategy must give values.
fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

fn any_record() -> impl Strategy<Value = TurnRecord<'static>> {
    let texts = prop::collection::vec(any_text(), 6);
    let options = any::<[bool; 8]>();
    let numbers = any::<[u64; 10]>();
    let trigger = prop::sample::select(vec!["submit", "regenerate", "answer", "resume"]);
    (texts, options, numbers, trigger).prop_map(|(t, has, n, trigger)| {
        let some = |on: bool, text: &str| on.then(|| leak(text));
        TurnRecord {
            event_name: EVENT_NAME,
            request_id: leak(&t[0]),
            turn_id: some(has[0], &t[1]),
            session: leak(&t[2]),
            caller: some(has[1], &t[3]),
            trigger: has[2].then_some(trigger),
            outcome: "finished",
            error_type: some(has[3], &t[4]),
            agent_protocol: has[4].then_some(n[0]),
            // Times as a worker measures them: milliseconds well under 2^53.
            time_to_first_frame: has[5].then_some(Seconds(n[1] >> 20)),
            time_to_first_token: has[6].then_some(Seconds(n[2] >> 20)),
            duration: Seconds(n[3] >> 20),
            events: n[4],
            chunks: n[5],
            bytes: n[6],
            tool_calls: n[7],
            tool_errors: n[8],
            input_tokens: has[7].then_some(n[9] >> 11),
            output_tokens: has[7].then_some(n[0] >> 11),
            model: some(has[7], &t[5]),
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn the_line_is_what_serde_writes(record in any_record()) {
        let line = record.to_line();
        let by_hand: Value = serde_json::from_str(&line).unwrap();
        let by_serde = serde_json::to_value(&record).unwrap();
        prop_assert_eq!(by_hand, by_serde);
        // The same keys in the same order: one line, as serde would write it.
        prop_assert_eq!(keys_in_order(&line), keys_in_order(&serde_json::to_string(&record).unwrap()));
        prop_assert!(!line.contains('\n'));
    }
}

/// A JSON object's keys in the order written (a `serde_json::Map` sorts them).
fn keys_in_order(text: &str) -> Vec<String> {
    struct Keys(Vec<String>);
    impl<'de> serde::Deserialize<'de> for Keys {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Keys, D::Error> {
            struct Visit;
            impl<'de> serde::de::Visitor<'de> for Visit {
                type Value = Keys;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<M: serde::de::MapAccess<'de>>(
                    self,
                    mut map: M,
                ) -> Result<Keys, M::Error> {
                    let mut keys = Vec::new();
                    while let Some((key, _)) = map.next_entry::<String, serde::de::IgnoredAny>()? {
                        keys.push(key);
                    }
                    Ok(Keys(keys))
                }
            }
            d.deserialize_map(Visit)
        }
    }
    serde_json::from_str::<Keys>(text).unwrap().0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn a_turns_request_line_is_the_request_then_the_record(
        log in any_request_log(),
        record in any_record(),
    ) {
        let line = log.line(Some(&record));
        prop_assert!(!line.contains('\n'));
        // Serde's two objects, one after the other: every key of each with its value, once, in
        // the order each writes them.
        let by_serde = |text: &str| -> serde_json::Map<String, Value> {
            serde_json::from_str(text).unwrap()
        };
        let request = serde_json::to_string(&log).unwrap();
        let turn = serde_json::to_string(&record).unwrap();
        let mut both = by_serde(&request);
        both.extend(by_serde(&turn));
        prop_assert_eq!(by_serde(&line), both);
        let mut order = keys_in_order(&request);
        order.extend(keys_in_order(&turn));
        prop_assert_eq!(keys_in_order(&line), order);
    }
}

#[test]
fn a_turns_request_line_holds_both_key_sets_as_the_docs_show_it() {
    let log = RequestLog {
        request_id: "9b1c…".into(),
        method: "POST".into(),
        path: "/api/sessions/s1/chat".into(),
        session: Some("s1".into()),
        user: Some("alice".into()),
        status: 200,
        outcome: "finished".into(),
        chunks: 12,
        bytes: 900,
        skipped_frames: 0,
        duration_ms: 1_500,
    };
    let request = TurnRequest {
        request_id: "9b1c…",
        ..request()
    };
    let facts = TurnFacts {
        turn_id: Some("msg_7d2e"),
        ..facts(StreamOutcome::Finished)
    };
    let line = log.line(Some(&TurnRecord::of_stream(request, facts, false)));
    assert_eq!(
        line,
        r#"{"requestId":"9b1c…","method":"POST","path":"/api/sessions/s1/chat","session":"s1","user":"alice","status":200,"outcome":"finished","chunks":12,"bytes":900,"skippedFrames":0,"durationMs":1500,"event.name":"turn","turn.request_id":"9b1c…","turn.id":"msg_7d2e","gen_ai.conversation.id":"s1","user.id":"alice","turn.trigger":"submit","turn.outcome":"finished","turn.agent_protocol":3,"turn.time_to_first_frame":0.012,"gen_ai.server.time_to_first_token":0.340,"gen_ai.client.operation.duration":1.500,"turn.events":9,"turn.chunks":12,"turn.bytes":900,"turn.tool_calls":2,"turn.tool_errors":1,"gen_ai.usage.input_tokens":120,"gen_ai.usage.output_tokens":48,"gen_ai.response.model":"@cf/meta/llama-3.1-8b-instruct"}"#
    );
    let page = include_str!("../../../docs/operations.md");
    assert!(
        page.contains(&line),
        "docs/operations.md shows the line as written"
    );
}

#[test]
fn the_data_point_has_the_documented_layout() {
    let record = TurnRecord::of_stream(request(), facts(StreamOutcome::Finished), false);
    let point = record.data_point();
    assert_eq!(point.index, "alice");
    assert_eq!(
        point.blobs,
        [
            "finished",
            "",
            "submit",
            "s1",
            "alice",
            "t1",
            "@cf/meta/llama-3.1-8b-instruct",
            "r1"
        ]
    );
    assert_eq!(
        point.doubles,
        [0.34, 0.012, 1.5, 120.0, 48.0, 9.0, 12.0, 900.0, 2.0, 1.0, 3.0, 1.0]
    );
    // The platform's limits: 1 index of at most 96 bytes, 20 blobs, 20 doubles.
    assert!(point.blobs.len() <= 20 && point.doubles.len() <= 20);

    // Without a caller the session is the index; absent times are −1, absent counts 0.
    let long_session = "é".repeat(60);
    let anonymous = TurnRecord::refused(
        TurnRequest {
            caller: None,
            trigger: None,
            session: &long_session,
            ..request()
        },
        "unauthorized",
    );
    let point = anonymous.data_point();
    assert_eq!(
        point.index,
        "é".repeat(48),
        "cut at 96 bytes, on a character"
    );
    assert_eq!(&point.blobs[..3], ["refused", "unauthorized", ""]);
    assert_eq!(point.doubles[..2], [-1.0, -1.0]);
    assert_eq!(point.doubles[10..], [-1.0, 0.0]);
}

#[test]
fn the_point_as_json_is_the_object_the_builder_made() {
    let record = TurnRecord::of_stream(request(), facts(StreamOutcome::Finished), false);
    assert_eq!(
        record.data_point_json(),
        r#"{"indexes":["alice"],"doubles":[0.340,0.012,1.500,120,48,9,12,900,2,1,3,1],"blobs":["finished","","submit","s1","alice","t1","@cf/meta/llama-3.1-8b-instruct","r1"]}"#
    );
    let refused = TurnRecord::refused(
        TurnRequest {
            caller: None,
            trigger: None,
            ..request()
        },
        "unauthorized",
    );
    assert_eq!(
        refused.data_point_json(),
        r#"{"indexes":["s1"],"doubles":[-1,-1,1.500,0,0,0,0,900,0,0,-1,0],"blobs":["refused","unauthorized","","s1","","","","r1"]}"#
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// JavaScript's `JSON.parse` of the point's text gives back [`TurnRecord::data_point`]: the
    /// strings as serde reads them, each double bit for bit (Rust's `str::parse::<f64>` rounds to
    /// the nearest double, as JavaScript's parse does).
    #[test]
    fn the_point_as_json_parses_to_the_point(record in any_record()) {
        let text = record.data_point_json();
        let point = record.data_point();
        let parsed: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&parsed["indexes"], &serde_json::json!([point.index]));
        prop_assert_eq!(&parsed["blobs"], &serde_json::json!(point.blobs));
        let doubles = text
            .split_once(r#""doubles":["#)
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(doubles, _)| doubles)
            .unwrap();
        let read: Vec<u64> = doubles
            .split(',')
            .map(|number| number.parse::<f64>().unwrap().to_bits())
            .collect();
        let expected: Vec<u64> = point.doubles.iter().map(|d| d.to_bits()).collect();
        prop_assert_eq!(read, expected);
    }
}

#[test]
fn the_docs_give_the_record_and_the_point_field_by_field() {
    let page = include_str!("../../../docs/operations.md");
    let record = TurnRecord::of_stream(request(), facts(StreamOutcome::AgentError), false);
    let line: serde_json::Map<String, Value> = serde_json::from_str(&record.to_line()).unwrap();
    for key in line.keys() {
        assert!(
            page.contains(&format!("| `{key}` |")),
            "docs/operations.md: {key}"
        );
    }
    for (i, name) in BLOB_NAMES.iter().enumerate() {
        let row = format!("| `blob{}` | `{name}` |", i + 1);
        assert!(page.contains(&row), "docs/operations.md: {row}");
    }
    for (i, name) in DOUBLE_NAMES.iter().enumerate() {
        let row = format!("| `double{}` | `{name}` |", i + 1);
        assert!(page.contains(&row), "docs/operations.md: {row}");
    }
    assert_eq!(BLOB_NAMES.len(), record.data_point().blobs.len());
    assert_eq!(DOUBLE_NAMES.len(), record.data_point().doubles.len());
}

fn clock() -> u64 {
    1_000
}

/// The stream of a turn with an `init`, text, a failed tool and usage; `pushed` by either path.
fn turn_of(push: fn(&mut TurnStream, &str, &mut Vec<u8>)) -> TurnStream {
    let mut stream = TurnStream::with_clock(Some("r1"), clock);
    let mut out = Vec::new();
    for frame in [
        r#"{"type":"init","protocol":3,"messages":[]}"#,
        r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"the secret prompt"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":" is here"}"#,
        r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"x","status":"error","error":"no"}"#,
        r#"{"type":"domain.event","turnId":"t1"}"#,
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn","usage":{"inputTokens":7,"outputTokens":"many"},"model":"m"}"#,
    ] {
        push(&mut stream, frame, &mut out);
    }
    stream
}

#[test]
fn the_stream_counts_the_turn_on_both_of_its_paths() {
    let full = turn_of(|s, f, out| {
        s.push_unmatched(f, out);
    });
    let shortcut = turn_of(|s, f, out| {
        s.push_frame(f, out);
    });
    let (full, shortcut) = (full.facts(), shortcut.facts());
    assert_eq!(full, shortcut);
    assert_eq!(full.agent_protocol, Some(3));
    assert_eq!(full.events, 5, "create, two deltas, the tool, the finalize");
    assert_eq!(
        (full.first_frame_at, full.first_text_at),
        (Some(1_000), Some(1_000))
    );
    assert_eq!((full.tool_calls, full.tool_errors), (1, 1));
    assert_eq!(full.ended, Some(StreamOutcome::Finished));
    assert_eq!(
        full.usage,
        Some(Usage {
            input_tokens: Some(7),
            output_tokens: None
        })
    );
    assert_eq!(full.model, Some("m"));
    let line = TurnRecord::of_stream(request(), full, false).to_line();
    assert!(!line.contains("secret"), "no text of the chat: {line}");
}

#[test]
fn an_agent_error_keeps_its_code() {
    let mut stream = TurnStream::new(Some("r1"));
    let mut out = Vec::new();
    stream.push_frame(
        r#"{"type":"error","code":"busy","message":"A turn is already running."}"#,
        &mut out,
    );
    let facts = stream.facts();
    assert_eq!(
        (facts.ended, facts.error_code),
        (Some(StreamOutcome::AgentError), Some("busy"))
    );
    assert_eq!(
        facts.first_frame_at,
        Some(0),
        "the error is the turn's first frame"
    );
}

#[test]
fn triggers_of_a_chat_body() {
    assert_eq!(
        Trigger::of_chat(Some("regenerate-message")),
        Trigger::Regenerate
    );
    assert_eq!(Trigger::of_chat(Some("submit-message")), Trigger::Submit);
    assert_eq!(Trigger::of_chat(None), Trigger::Submit);
}

#[test]
fn an_agents_ids_are_cut_to_what_a_log_line_keeps() {
    let long = "t".repeat(10_000);
    let failed = TurnFacts {
        turn_id: Some(&long),
        ..facts(StreamOutcome::AgentError)
    };
    let record = TurnRecord::of_stream(request(), failed, false);
    assert_eq!(record.turn_id.map(str::len), Some(MAX_LOGGED_ID_CHARS));
    let short = TurnFacts {
        turn_id: Some("msg_1"),
        ..facts(StreamOutcome::Finished)
    };
    assert_eq!(
        TurnRecord::of_stream(request(), short, false).turn_id,
        Some("msg_1")
    );
}
