//! The deltas of `/flood` and `/stamp`, made one at a time as the turn reaches them, never held
//! as a list: a turn of a million deltas costs the agent no memory that grows with it.
//!
//! They are sent unlogged and are not applied to the session's snapshot of the turn in flight
//! (see [`super::session`]), for the same reason.

use super::frames::{delta, numbered_delta};
use super::step::{Action, ScriptStep};

/// Milliseconds since the epoch: `Date.now()` in the Worker; the system clock where the pure
/// parts of the demo are compiled natively for `cargo test`.
#[cfg(target_arch = "wasm32")]
fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[cfg(not(target_arch = "wasm32"))]
fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Most deltas `/flood` and `/stamp` send; they are generated lazily, so memory stays flat.
pub const MAX_LAZY_DELTAS: u64 = 1_000_000;
/// Largest `/flood` whose `message.finalize` carries the whole text as `finalText` (as it did
/// when this was its maximum); a larger one sends none rather than a frame of megabytes.
const MAX_FINAL_TEXT_DELTAS: u64 = 100_000;

/// Which deltas a lazy run generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LazyKind {
    /// `/flood`: `w1`, ` w2`, … ([`numbered_delta`]).
    Numbered,
    /// `/stamp`: each delta stamped when sent ([`Action::Stamp`]).
    Stamped,
}

/// The deltas still to come of a `/flood` or `/stamp` turn.
#[derive(Debug)]
pub struct LazyDeltas {
    kind: LazyKind,
    pub turn: String,
    /// The next delta's number, from 1.
    next: u64,
    count: u64,
    interval_ms: u64,
    /// `/flood`'s RATE: delta `i` is due `(i - 1) / RATE` seconds after the first was made
    /// (late timers are caught up on, never exceeded on average).
    per_second: Option<u64>,
    /// When the first delta was made (`Date.now()`), for the rate.
    started_ms: Option<f64>,
}

impl LazyDeltas {
    pub fn new(
        kind: LazyKind,
        turn: &str,
        count: u64,
        interval_ms: u64,
        per_second: Option<u64>,
    ) -> Self {
        LazyDeltas {
            kind,
            turn: turn.to_owned(),
            next: 1,
            count,
            interval_ms,
            per_second,
            started_ms: None,
        }
    }

    /// How long delta `i` waits after the previous step: the interval, or what the rate needs.
    fn wait_ms(&mut self, i: u64) -> u64 {
        let Some(rate) = self.per_second else {
            return self.interval_ms;
        };
        let now = now_ms();
        let started = *self.started_ms.get_or_insert(now);
        let due = started + (i - 1) as f64 * 1000.0 / rate as f64;
        // Timers are whole milliseconds: a delta due within the next one goes now.
        if due > now + 1.0 {
            (due - now).ceil() as u64
        } else {
            0
        }
    }

    /// The next delta's step; `None` once all are made.
    pub fn next_step(&mut self) -> Option<ScriptStep> {
        if self.next > self.count {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let wait_ms = self.wait_ms(i);
        let action = match self.kind {
            LazyKind::Numbered => {
                Action::SendUnlogged(delta(&self.turn, &numbered_delta(i)).to_string())
            }
            LazyKind::Stamped => Action::Stamp(i),
        };
        Some(ScriptStep { wait_ms, action })
    }

    /// The `finalText` of the turn's ending: a `/flood` small enough repeats its text, built
    /// only now, from the numbers.
    pub fn final_text(&self) -> Option<String> {
        (self.kind == LazyKind::Numbered && self.count <= MAX_FINAL_TEXT_DELTAS)
            .then(|| (1..=self.count).map(numbered_delta).collect())
    }
}
