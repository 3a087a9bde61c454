//! Reading the agent's `init`: the session's history and its turn in flight, which the resume,
//! stop, history and answer requests decide on before they answer.
//!
//! A SessionAgent sends `init` first on every socket (`docs/agent-protocol.md`,
//! "Sessions"). An agent that does not is served as well as it can be: frames before `init`
//! that are not turn events (status, domain events) are passed over; a turn event first means
//! the agent does not hydrate, and that frame is handed back so the stream does not lose it;
//! silence past [`INIT_WAIT_MS`] or a closed socket means nothing is known.

use std::time::Duration;

use futures::future::{select, Either};
use futures::StreamExt;
use worker::Delay;

use crate::platform::log;

use crate::platform::socket::{SocketEvent, SocketEvents};
use crate::session::{parse_init, Init};
use crate::v2::{frame_type, parse_frame, INIT};

/// How long the agent may take to send `init` after it accepted the socket. It sends it at
/// once, so it arrives within a round trip; 5 s leaves room for an agent that loads a long
/// history from its storage on a cold start, and is the most a page load waits on an agent
/// that never sends one.
pub(crate) const INIT_WAIT_MS: u64 = 5_000;

/// What the agent said first.
pub(crate) enum Hydration {
    /// Its `init`.
    Init(Init),
    /// No `init`: this turn event came first (the agent does not hydrate). The turn it names
    /// is in flight.
    TurnEvent { frame: String, turn_id: String },
    /// Nothing usable within [`INIT_WAIT_MS`], or the socket closed.
    Unknown,
}

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
        Hydration::Init(_) | Hydration::Unknown => None,
    }
}

async fn read_until(
    events: &mut SocketEvents,
    request_id: &str,
    wait_ms: u64,
    want_init: bool,
) -> Hydration {
    let mut deadline = Box::pin(Delay::from(Duration::from_millis(wait_ms)));
    loop {
        let text = match select(events.next(), deadline.as_mut()).await {
            Either::Left((Some(SocketEvent::Text(text)), _)) => text,
            Either::Left((Some(SocketEvent::Binary), _)) => continue,
            Either::Left((Some(SocketEvent::Closed { .. } | SocketEvent::Failed) | None, _)) => {
                return Hydration::Unknown
            }
            Either::Right(_) => {
                if want_init {
                    log::warn(
                        "init_missing",
                        Some(request_id),
                        "no init from the agent in time",
                    );
                }
                return Hydration::Unknown;
            }
        };
        if want_init && frame_type(&text).is_ok_and(|kind| kind == INIT) {
            match parse_init(&text) {
                Ok(init) => {
                    if init.skipped > 0 {
                        let why = format!("skipped {} unusable messages or parts", init.skipped);
                        log::warn("init_skipped", Some(request_id), &why);
                    }
                    return Hydration::Init(init);
                }
                Err(err) => {
                    log::warn("init_malformed", Some(request_id), &err.to_string());
                    continue;
                }
            }
        }
        if let Some(turn_id) = parse_frame(&text)
            .ok()
            .and_then(|f| f.turn_id().map(str::to_owned))
        {
            return Hydration::TurnEvent {
                frame: text,
                turn_id,
            };
        }
    }
}
