//! Protocol 6's data parts, sources and metadata through a turn's stream: the exact bytes, a
//! garbled one skipped, and a resumed turn replaying them as they streamed.

use crate::questions::QuestionView;
use crate::session::parse_init;
use crate::sse::write_chunk;
use crate::translator::no_clock;
use crate::turn_stream::{FrameOutcome, TurnStream};

use super::Translator;

const CREATE: &str = r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#;

/// The frames of a turn with every kind of protocol 6's events, between two texts.
const FRAMES: [&str; 9] = [
    CREATE,
    r#"{"type":"message.part.text-delta","turnId":"t1","delta":"Hi"}"#,
    r#"{"type":"message.part.data","turnId":"t1","name":"progress","data":{"step":1},"transient":true}"#,
    r#"{"type":"message.part.data","turnId":"t1","name":"weather","id":"w1","data":{"temp":null}}"#,
    r#"{"type":"message.metadata","turnId":"t1","metadata":{"app":{"lang":"en"}}}"#,
    r#"{"type":"message.part.data","turnId":"t1","name":"weather","id":"w1","data":{"temp":18}}"#,
    r#"{"type":"message.part.source","turnId":"t1","sourceId":"s1","url":"https://e.com/p","title":"P"}"#,
    r#"{"type":"message.part.source","turnId":"t1","sourceId":"s2","mediaType":"application/pdf","title":"C","filename":"c.pdf"}"#,
    r#"{"type":"message.part.text-delta","turnId":"t1","delta":"Done."}"#,
];

const FINALIZE: &str = r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#;

/// The SSE events of [`FRAMES`] after `start`, through the second text's delta.
const EVENTS: [&str; 11] = [
    r#"{"type":"text-start","id":"text-1"}"#,
    r#"{"type":"text-delta","id":"text-1","delta":"Hi"}"#,
    // Transient: no part, so the text stays open.
    r#"{"type":"data-progress","data":{"step":1},"transient":true}"#,
    r#"{"type":"text-end","id":"text-1"}"#,
    r#"{"type":"data-weather","id":"w1","data":{"temp":null}}"#,
    r#"{"type":"message-metadata","messageMetadata":{"app":{"lang":"en"}}}"#,
    r#"{"type":"data-weather","id":"w1","data":{"temp":18}}"#,
    r#"{"type":"source-url","sourceId":"s1","url":"https://e.com/p","title":"P"}"#,
    r#"{"type":"source-document","sourceId":"s2","mediaType":"application/pdf","title":"C","filename":"c.pdf"}"#,
    r#"{"type":"text-start","id":"text-2"}"#,
    r#"{"type":"text-delta","id":"text-2","delta":"Done."}"#,
];

fn sse(events: &[&str]) -> String {
    events.iter().map(|e| format!("data: {e}\n\n")).collect()
}

const START: &str =
    r#"{"type":"start","messageId":"t1","messageMetadata":{"turnId":"t1","createdAt":0}}"#;
const ENDING: [&str; 3] = [
    r#"{"type":"text-end","id":"text-2"}"#,
    r#"{"type":"finish-step"}"#,
    r#"{"type":"finish","messageMetadata":{"turnId":"t1","durationMs":0,"toolCalls":0,"toolErrors":0}}"#,
];

#[test]
fn data_sources_and_metadata_stream_exactly() {
    let mut stream = TurnStream::new(Some("r1"));
    let mut out = Vec::new();
    for frame in FRAMES.iter().chain([&FINALIZE]) {
        stream.push_frame(frame, &mut out);
    }
    let mut expected = sse(&[START, r#"{"type":"start-step"}"#]);
    expected.push_str(&sse(&EVENTS));
    expected.push_str(&sse(&ENDING));
    expected.push_str("data: [DONE]\n\n");
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

#[test]
fn a_garbled_one_is_skipped_and_the_stream_goes_on() {
    let garbled = [
        r#"{"type":"message.part.data","turnId":"t1","name":"status","data":1}"#,
        r#"{"type":"message.part.data","turnId":"t1","name":"a b","data":1}"#,
        r#"{"type":"message.part.data","turnId":"t1","name":"w"}"#,
        r#"{"type":"message.part.source","turnId":"t1","sourceId":"s1","url":"javascript:x"}"#,
        r#"{"type":"message.part.source","turnId":"t1","sourceId":"s1"}"#,
        r#"{"type":"message.metadata","turnId":"t1","metadata":{"turnId":"mine"}}"#,
        r#"{"type":"message.metadata","turnId":"t1","metadata":[1]}"#,
    ];
    let mut stream = TurnStream::new(Some("r1"));
    let mut out = Vec::new();
    stream.push_frame(CREATE, &mut out);
    stream.push_frame(FRAMES[1], &mut out);
    let before = out.len();
    for frame in garbled {
        let outcome = stream.push_frame(frame, &mut out);
        assert!(
            matches!(outcome, FrameOutcome::Malformed(_)),
            "{frame}: {outcome:?}"
        );
    }
    assert_eq!(out.len(), before, "no bytes for a garbled frame");
    stream.push_frame(FRAMES[8], &mut out);
    stream.push_frame(FINALIZE, &mut out);
    let text = String::from_utf8(out).unwrap();
    // Nothing closed the text part: the next delta goes on in it.
    assert!(
        text.contains(r#"{"type":"text-delta","id":"text-1","delta":"Done."}"#),
        "{text}"
    );
    assert!(text.ends_with("data: [DONE]\n\n"), "{text}");
}

#[test]
fn another_turns_extras_are_not_ours() {
    let mut stream = TurnStream::new(Some("r1"));
    let mut out = Vec::new();
    stream.push_frame(CREATE, &mut out);
    let before = out.len();
    for frame in &FRAMES[2..8] {
        let other = frame.replace(r#""turnId":"t1""#, r#""turnId":"t0""#);
        assert_eq!(stream.push_frame(&other, &mut out), FrameOutcome::Ignored);
    }
    assert_eq!(out.len(), before);
}

#[test]
fn a_resumed_turn_replays_them_as_they_streamed() {
    // The turn in flight as the agent keeps it: the transient part not kept, the data part
    // replaced in place, the metadata and sources as parts.
    let init = r#"{"type":"init","protocol":6,"messages":[{"id":"t1","role":"assistant","parts":[
        {"type":"text","text":"Hi"},
        {"type":"data","name":"weather","id":"w1","data":{"temp":18}},
        {"type":"metadata","metadata":{"app":{"lang":"en"}}},
        {"type":"source","sourceId":"s1","url":"https://e.com/p","title":"P"},
        {"type":"source","sourceId":"s2","mediaType":"application/pdf","title":"C","filename":"c.pdf"},
        {"type":"text","text":"Done."}]}]}"#;
    let init = parse_init(init).unwrap();
    assert_eq!(init.skipped, 0);
    let message = init.in_flight().unwrap();
    let mut chunks = Vec::new();
    Translator::resume(message, no_clock, QuestionView::default(), &mut chunks);
    let mut out = Vec::new();
    for chunk in &chunks {
        write_chunk(&mut out, chunk);
    }
    let expected = sse(&[
        START,
        r#"{"type":"start-step"}"#,
        EVENTS[0],
        EVENTS[1],
        EVENTS[3],
        EVENTS[6],
        EVENTS[5],
        EVENTS[7],
        EVENTS[8],
        EVENTS[9],
        EVENTS[10],
    ]);
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}
