//! Unit tests of questions in the stream: each view's chunks, live, replayed and answered.

use super::resume_tests::resume_viewed;
use super::tests::plain;
use super::*;
use crate::questions::QuestionParts;
use crate::session::parse_init;
use crate::trace::{Trace, TraceMode};
use crate::v2::parse_frame;

const CREATE: &str = r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#;
const PENDING: &str = r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c2","toolName":"deploy","status":"pending","args":{"target":"prod"}}"#;
const GATING: &str = r#"{"type":"question","questionId":"q2","text":"Deploy?","toolCallId":"c2","options":["Approve","Deny"]}"#;
const FREE: &str = r#"{"type":"question","questionId":"q1","text":"Which?","options":["eu","us"]}"#;
/// What `CREATE`, `PENDING`, `GATING` become after `start` and `start-step` with tool approvals,
/// live or resumed: the gated call's card asking for approval, then the stream's end.
const APPROVAL_REQUESTED: [&str; 5] = [
    r#"{"type":"tool-input-start","toolCallId":"c2","toolName":"deploy","providerExecuted":true,"dynamic":true}"#,
    // A `pending` call has not shown its input yet: the approval shows what it approves.
    r#"{"type":"tool-input-available","toolCallId":"c2","toolName":"deploy","input":{"target":"prod"},"providerExecuted":true,"dynamic":true}"#,
    r#"{"type":"tool-approval-request","approvalId":"q2","toolCallId":"c2"}"#,
    // The gated call waits on the client's answer: the ending leaves it to that answer.
    r#"{"type":"finish-step"}"#,
    r#"{"type":"finish"}"#,
];

fn view(parts: QuestionParts, mode: TraceMode) -> QuestionView {
    QuestionView::new(parts, Trace::default().with_mode(Some(mode)))
}

fn live(frames: &[&str], view: QuestionView) -> (Translator, Vec<String>) {
    let mut t = Translator::new(Some("r1")).with_questions(view);
    let mut out = Vec::new();
    for f in frames {
        t.push(parse_frame(f).unwrap(), &mut out);
    }
    (t, out.iter().map(plain).collect())
}

#[test]
fn a_free_question_is_an_ask_user_call_the_client_answers() {
    for parts in [QuestionParts::Tools, QuestionParts::Approvals] {
        let (t, out) = live(&[CREATE, FREE], view(parts, TraceMode::Full));
        assert_eq!(
            out[2..],
            [
                r#"{"type":"tool-input-start","toolCallId":"q1","toolName":"askUser","providerExecuted":false,"dynamic":false}"#,
                r#"{"type":"tool-input-available","toolCallId":"q1","toolName":"askUser","input":{"questionId":"q1","text":"Which?","options":["eu","us"]},"providerExecuted":false,"dynamic":false}"#,
                r#"{"type":"finish-step"}"#,
                r#"{"type":"finish"}"#,
            ]
        );
        assert_eq!(
            t.outcome().map(StreamOutcome::label),
            Some("awaiting_answer")
        );
    }
}

#[test]
fn an_approval_question_is_a_request_on_the_gated_calls_part() {
    let (_, out) = live(
        &[CREATE, PENDING, GATING],
        view(QuestionParts::Approvals, TraceMode::Full),
    );
    assert_eq!(out[2..], APPROVAL_REQUESTED);
}

#[test]
fn without_approvals_the_gated_call_is_an_approve_tool_call_call() {
    let running = r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c2","toolName":"deploy","status":"running","args":{"target":"prod"}}"#;
    let (t, out) = live(
        &[CREATE, running, GATING],
        view(QuestionParts::Tools, TraceMode::Full),
    );
    assert_eq!(
        out[4..],
        [
            r#"{"type":"tool-input-start","toolCallId":"q2","toolName":"approveToolCall","providerExecuted":false,"dynamic":false}"#,
            r#"{"type":"tool-input-available","toolCallId":"q2","toolName":"approveToolCall","input":{"questionId":"q2","text":"Deploy?","toolCallId":"c2","toolName":"deploy","input":{"target":"prod"}},"providerExecuted":false,"dynamic":false}"#,
            r#"{"type":"tool-output-error","toolCallId":"c2","errorText":"Waiting for your answer","providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"finish"}"#,
        ]
    );
    assert_eq!(t.tools.counts(), (1, 1));
}

#[test]
fn the_trace_decides_what_an_approval_shows() {
    // `normal`: the gated call's input is no more shown inside the question than on its card.
    let (_, out) = live(
        &[CREATE, PENDING, GATING],
        view(QuestionParts::Tools, TraceMode::Normal),
    );
    assert!(
        out.iter()
            .any(|c| c.contains(r#""toolName":"deploy","input":null}"#)),
        "{out:?}"
    );
    // `minimal` shows no card to approve on: the approval comes as `approveToolCall`.
    let (_, out) = live(
        &[CREATE, PENDING, GATING],
        view(QuestionParts::Approvals, TraceMode::Minimal),
    );
    assert!(out
        .iter()
        .any(|c| c.contains(r#""toolName":"approveToolCall""#)));
    assert!(!out.iter().any(|c| c.contains("tool-approval-request")));
}

#[test]
fn a_question_naming_no_open_call_is_a_free_one() {
    let done = r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c2","toolName":"deploy","status":"completed","result":1}"#;
    for frames in [vec![CREATE, GATING], vec![CREATE, PENDING, done, GATING]] {
        let (_, out) = live(&frames, view(QuestionParts::Approvals, TraceMode::Full));
        assert!(
            out.iter()
                .any(|c| c.contains(r#""toolCallId":"q2","toolName":"askUser""#)),
            "{out:?}"
        );
    }
}

#[test]
fn a_question_id_taken_by_a_tool_call_gets_its_own_call_id() {
    let call = r#"{"type":"message.part.tool-update","turnId":"t1","callId":"q1","toolName":"ls","status":"completed","result":1}"#;
    let (_, out) = live(
        &[CREATE, call, FREE],
        view(QuestionParts::Tools, TraceMode::Full),
    );
    assert!(out
        .iter()
        .any(|c| c.contains(r#""toolCallId":"q1:question","toolName":"askUser""#)));
}

fn snapshot(parts: &str) -> String {
    format!(r#"[{{"id":"t1","role":"assistant","parts":[{parts}]}}]"#)
}

#[test]
fn a_resume_rebuilds_the_waiting_part_and_answered_ones_with_a_new_step() {
    let call = r#"{"type":"tool-call","callId":"c2","toolName":"deploy","status":"pending","args":{"target":"prod"}}"#;
    let (_, out) = resume_viewed(
        &snapshot(&format!("{call},{GATING}")),
        &[],
        view(QuestionParts::Approvals, TraceMode::Full),
    );
    assert_eq!(
        out[2..],
        APPROVAL_REQUESTED,
        "the resume rebuilds what the live stream sent"
    );
    let answered = r#"{"type":"question","questionId":"q1","text":"Which?","answer":"eu"}"#;
    let text = r#"{"type":"text","text":"EU it is."}"#;
    let (t, out) = resume_viewed(
        &snapshot(&format!("{answered},{text}")),
        &[],
        view(QuestionParts::Tools, TraceMode::Minimal),
    );
    assert_eq!(
        out[2..],
        [
            r#"{"type":"tool-input-start","toolCallId":"q1","toolName":"askUser","providerExecuted":false,"dynamic":false}"#,
            r#"{"type":"tool-input-available","toolCallId":"q1","toolName":"askUser","input":{"questionId":"q1","text":"Which?"},"providerExecuted":false,"dynamic":false}"#,
            r#"{"type":"tool-output-available","toolCallId":"q1","output":"eu","providerExecuted":false,"dynamic":false}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"start-step"}"#,
            r#"{"type":"text-start","id":"text-1"}"#,
            r#"{"type":"text-delta","id":"text-1","delta":"EU it is."}"#,
        ]
    );
    assert_eq!(t.phase(), Phase::Open);
}

fn answered_in(
    parts: &str,
    denied: Option<&str>,
    view: QuestionView,
    live: &[&str],
) -> Vec<String> {
    let init = parse_init(&format!(
        r#"{{"type":"init","messages":{}}}"#,
        snapshot(parts)
    ))
    .unwrap();
    let mut out = Vec::new();
    let message = init.in_flight().unwrap();
    let mut t = Translator::answered_in(message, "m1".into(), denied, no_clock, view, &mut out);
    for f in live {
        t.push(parse_frame(f).unwrap(), &mut out);
    }
    out.iter().map(plain).collect()
}

#[test]
fn the_answer_streams_on_in_the_same_message() {
    let parts = r#"{"type":"tool-call","callId":"c1","toolName":"ls","status":"completed","result":1},
        {"type":"tool-call","callId":"c2","toolName":"deploy","status":"pending","args":{}},
        {"type":"question","questionId":"q2","text":"Deploy?","toolCallId":"c2","answer":{"approved":true}}"#;
    let out = answered_in(
        parts,
        None,
        view(QuestionParts::Approvals, TraceMode::Full),
        &[
            r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c1","toolName":"ls","status":"completed","result":1}"#,
            r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c2","toolName":"deploy","status":"running"}"#,
            r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c2","toolName":"deploy","status":"completed","result":{"ok":true}}"#,
            r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
        ],
    );
    assert_eq!(
        out,
        [
            // The client's message, by its id; the calls it holds are moved on, never begun again.
            r#"{"type":"start","messageId":"m1"}"#,
            r#"{"type":"start-step"}"#,
            r#"{"type":"tool-output-available","toolCallId":"c2","output":{"ok":true},"providerExecuted":true,"dynamic":true}"#,
            r#"{"type":"finish-step"}"#,
            r#"{"type":"finish"}"#,
        ]
    );
}

#[test]
fn a_denied_approval_ends_its_call_denied_at_once() {
    let parts = r#"{"type":"tool-call","callId":"c2","toolName":"deploy","status":"pending","args":{}},
        {"type":"question","questionId":"q2","text":"Deploy?","toolCallId":"c2","answer":{"approved":false}}"#;
    let error = r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c2","toolName":"deploy","status":"error","error":"Denied"}"#;
    let out = answered_in(
        parts,
        Some("c2"),
        view(QuestionParts::Approvals, TraceMode::Full),
        &[error],
    );
    assert_eq!(
        out,
        [
            r#"{"type":"start","messageId":"m1"}"#,
            r#"{"type":"start-step"}"#,
            r#"{"type":"tool-output-denied","toolCallId":"c2"}"#,
        ]
    );
    // Without approvals the client holds the call as the question's stream ended it: the
    // agent's own ending of it follows.
    let out = answered_in(
        parts,
        Some("c2"),
        view(QuestionParts::Tools, TraceMode::Full),
        &[error],
    );
    assert_eq!(
        out[2..],
        [
            r#"{"type":"tool-output-error","toolCallId":"c2","errorText":"Denied","providerExecuted":true,"dynamic":true}"#
        ]
    );
}

#[test]
fn the_answers_stream_counts_the_whole_turns_tools() {
    let parts = r#"{"type":"tool-call","callId":"c1","toolName":"ls","status":"error","error":"x"},
        {"type":"tool-call","callId":"c2","toolName":"deploy","status":"pending"},
        {"type":"question","questionId":"q2","text":"Deploy?","toolCallId":"c2","answer":"Approve"}"#;
    let init = parse_init(&format!(
        r#"{{"type":"init","messages":{}}}"#,
        snapshot(parts)
    ))
    .unwrap();
    let mut out = Vec::new();
    let view = view(QuestionParts::Approvals, TraceMode::Full);
    let t = Translator::answered_in(
        init.in_flight().unwrap(),
        "m1".into(),
        None,
        no_clock,
        view,
        &mut out,
    );
    assert_eq!(t.tools.counts(), (2, 1));
}
