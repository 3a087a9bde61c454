//! The pump's state machine: each delivery of the wiring (a burst of frames, a tick, the end of
//! the socket or of the client) is translated at once, and what it made is written as one chunk.
//!
//! Ordering rules:
//! * the opening padding goes first where the operator asks for it (`STREAM_PADDING`), then the
//!   bytes the stream holds before any frame (a replay, an answer's `start`), then
//!   the frame read early, then the socket events queued before the wiring, then the wiring's;
//! * once the turn is done, nothing more is read: the wiring is stopped, one `abort` is sent
//!   when the [`AbortRule`] says so, the socket is closed with 1000, the body is closed, the
//!   agent's title of the session (if it gave one) is told to the caller's list, the log line is
//!   written, in that order and exactly once;
//! * each write carries the ending a crash would need at that point ([`EndCause::Crashed`]) when
//!   it changed, for `wiring.js` to send should the engine be lost before the turn is done;
//!   before the turn opens, that ending is every stream's, which `wiring.js` gets once for all
//!   ([`unopened_crash_ending`]);
//! * the agent's socket is pinged after `LIVENESS_PING_MS` of silence, counted in ticks (the
//!   core's `liveness`): a socket that answered a pong and then sent nothing for a whole period
//!   after a ping ends the stream as a lost socket ([`EndCause::SocketClosed`]); a tick that
//!   checks it is never quiet.

use std::cell::Cell;

use js_sys::Function;
use worker::WebSocket;

use crate::platform::log;

use super::client::ClientStream;
use super::rules::{AbortRule, PumpLimits, STALL_TICKS};
use super::wiring::{self, Event, Receiver, RECORD_SEPARATOR};
use crate::delivery::{Delivery, Next};
use crate::exchange::Exchange;
use crate::liveness::{Check, Liveness};
use crate::pacing::{log_outcome, Silence, Tick};
use crate::platform::socket::{close_done, SocketEvent};
use crate::pump::titles::Titles;
use crate::sse::{write_padding, KEEP_ALIVE};
use crate::turn_stream::{EndCause, FrameOutcome, TurnStream};
use crate::v2::{abort_frame, PING};

/// The delivery buffer's first capacity: a stream's opening (`start` with its metadata,
/// `start-step`, ~150 bytes) and a burst of some fifty small deltas (~75 bytes each) fit without
/// growing it; it is kept, cleared, between deliveries, and grows once for a larger burst.
const OUT_CAPACITY: usize = 4096;

/// What lives until the stream is closed.
struct Open {
    client: ClientStream,
    /// Writes the request's log line when the stream is closed.
    exchange: Exchange,
}

/// One stream's state between deliveries.
pub(crate) struct Engine {
    socket: WebSocket,
    /// `None` once closed.
    open: Option<Open>,
    turn: TurnStream,
    abort: AbortRule,
    limits: PumpLimits,
    /// The bytes of the delivery being handled.
    out: Vec<u8>,
    /// The stream's ending should this engine be lost ([`TurnStream::fault_ending`]), as last
    /// made.
    crash_ending: Vec<u8>,
    /// The turn's silence, counted in ticks, and whether anything was written since the last.
    silence: Silence,
    send_abort: bool,
    /// The agent's socket's liveness, in ticks since the stream began ([`Engine::ticks`]).
    liveness: Liveness,
    /// Ticks since the stream began, quiet ones included.
    ticks: u64,
    /// Stops the wiring (which settles the promise the request waits for).
    stop_wiring: Option<Function>,
    /// Where the agent's title goes at the end, if it gave one.
    titles: Option<Titles>,
}

impl Engine {
    pub(crate) fn new(
        socket: WebSocket,
        client: ClientStream,
        turn: TurnStream,
        abort: AbortRule,
        limits: PumpLimits,
        exchange: Exchange,
        titles: Option<Titles>,
    ) -> Self {
        Engine {
            socket,
            open: Some(Open { client, exchange }),
            turn,
            abort,
            silence: Silence::new(limits.first_event_ticks, limits.idle_ticks),
            liveness: Liveness::new(limits.ping_ticks, 0),
            ticks: 0,
            limits,
            out: Vec::with_capacity(OUT_CAPACITY),
            crash_ending: Vec::new(),
            send_abort: false,
            stop_wiring: None,
            titles,
        }
    }

    /// Whether the stream has ended and been closed.
    pub(crate) fn is_over(&self) -> bool {
        self.open.is_none()
    }

    /// Writes the opening padding where the operator asks for it, what the stream holds, the
    /// early frame and the queued socket events.
    pub(crate) fn begin(&mut self, early_frame: Option<String>, backlog: Vec<SocketEvent>) {
        write_padding(&mut self.out, self.limits.padding);
        self.turn.write_pending(&mut self.out);
        if let Some(text) = early_frame {
            self.read_frame(&text);
        }
        for event in backlog {
            if self.turn.is_done() {
                break;
            }
            match event {
                SocketEvent::Text(text) => self.read_frame(&text),
                SocketEvent::Binary => self.apply(Event::BinaryFrame),
                SocketEvent::Closed { code, .. } => self.apply(Event::SocketClosed(code)),
                SocketEvent::Failed => self.apply(Event::SocketFailed),
            }
        }
        self.emit();
    }

    /// Hands over what stops the wiring; used at the stream's end.
    pub(crate) fn on_end(&mut self, stopper: Function) {
        self.stop_wiring = Some(stopper);
    }

    /// One text frame: translated into `out`, or the stream ended if it is too large.
    fn read_frame(&mut self, text: &str) {
        self.read_with(text, TurnStream::push_frame);
    }

    /// [`Engine::read_frame`], pushing the frame with `push`: [`TurnStream::push_frame`], or
    /// [`TurnStream::push_unmatched`] for a frame a delivery already found no delta.
    fn read_with(&mut self, text: &str, push: Push) {
        let Some(open) = self.open.as_mut() else {
            return;
        };
        self.liveness.heard(text.as_bytes(), self.ticks);
        if Liveness::is_pong(text.as_bytes()) {
            return;
        }
        match handle_text(
            &mut self.turn,
            text,
            push,
            &self.limits,
            &mut open.exchange,
            &mut self.out,
        ) {
            Read::Ours => self.silence.heard(),
            Read::Other => {}
            Read::TooLarge => self.end(EndCause::FrameTooLarge),
        }
    }

    /// Any event but a frame.
    fn apply(&mut self, event: Event) {
        match event {
            Event::ClientGone(how) => {
                let how = format!("{how:?}");
                log::info("client_gone", Some(self.request_id()), &how);
                // The ending still goes out: on a workerd that keeps the stream open after the
                // signal, a client that is somehow still reading gets a valid end.
                self.end(EndCause::ClientGone);
            }
            Event::Tick => self.tick(),
            Event::BinaryFrame => self.skipped("a binary frame"),
            Event::UnsplittableFrame => self.skipped("a frame holding a raw U+001E (not JSON)"),
            Event::SocketClosed(_) | Event::SocketFailed => self.end(EndCause::SocketClosed),
        }
    }

    /// Whether the next tick, if nothing comes before it, would only count
    /// ([`Silence::next_tick_is_quiet`]): JavaScript may then absorb it.
    fn next_tick_is_quiet(&self) -> bool {
        let reading = self
            .open
            .as_ref()
            .is_some_and(|open| open.client.has_read());
        let (done, started) = (self.turn.is_done(), self.turn.turn_started());
        !self.liveness.due(self.ticks + 1)
            && self.silence.next_tick_is_quiet(reading, done, started)
    }

    fn tick(&mut self) {
        self.ticks += 1;
        match self.liveness.check(self.ticks) {
            Check::Quiet => {}
            Check::Ping => {
                // A send that fails finds a closed socket, whose close event comes next.
                let _ = self.socket.send_with_str(PING);
            }
            Check::Dead => {
                log::warn(
                    "agent_silent",
                    Some(self.request_id()),
                    "the agent's socket answered no ping for a whole period: ending the stream",
                );
                self.end(EndCause::SocketClosed);
                return;
            }
        }
        let stalled = self.open.as_mut().map(|open| open.client.check_progress());
        if stalled.is_some_and(|progress| progress.stalled_out(STALL_TICKS)) {
            let request_id = self.request_id();
            log::warn(
                "nobody_reads",
                Some(request_id),
                "nobody reads the response: client gone",
            );
            self.end(EndCause::ClientGone);
            return;
        }
        match self.silence.tick(self.turn.turn_started()) {
            Tick::Timeout => self.end(EndCause::Timeout),
            Tick::KeepAlive => self.out.extend_from_slice(KEEP_ALIVE),
            Tick::Quiet => {}
        }
    }

    fn skipped(&mut self, what: &str) {
        if let Some(Open { exchange, .. }) = self.open.as_mut() {
            exchange.log.skipped_frames += 1;
            log::warn("skipped", Some(exchange.request_id()), what);
        }
    }

    /// Ends the stream in-band for `cause` (once), remembering whether to send `abort`
    /// ([`AbortRule::aborts_on`]).
    fn end(&mut self, cause: EndCause) {
        if !self.turn.is_done() {
            self.turn.end(cause, &mut self.out);
            self.send_abort = self.abort.aborts_on(cause);
        }
    }

    /// Writes what the delivery made as one chunk, with the ending a crash would need now when
    /// it changed (a part or a tool opened or closed: never for a delta alone), bounds what waits
    /// for the client, and closes everything once the turn is done.
    fn emit(&mut self) {
        let Some(Open { client, exchange }) = self.open.as_mut() else {
            return;
        };
        let crash_ending = self.turn.crash_ending_update(&mut self.crash_ending);
        if self.out.is_empty() {
            if let Some(ending) = crash_ending {
                // A frame that moved the ending with no byte to show (a call's args before its
                // input): handed over alone.
                client.keep_crash_ending(ending);
            }
        } else {
            client.write(&self.out, crash_ending);
            exchange.log.bytes += self.out.len() as u64;
            self.out.clear();
            self.silence.wrote();
            if !self.turn.is_done() && client.queued_bytes() > self.limits.max_buffered_bytes {
                log::warn(
                    "slow_client",
                    Some(self.request_id()),
                    "the client reads too slowly: ending",
                );
                self.end(EndCause::SlowClient);
                return self.emit();
            }
        }
        if self.turn.is_done() {
            self.close();
        }
    }

    /// The end of the stream: exactly once, after its last bytes are written.
    fn close(&mut self) {
        let Some(Open {
            client,
            mut exchange,
        }) = self.open.take()
        else {
            return;
        };
        if let Some(stopper) = self.stop_wiring.take() {
            wiring::stop(&stopper);
        }
        let request_id = exchange.request_id().to_owned();
        if self.send_abort {
            let frame = abort_frame(self.abort.request_id.as_deref());
            if let Err(err) = self.socket.send_with_str(frame) {
                log::warn("abort_not_sent", Some(&request_id), &err.to_string());
            }
        }
        // After the agent closed the socket this completes the closing handshake; an error
        // means it is already done.
        close_done(&self.socket);
        client.finish();
        if let (Some(titles), Some(title)) = (self.titles.take(), self.turn.agent_title()) {
            titles.tell(title, &request_id);
        }
        exchange.log.chunks = self.turn.chunks_emitted();
        exchange.log.outcome = log_outcome(self.turn.outcome(), self.send_abort).to_owned();
        exchange.finish(Some((&self.turn, self.send_abort)));
    }

    fn request_id(&self) -> &str {
        self.open
            .as_ref()
            .map_or("?", |open| open.exchange.request_id())
    }
}

impl Receiver for Engine {
    fn frames(&mut self, bytes: &[u8]) {
        let mut delivery = Delivery::new(bytes, RECORD_SEPARATOR, self.limits.max_frame_bytes);
        while !self.turn.is_done() {
            match delivery.next(&mut self.turn, &mut self.out) {
                None => break,
                Some(Next::Streamed) => {
                    self.silence.heard();
                    self.liveness.heard(b"", self.ticks);
                }
                // TextEncoder's output is UTF-8 (it replaces a lone surrogate): a frame that is
                // not would come from a broken runtime, and is skipped like any unreadable one.
                Some(Next::Frame(frame)) => match std::str::from_utf8(frame) {
                    Ok(text) => self.read_with(text, TurnStream::push_unmatched),
                    Err(_) => self.skipped("a frame that is not UTF-8"),
                },
            }
        }
        self.emit();
    }

    fn event(&mut self, event: Event) {
        if !self.turn.is_done() {
            self.apply(event);
        }
        self.emit();
    }

    fn absorb_ticks(&mut self, count: u32) {
        self.ticks += u64::from(count);
        for _ in 0..count {
            self.silence.quiet_tick();
        }
    }

    fn next_tick_is_quiet(&self) -> bool {
        Engine::next_tick_is_quiet(self)
    }

    fn is_over(&self) -> bool {
        Engine::is_over(self)
    }
}

thread_local! {
    /// Whether this isolate's `wiring.js` holds [`unopened_crash_ending`]'s bytes. (A new
    /// WebAssembly instance, after a panic, starts at `false` and hands them over again.)
    static UNOPENED_CRASH_ENDING_HANDED: Cell<bool> = const { Cell::new(false) };
}

/// The crash ending of every stream whose turn has not opened yet
/// ([`TurnStream::unopened_fault_ending`]), the first time it is asked for in this instance,
/// for the wiring to hand `wiring.js` once for all; then `None`. Made per stream instead, it
/// would cost every POST its making and one more copy into JavaScript, for bytes that never
/// change.
pub(super) fn unopened_crash_ending() -> Option<Vec<u8>> {
    if UNOPENED_CRASH_ENDING_HANDED.replace(true) {
        return None;
    }
    let mut ending = Vec::new();
    TurnStream::unopened_fault_ending(EndCause::Crashed, &mut ending);
    Some(ending)
}

/// What one text frame was to the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Read {
    /// A frame of the turn: it restarts the silence clock.
    Ours,
    /// Another turn's frame, a domain event, a malformed frame: the clock runs on.
    Other,
    /// Over the size limit, not read: the stream must end, or the client would see a turn with
    /// a hole in it (a lost delta, or a lost finalize and a wait for the idle timeout).
    TooLarge,
}

/// Hands one text frame to the translator, appending what it writes to `out`.
/// How a frame is pushed into the stream.
type Push = fn(&mut TurnStream, &str, &mut Vec<u8>) -> FrameOutcome;

fn handle_text(
    turn: &mut TurnStream,
    text: &str,
    push: Push,
    limits: &PumpLimits,
    exchange: &mut Exchange,
    out: &mut Vec<u8>,
) -> Read {
    if text.len() > limits.max_frame_bytes {
        exchange.log.skipped_frames += 1;
        let why = format!(
            "a frame of {} bytes is over the limit ({}): ending the stream",
            text.len(),
            limits.max_frame_bytes
        );
        log::warn("frame_too_large", Some(exchange.request_id()), &why);
        return Read::TooLarge;
    }
    match push(turn, text, out) {
        FrameOutcome::Malformed(why) => {
            exchange.log.skipped_frames += 1;
            // The parser's words may quote the agent's text: the line escapes and cuts them.
            log::warn(
                "frame_skipped",
                Some(exchange.request_id()),
                &why.to_string(),
            );
            Read::Other
        }
        FrameOutcome::Forwarded | FrameOutcome::Ended => Read::Ours,
        FrameOutcome::Ignored => Read::Other,
    }
}
