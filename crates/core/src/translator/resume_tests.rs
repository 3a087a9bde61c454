//! Tests of the streams that open without a `message.create`: a resumed turn, an answer, and an
//! answer whose turn is learned from its first event.

use super::tests::plain;
use super::*;
use crate::session::parse_init;
use crate::v2::parse_frame;

/// The chunks a resume of the in-flight message of `messages` (an `init`'s array) writes, then
/// those of each live frame after it.
fn resume(messages: &str, live: &[&str]) -> (Translator, Vec<String>) {
    resume_viewed(messages, live, QuestionView::default())
}

/// [`resume`], questions shown as `view` says.
pub(super) fn resume_viewed(
    messages: &str,
    live: &[&str],
    view: QuestionView,
) -> (Translator, Vec<String>) {
    let init = parse_init(&format!(r#"{{"type":"init","messages":{messages}}}"#)).unwrap();
    let mut out = Vec::new();
    let mut t = Translator::resume(
        init.in_flight().expect("a turn in flight"),
        no_clock,
        view,
        &mut out,
    );
    for frame in live {
        t.push(parse_frame(frame).unwrap(), &mut out);
    }
    (t, out.iter().map(plain).collect())
}

#[test]
fn a_resume_replays_the_snapshot_from_start_then_goes_live() {
    let (t, out) = resume(
        r#"[{"id":"t1","role":"assistant","parts":[
          {"type":"reasoning","text":"plan"},
          {"type":"tool-call","callId":"c1","toolName":"ls","status":"completed","args":{"p":"/"},"result":["a"]},
          {"type":"tool-call","callId":"c2","toolName":"grep","status":"running","args":{"q":"x"}},
          {"type":"text","text":"Hal","streaming":true}]}]"#,
        &[
            r#"{"type":"message.part.text-delta","turnId":"t1","delta":"f"}"#,
            r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c1","toolName":"ls","status":"completed","result":["a"]}"#,
            r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c2","toolName":"grep","status":"completed","result":1}"#,
            r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
        ],
    );
    let tool = |kind: &str, id: &str, rest: &str| {
        format!(
            r#"{{"type":"tool-{kind}","toolCallId":"{id}"{rest},"providerExecuted":true,"dynamic":true}}"#
        )
    };
    assert_eq!(
        out,
        [
            r#"{"type":"start","messageId":"t1"}"#.to_owned(),
            r#"{"type":"start-step"}"#.to_owned(),
            r#"{"type":"reasoning-start","id":"reasoning-1"}"#.to_owned(),
            r#"{"type":"reasoning-delta","id":"reasoning-1","delta":"plan"}"#.to_owned(),
            r#"{"type":"reasoning-end","id":"reasoning-1"}"#.to_owned(),
            tool("input-start", "c1", r#","toolName":"ls""#),
            tool(
                "input-available",
                "c1",
                r#","toolName":"ls","input":{"p":"/"}"#
            ),
            tool("output-available", "c1", r#","output":["a"]"#),
            tool("input-start", "c2", r#","toolName":"grep""#),
            tool(
                "input-available",
                "c2",
                r#","toolName":"grep","input":{"q":"x"}"#
            ),
            r#"{"type":"text-start","id":"text-2"}"#.to_owned(),
            r#"{"type":"text-delta","id":"text-2","delta":"Hal"}"#.to_owned(),
            // Live: the open text part goes on; the finished call's repeat is dropped.
            r#"{"type":"text-delta","id":"text-2","delta":"f"}"#.to_owned(),
            r#"{"type":"text-end","id":"text-2"}"#.to_owned(),
            tool("output-available", "c2", r#","output":1"#),
            r#"{"type":"finish-step"}"#.to_owned(),
            r#"{"type":"finish"}"#.to_owned(),
        ]
    );
    assert_eq!(t.outcome().map(StreamOutcome::label), Some("finished"));
}

#[test]
fn consecutive_text_parts_stay_apart() {
    let (_, out) = resume(
        r#"[{"id":"t1","role":"assistant","parts":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]"#,
        &[],
    );
    assert_eq!(
        out[2..],
        [
            r#"{"type":"text-start","id":"text-1"}"#,
            r#"{"type":"text-delta","id":"text-1","delta":"a"}"#,
            r#"{"type":"text-end","id":"text-1"}"#,
            r#"{"type":"text-start","id":"text-2"}"#,
            r#"{"type":"text-delta","id":"text-2","delta":"b"}"#,
        ]
    );
}

#[test]
fn a_pending_question_ends_the_replay_and_an_answered_one_does_not() {
    let question = r#"{"type":"question","questionId":"q1","text":"Go?","options":["yes","no"]}"#;
    let (t, out) = resume_viewed(
        &format!(
            r#"[{{"id":"t1","role":"assistant","parts":[{question},{{"type":"text","text":"never"}}]}}]"#
        ),
        &[r#"{"type":"message.part.text-delta","turnId":"t1","delta":"late"}"#],
        super::tests::data_view(),
    );
    assert_eq!(
        out[2..],
        [
            format!(r#"{{"type":"data-question","id":"q1","data":{question}}}"#)
                .replace(r#""type":"question","#, ""),
            r#"{"type":"finish-step"}"#.to_owned(),
            r#"{"type":"finish"}"#.to_owned(),
        ]
    );
    assert_eq!(
        t.outcome().map(StreamOutcome::label),
        Some("awaiting_answer")
    );

    let (t, out) = resume_viewed(
        r#"[{"id":"t1","role":"assistant","parts":[{"type":"question","questionId":"q1","text":"Go?","answer":"yes"},{"type":"text","text":"ok"}]}]"#,
        &[],
        super::tests::data_view(),
    );
    assert_eq!(
        out[2..],
        [
            r#"{"type":"data-question","id":"q1","data":{"questionId":"q1","text":"Go?","answer":"yes"}}"#,
            r#"{"type":"text-start","id":"text-1"}"#,
            r#"{"type":"text-delta","id":"text-1","delta":"ok"}"#,
        ]
    );
    assert_eq!(t.phase(), Phase::Open);
}

/// What the rest of an answered turn (message `m2`) that says "yes!" streams.
const ANSWERED: [&str; 7] = [
    r#"{"type":"start","messageId":"m2"}"#,
    r#"{"type":"start-step"}"#,
    r#"{"type":"text-start","id":"text-1"}"#,
    r#"{"type":"text-delta","id":"text-1","delta":"yes!"}"#,
    r#"{"type":"text-end","id":"text-1"}"#,
    r#"{"type":"finish-step"}"#,
    r#"{"type":"finish"}"#,
];

#[test]
fn an_answer_streams_the_rest_of_the_turn_as_a_new_message() {
    let mut out = Vec::new();
    let mut t = Translator::continuing("t1", "m2".into(), no_clock, &mut out);
    for frame in [
        r#"{"type":"message.create","turnId":"t9"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t9","delta":"other turn"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"yes!"}"#,
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
    ] {
        t.push(parse_frame(frame).unwrap(), &mut out);
    }
    let out: Vec<String> = out.iter().map(plain).collect();
    assert_eq!(out, ANSWERED);
}

#[test]
fn an_answer_refused_by_the_agent_is_an_in_band_error() {
    let mut out = Vec::new();
    let mut t = Translator::continuing("t1", "m2".into(), no_clock, &mut out);
    t.push(
        parse_frame(
            r#"{"type":"error","code":"question_not_pending","message":"No such question."}"#,
        )
        .unwrap(),
        &mut out,
    );
    let out: Vec<String> = out.iter().map(plain).collect();
    assert_eq!(
        out[2..],
        [
            r#"{"type":"finish-step"}"#,
            r#"{"type":"error","errorText":"No such question."}"#,
            r#"{"type":"finish"}"#,
        ]
    );
}

#[test]
fn a_resume_dates_its_start_from_the_message() {
    let init = parse_init(
        r#"{"type":"init","messages":[{"id":"t1","role":"assistant","createdAt":1700000000000,"parts":[]}]}"#,
    )
    .unwrap();
    let mut out = Vec::new();
    Translator::resume(
        init.in_flight().unwrap(),
        no_clock,
        QuestionView::default(),
        &mut out,
    );
    assert_eq!(
        out[0].to_json(),
        r#"{"type":"start","messageId":"t1","messageMetadata":{"turnId":"t1","createdAt":1700000000000}}"#
    );
}

/// The chunks an adopting stream (message `m2`) writes for `frames`, and where it ends.
fn adopt(frames: &[&str]) -> (Translator, Vec<String>) {
    let mut out = Vec::new();
    let mut t = Translator::adopting("m2".into(), no_clock);
    for frame in frames {
        t.push(parse_frame(frame).unwrap(), &mut out);
    }
    (t, out.iter().map(plain).collect())
}

#[test]
fn an_adopting_stream_follows_the_turn_of_the_first_turn_event() {
    let (t, out) = adopt(&[
        r#"{"type":"agentStatus","status":"streaming"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"yes!"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t9","delta":"another turn"}"#,
        r#"{"type":"message.finalize","turnId":"t9","reason":"end_turn"}"#,
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
    ]);
    assert_eq!(out, ANSWERED);
    assert_eq!(t.turn_id(), Some("t1"));
}

#[test]
fn an_adopting_stream_ends_with_the_agents_refusal_before_any_turn_event() {
    let (t, out) = adopt(&[
        r#"{"type":"error","message":"There is no pending question with that id."}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"late"}"#,
    ]);
    assert_eq!(
        out,
        [
            r#"{"type":"error","errorText":"There is no pending question with that id."}"#,
            r#"{"type":"finish"}"#,
        ]
    );
    assert_eq!(t.phase(), Phase::Ended);
    // A turn that asks again at once opens under the message's id.
    let (_, out) = adopt(&[r#"{"type":"question","questionId":"q2","text":"Sure?"}"#]);
    assert_eq!(out[0], r#"{"type":"start","messageId":"m2"}"#);
    assert!(out
        .iter()
        .any(|c| c.contains(r#""toolCallId":"q2","toolName":"askUser""#)));
}
