//! A chat request that answers the agent's question: which question the agent waits on (from its
//! `init`), the `answer` frame, and the stream of the rest of the turn.
//!
//! Two kinds of request answer ([`Reply`]): the assistant's message sent back with the question
//! answered on its tool part (the AI SDK's `sendAutomaticallyWhen`), whose stream goes on in that
//! message; and a user message with a `data-answer` part, whose stream is a new message (the
//! request id). The answer must be to the question the turn in flight waits on: 409
//! `question_not_pending` when the agent's `init` shows no such question waits (a stale or
//! replayed answer); when its `init` may leave the turn in flight out, the answer goes and the
//! agent decides, and the stream follows the turn of the first turn event.

use crate::context::RouteContext;
use crate::failure::Failure;
use crate::hydrate::{read_init, Hydration};
use crate::platform::clock::now_ms;
use crate::platform::socket::{SocketEvents, NORMAL_CLOSURE};
use crate::pump::AbortRule;
use crate::questions::QuestionView;
use crate::refusal::Refusal;
use crate::request::{Answer, OnDisconnect, Reply};
use crate::session::{Init, Message};
use crate::stream::{Agent, Plan};
use crate::turn_stream::TurnStream;
use crate::upstream;
use crate::v2::answer_frame;

/// What the agent's `init` says of the turn the answer goes to.
enum Waiting {
    /// The turn in flight, waiting on this question.
    Turn(Message),
    /// An agent without `init`: the turn of its first turn event, and that event's frame (which
    /// the stream must not lose).
    TurnEvent { turn_id: String, frame: String },
    /// An `init` that may leave the turn in flight out: the agent decides.
    Unlisted,
}

/// An answer's agent and plan: the socket, the `answer` frame, and the stream of the rest of the
/// turn; else the refusal. `to` is the session and the caller's id.
pub(crate) async fn answer_plan(
    cx: &mut RouteContext<'_>,
    (session_id, user_id): (&str, Option<&str>),
    reply: &Reply,
    on_disconnect: OnDisconnect,
    questions: QuestionView,
) -> Result<(Agent, Plan), Failure> {
    let request_id = cx.exchange.request_id().to_owned();
    let mut agent = upstream::connect(cx.env, cx.config, session_id, user_id).await?;
    let found = waiting(&mut agent.events, reply, &request_id).await;
    let (waiting, answer, protocol) = match found {
        Ok(found) => found,
        Err(refusal) => {
            let _ = agent.socket.close(Some(NORMAL_CLOSURE), Some("done"));
            return Err(refusal.into());
        }
    };
    // The message the rest of the turn streams into: the client's own, or a new one.
    let message_id = match reply {
        Reply::InMessage(answered) => answered.message_id.clone(),
        Reply::Data(_) => request_id,
    };
    let mut early_frame = None;
    let turn = match waiting {
        Waiting::Turn(message) if matches!(reply, Reply::InMessage(_)) => {
            let denied = answer.denied_call.as_deref();
            TurnStream::answered_in(&message, message_id, denied, now_ms, questions)
        }
        Waiting::Turn(message) => TurnStream::continuing(&message.id, message_id, now_ms),
        Waiting::TurnEvent { turn_id, frame } => {
            early_frame = Some(frame);
            TurnStream::continuing(&turn_id, message_id, now_ms)
        }
        Waiting::Unlisted => TurnStream::adopting(message_id, now_ms),
    };
    let turn = match protocol {
        Some(protocol) => turn.with_agent_protocol(protocol),
        None => turn,
    };
    let abort = AbortRule {
        on_client_gone: on_disconnect == OnDisconnect::Abort,
        on_agent_fault: true,
        request_id: None,
    };
    let frame = answer_frame(&answer.question_id, &answer.answer, on_disconnect);
    let mut plan = Plan::new(frame, turn.with_questions(questions), abort);
    plan.early_frame = early_frame;
    Ok((Agent::Listening(agent), plan))
}

/// The turn that waits on the reply's question, from the agent's `init`, the answer to send,
/// and the protocol the `init` said (for the turn's record).
async fn waiting(
    events: &mut SocketEvents,
    reply: &Reply,
    request_id: &str,
) -> Result<(Waiting, Answer, Option<u64>), Refusal> {
    match read_init(events, request_id).await {
        Hydration::Init(init) => {
            let protocol = init.protocol;
            pending_in(init, reply).map(|(waiting, answer)| (waiting, answer, Some(protocol)))
        }
        // An agent without `init`: the answer goes to the turn under way, which decides.
        Hydration::TurnEvent { frame, turn_id } => {
            Ok((Waiting::TurnEvent { turn_id, frame }, newest(reply), None))
        }
        Hydration::Unknown => Err(Refusal::answer_turn_unknown()),
    }
}

/// The turn in flight of `init` and the reply's answer to the question it waits on.
fn pending_in(init: Init, reply: &Reply) -> Result<(Waiting, Answer), Refusal> {
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
fn newest(reply: &Reply) -> Answer {
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
