//! The pump's decisions, as plain values the edge feeds with what it saw: when silence is a
//! timeout or a keep-alive, when a body nobody reads means its client is gone, how many bytes
//! wait for a slow client, and when the agent is sent `abort`. The edge (`pump/`) keeps the
//! socket, the body's writer and the clock; every number it reads from them comes here.

use std::collections::VecDeque;

use crate::translator::{EndCause, StreamOutcome};
use crate::v2::OnDisconnect;

/// Ticks without a frame of the turn, against the limit of the turn's phase.
#[derive(Debug, Clone)]
pub struct Silence {
    /// Ticks without a frame of the turn (or, before it starts, since the prompt).
    silent_ticks: u64,
    /// Whether anything was written to the client since the last tick.
    wrote_since_tick: bool,
    /// The limits, in ticks: before the turn's first event, and between its events.
    first_event_ticks: u64,
    idle_ticks: u64,
}

/// What a tick does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tick {
    /// Only counts: something was written since the last tick.
    Quiet,
    /// Nothing was written since the last tick: a keep-alive comment goes out.
    KeepAlive,
    /// The silence reached its limit: the stream ends ([`EndCause::Timeout`]).
    Timeout,
}

impl Silence {
    pub fn new(first_event_ticks: u64, idle_ticks: u64) -> Self {
        Silence {
            silent_ticks: 0,
            wrote_since_tick: false,
            first_event_ticks,
            idle_ticks,
        }
    }

    /// A frame of the turn came: the silence starts over.
    pub fn heard(&mut self) {
        self.silent_ticks = 0;
    }

    /// Bytes went to the client: the next tick needs no keep-alive.
    pub fn wrote(&mut self) {
        self.wrote_since_tick = true;
    }

    /// The silence limit of the turn's phase, in ticks.
    fn limit(&self, turn_started: bool) -> u64 {
        if turn_started {
            self.idle_ticks
        } else {
            self.first_event_ticks
        }
    }

    /// Whether the next tick, if nothing comes before it, would only count: the client has
    /// read (the stall rule is off), something was written since the last tick (no
    /// keep-alive), the turn is not done, and the silence stays under its limit (no timeout).
    /// JavaScript absorbs such ticks, and hands their count over with its next delivery.
    pub fn next_tick_is_quiet(
        &self,
        client_has_read: bool,
        done: bool,
        turn_started: bool,
    ) -> bool {
        client_has_read
            && self.wrote_since_tick
            && !done
            && self.silent_ticks + 1 < self.limit(turn_started)
    }

    /// What every tick counts, and all that a tick [`Silence::next_tick_is_quiet`] allowed
    /// JavaScript to absorb does: [`Silence::tick`] counts through it too, so the two cannot
    /// drift apart.
    pub fn quiet_tick(&mut self) {
        self.silent_ticks += 1;
        self.wrote_since_tick = false;
    }

    /// A tick of the pump's clock.
    pub fn tick(&mut self, turn_started: bool) -> Tick {
        let wrote = self.wrote_since_tick;
        self.quiet_tick();
        if self.silent_ticks >= self.limit(turn_started) {
            Tick::Timeout
        } else if wrote {
            Tick::Quiet
        } else {
            Tick::KeepAlive
        }
    }
}

/// Whether the reader drained anything since the last check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// Something was read, or nothing is waiting.
    Moving,
    /// Chunks are waiting and none was read for this many consecutive checks.
    Stalled(u32),
}

impl Progress {
    /// Whether a body nobody ever read has stalled for `limit` checks: its client counts as
    /// gone (one that left before the response's headers went out leaves this sign only).
    pub fn stalled_out(self, limit: u32) -> bool {
        matches!(self, Progress::Stalled(n) if n >= limit)
    }
}

/// What the pump knows of the body's reader, from the writer's `desiredSize`. The queue is
/// counted in chunks (the writable side's default strategy): `desiredSize` falls by one per
/// write and rises by one per chunk the reader takes, so the chunks read since the last check
/// are the writes since then plus the rise of `desiredSize`.
#[derive(Debug, Clone)]
pub struct ReaderWatch {
    /// Writes since the last progress check.
    writes_since_check: u64,
    /// `desiredSize` at the last progress check.
    last_desired_size: f64,
    /// Consecutive progress checks that found queued chunks and none of them read.
    stalled_checks: u32,
    /// Whether the reader ever took a chunk: the stall rule applies only until it has.
    read_any: bool,
    /// The sizes of the newest chunks written, newest last: the chunks still queued are the
    /// newest ones, so their bytes are the last sizes here.
    sizes: VecDeque<usize>,
    /// The sum of `sizes`, kept as they change: it is read after every write.
    sizes_total: usize,
}

impl ReaderWatch {
    /// A body whose `desiredSize` is `desired_size` when it opens.
    pub fn new(desired_size: f64) -> Self {
        ReaderWatch {
            writes_since_check: 0,
            last_desired_size: desired_size,
            stalled_checks: 0,
            read_any: false,
            sizes: VecDeque::new(),
            sizes_total: 0,
        }
    }

    /// A chunk of `len` bytes was written.
    pub fn wrote(&mut self, len: usize) {
        self.sizes.push_back(len);
        self.sizes_total += len;
        self.writes_since_check += 1;
    }

    /// Compares the queue with the last check; `desired` reads `desiredSize` now (`None`: the
    /// stream errored or closed, which the wiring reports), only while the rule applies: each
    /// read is a call into the runtime.
    pub fn check(&mut self, desired: impl FnOnce() -> Option<f64>) -> Progress {
        if self.read_any {
            // The rule no longer applies.
            return Progress::Moving;
        }
        let Some(desired) = desired() else {
            return Progress::Moving;
        };
        let read = self.writes_since_check as f64 + (desired - self.last_desired_size);
        self.writes_since_check = 0;
        self.last_desired_size = desired;
        // Waiting: chunks the body holds beyond its one-chunk buffer.
        let waiting = desired < 0.0;
        self.read_any |= read > 0.0;
        if read <= 0.0 && waiting && !self.read_any {
            self.stalled_checks += 1;
            Progress::Stalled(self.stalled_checks)
        } else {
            self.stalled_checks = 0;
            Progress::Moving
        }
    }

    /// Whether the reader took a chunk, as of the last check.
    pub fn has_read(&self) -> bool {
        self.read_any
    }

    /// The bytes written that the reader has not taken yet, `desired` being `desiredSize` now.
    /// The body's queue counts chunks (`desiredSize` is 1, its high-water mark, less the chunks
    /// queued), and one more may sit in the transform on its way to the reader.
    pub fn queued_bytes(&mut self, desired: Option<f64>) -> usize {
        let queued_chunks = match desired {
            Some(desired) => (2.0 - desired).max(0.0) as usize,
            None => 0,
        };
        while self.sizes.len() > queued_chunks {
            self.sizes_total -= self.sizes.pop_front().unwrap_or(0);
        }
        self.sizes_total
    }
}

/// When the pump sends the agent `abort`: at most once, and only for a stream whose request
/// owns the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AbortRule {
    /// Abort when the client goes away (a POST in abort mode); not when detached, nor for a
    /// resumed stream, which only watches the turn.
    pub on_client_gone: bool,
    /// Abort when the agent fails the turn as the client sees it: silent past a timeout, or a
    /// frame over the size limit.
    pub on_agent_fault: bool,
    /// The abort's `requestId`: the prompt's, or none for the turn in flight (an answer's
    /// stream continues a turn another request started).
    pub request_id: Option<String>,
}

impl AbortRule {
    /// A resumed stream: it never stops the turn it watches.
    pub fn never() -> Self {
        AbortRule {
            on_client_gone: false,
            on_agent_fault: false,
            request_id: None,
        }
    }

    /// A chat request's stream, which owns its turn: `abort` when the agent fails it, and when
    /// the client goes away unless it detached (`onDisconnect`). `request_id`: the prompt's, or
    /// `None` for an answer's stream (the turn in flight, which another request started).
    pub fn owning(on_disconnect: OnDisconnect, request_id: Option<String>) -> Self {
        AbortRule {
            on_client_gone: on_disconnect == OnDisconnect::Abort,
            on_agent_fault: true,
            request_id,
        }
    }

    /// Whether a stream that ends for `cause` sends the agent `abort`: a client gone (or too
    /// slow to keep) under `on_client_gone`; the agent silent or over the frame limit under
    /// `on_agent_fault`; never when the socket is gone (nobody to tell), the instance lost (no
    /// code left to send it) or the session forgotten (the agent ends its turn itself).
    pub fn aborts_on(&self, cause: EndCause) -> bool {
        match cause {
            EndCause::ClientGone | EndCause::SlowClient => self.on_client_gone,
            EndCause::Timeout | EndCause::FrameTooLarge => self.on_agent_fault,
            EndCause::SocketClosed | EndCause::Crashed | EndCause::Forgotten => false,
        }
    }
}

/// The request log's `outcome` of a stream that ended `outcome`: a client gone with no `abort`
/// sent is `detached` (the turn runs on without it, or it was a resume).
pub fn log_outcome(outcome: Option<StreamOutcome>, abort_sent: bool) -> &'static str {
    match outcome {
        Some(StreamOutcome::Cut(EndCause::ClientGone)) if !abort_sent => "detached",
        outcome => outcome.map_or("unknown", StreamOutcome::label),
    }
}

#[cfg(test)]
#[path = "pacing_tests.rs"]
mod tests;
