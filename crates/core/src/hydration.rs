//! What the agent said first on a socket, and what it tells the routes: the rules of reading an
//! `init` (the edge, `agent/hydrate.rs`, keeps the socket, the wait and the log).
//!
//! A SessionAgent sends `init` first on every socket (`docs/agent-protocol.md`, "Sessions"). An
//! agent that does not is served as well as it can be: frames before `init` that are not turn
//! events (status, domain events) are passed over; a turn event first means the agent does not
//! hydrate, and that frame is handed back so the stream does not lose it; silence past the wait
//! or a closed socket means nothing is known.

use crate::session::{parse_init, Init};
use crate::v2::{frame_type, parse_frame, INIT};

/// What the agent said first.
#[derive(Debug, Clone)]
pub enum Hydration {
    /// Its `init`.
    Init(Init),
    /// No `init`: this turn event came first (the agent does not hydrate). The turn it names
    /// is in flight.
    TurnEvent { frame: String, turn_id: String },
    /// Nothing usable within the wait, or the socket closed.
    Unknown,
}

impl Hydration {
    /// Whether a turn may be in flight: the stop's rule. Only an `init` that lists the turn in
    /// flight whenever one runs (protocol 1 or later, or one listed) can say none runs; an
    /// `init` that may leave it out, a turn event, or nothing known do not, and the `abort`
    /// goes for the agent to decide.
    pub fn may_have_turn_in_flight(&self) -> bool {
        match self {
            Hydration::Init(init) => init.in_flight().is_some() || !init.lists_in_flight(),
            Hydration::TurnEvent { .. } | Hydration::Unknown => true,
        }
    }
}

/// One text frame read while waiting for what the agent says first.
#[derive(Debug)]
pub enum FirstFrame {
    /// The wait is over: its `init` (when one is wanted), or a turn event.
    Decided(Hydration),
    /// An `init` that does not parse (the reason, for the log): passed over, as the agent may
    /// send a good one after.
    MalformedInit(String),
    /// Not an `init` wanted, nor a turn event (status, a domain event, garbage): passed over.
    PassedOver,
}

/// Reads `text`, a frame that came while waiting: `want_init` for a route that waits for the
/// `init` (else only a turn event ends the wait, for an agent whose `init` left one out).
pub fn read_first_frame(text: String, want_init: bool) -> FirstFrame {
    if want_init && frame_type(&text).is_ok_and(|kind| kind == INIT) {
        return match parse_init(&text) {
            Ok(init) => FirstFrame::Decided(Hydration::Init(init)),
            Err(err) => FirstFrame::MalformedInit(err.to_string()),
        };
    }
    match parse_frame(&text)
        .ok()
        .and_then(|f| f.turn_id().map(str::to_owned))
    {
        Some(turn_id) => FirstFrame::Decided(Hydration::TurnEvent {
            frame: text,
            turn_id,
        }),
        None => FirstFrame::PassedOver,
    }
}

#[cfg(test)]
#[path = "hydration_tests.rs"]
mod tests;
