//! A chat request that answers the agent's question: which question the agent waits on (from its
//! `init`), the `answer` frame, and the stream of the rest of the turn.
//!
//! Two kinds of request answer ([`Reply`]): the assistant's message sent back with the question
//! answered on its tool part (the AI SDK's `sendAutomaticallyWhen`), whose stream goes on in that
//! message; and a user message with a `data-answer` part, whose stream is a new message (the
//! request id). Which question the answer goes to is the core's rule (`answering`): here, the
//! socket, the agent's `init` read from it, and the stream, which follows the turn of the first
//! turn event when the `init` may leave the turn in flight out.

use crate::agent::hydrate::{read_init, Hydration};
use crate::agent::upstream;
use crate::answering::{newest, pending_in, Waiting};
use crate::context::RouteContext;
use crate::failure::Failure;
use crate::handlers::streaming::{Handoff, Plan};
use crate::platform::clock::now_ms;
use crate::platform::socket::{close_done, SocketEvents};
use crate::pump::AbortRule;
use crate::questions::QuestionView;
use crate::refusal::Refusal;
use crate::request::{Answer, OnDisconnect, Reply};
use crate::turn_stream::TurnStream;
use crate::v2::answer_frame;

/// An answer's agent and plan: the socket, the `answer` frame, and the stream of the rest of the
/// turn; else the refusal. `to` is the session and the caller's id.
pub(crate) async fn reply_plan(
    cx: &mut RouteContext<'_>,
    (session_id, user_id): (&str, Option<&str>),
    reply: &Reply,
    on_disconnect: OnDisconnect,
    questions: QuestionView,
) -> Result<(Handoff, Plan), Failure> {
    let request_id = cx.exchange.request_id().to_owned();
    let mut agent = upstream::connect(cx.env, cx.config, session_id, user_id).await?;
    let found = waiting(&mut agent.events, agent.promised_init, reply, &request_id).await;
    let (waiting, answer, protocol) = match found {
        Ok(found) => found,
        Err(refusal) => {
            close_done(&agent.socket);
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
    let turn = turn.with_agent_protocol(protocol);
    let abort = AbortRule::owning(on_disconnect, None);
    let frame = answer_frame(&answer.question_id, &answer.answer, on_disconnect);
    let mut plan = Plan::new(frame, turn.with_questions(questions), abort);
    plan.follow.early_frame = early_frame;
    Ok((Handoff::Listening(agent), plan))
}

/// The turn that waits on the reply's question, from the agent's `init`, the answer to send,
/// and the protocol the `init` said (for the turn's record).
async fn waiting(
    events: &mut SocketEvents,
    promised_init: bool,
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
        // A failing agent is said to be one (`503`); a silent one that keeps no `init`, `502`.
        Hydration::Unknown(silence) => Err(silence
            .failure(promised_init)
            .unwrap_or_else(Refusal::answer_turn_unknown)),
    }
}
