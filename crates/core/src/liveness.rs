//! Whether a socket to the agent still delivers: the adapter's ping, the agent's pong
//! (`docs/agent-protocol.md`, R-pong), and the rule that finds a socket that stopped answering.
//!
//! A socket can die with no close frame (a lost instance, a connection that stops forwarding):
//! nothing then tells the adapter, and a feed or a turn would wait on it for good. So a socket
//! that has sent nothing for a period (`LIVENESS_PING_MS`) is sent [`crate::v2::PING`]; the agent
//! answers [`PONG`], exactly those bytes (the runtime's WebSocket auto-response does it without
//! waking a hibernated object). Any frame proves the socket delivers, a pong or another, and
//! starts the period again: a socket that streams is never pinged.
//!
//! The rule, for agents written before it: a socket is held to it only once it has answered a
//! pong. Until then a ping that goes a whole period unanswered tells that the agent does not
//! answer pings, and it is pinged no more (one ping a socket is all it costs an older agent);
//! a pong that comes later starts the checks. A socket that answered a pong and then sends
//! nothing for a whole period after a ping is dead: found two periods after its last frame.
//!
//! Time is the caller's unit: milliseconds for a feed, the pump's ticks for a turn.

use crate::v2::PONG;

/// How often a socket to the agent is pinged, in ms (`LIVENESS_PING_MS`): 30 s, six periods of a
/// session feed's keep-alive (`crate::feed::KEEP_ALIVE_MS`, 5 s), so that a feed's ping rides on
/// a wake-up its keep-alive costs already; two periods, 60 s, bound the time to find a dead
/// socket (the bound), and a socket costs its agent one auto-answered frame in 30 s.
pub const DEFAULT_PING_MS: u64 = 30_000;

/// The shortest ping period a setting may ask for, in ms: 100 ms, under which a socket would be
/// pinged faster than a pump's clock ticks (125 ms) and a pong could not come back in time from
/// a busy object; only tests want a period this short.
pub const MIN_PING_MS: u64 = 100;

/// The longest ping period a setting may ask for, in ms: 60 s. A dead socket is found within two
/// periods, and a longer one would leave a feed silent past two minutes, longer than the
/// proxies a feed crosses wait (60 to 100 s).
pub const MAX_PING_MS: u64 = 60_000;

/// What a check asks of the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Nothing now.
    Quiet,
    /// Send [`crate::v2::PING`] on the socket.
    Ping,
    /// The socket answered a pong once and has sent nothing for a whole period since a ping:
    /// it is dead (close it, end what it serves).
    Dead,
}

/// One socket's liveness.
#[derive(Debug, Clone)]
pub struct Liveness {
    period: u64,
    /// When the next check is due: a period after the last frame, or after the last check.
    next_at: u64,
    /// A ping went out at the last check, and nothing came since.
    pinged: bool,
    /// The socket answered a pong, once: it is held to the rule.
    answered: bool,
    /// A ping went unanswered before any was answered: not pinged again until a pong comes.
    given_up: bool,
}

impl Liveness {
    /// A socket that last sent a frame at `now` (its `init`, or the upgrade): first checked one
    /// `period` later.
    pub fn new(period: u64, now: u64) -> Self {
        let period = period.max(1);
        Liveness {
            period,
            next_at: now.saturating_add(period),
            pinged: false,
            answered: false,
            given_up: false,
        }
    }

    /// A text frame came on the socket at `now`: a pong, or any other. The socket delivers: the
    /// next check is a period from now.
    pub fn heard(&mut self, text: &[u8], now: u64) {
        self.pinged = false;
        self.next_at = now.saturating_add(self.period);
        if Self::is_pong(text) {
            self.answered = true;
            self.given_up = false;
        }
    }

    /// Whether `frame` is the pong (a frame the caller need read no further).
    pub fn is_pong(frame: &[u8]) -> bool {
        frame == PONG.as_bytes()
    }

    /// Whether the check at `now` may do something: the caller must call [`Liveness::check`]
    /// then (a pump that skips quiet ticks asks this of the next one).
    pub fn due(&self, now: u64) -> bool {
        now >= self.next_at
    }

    /// When the next check is due.
    pub fn next_at(&self) -> u64 {
        self.next_at
    }

    /// The check at `now`.
    pub fn check(&mut self, now: u64) -> Check {
        if !self.due(now) {
            return Check::Quiet;
        }
        self.next_at = now.saturating_add(self.period);
        if self.pinged {
            if self.answered {
                return Check::Dead;
            }
            // The agent keeps no R-pong: it costs it no more pings.
            self.pinged = false;
            self.given_up = true;
            return Check::Quiet;
        }
        if self.given_up {
            return Check::Quiet;
        }
        self.pinged = true;
        Check::Ping
    }
}

#[cfg(test)]
#[path = "liveness_tests.rs"]
mod tests;
