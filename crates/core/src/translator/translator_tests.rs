//! Unit tests of the translator: one per mapping rule, asserting the exact chunks.

use super::*;
use crate::v2::parse_frame;

const CREATE: &str = r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#;
const START: [&str; 2] = [
    r#"{"type":"start","messageId":"t1"}"#,
    r#"{"type":"start-step"}"#,
];
const FINISH: [&str; 2] = [r#"{"type":"finish-step"}"#, r#"{"type":"finish"}"#];

/// A chunk's JSON without `messageMetadata`: the rule tests look at the stream's shape, and
/// [`metadata_times_the_turn_and_counts_its_tools`] at the metadata.
pub(super) fn plain(chunk: &UiChunk) -> String {
    let mut chunk = chunk.clone();
    match &mut chunk {
        UiChunk::Start {
            message_metadata, ..
        } => *message_metadata = None,
        UiChunk::Finish { message_metadata } => *message_metadata = None,
        _ => {}
    }
    chunk.to_json()
}

/// Questions as `data-question` parts (`QUESTIONS = "data"`).
pub(super) fn data_view() -> QuestionView {
    QuestionView::new(
        crate::questions::QuestionParts::Data,
        crate::trace::Trace::default(),
    )
}

/// Runs frames (and an optional outside cause) through a translator for request `r1`.
fn run_with(frames: &[&str], cause: Option<EndCause>) -> Vec<String> {
    run_viewed(frames, cause, QuestionView::default())
}

/// [`run_with`], questions shown as `view` says.
fn run_viewed(frames: &[&str], cause: Option<EndCause>, view: QuestionView) -> Vec<String> {
    let mut t = Translator::new(Some("r1")).with_questions(view);
    let mut out = Vec::new();
    for f in frames {
        let frame = parse_frame(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        t.push(frame, &mut out);
    }
    if let Some(cause) = cause {
        t.end(cause, &mut out);
    }
    out.iter().map(plain).collect()
}

fn run(frames: &[&str]) -> Vec<String> {
    run_with(frames, None)
}

fn delta(text: &str) -> String {
    format!(r#"{{"type":"message.part.text-delta","turnId":"t1","delta":"{text}"}}"#)
}

fn tool(call: &str, status: &str, extra: &str) -> String {
    format!(
        r#"{{"type":"message.part.tool-update","turnId":"t1","callId":"{call}","toolName":"bash","status":"{status}"{extra}}}"#
    )
}

fn fin(reason: &str, extra: &str) -> String {
    format!(r#"{{"type":"message.finalize","turnId":"t1","reason":"{reason}"{extra}}}"#)
}

fn concat(parts: &[&[&str]]) -> Vec<String> {
    parts
        .iter()
        .flat_map(|p| p.iter().map(|s| s.to_string()))
        .collect()
}

#[test]
fn text_turn() {
    let (a, b, f) = (delta("Hel"), delta("lo"), fin("end_turn", ""));
    assert_eq!(
        run(&[CREATE, &a, &b, &f]),
        concat(&[
            &START,
            &[
                r#"{"type":"text-start","id":"text-1"}"#,
                r#"{"type":"text-delta","id":"text-1","delta":"Hel"}"#,
                r#"{"type":"text-delta","id":"text-1","delta":"lo"}"#,
                r#"{"type":"text-end","id":"text-1"}"#,
            ],
            &FINISH,
        ])
    );
}

#[test]
fn text_closes_before_a_tool_and_reopens_after() {
    let frames = [
        CREATE.to_string(),
        delta("a"),
        tool("c1", "pending", ""),
        tool("c1", "running", r#","args":{"cmd":"ls"}"#),
        tool("c1", "completed", r#","result":{"out":"x"}"#),
        delta("b"),
        fin("end_turn", ""),
    ];
    let frames: Vec<&str> = frames.iter().map(String::as_str).collect();
    assert_eq!(
        run(&frames),
        concat(&[
            &START,
            &[
                r#"{"type":"text-start","id":"text-1"}"#,
                r#"{"type":"text-delta","id":"text-1","delta":"a"}"#,
                r#"{"type":"text-end","id":"text-1"}"#,
                r#"{"type":"tool-input-start","toolCallId":"c1","toolName":"bash","providerExecuted":true,"dynamic":true}"#,
                r#"{"type":"tool-input-available","toolCallId":"c1","toolName":"bash","input":{"cmd":"ls"},"providerExecuted":true,"dynamic":true}"#,
                r#"{"type":"tool-output-available","toolCallId":"c1","output":{"out":"x"},"providerExecuted":true,"dynamic":true}"#,
                r#"{"type":"text-start","id":"text-2"}"#,
                r#"{"type":"text-delta","id":"text-2","delta":"b"}"#,
                r#"{"type":"text-end","id":"text-2"}"#,
            ],
            &FINISH,
        ])
    );
}

#[test]
fn a_repeated_tool_update_does_not_split_text() {
    let frames = [
        CREATE.to_string(),
        tool("c1", "pending", ""),
        delta("a"),
        tool("c1", "pending", ""),
        delta("b"),
    ];
    let frames: Vec<&str> = frames.iter().map(String::as_str).collect();
    let out = run(&frames);
    assert_eq!(out.iter().filter(|c| c.contains("text-start")).count(), 1);
}

#[test]
fn legacy_chunk_and_reasoning() {
    let reasoning = r#"{"type":"message.part.reasoning-delta","turnId":"t1","delta":"hmm"}"#;
    let chunk = r#"{"type":"chunk","content":"yes","messageId":"zz"}"#;
    assert_eq!(
        run(&[CREATE, reasoning, chunk]),
        concat(&[
            &START,
            &[
                r#"{"type":"reasoning-start","id":"reasoning-1"}"#,
                r#"{"type":"reasoning-delta","id":"reasoning-1","delta":"hmm"}"#,
                r#"{"type":"reasoning-end","id":"reasoning-1"}"#,
                r#"{"type":"text-start","id":"text-2"}"#,
                r#"{"type":"text-delta","id":"text-2","delta":"yes"}"#,
            ],
        ])
    );
}

#[test]
fn turn_selection_by_request_id() {
    let other = r#"{"type":"message.create","turnId":"t0","requestId":"someone-else"}"#;
    let other_delta = r#"{"type":"message.part.text-delta","turnId":"t0","delta":"no"}"#;
    let out = run(&[other, other_delta, CREATE, other_delta]);
    assert_eq!(out, concat(&[&START]));
}

#[test]
fn turn_selection_without_echo_takes_the_first_default_channel_turn() {
    let slack = r#"{"type":"message.create","turnId":"s","channelType":"slack"}"#;
    let web = r#"{"type":"message.create","turnId":"t1","channelType":"web"}"#;
    let later = r#"{"type":"message.create","turnId":"t2"}"#;
    let slack_delta = r#"{"type":"message.part.text-delta","turnId":"s","delta":"no"}"#;
    let out = run(&[slack, slack_delta, web, later, slack_delta]);
    assert_eq!(out, concat(&[&START]));
    // Without a request id of our own, an echoed id cannot be matched: channel rules apply.
    let mut t = Translator::new(None);
    let mut chunks = Vec::new();
    t.push(parse_frame(CREATE).unwrap(), &mut chunks);
    assert_eq!(t.turn_id(), Some("t1"));
}

#[test]
fn events_before_the_turn_and_of_other_turns_are_dropped() {
    let status = r#"{"type":"agentStatus","status":"thinking"}"#;
    let question = r#"{"type":"question","questionId":"q","text":"?"}"#;
    let complete = r#"{"type":"complete"}"#;
    let foreign = r#"{"type":"message.finalize","turnId":"zz","reason":"end_turn"}"#;
    let out = run(&[status, question, complete, &delta("x"), CREATE, foreign]);
    assert_eq!(out, concat(&[&START]));
}

/// A question ends the stream: the turn waits for the user, who answers in a new request.
#[test]
fn status_and_question() {
    let status = r#"{"type":"agentStatus","status":"tool_calling","detail":"grep"}"#;
    let idle = r#"{"type":"agentStatus","status":"idle"}"#;
    let question =
        r#"{"type":"question","questionId":"q1","text":"Deploy?","options":["yes","no"]}"#;
    let frames = [CREATE, &delta("a"), status, idle, question, &delta("late")];
    assert_eq!(
        run_viewed(&frames, None, data_view()),
        concat(&[
            &START,
            &[
                r#"{"type":"text-start","id":"text-1"}"#,
                r#"{"type":"text-delta","id":"text-1","delta":"a"}"#,
                r#"{"type":"data-status","data":{"phase":"tool_use","label":"grep"},"transient":true}"#,
                r#"{"type":"text-end","id":"text-1"}"#,
                r#"{"type":"data-question","id":"q1","data":{"questionId":"q1","text":"Deploy?","options":["yes","no"]}}"#,
            ],
            &FINISH,
        ])
    );
    let mut t = Translator::new(Some("r1")).with_questions(data_view());
    let mut out = Vec::new();
    for f in [CREATE, &tool("c", "running", ""), question] {
        t.push(parse_frame(f).unwrap(), &mut out);
    }
    assert_eq!(
        t.outcome().map(StreamOutcome::label),
        Some("awaiting_answer")
    );
    let tail: Vec<String> = out[out.len() - 5..].iter().map(plain).collect();
    assert_eq!(
        tail[..2],
        [
            r#"{"type":"data-question","id":"q1","data":{"questionId":"q1","text":"Deploy?","options":["yes","no"]}}"#,
            r#"{"type":"tool-input-available","toolCallId":"c","toolName":"bash","input":{},"providerExecuted":true,"dynamic":true}"#,
        ]
    );
    assert!(tail[2].contains(r#""errorText":"Waiting for your answer""#));
    assert_eq!(tail[3..], FINISH);
}

#[test]
fn finalize_error_carries_the_agent_text() {
    let f = fin("error", r#","error":"rate limited""#);
    assert_eq!(
        run(&[CREATE, &f]),
        concat(&[
            &START,
            &[
                r#"{"type":"finish-step"}"#,
                r#"{"type":"error","errorText":"rate limited"}"#,
                r#"{"type":"finish"}"#,
            ],
        ])
    );
    let f = fin("error", "");
    assert!(run(&[CREATE, &f]).contains(&format!(
        r#"{{"type":"error","errorText":"{AGENT_ERROR}"}}"#
    )));
}

#[test]
fn cancel_closes_tools_as_canceled_and_aborts() {
    let frames = [
        CREATE.to_string(),
        delta("a"),
        tool("c1", "running", ""),
        fin("canceled", ""),
    ];
    let frames: Vec<&str> = frames.iter().map(String::as_str).collect();
    let out = run(&frames);
    assert_eq!(
        out[out.len() - 4..],
        [
            r#"{"type":"tool-output-error","toolCallId":"c1","errorText":"Canceled","providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"message-metadata","messageMetadata":{"turnId":"t1","durationMs":0,"toolCalls":1,"toolErrors":1,"stopped":true}}"#,
            r#"{"type":"abort"}"#,
        ]
    );
}

#[test]
fn socket_loss_interrupts_tools_and_errors() {
    let frames = [CREATE.to_string(), delta("a"), tool("c1", "pending", "")];
    let frames: Vec<&str> = frames.iter().map(String::as_str).collect();
    let out = run_with(&frames, Some(EndCause::SocketClosed));
    assert_eq!(
        out[out.len() - 6..],
        [
            r#"{"type":"tool-input-start","toolCallId":"c1","toolName":"bash","providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"tool-input-available","toolCallId":"c1","toolName":"bash","input":{},"providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"tool-output-error","toolCallId":"c1","errorText":"Interrupted","providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"error","errorText":"connection to the agent was lost"}"#,
            r#"{"type":"finish"}"#,
        ]
    );
}

#[test]
fn a_forgotten_session_ends_the_stream_saying_so_whatever_the_agent_sends_after() {
    let frames = [
        CREATE.to_string(),
        delta("a"),
        tool("c1", "pending", ""),
        r#"{"type":"forgotten","requestId":"f1"}"#.to_string(),
        // The agent ends its turn after the notice: the stream has ended already, once.
        fin("canceled", ""),
        r#"{"type":"complete"}"#.to_string(),
    ];
    let frames: Vec<&str> = frames.iter().map(String::as_str).collect();
    let out = run(&frames);
    assert_eq!(
        out[out.len() - 4..],
        [
            r#"{"type":"tool-output-error","toolCallId":"c1","errorText":"Interrupted","providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"error","errorText":"this conversation was deleted"}"#,
            r#"{"type":"finish"}"#,
        ]
    );
    assert_eq!(
        out.iter()
            .filter(|c| c.contains(r#""type":"finish""#))
            .count(),
        1
    );
}

#[test]
fn a_forgotten_session_ends_a_stream_still_waiting_for_its_turn() {
    let out = run(&[r#"{"type":"forgotten"}"#, CREATE]);
    assert_eq!(
        out,
        [
            r#"{"type":"error","errorText":"this conversation was deleted"}"#,
            r#"{"type":"finish"}"#,
        ]
    );
}

#[test]
fn outside_causes_map_to_their_endings() {
    let out = run_with(&[CREATE, &delta("a")], Some(EndCause::Timeout));
    assert_eq!(
        out[out.len() - 4..],
        [
            r#"{"type":"text-end","id":"text-1"}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"error","errorText":"the agent did not respond in time"}"#,
            r#"{"type":"finish"}"#,
        ]
    );
    assert_eq!(
        run_with(&[], Some(EndCause::ClientGone)),
        [r#"{"type":"abort"}"#]
    );
    let mut t = Translator::new(Some("r1"));
    let mut chunks = Vec::new();
    t.push(parse_frame(CREATE).unwrap(), &mut chunks);
    t.end(EndCause::FrameTooLarge, &mut chunks);
    assert_eq!(
        chunks[2..].iter().map(plain).collect::<Vec<_>>(),
        [
            r#"{"type":"finish-step"}"#,
            r#"{"type":"error","errorText":"the agent sent a message larger than the limit"}"#,
            r#"{"type":"finish"}"#,
        ]
    );
    assert_eq!(
        t.outcome().map(StreamOutcome::label),
        Some("frame_too_large")
    );
    assert_eq!(
        run_with(&[CREATE], Some(EndCause::SlowClient))[2..],
        [
            r#"{"type":"finish-step"}"#,
            r#"{"type":"error","errorText":"the client is reading too slowly"}"#,
            r#"{"type":"finish"}"#,
        ]
    );
}

#[test]
fn complete_and_session_errors_end_the_turn() {
    assert_eq!(
        run(&[CREATE, r#"{"type":"complete"}"#]),
        concat(&[&START, &FINISH])
    );
    let err = r#"{"type":"error","message":"sandbox died"}"#;
    assert_eq!(
        run(&[err]),
        [
            r#"{"type":"error","errorText":"sandbox died"}"#,
            r#"{"type":"finish"}"#
        ]
    );
}

#[test]
fn exactly_one_ending_and_nothing_after() {
    let f = fin("end_turn", "");
    let frames = [CREATE, &f, &delta("late"), r#"{"type":"complete"}"#, CREATE];
    let out = run_with(&frames, Some(EndCause::SocketClosed));
    assert_eq!(out, concat(&[&START, &FINISH]));
}

#[test]
fn final_text_fills_a_turn_that_streamed_none() {
    let f = fin("end_turn", r#","finalText":"All done.""#);
    assert_eq!(
        run(&[CREATE, &f]),
        concat(&[
            &START,
            &[
                r#"{"type":"text-start","id":"text-1"}"#,
                r#"{"type":"text-delta","id":"text-1","delta":"All done."}"#,
                r#"{"type":"text-end","id":"text-1"}"#,
            ],
            &FINISH,
        ])
    );
    let out = run(&[CREATE, &delta("Streamed"), &f]);
    assert!(!out.iter().any(|c| c.contains("All done.")));
}

#[test]
fn ignored_frames_report_ignored() {
    let mut t = Translator::new(Some("r1"));
    let mut out = Vec::new();
    assert_eq!(
        t.push(
            parse_frame(r#"{"type":"init","messages":[]}"#).unwrap(),
            &mut out
        ),
        Step::Ignored
    );
    assert_eq!(
        t.push(parse_frame(CREATE).unwrap(), &mut out),
        Step::Forwarded
    );
    assert_eq!(t.phase(), Phase::Open);
    let idle = r#"{"type":"agentStatus","status":"idle"}"#;
    assert_eq!(t.push(parse_frame(idle).unwrap(), &mut out), Step::Ignored);
    assert_eq!(
        t.push(parse_frame(r#"{"type":"complete"}"#).unwrap(), &mut out),
        Step::Ended
    );
    assert_eq!(t.phase(), Phase::Ended);
    assert_eq!(
        t.push(parse_frame(r#"{"type":"complete"}"#).unwrap(), &mut out),
        Step::Ignored
    );
}

#[test]
fn outcomes_name_how_the_stream_ended() {
    let outcome = |frames: &[&str], cause: Option<EndCause>| {
        let mut t = Translator::new(Some("r1"));
        let mut out = Vec::new();
        for f in frames {
            t.push(parse_frame(f).unwrap(), &mut out);
        }
        if let Some(cause) = cause {
            t.end(cause, &mut out);
        }
        t.outcome().map(StreamOutcome::label)
    };
    let (ok, err, cancel) = (fin("end_turn", ""), fin("error", ""), fin("canceled", ""));
    assert_eq!(outcome(&[CREATE], None), None);
    assert_eq!(
        outcome(&[CREATE, &ok], Some(EndCause::Timeout)),
        Some("finished")
    );
    assert_eq!(outcome(&[CREATE, &err], None), Some("agent_error"));
    assert_eq!(outcome(&[CREATE, &cancel], None), Some("canceled"));
    assert_eq!(
        outcome(&[CREATE], Some(EndCause::SocketClosed)),
        Some("connection_lost")
    );
    assert_eq!(outcome(&[], Some(EndCause::Timeout)), Some("timeout"));
    assert_eq!(
        outcome(&[CREATE], Some(EndCause::ClientGone)),
        Some("client_gone")
    );
}

#[test]
fn metadata_times_the_turn_and_counts_its_tools() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NOW: AtomicU64 = AtomicU64::new(1_000);
    fn clock() -> u64 {
        NOW.load(Ordering::SeqCst)
    }
    let mut t = Translator::with_clock(Some("r1"), clock);
    let mut out = Vec::new();
    t.push(parse_frame(CREATE).unwrap(), &mut out);
    NOW.store(13_500, Ordering::SeqCst);
    for f in [
        tool("c1", "completed", r#","result":1"#),
        tool("c2", "error", r#","error":"x""#),
        tool("c3", "running", ""),
        fin("end_turn", ""),
    ] {
        t.push(parse_frame(&f).unwrap(), &mut out);
    }
    assert_eq!(
        out[0].to_json(),
        r#"{"type":"start","messageId":"t1","messageMetadata":{"turnId":"t1","createdAt":1000}}"#
    );
    assert_eq!(
        out.last().unwrap().to_json(),
        r#"{"type":"finish","messageMetadata":{"turnId":"t1","durationMs":12500,"toolCalls":3,"toolErrors":2}}"#
    );
    // A stream that never started has no turn to describe; an abort has no place for it.
    assert_eq!(
        run_with(&[r#"{"type":"error","message":"x"}"#], None),
        [
            r#"{"type":"error","errorText":"x"}"#,
            r#"{"type":"finish"}"#
        ]
    );
    let mut t = Translator::new(Some("r1"));
    let mut out = Vec::new();
    t.push(parse_frame(CREATE).unwrap(), &mut out);
    t.end(EndCause::ClientGone, &mut out);
    assert_eq!(out.last().unwrap().to_json(), r#"{"type":"abort"}"#);
}
