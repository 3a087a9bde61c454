//! Property tests: arbitrary V2 frame sequences, garbage included, never panic and always
//! yield a stream the AI SDK accepts (checked by `support::validator`).

mod support;

use proptest::prelude::*;
use serde_json::{json, Value};
use session_agent_core::questions::{QuestionParts, QuestionView};
use session_agent_core::session::parse_init;
use session_agent_core::trace::{Trace, TraceMode};
use session_agent_core::translator::no_clock;
use session_agent_core::turn_stream::{EndCause, TurnStream};
use support::validator::{check_chunks, check_chunks_holding, parse_sse, validate};

fn turn_id() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["t1", "t2", "t3"])
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,8}",
        any::<String>(),
        Just("\n\ndata: [DONE]\n\n\r\0\u{2028}😀".to_owned()),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(null)),
        Just(json!({"path": "/tmp", "n": 3})),
        Just(json!({"success": false, "error": {"message": "nope"}})),
        Just(json!({"error": true})),
        Just(json!({"error": "bad"})),
        Just(json!("plain")),
        Just(json!([1, {"a": []}])),
        any::<i64>().prop_map(|n| json!(n)),
        text().prop_map(Value::String),
    ]
}

/// One V2 frame as its JSON text: well-formed, partly malformed, or garbage.
fn frame() -> impl Strategy<Value = String> {
    let status = prop::sample::select(vec!["pending", "running", "completed", "error", "bogus"]);
    let reason = prop::sample::select(vec!["end_turn", "error", "canceled", "other"]);
    let agent = prop::sample::select(vec![
        "idle",
        "thinking",
        "streaming",
        "tool_calling",
        "compacting",
        "error",
    ]);
    let channel = prop::sample::select(vec![None, Some("web"), Some("slack")]);
    let request = prop::sample::select(vec![None, Some("r1"), Some("r2")]);
    prop_oneof![
        (turn_id(), channel, request).prop_map(|(t, c, r)| {
            let mut f = json!({"type": "message.create", "turnId": t});
            if let Some(c) = c { f["channelType"] = json!(c); }
            if let Some(r) = r { f["requestId"] = json!(r); }
            f.to_string()
        }),
        (turn_id(), text()).prop_map(|(t, d)| json!({"type": "message.part.text-delta", "turnId": t, "delta": d}).to_string()),
        (turn_id(), text()).prop_map(|(t, d)| json!({"type": "message.part.reasoning-delta", "turnId": t, "delta": d}).to_string()),
        text().prop_map(|c| json!({"type": "chunk", "content": c}).to_string()),
        (turn_id(), prop::sample::select(vec!["c1", "c2", "c3"]), status, prop::option::of(json_value()), prop::option::of(json_value()), prop::option::of(json_value()))
            .prop_map(|(t, c, s, args, result, error)| {
                let mut f = json!({"type": "message.part.tool-update", "turnId": t, "callId": c, "toolName": "tool", "status": s});
                if let Some(a) = args { f["args"] = a; }
                if let Some(r) = result { f["result"] = r; }
                if let Some(e) = error { f["error"] = e; }
                f.to_string()
            }),
        (turn_id(), reason, prop::option::of(text()), prop::option::of(json_value())).prop_map(|(t, r, ft, e)| {
            let mut f = json!({"type": "message.finalize", "turnId": t, "reason": r});
            if let Some(ft) = ft { f["finalText"] = json!(ft); }
            if let Some(e) = e { f["error"] = e; }
            f.to_string()
        }),
        Just(r#"{"type":"complete"}"#.to_owned()),
        (agent, prop::option::of(json_value())).prop_map(|(s, d)| {
            let mut f = json!({"type": "agentStatus", "status": s});
            if let Some(d) = d { f["detail"] = d; }
            f.to_string()
        }),
        (text(), prop::option::of(json_value()), prop::option::of(prop::sample::select(vec!["c1", "c2", "q1", "zz"]))).prop_map(|(q, o, gated)| {
            let mut f = json!({"type": "question", "questionId": "q1", "text": q});
            if let Some(o) = o { f["options"] = o; }
            if let Some(g) = gated { f["toolCallId"] = json!(g); }
            f.to_string()
        }),
        json_value().prop_map(|m| json!({"type": "error", "message": m}).to_string()),
        // Protocol 6: data parts (names good, reserved, garbled; ids repeating), sources, metadata.
        (turn_id(), prop::sample::select(vec!["w", "status", "a b", ""]), prop::option::of(prop::sample::select(vec!["i1", "i2"])), json_value(), any::<bool>())
            .prop_map(|(t, name, id, data, transient)| {
                let mut f = json!({"type": "message.part.data", "turnId": t, "name": name, "data": data});
                if let Some(id) = id { f["id"] = json!(id); }
                if transient { f["transient"] = json!(true); }
                f.to_string()
            }),
        (turn_id(), prop::sample::select(vec![Some("https://e.com/a"), Some("javascript:x"), None]), prop::option::of(text()))
            .prop_map(|(t, url, title)| {
                let mut f = json!({"type": "message.part.source", "turnId": t, "sourceId": "s1", "mediaType": "text/plain"});
                if let Some(url) = url { f["url"] = json!(url); }
                if let Some(title) = title { f["title"] = json!(title); }
                f.to_string()
            }),
        (turn_id(), json_value()).prop_map(|(t, m)| json!({"type": "message.metadata", "turnId": t, "metadata": m}).to_string()),
        Just(r#"{"type":"init","messages":[]}"#.to_owned()),
        Just(r#"{"type":"git-state","branch":"main"}"#.to_owned()),
        any::<String>(),
        json_value().prop_map(|v| v.to_string()),
    ]
}

/// Every trace mode, with a tool JSON limit small enough to bite.
fn trace() -> impl Strategy<Value = Trace> {
    (
        prop::sample::select(vec![TraceMode::Minimal, TraceMode::Normal, TraceMode::Full]),
        1usize..40,
    )
        .prop_map(|(mode, max_tool_json_chars)| Trace {
            mode,
            max_tool_json_chars,
        })
}

/// What questions become: every kind of parts, seen through `trace`.
fn questions(trace: Trace) -> impl Strategy<Value = QuestionView> {
    prop::sample::select(vec![
        QuestionParts::Tools,
        QuestionParts::Approvals,
        QuestionParts::Data,
    ])
    .prop_map(move |parts| QuestionView::new(parts, trace))
}

fn cause() -> impl Strategy<Value = EndCause> {
    prop::sample::select(vec![
        EndCause::SocketClosed,
        EndCause::Timeout,
        EndCause::ClientGone,
        EndCause::FrameTooLarge,
        EndCause::SlowClient,
        EndCause::Crashed,
    ])
}

/// Everything `stream` writes: what it holds before any frame (a resume's replay, an answer's
/// opening), then `frames`, then its end for `end`; and whether it is done then.
fn written(mut stream: TurnStream, frames: &[String], end: EndCause) -> (String, bool) {
    let mut out = Vec::new();
    stream.write_pending(&mut out);
    for f in frames {
        stream.push_frame(f, &mut out);
    }
    stream.end(end, &mut out);
    (String::from_utf8(out).expect("UTF-8"), stream.is_done())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn any_frames_yield_a_valid_stream(
        frames in prop::collection::vec(frame(), 0..40),
        request_id in prop::option::of(Just("r1")),
        end in cause(),
        (trace, questions) in trace().prop_flat_map(|t| (Just(t), questions(t))),
    ) {
        let stream = TurnStream::new(request_id).with_questions(questions).with_trace(trace);
        let (body, done) = written(stream, &frames, end);
        prop_assert!(done);
        let checked = validate(&body);
        prop_assert!(checked.is_ok(), "{:?}\nframes: {:#?}\nbody:\n{}", checked.err(), frames, body);
    }

    /// An answer's stream in the same message: any snapshot whose question was answered (its
    /// gated call perhaps denied), then any frames; the calls the client holds may move on.
    #[test]
    fn any_answer_in_the_message_yields_a_valid_stream(
        parts in prop::collection::vec(snapshot_part(), 0..8),
        frames in prop::collection::vec(frame(), 0..30),
        denied in prop::option::of(prop::sample::select(vec!["c1", "c2", "c3", "zz"])),
        end in cause(),
        (trace, questions) in trace().prop_flat_map(|t| (Just(t), questions(t))),
    ) {
        let init = json!({"type": "init", "messages": [{"id": "t1", "role": "assistant", "parts": parts}]});
        let init = parse_init(&init.to_string()).expect("an init");
        let message = init.in_flight().expect("in flight");
        // The client holds the calls the question's stream left open (and shows them, as the
        // trace does): their ending may follow.
        let held: Vec<&str> = if trace.mode == TraceMode::Minimal { vec![] } else {
            message.parts.iter().filter_map(|p| match p {
                session_agent_core::session::Part::ToolCall(c)
                    if session_agent_core::translator::tool_outcome(c.status, c.result.as_deref(), c.error.as_ref()).is_none() =>
                {
                    Some(c.call_id.as_str())
                }
                _ => None,
            }).collect()
        };
        let stream = TurnStream::answered_in(message, "m1".into(), denied, no_clock, questions)
            .with_trace(trace);
        let (body, _) = written(stream, &frames, end);
        let checked = parse_sse(&body).and_then(|chunks| check_chunks_holding(&chunks, &held));
        prop_assert!(checked.is_ok(), "{:?}\nparts: {:#?}\nframes: {:#?}\nbody:\n{}", checked.err(), parts, frames, body);
    }
}

/// One part of an in-flight message snapshot: every kind, in every state, and broken ones.
fn snapshot_part() -> impl Strategy<Value = Value> {
    let status = prop::sample::select(vec!["pending", "running", "completed", "error", "bogus"]);
    prop_oneof![
        text().prop_map(|t| json!({"type": "text", "text": t, "streaming": true})),
        text().prop_map(|t| json!({"type": "reasoning", "text": t})),
        (prop::sample::select(vec!["c1", "c2", "c3"]), status, prop::option::of(json_value()), prop::option::of(json_value()))
            .prop_map(|(c, s, args, result)| {
                let mut p = json!({"type": "tool-call", "callId": c, "toolName": "tool", "status": s});
                if let Some(a) = args { p["args"] = a; }
                if let Some(r) = result { p["result"] = r; }
                p
            }),
        (text(), prop::option::of(json_value()), prop::option::of(prop::sample::select(vec!["c1", "c2", "zz"]))).prop_map(|(q, answer, gated)| {
            let mut p = json!({"type": "question", "questionId": "q1", "text": q, "options": ["yes", "no"]});
            if let Some(a) = answer { p["answer"] = a; }
            if let Some(g) = gated { p["toolCallId"] = json!(g); }
            p
        }),
        Just(json!({"type": "error", "message": "x"})),
        Just(json!({"type": "file", "mediaType": "text/plain", "url": "data:,x"})),
        json_value(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// A resume: any snapshot of the turn in flight, replayed, then any live frames.
    #[test]
    fn any_resumed_snapshot_then_frames_yield_a_valid_stream(
        parts in prop::collection::vec(snapshot_part(), 0..8),
        frames in prop::collection::vec(frame(), 0..30),
        end in cause(),
        (trace, questions) in trace().prop_flat_map(|t| (Just(t), questions(t))),
    ) {
        let init = json!({"type": "init", "messages": [
            {"id": "u", "role": "user", "parts": [{"type": "text", "text": "hi"}]},
            {"id": "t1", "role": "assistant", "parts": parts},
        ]});
        let init = parse_init(&init.to_string()).expect("an init");
        let stream = TurnStream::resume(init.in_flight().expect("in flight"), no_clock, questions)
            .with_trace(trace);
        let (body, _) = written(stream, &frames, end);
        let checked = validate(&body);
        prop_assert!(checked.is_ok(), "{:?}\nparts: {:#?}\nframes: {:#?}\nbody:\n{}", checked.err(), parts, frames, body);
    }

    /// An answer's stream: the rest of a turn as a new message.
    #[test]
    fn any_continuation_yields_a_valid_stream(
        frames in prop::collection::vec(frame(), 0..40),
        end in cause(),
        trace in trace(),
    ) {
        let stream = TurnStream::continuing("t1", "m2".into(), no_clock).with_trace(trace);
        let (body, _) = written(stream, &frames, end);
        let checked = validate(&body);
        prop_assert!(checked.is_ok(), "{:?}\nframes: {:#?}\nbody:\n{}", checked.err(), frames, body);
    }
}

/// After every frame of `frames` pushed into the stream `make` builds, the ending that
/// [`TurnStream::fault_ending`] last wrote is the one [`TurnStream::end`] writes at that point (a
/// stream built anew and fed the same frames), and the body so far with it is a valid stream: the
/// ending the pump hands JavaScript ahead of a crash is never stale, though it is made only when
/// a part or a tool opens or closes. Before the turn opens it is every such stream's
/// ([`TurnStream::unopened_fault_ending`], which the pump hands over once for all).
fn fault_endings_keep_up(
    make: impl Fn() -> TurnStream,
    frames: &[String],
) -> Result<(), TestCaseError> {
    let mut stream = make();
    let mut body = Vec::new();
    stream.write_pending(&mut body);
    let mut ending = Vec::new();
    for seen in 0..=frames.len() {
        if seen > 0 {
            stream.push_frame(&frames[seen - 1], &mut body);
        }
        let refreshed = stream.fault_ending(EndCause::Crashed, &mut ending);
        if stream.is_done() {
            prop_assert!(!refreshed, "no ending is made once the stream ended");
            return Ok(());
        }
        let (expected, _) = written(make(), &frames[..seen], EndCause::Crashed);
        if !stream.turn_started() {
            let mut unopened = Vec::new();
            TurnStream::unopened_fault_ending(EndCause::Crashed, &mut unopened);
            prop_assert_eq!(&unopened, &ending, "before the turn opens");
        }
        let so_far = String::from_utf8(body.clone()).expect("UTF-8");
        let ending_text = String::from_utf8(ending.clone()).expect("UTF-8");
        prop_assert_eq!(
            format!("{so_far}{ending_text}"),
            expected,
            "after {} frames: {:#?}",
            seen,
            &frames[..seen]
        );
        let checked = validate(&format!("{so_far}{ending_text}"));
        prop_assert!(checked.is_ok(), "{:?}", checked.err());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn the_fault_ending_is_always_the_ending_of_the_moment(
        frames in prop::collection::vec(frame(), 0..30),
        request_id in prop::option::of(Just("r1")),
        (trace, questions) in trace().prop_flat_map(|t| (Just(t), questions(t))),
    ) {
        let make = || TurnStream::new(request_id).with_questions(questions).with_trace(trace);
        fault_endings_keep_up(make, &frames)?;
    }

    /// The same for a resume, whose stream opens with a replay (a part or tools left open).
    #[test]
    fn a_resumed_streams_fault_ending_is_always_the_ending_of_the_moment(
        parts in prop::collection::vec(snapshot_part(), 0..8),
        frames in prop::collection::vec(frame(), 0..20),
        (trace, questions) in trace().prop_flat_map(|t| (Just(t), questions(t))),
    ) {
        let init = json!({"type": "init", "messages": [{"id": "t1", "role": "assistant", "parts": parts}]});
        let init = parse_init(&init.to_string()).expect("an init");
        let message = init.in_flight().expect("in flight");
        let make = || TurnStream::resume(message, no_clock, questions).with_trace(trace);
        fault_endings_keep_up(make, &frames)?;
    }
}

#[test]
fn the_validator_rejects_what_the_sdk_rejects() {
    let bad: &[&str] = &[
        "data: {\"type\":\"finish\"}\n\n",
        "data: {\"type\":\"text-delta\",\"id\":\"a\",\"delta\":\"x\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n",
        "data: {\"type\":\"finish\",\"finishReason\":\"stop\"}\n\ndata: [DONE]\n\n",
        "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"start-step\"}\n\ndata: {\"type\":\"text-start\",\"id\":\"a\"}\n\ndata: {\"type\":\"finish-step\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n",
        "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"tool-input-start\",\"toolCallId\":\"c\",\"toolName\":\"x\",\"providerExecuted\":true,\"dynamic\":true}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n",
        "data: {\"type\":\"finish\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n",
        "data: {\"type\":\"start\",\"messageId\":null}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n",
        "data: {\"type\":\"error\",\"errorText\":\"x\"}\n\ndata: [DONE]\n\n",
        "data: {\"type\":\"wat\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n",
    ];
    for body in bad {
        assert!(validate(body).is_err(), "accepted: {body}");
    }
    assert!(check_chunks(&[]).is_err());
    let good = "data: {\"type\":\"start\",\"messageId\":\"t\"}\n\n: keep-alive\n\ndata: {\"type\":\"start-step\"}\n\ndata: {\"type\":\"finish-step\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n";
    assert_eq!(validate(good).map(|c| c.len()), Ok(4));
}

/// Arbitrary JSON-ish request bodies: the parser answers every one with a request or a
/// typed 4xx error, and never panics.
fn body() -> impl Strategy<Value = Vec<u8>> {
    let part = prop_oneof![
        text().prop_map(|t| json!({"type": "text", "text": t})),
        Just(json!({"type": "file", "mediaType": "image/png", "url": "data:,"})),
        Just(json!({"type": "step-start"})),
        json_value().prop_map(
            |a| json!({"type": "data-answer", "data": {"questionId": "q1", "answer": a}})
        ),
        json_value().prop_map(|d| json!({"type": "data-answer", "data": d})),
        json_value(),
    ];
    let message = (
        prop::sample::select(vec!["user", "assistant", "system", ""]),
        prop::collection::vec(part, 0..4),
    )
        .prop_map(|(role, parts)| json!({"id": "m", "role": role, "parts": parts}));
    prop_oneof![
        prop::collection::vec(message, 0..4).prop_map(|m| {
            json!({"id": "c", "messages": m, "trigger": "submit-message"})
                .to_string()
                .into_bytes()
        }),
        json_value().prop_map(|v| json!({"messages": v}).to_string().into_bytes()),
        any::<Vec<u8>>(),
        any::<String>().prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    #[test]
    fn any_body_gets_a_request_or_a_4xx(body in body()) {
        let limits = session_agent_core::request::Limits::default();
        match session_agent_core::request::parse_chat_request(&body, &limits) {
            Ok(req) => prop_assert!(
                !req.text.trim().is_empty() || !req.attachments.is_empty() || req.reply.is_some()
            ),
            Err(err) => {
                prop_assert!((400..500).contains(&err.kind().status));
                prop_assert!(!err.kind().code.is_empty() && !err.message().is_empty());
            }
        }
    }
}
