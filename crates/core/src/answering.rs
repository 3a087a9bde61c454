//! Which question an answer goes to: the rule a chat request that answers the agent follows
//! once it has the agent's `init` (the edge, `handlers/chat_reply.rs`, keeps the socket and
//! the stream).
//!
//! The answer must be to the question the turn in flight waits on: a refusal
//! (`409 question_not_pending`) when the `init` shows no such question waits (a stale or replayed
//! answer); when the `init` may leave the turn in flight out (protocol 0, none listed), the
//! answer goes and the agent decides.

use crate::refusal::Refusal;
use crate::request::{Answer, Reply};
use crate::session::{Init, Message};

/// What the agent's `init` (or its first frame) says of the turn the answer goes to.
#[derive(Debug, Clone)]
pub enum Waiting {
    /// The turn in flight, waiting on this question.
    Turn(Message),
    /// An agent without `init`: the turn of its first turn event, and that event's frame (which
    /// the stream must not lose).
    TurnEvent { turn_id: String, frame: String },
    /// An `init` that may leave the turn in flight out: the agent decides.
    Unlisted,
}

/// The turn in flight of `init` and the reply's answer to the question it waits on. Of a
/// message sent back with several answers, the newest to that question.
pub fn pending_in(init: Init, reply: &Reply) -> Result<(Waiting, Answer), Refusal> {
    let question_id = init
        .in_flight()
        .and_then(|m| Some(m.pending_question()?.question_id.as_str()));
    let answer = question_id.and_then(|question_id| match reply {
        Reply::Data(answer) => (answer.question_id == question_id).then(|| answer.clone()),
        Reply::InMessage(answered) => answered
            .answers
            .iter()
            .rev()
            .find(|a| a.question_id == question_id)
            .cloned(),
    });
    match answer {
        Some(answer) => match init.take_in_flight() {
            Some(message) => Ok((Waiting::Turn(message), answer)),
            None => Err(Refusal::question_not_pending()),
        },
        None if init.lists_in_flight() => Err(Refusal::question_not_pending()),
        None => Ok((Waiting::Unlisted, newest(reply))),
    }
}

/// The reply's newest answer: the one to send when the agent cannot say which question waits.
pub fn newest(reply: &Reply) -> Answer {
    match reply {
        Reply::Data(answer) => answer.clone(),
        // The parser gives an assistant message only with at least one answer.
        Reply::InMessage(answered) => answered.answers.last().cloned().unwrap_or(Answer {
            question_id: String::new(),
            answer: serde_json::Value::Null,
            denied_call: None,
        }),
    }
}

#[cfg(test)]
#[path = "answering_tests.rs"]
mod tests;
