//! What the agent said first on a socket, and what it tells the routes: the rules of reading an
//! `init` (the edge, `agent/hydrate.rs`, keeps the socket, the wait and the log).
//!
//! A SessionAgent sends `init` first on every socket (`docs/agent-protocol.md`, "Sessions"). An
//! agent that does not is served as well as it can be: frames before `init` that are not turn
//! events (status, domain events) are passed over; a turn event first means the agent does not
//! hydrate, and that frame is handed back so the stream does not lose it; silence past the wait,
//! a closed socket or an `init` that does not parse means nothing is known, and says why
//! ([`Silence`]): a failing agent is told from one that keeps no `init`.

use crate::refusal::{NotReady, Refusal};
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
    /// Nothing usable: why (the wait ran out, the socket closed, or the `init` did not parse).
    Unknown(Silence),
}

/// Why the agent said nothing usable first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Silence {
    /// The wait ran out with nothing usable: an agent that keeps no `init`, or a slow one.
    TimedOut,
    /// The socket closed before anything usable: the agent is restarting, or failed.
    Closed,
    /// Its `init` did not parse (and no good one came after it).
    Malformed,
}

impl Silence {
    /// What a route that reads the agent's `init` answers for this silence, or `None` where it is
    /// no failure: an agent whose upgrade's answer promised no `init` (it said no
    /// `X-Agent-Protocol` of [`INIT_PROMISED`] or later) and stayed silent is one that keeps none
    /// (`docs/agent-protocol.md`, "The degrade matrix"). Every other silence is a failing agent:
    /// `503 agent_not_ready` with `Retry-After`, never an empty history or a `204`.
    pub fn failure(self, promised_init: bool) -> Option<Refusal> {
        match self {
            Silence::TimedOut if !promised_init => None,
            Silence::TimedOut => Some(Refusal::agent_not_ready(NotReady::Slow)),
            Silence::Closed => Some(Refusal::agent_not_ready(NotReady::Closed)),
            Silence::Malformed => Some(Refusal::agent_not_ready(NotReady::Malformed)),
        }
    }
}

/// The first protocol whose agent says it on its upgrade's answer (`X-Agent-Protocol`, from
/// protocol 4: `docs/agent-protocol.md`, "Versions"), and whose `init` is then promised: one that
/// does not come in time is a failure, not an agent that keeps none.
pub const INIT_PROMISED: u32 = 4;

impl Hydration {
    /// Whether a turn may be in flight: the stop's rule. Only an `init` that lists the turn in
    /// flight whenever one runs (protocol 1 or later, or one listed) can say none runs; an
    /// `init` that may leave it out, a turn event, or nothing known do not, and the `abort`
    /// goes for the agent to decide.
    pub fn may_have_turn_in_flight(&self) -> bool {
        match self {
            Hydration::Init(init) => init.in_flight().is_some() || !init.lists_in_flight(),
            Hydration::TurnEvent { .. } | Hydration::Unknown(_) => true,
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
