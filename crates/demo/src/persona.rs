//! Which agent the demo plays for a session, told by its id's prefix: the agent of protocol 7 by
//! default, or, for the tests of how the adapter degrades, one that keeps less of the contract
//! (docs/agent-protocol.md, "The degrade matrix").
//!
//! | prefix | the agent | `init` | upgrade's `X-Agent-Protocol` | store |
//! | --- | --- | --- | --- | --- |
//! | (none) | protocol 7 | the current branch's newest page, the turn in flight, `"protocol":7` | `7` | the tree, data parts, sources, metadata; a `forget` deletes it all |
//! | `noinit-` | one that does not hydrate | none | none | the tree |
//! | `noinflight-` | one whose `init` leaves out the turn in flight | the page without it, no `protocol` | none | the tree |
//! | `proto4-` | protocol 4: a list that deletes what a turn does not follow ([`crate::proto4`]) | the newest messages, no `ref`, `"protocol":4` | `4` | the list |
//!
//! Two more prefixes (`nows-`, `throw-`) make the object fail before any socket exists: the
//! Durable Object's `fetch` reads them (`agent.rs`). Pure: the prefixes and what each means.

/// The protocol the demo agent keeps (docs/agent-protocol.md, "Versions"), said in its `init` and
/// on its upgrade's answer.
pub const PROTOCOL: u64 = 7;

/// The protocol the `proto4-` persona keeps: the one before branches.
pub const PROTOCOL_4: u64 = 4;

/// Session id prefix of an agent that sends no `init`.
pub const NO_INIT_PREFIX: &str = "noinit-";
/// Session id prefix of an agent whose `init` leaves out the turn in flight (and says no protocol).
pub const NO_IN_FLIGHT_PREFIX: &str = "noinflight-";
/// Session id prefix of an agent of protocol 4.
pub const PROTO4_PREFIX: &str = "proto4-";

/// The agent the demo plays for one session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Persona {
    /// Protocol 7: every message kept as a tree, forgotten on `forget`.
    Full,
    /// No `init` at all.
    NoInit,
    /// An `init` without the turn in flight, and no protocol said.
    NoInFlight,
    /// Protocol 4: a list; a turn deletes what it does not follow.
    Proto4,
}

impl Persona {
    /// The persona of session `session_id`.
    pub fn of(session_id: &str) -> Persona {
        if session_id.starts_with(NO_INIT_PREFIX) {
            Persona::NoInit
        } else if session_id.starts_with(NO_IN_FLIGHT_PREFIX) {
            Persona::NoInFlight
        } else if session_id.starts_with(PROTO4_PREFIX) {
            Persona::Proto4
        } else {
            Persona::Full
        }
    }

    /// The protocol it says, in `init` and on the upgrade's answer; `None`: it says none.
    pub fn protocol(self) -> Option<u64> {
        match self {
            Persona::Full => Some(PROTOCOL),
            Persona::Proto4 => Some(PROTOCOL_4),
            Persona::NoInit | Persona::NoInFlight => None,
        }
    }

    /// Whether a new socket gets an `init`.
    pub fn sends_init(self) -> bool {
        self != Persona::NoInit
    }

    /// Whether its `init` (and a `history` page) lists the turn in flight.
    pub fn lists_in_flight(self) -> bool {
        self != Persona::NoInFlight
    }

    /// Whether it forgets the session on `forget` (protocol 7); the older agents it plays ignore
    /// the frame (R-tolerant).
    pub fn forgets(self) -> bool {
        self == Persona::Full
    }

    /// Whether it titles a session from its first exchange (`title`, protocol 7); the older
    /// agents it plays say nothing, and keep the adapter's title.
    pub fn titles(self) -> bool {
        self == Persona::Full
    }

    /// Whether it keeps every message as a tree (else a list that protocol 4's rule cuts).
    pub fn keeps_tree(self) -> bool {
        self != Persona::Proto4
    }
}

#[cfg(test)]
#[path = "persona_tests.rs"]
mod tests;
