//! Tests of which question an answer goes to: the pending question's answer, the newest of
//! several, a stale answer refused, and an `init` that may leave the turn out letting it go.

use serde_json::json;

use super::*;
use crate::refusal::QUESTION_NOT_PENDING;
use crate::request::AnsweredMessage;
use crate::session::parse_init;

/// An `init` of protocol `protocol` whose turn in flight `t9` waits on question `q2` (`q1` of
/// an earlier turn was answered), or with no turn in flight when `in_flight` is false.
fn init(protocol: u64, in_flight: bool) -> Init {
    let turn = if in_flight {
        r#",{"id":"t9","role":"assistant","parts":[{"type":"question","questionId":"q2","text":"Which?"}]}"#
    } else {
        ""
    };
    parse_init(&format!(
        r#"{{"type":"init","protocol":{protocol},"messages":[
          {{"id":"u1","role":"user","parts":[{{"type":"text","text":"hi"}}]}},
          {{"id":"a1","role":"assistant","parts":[{{"type":"question","questionId":"q1","text":"Go?","answer":"yes"}},{{"type":"finish","reason":"end_turn"}}]}}{turn}
        ]}}"#
    ))
    .unwrap()
}

fn answer(question_id: &str, value: &str) -> Answer {
    Answer {
        question_id: question_id.into(),
        answer: json!(value),
        denied_call: None,
    }
}

fn in_message(answers: &[Answer]) -> Reply {
    Reply::InMessage(AnsweredMessage {
        message_id: "t9".into(),
        answers: answers.to_vec(),
    })
}

fn refused(result: Result<(Waiting, Answer), Refusal>) -> bool {
    matches!(result, Err(refusal) if refusal.kind == QUESTION_NOT_PENDING)
}

#[test]
fn an_answer_to_the_pending_question_goes_to_the_turn_in_flight() {
    for protocol in [0, 1, 4] {
        let (waiting, sent) =
            pending_in(init(protocol, true), &Reply::Data(answer("q2", "eu"))).unwrap();
        let Waiting::Turn(message) = waiting else {
            panic!("not the turn in flight: {waiting:?}");
        };
        assert_eq!(message.id, "t9");
        assert_eq!(sent, answer("q2", "eu"));
    }
}

#[test]
fn of_several_answers_in_the_message_the_newest_to_the_pending_question_goes() {
    let reply = in_message(&[
        answer("q2", "old"),
        answer("q7", "other"),
        answer("q2", "new"),
    ]);
    let (_, sent) = pending_in(init(1, true), &reply).unwrap();
    assert_eq!(sent, answer("q2", "new"));
}

#[test]
fn a_stale_or_replayed_answer_is_refused_when_the_init_lists_the_turn_in_flight() {
    // Another question than the one waiting, a turn in flight listed (any protocol).
    for protocol in [0, 1] {
        assert!(refused(pending_in(
            init(protocol, true),
            &Reply::Data(answer("q1", "yes"))
        )));
    }
    // No turn in flight, and protocol 1 says the `init` would list one.
    assert!(refused(pending_in(
        init(1, false),
        &Reply::Data(answer("q2", "eu"))
    )));
    assert!(refused(pending_in(
        init(1, false),
        &in_message(&[answer("q2", "eu")])
    )));
}

#[test]
fn an_init_that_may_leave_the_turn_out_lets_the_newest_answer_go() {
    let reply = in_message(&[answer("q5", "a"), answer("q6", "b")]);
    let (waiting, sent) = pending_in(init(0, false), &reply).unwrap();
    assert!(matches!(waiting, Waiting::Unlisted), "{waiting:?}");
    assert_eq!(sent, answer("q6", "b"));
    let (waiting, sent) = pending_in(init(0, false), &Reply::Data(answer("q5", "a"))).unwrap();
    assert!(matches!(waiting, Waiting::Unlisted), "{waiting:?}");
    assert_eq!(sent, answer("q5", "a"));
}

#[test]
fn the_newest_answer_of_a_reply() {
    assert_eq!(newest(&Reply::Data(answer("q1", "x"))), answer("q1", "x"));
    assert_eq!(
        newest(&in_message(&[answer("q1", "x"), answer("q2", "y")])),
        answer("q2", "y")
    );
    assert_eq!(newest(&in_message(&[])).question_id, "");
}
