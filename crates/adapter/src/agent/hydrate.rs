//! Reading what the agent says first on a socket (its `init`, or a turn event), within a wait:
//! the socket, the timer and the log. What a frame means is the core's rule (`hydration`).

use std::pin::Pin;
use std::time::Duration;

use futures::future::{select, Either};
use futures::StreamExt;
use worker::Delay;

use crate::forget;
use crate::pages::{read_answer, Answer};
use crate::platform::log;
use crate::refusal::Refusal;
use crate::session::Message;

pub(crate) use crate::hydration::Hydration;
use crate::hydration::{read_first_frame, FirstFrame, Silence};
use crate::platform::socket::{SocketEvent, SocketEvents};

/// How long the agent may take to send `init` after it accepted the socket. It sends it at
/// once, so it arrives within a round trip; 5 s leaves room for an agent that loads a long
/// history from its storage on a cold start, and is the most a page load waits on an agent
/// that never sends one.
pub(crate) const INIT_WAIT_MS: u64 = 5_000;

/// Reads frames until the agent's `init`, its first turn event, or [`INIT_WAIT_MS`].
pub(crate) async fn read_init(events: &mut SocketEvents, request_id: &str) -> Hydration {
    read_until(events, request_id, INIT_WAIT_MS, true).await
}

/// Reads frames until a turn event (`init`s are passed over) or `wait_ms`: for an agent whose
/// `init` leaves out the turn in flight, the sign that one is running.
pub(crate) async fn next_turn_event(
    events: &mut SocketEvents,
    request_id: &str,
    wait_ms: u64,
) -> Option<(String, String)> {
    match read_until(events, request_id, wait_ms, false).await {
        Hydration::TurnEvent { frame, turn_id } => Some((frame, turn_id)),
        Hydration::Init(_) | Hydration::Unknown(_) => None,
    }
}

/// Reads frames until the agent's answer to the `history` frame with `request_id` (protocol 5),
/// within [`INIT_WAIT_MS`]: its page and the ref before it, or the refusal for the client (`404`
/// for a ref the agent does not hold, `502` for another answer, `504` for none in time). Never
/// an empty page for a failure.
pub(crate) async fn read_history(
    events: &mut SocketEvents,
    request_id: &str,
) -> Result<(Vec<Message>, Option<String>), Refusal> {
    let mut deadline = Box::pin(Delay::from(Duration::from_millis(INIT_WAIT_MS)));
    loop {
        let text = match next_text(events, deadline.as_mut()).await {
            Next::Text(text) => text,
            Next::Closed => {
                log::warn("history_unanswered", Some(request_id), "the socket closed");
                return Err(Refusal::history_unanswered());
            }
            Next::TimedOut => {
                log::warn("history_unanswered", Some(request_id), "no page in time");
                return Err(Refusal::history_timeout());
            }
        };
        match read_answer(&text, request_id) {
            Some(Answer::Page(page, older)) => return Ok((page, older)),
            Some(Answer::NotFound) => return Err(Refusal::message_not_found()),
            Some(Answer::Failed(why)) => {
                log::warn("history_unanswered", Some(request_id), &why);
                return Err(Refusal::history_unanswered());
            }
            None => {}
        }
    }
}

/// How long the agent may take to answer a `forget` with `forgotten` (protocol 7): 10 s, as long
/// as the upgrade's own wait. It deletes what it keeps of the session first, and a session of
/// many messages and files' records takes longer to delete than a page takes to read.
pub(crate) const FORGET_WAIT_MS: u64 = 10_000;

/// Reads frames until the agent's answer to the `forget` with `request_id`, within
/// [`FORGET_WAIT_MS`]: `Ok` once it keeps nothing of the session, else the refusal for the client
/// (`502` for an error or a closed socket, `504` for no answer in time).
pub(crate) async fn read_forgotten(
    events: &mut SocketEvents,
    request_id: &str,
) -> Result<(), Refusal> {
    let mut deadline = Box::pin(Delay::from(Duration::from_millis(FORGET_WAIT_MS)));
    loop {
        let text = match next_text(events, deadline.as_mut()).await {
            Next::Text(text) => text,
            Next::Closed => {
                log::warn("forget_unanswered", Some(request_id), "the socket closed");
                return Err(Refusal::forget_unanswered());
            }
            Next::TimedOut => {
                log::warn("forget_unanswered", Some(request_id), "no answer in time");
                return Err(Refusal::forget_timeout());
            }
        };
        match forget::read_answer(&text, request_id) {
            Some(forget::Answer::Forgotten) => return Ok(()),
            Some(forget::Answer::Failed(why)) => {
                log::warn("forget_unanswered", Some(request_id), &why);
                return Err(Refusal::forget_unanswered());
            }
            None => {}
        }
    }
}

async fn read_until(
    events: &mut SocketEvents,
    request_id: &str,
    wait_ms: u64,
    want_init: bool,
) -> Hydration {
    let mut deadline = Box::pin(Delay::from(Duration::from_millis(wait_ms)));
    // An `init` that did not parse: the silence that follows it is that.
    let mut malformed = false;
    loop {
        let text = match next_text(events, deadline.as_mut()).await {
            Next::Text(text) => text,
            Next::Closed | Next::TimedOut if malformed => {
                return Hydration::Unknown(Silence::Malformed)
            }
            Next::Closed => return silent(Silence::Closed, want_init, request_id),
            Next::TimedOut => return silent(Silence::TimedOut, want_init, request_id),
        };
        match read_first_frame(text, want_init) {
            FirstFrame::Decided(Hydration::Init(init)) => {
                if init.skipped > 0 {
                    let why = format!("skipped {} unusable messages or parts", init.skipped);
                    log::warn("init_skipped", Some(request_id), &why);
                }
                return Hydration::Init(init);
            }
            FirstFrame::Decided(hydration) => return hydration,
            FirstFrame::MalformedInit(why) => {
                malformed = true;
                log::warn("init_malformed", Some(request_id), &why);
            }
            FirstFrame::PassedOver => {}
        }
    }
}

/// Nothing usable came: `silence`, logged where an `init` was wanted.
fn silent(silence: Silence, want_init: bool, request_id: &str) -> Hydration {
    if want_init {
        let why = match silence {
            Silence::Closed => "the agent's socket closed before its init",
            Silence::TimedOut | Silence::Malformed => "no init from the agent in time",
        };
        log::warn("init_missing", Some(request_id), why);
    }
    Hydration::Unknown(silence)
}

/// What came first: a text frame, the socket's end, or the deadline.
enum Next {
    Text(String),
    Closed,
    TimedOut,
}

/// The socket's next text frame (binary ones passed over), or its end, or `deadline`.
async fn next_text(events: &mut SocketEvents, mut deadline: Pin<&mut Delay>) -> Next {
    loop {
        return match select(events.next(), deadline.as_mut()).await {
            Either::Left((Some(SocketEvent::Text(text)), _)) => Next::Text(text),
            Either::Left((Some(SocketEvent::Binary), _)) => continue,
            Either::Left((Some(SocketEvent::Closed { .. } | SocketEvent::Failed) | None, _)) => {
                Next::Closed
            }
            Either::Right(_) => Next::TimedOut,
        };
    }
}
