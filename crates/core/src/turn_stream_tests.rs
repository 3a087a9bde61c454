//! Tests of the turn stream: exact bytes of whole turns, and the shortcut for plain deltas
//! writing what the full path writes.

use super::*;
use crate::v2::parse_frame;

fn body(frames: &[&str], end: Option<EndCause>) -> String {
    let mut stream = TurnStream::new(Some("r1"));
    let mut out = Vec::new();
    for f in frames {
        stream.push_frame(f, &mut out);
    }
    if let Some(cause) = end {
        stream.end(cause, &mut out);
    }
    String::from_utf8(out).unwrap()
}

/// The bytes of turn `t1` having streamed "Hi", through its `finish-step`.
const HI_TURN: &str = "data: {\"type\":\"start\",\"messageId\":\"t1\",\"messageMetadata\":{\"turnId\":\"t1\",\"createdAt\":0}}\n\n\
         data: {\"type\":\"start-step\"}\n\n\
         data: {\"type\":\"text-start\",\"id\":\"text-1\"}\n\n\
         data: {\"type\":\"text-delta\",\"id\":\"text-1\",\"delta\":\"Hi\"}\n\n\
         data: {\"type\":\"text-end\",\"id\":\"text-1\"}\n\n\
         data: {\"type\":\"finish-step\"}\n\n";

/// [`HI_TURN`], then `ending` and `[DONE]`.
fn hi_turn_then(ending: &str) -> String {
    format!("{HI_TURN}data: {ending}\n\ndata: [DONE]\n\n")
}

#[test]
fn a_turn_is_framed_exactly() {
    let out = body(
        &[
            r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#,
            r#"{"type":"message.part.text-delta","turnId":"t1","delta":"Hi"}"#,
            r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
        ],
        None,
    );
    assert_eq!(
        out,
        hi_turn_then(
            "{\"type\":\"finish\",\"messageMetadata\":{\"turnId\":\"t1\",\"durationMs\":0,\"toolCalls\":0,\"toolErrors\":0}}"
        )
    );
}

#[test]
fn an_agents_title_is_kept_for_the_list_and_writes_nothing() {
    let mut stream = TurnStream::new(Some("r1"));
    let mut out = Vec::new();
    let frames = [
        r#"{"type":"title","title":"Too early, replaced"}"#,
        r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"Hi"}"#,
        r#"{"type":"title","title":"  Greetings\nand more "}"#,
        r#"{"type":"title","title":""}"#,
        r#"{"type":"title","title":7}"#,
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
    ];
    let outcomes: Vec<FrameOutcome> = frames
        .iter()
        .map(|f| stream.push_frame(f, &mut out))
        .collect();
    assert!(matches!(outcomes[0], FrameOutcome::Ignored));
    assert!(matches!(outcomes[3], FrameOutcome::Ignored));
    assert!(
        matches!(outcomes[4], FrameOutcome::Malformed(_)),
        "an empty title is skipped and logged"
    );
    assert!(
        matches!(outcomes[5], FrameOutcome::Malformed(_)),
        "so is one not a string"
    );
    assert_eq!(
        stream.agent_title(),
        Some("Greetings and more"),
        "the latest good one"
    );
    assert_eq!(
        String::from_utf8(out).unwrap(),
        hi_turn_then(
            "{\"type\":\"finish\",\"messageMetadata\":{\"turnId\":\"t1\",\"durationMs\":0,\"toolCalls\":0,\"toolErrors\":0}}"
        ),
        "the stream is the turn's alone"
    );
    assert_eq!(TurnStream::new(None).agent_title(), None);
}

#[test]
fn socket_loss_before_the_turn_is_an_error_and_done() {
    assert_eq!(
        body(&[], Some(EndCause::SocketClosed)),
        "data: {\"type\":\"error\",\"errorText\":\"connection to the agent was lost\"}\n\n\
         data: {\"type\":\"finish\"}\n\n\
         data: [DONE]\n\n"
    );
}

#[test]
fn a_resume_writes_its_replay_at_once() {
    let init = crate::session::parse_init(
        r#"{"type":"init","messages":[{"id":"t1","role":"assistant","parts":[{"type":"text","text":"Hi"}]}]}"#,
    )
    .unwrap();
    let mut out = Vec::new();
    let mut stream = TurnStream::resume(
        init.in_flight().unwrap(),
        crate::translator::no_clock,
        QuestionView::default(),
    );
    assert!(stream.turn_started());
    assert_eq!(
        stream.chunks_emitted(),
        0,
        "nothing written before it is asked for"
    );
    stream.write_pending(&mut out);
    assert_eq!(stream.chunks_emitted(), 4);
    stream.push_frame(
        r#"{"type":"message.finalize","turnId":"t1","reason":"canceled"}"#,
        &mut out,
    );
    assert_eq!(
        String::from_utf8(out).unwrap(),
        hi_turn_then(
            "{\"type\":\"message-metadata\",\"messageMetadata\":{\"turnId\":\"t1\",\"durationMs\":0,\"toolCalls\":0,\"toolErrors\":0,\"stopped\":true}}\n\n\
             data: {\"type\":\"abort\"}"
        )
    );
    assert_eq!(stream.outcome().map(StreamOutcome::label), Some("canceled"));
}

#[test]
fn an_answer_opens_its_message_at_once() {
    let mut out = Vec::new();
    let mut stream = TurnStream::continuing("t1", "m2".into(), crate::translator::no_clock);
    stream.write_pending(&mut out);
    assert!(stream.turn_started() && !stream.is_done());
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "data: {\"type\":\"start\",\"messageId\":\"m2\",\"messageMetadata\":{\"turnId\":\"t1\",\"createdAt\":0}}\n\n\
         data: {\"type\":\"start-step\"}\n\n"
    );
}

#[test]
fn outcomes_are_reported_and_nothing_follows_done() {
    let mut stream = TurnStream::new(None);
    let mut out = Vec::new();
    assert!(matches!(
        stream.push_frame("{oops", &mut out),
        FrameOutcome::Malformed(_)
    ));
    assert_eq!(
        stream.push_frame(r#"{"type":"git-state"}"#, &mut out),
        FrameOutcome::Ignored
    );
    assert_eq!(
        stream.push_frame(r#"{"type":"message.create","turnId":"t"}"#, &mut out),
        FrameOutcome::Forwarded
    );
    assert!(stream.turn_started());
    assert_eq!(
        stream.push_frame(r#"{"type":"complete"}"#, &mut out),
        FrameOutcome::Ended
    );
    assert!(stream.is_done());
    assert_eq!(stream.chunks_emitted(), 4);
    let len = out.len();
    stream.end(EndCause::SocketClosed, &mut out);
    assert_eq!(
        stream.push_frame(r#"{"type":"complete"}"#, &mut out),
        FrameOutcome::Ignored
    );
    assert_eq!(out.len(), len);
    assert!(String::from_utf8(out)
        .unwrap()
        .ends_with("data: [DONE]\n\n"));
}

mod shortcut {
    //! The plain-delta shortcut against the full path (parse, translate, trace, encode), over
    //! random turns in every trace mode: the same bytes, outcomes and chunk count.

    use super::*;
    use crate::trace::TraceMode;
    use crate::translator::Phase;
    use proptest::prelude::*;

    /// What the stream writes and reports without the shortcut.
    fn full_path(frames: &[String], trace: Trace) -> (Vec<u8>, Vec<FrameOutcome>, u64) {
        let mut translator = crate::translator::Translator::new(Some("r1"));
        let (mut chunks, mut out, mut outcomes, mut count) =
            (Vec::new(), Vec::new(), Vec::new(), 0);
        for text in frames {
            if translator.phase() == Phase::Ended {
                outcomes.push(FrameOutcome::Ignored);
                continue;
            }
            let step = match parse_frame(text) {
                Ok(frame) => translator.push(frame, &mut chunks),
                Err(err) => {
                    outcomes.push(FrameOutcome::Malformed(err.0));
                    continue;
                }
            };
            for chunk in chunks.drain(..).filter_map(|chunk| trace.apply(chunk)) {
                sse::write_chunk(&mut out, &chunk);
                count += 1;
            }
            outcomes.push(match step {
                Step::Forwarded => FrameOutcome::Forwarded,
                Step::Ignored => FrameOutcome::Ignored,
                Step::Ended => {
                    out.extend_from_slice(sse::DONE);
                    FrameOutcome::Ended
                }
            });
        }
        (out, outcomes, count)
    }

    fn frame() -> impl Strategy<Value = String> {
        let delta = |kind: &str, turn: &str, text: &str, type_last: bool| {
            let kind = format!("message.part.{kind}-delta");
            if type_last {
                format!(r#"{{"delta":"{text}","turnId":"{turn}","type":"{kind}"}}"#)
            } else {
                format!(r#"{{"type":"{kind}","turnId":"{turn}","delta":"{text}"}}"#)
            }
        };
        let deltas = (
            prop::sample::select(vec!["text", "reasoning"]),
            prop::sample::select(vec!["t1", "t1", "t1", "t2"]),
            prop::sample::select(vec!["w", " w2", "", "é 😀", r"a\nb", r#"say \"hi\""#, "\t"]),
            any::<bool>(),
        )
            .prop_map(move |(kind, turn, text, last)| delta(kind, turn, text, last));
        let others = prop::sample::select(vec![
            r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#,
            r#"{"type":"message.create","turnId":"t2","requestId":"r2"}"#,
            r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"running"}"#,
            r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"completed","result":1}"#,
            r#"{"type":"agentStatus","status":"thinking"}"#,
            r#"{"type":"chunk","content":"legacy"}"#,
            r#"{"type":"message.part.text-delta","turnId":"t1","delta":"cut"#,
            // A delta of the open part's shape with text after it: not JSON, not a delta.
            r#"{"type":"message.part.text-delta","turnId":"t1","delta":"w"}}"#,
            r#"{"delta":"w","turnId":"t1","type":"message.part.text-delta"} "#,
            r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
            r#"{"type":"complete"}"#,
        ])
        .prop_map(str::to_owned);
        prop_oneof![3 => deltas, 1 => others]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn writes_what_the_full_path_writes(
            frames in prop::collection::vec(frame(), 0..40),
            mode in prop::sample::select(vec![TraceMode::Full, TraceMode::Normal, TraceMode::Minimal]),
        ) {
            let trace = Trace::default().with_mode(Some(mode));
            let mut stream = TurnStream::new(Some("r1")).with_trace(trace);
            let (mut out, mut outcomes) = (Vec::new(), Vec::new());
            for text in &frames {
                outcomes.push(stream.push_frame(text, &mut out));
            }
            let (expected, expected_outcomes, count) = full_path(&frames, trace);
            prop_assert_eq!(String::from_utf8(out).unwrap(), String::from_utf8(expected).unwrap());
            prop_assert_eq!(outcomes, expected_outcomes);
            prop_assert_eq!(stream.chunks_emitted(), count);
        }
    }

    #[test]
    fn only_a_delta_of_the_open_part_of_our_turn_extends_it() {
        use crate::v2::DeltaKind::{Reasoning, Text};
        let mut stream = TurnStream::new(Some("r1"));
        let mut out = Vec::new();
        let mut push = |stream: &mut TurnStream, text: &str| stream.push_frame(text, &mut out);
        let extended = |stream: &TurnStream, kind, turn| {
            stream
                .translator
                .extended_part(kind, turn)
                .map(str::to_owned)
        };
        assert_eq!(extended(&stream, Text, "t1"), None, "before the turn");
        push(
            &mut stream,
            r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#,
        );
        assert_eq!(extended(&stream, Text, "t1"), None, "no part open yet");
        push(
            &mut stream,
            r#"{"type":"message.part.text-delta","turnId":"t1","delta":"a"}"#,
        );
        assert_eq!(extended(&stream, Text, "t1").as_deref(), Some("text-1"));
        assert_eq!(extended(&stream, Reasoning, "t1"), None, "another kind");
        assert_eq!(extended(&stream, Text, "t9"), None, "another turn");
        push(
            &mut stream,
            r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"running"}"#,
        );
        assert_eq!(
            extended(&stream, Text, "t1"),
            None,
            "a tool closed the part"
        );
        push(
            &mut stream,
            r#"{"type":"message.part.text-delta","turnId":"t1","delta":"b"}"#,
        );
        assert_eq!(extended(&stream, Text, "t1").as_deref(), Some("text-2"));
        push(&mut stream, r#"{"type":"complete"}"#);
        assert_eq!(extended(&stream, Text, "t1"), None, "the turn ended");
    }
}

#[test]
fn a_resumed_part_streams_as_its_trace_mode_says() {
    use crate::trace::TraceMode;
    let init = crate::session::parse_init(
        r#"{"type":"init","messages":[{"id":"t1","role":"assistant","parts":[
            {"type":"reasoning","text":"pla","streaming":true}]}]}"#,
    )
    .unwrap();
    let message = init.in_flight().unwrap();
    let delta = r#"{"type":"message.part.reasoning-delta","turnId":"t1","delta":"n"}"#;
    for mode in [TraceMode::Full, TraceMode::Minimal] {
        let trace = Trace::default().with_mode(Some(mode));
        let mut stream = TurnStream::resume(
            message,
            crate::translator::no_clock,
            QuestionView::default(),
        )
        .with_trace(trace);
        let mut out = Vec::new();
        stream.write_pending(&mut out);
        stream.push_frame(delta, &mut out);
        stream.push_frame(delta, &mut out);
        // The same through the translator, every chunk traced and encoded.
        let mut chunks = Vec::new();
        let mut translator = crate::translator::Translator::resume(
            message,
            crate::translator::no_clock,
            QuestionView::default(),
            &mut chunks,
        );
        translator.push(parse_frame(delta).unwrap(), &mut chunks);
        translator.push(parse_frame(delta).unwrap(), &mut chunks);
        let mut expected = Vec::new();
        for chunk in chunks.into_iter().filter_map(|chunk| trace.apply(chunk)) {
            sse::write_chunk(&mut expected, &chunk);
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            String::from_utf8(expected).unwrap(),
            "{mode:?}"
        );
        assert_eq!(
            stream.streaming.is_some(),
            mode == TraceMode::Full,
            "{mode:?}"
        );
    }
}

#[test]
fn the_crash_ending_is_handed_over_when_it_changes_and_emptied_at_the_end() {
    let mut stream = TurnStream::new(Some("r1"));
    let (mut out, mut buf) = (Vec::new(), Vec::new());
    assert_eq!(
        stream.crash_ending_update(&mut buf),
        None,
        "before the turn opens: the shared one"
    );
    stream.push_frame(
        r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#,
        &mut out,
    );
    let opened = stream.crash_ending_update(&mut buf).map(<[u8]>::to_vec);
    let opened = String::from_utf8(opened.expect("the turn opened: its own ending")).unwrap();
    assert_eq!(
        opened,
        "data: {\"type\":\"finish-step\"}\n\n\
         data: {\"type\":\"error\",\"errorText\":\"the stream stopped on an internal error\"}\n\n\
         data: {\"type\":\"finish\",\"messageMetadata\":{\"turnId\":\"t1\",\"durationMs\":0,\"toolCalls\":0,\"toolErrors\":0}}\n\n\
         data: [DONE]\n\n"
    );
    stream.push_frame(
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"Hi"}"#,
        &mut out,
    );
    let with_text = stream.crash_ending_update(&mut buf).map(<[u8]>::to_vec);
    let with_text = String::from_utf8(with_text.expect("a part opened")).unwrap();
    assert!(
        with_text.contains(r#"{"type":"text-end","id":"text-1"}"#),
        "{with_text}"
    );
    stream.push_frame(
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":" there"}"#,
        &mut out,
    );
    assert_eq!(
        stream.crash_ending_update(&mut buf),
        None,
        "a delta of the open part moves nothing"
    );
    stream.push_frame(
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
        &mut out,
    );
    assert_eq!(
        stream.crash_ending_update(&mut buf),
        Some(&[][..]),
        "after its own ending, nothing"
    );
}
