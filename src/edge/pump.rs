//! The pump of one streamed answer (a chat POST, or a resume GET): agent frames in, SSE bytes
//! out, as each message arrives.
//!
//! It runs after the handler answered `200`, until exactly one of these happens:
//! * the turn ends (its finalize, `complete`, or a question that waits for the user): close
//!   the socket with 1000, close the body;
//! * the agent's socket closes or fails: end the stream in-band (the translator's ending for a
//!   lost socket), close the body;
//! * the agent stays silent past a timeout (no `message.create` within the first-event timeout,
//!   or no frame of the turn within the idle timeout: other turns' frames and domain events do
//!   not count), or sends a frame over the size limit: end the stream in-band, send one `abort`
//!   when the [`AbortRule`] says so, close;
//! * the client goes away (signal, failed write, cancelled body, or a body nobody ever read),
//!   or reads so slowly that more than `MAX_BUFFERED_BYTES` wait for it (the stream then ends
//!   in-band: `error` "the client is reading too slowly", `finish`): send one `abort` when the
//!   [`AbortRule`] says so (the POST that started the turn, not detached), close the socket with
//!   1000, close the body.
//!
//! Time is kept by one ticking timer ([`TICK_MS`]), not by a timer per frame: a frame costs no
//! timer, and each tick decides on keep-alives and timeouts.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use futures::future::poll_fn;
use futures::StreamExt;
use worker::{console_log, console_warn, Delay, WebSocket};

use super::client::{ClientStream, Gone, Progress};
use super::exchange::Exchange;
use super::socket::{SocketEvent, SocketEvents};
use super::stream::NORMAL_CLOSURE;
use crate::config::Config;
use crate::sse::KEEP_ALIVE;
use crate::turn_stream::{EndCause, FrameOutcome, TurnStream};
use crate::v2::abort_frame;

/// The pump's clock period.
///
/// workerd notices a vanished client only on a write, and the first write after a disconnect may
/// still succeed (it lands in the socket buffer); the next one fails. A keep-alive comment goes
/// out on a tick when nothing was written since the tick before, so during silence one is
/// written every two ticks (250 ms): two of them plus the trip of the `abort` to the agent stay
/// inside the 1 s in which a disconnect must reach the agent. Idle cost: 240 comments of 14
/// bytes (`: keep-alive\n\n`) a minute, 3,360 bytes per idle minute (plus about 5 bytes of
/// HTTP/1.1 chunk framing each). Far below any proxy's idle limit (Cloudflare's is 100 s).
pub(crate) const TICK_MS: u64 = 125;

/// Ticks (2 s) a body may go entirely unread, with chunks waiting, before its client counts
/// as gone. A client that disconnected before the headers went out leaves exactly this sign
/// and no other (see [`ClientStream::check_progress`]). A live client drains its body as fast
/// as the network takes it, and kernel socket buffers hold hundreds of kilobytes, far more than
/// a chat turn writes in 2 s: only a client that stopped reading long ago stalls that long.
const STALL_TICKS: u32 = 16;

/// The limits a pump enforces, from the worker's config.
pub(crate) struct PumpLimits {
    max_frame_bytes: usize,
    max_buffered_bytes: usize,
    first_event_ticks: u64,
    idle_ticks: u64,
}

impl From<&Config> for PumpLimits {
    fn from(config: &Config) -> Self {
        PumpLimits {
            max_frame_bytes: config.max_frame_bytes,
            max_buffered_bytes: config.max_buffered_bytes,
            first_event_ticks: config.first_event_timeout_ms.div_ceil(TICK_MS),
            idle_ticks: config.idle_timeout_ms.div_ceil(TICK_MS),
        }
    }
}

/// When the pump sends the agent `abort`: at most once, and only for a stream whose request
/// owns the turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AbortRule {
    /// Abort when the client goes away (a POST in abort mode); not when detached, nor for a
    /// resumed stream, which only watches the turn.
    pub(crate) on_client_gone: bool,
    /// Abort when the agent fails the turn as the client sees it: silent past a timeout, or a
    /// frame over the size limit.
    pub(crate) on_agent_fault: bool,
    /// The abort's `requestId`: the prompt's, or none for the turn in flight (an answer's
    /// stream continues a turn another request started).
    pub(crate) request_id: Option<String>,
}

impl AbortRule {
    /// A resumed stream: it never stops the turn it watches.
    pub(crate) fn never() -> Self {
        AbortRule {
            on_client_gone: false,
            on_agent_fault: false,
            request_id: None,
        }
    }
}

/// Everything one stream's pump owns.
pub(crate) struct Pump {
    pub(crate) socket: WebSocket,
    pub(crate) events: SocketEvents,
    pub(crate) client: ClientStream,
    /// The stream; what it made before any frame (a resume's replay, an answer's `start`) is
    /// written first.
    pub(crate) turn: TurnStream,
    /// A frame read before the pump ran (the first turn event of an agent without `init`),
    /// handled before any other.
    pub(crate) early_frame: Option<String>,
    pub(crate) abort: AbortRule,
    pub(crate) limits: PumpLimits,
    pub(crate) exchange: Exchange,
}

enum Wake {
    Gone(Gone),
    /// More than the buffer's bound waits for the client.
    TooSlow,
    Socket(Option<SocketEvent>),
    Tick,
}

fn tick() -> Pin<Box<Delay>> {
    Box::pin(Delay::from(Duration::from_millis(TICK_MS)))
}

impl Pump {
    /// Runs until the turn ends, the agent's socket closes or times out, or the client leaves.
    pub(crate) async fn run(self) {
        let Pump {
            socket,
            mut events,
            mut client,
            mut turn,
            early_frame,
            abort,
            limits,
            mut exchange,
        } = self;
        let request_id = exchange.request_id().to_owned();
        let mut out = Vec::new();
        turn.write_pending(&mut out);
        // Ticks without a frame of the turn (or, before it starts, since the prompt).
        let mut silent_ticks = 0u64;
        let mut send_abort = false;
        if let Some(text) = early_frame {
            if handle_text(&mut turn, &text, &limits, &mut exchange, &mut out) == Read::TooLarge {
                turn.end(EndCause::FrameTooLarge, &mut out);
                send_abort = abort.on_agent_fault;
            }
        }
        if !out.is_empty() {
            exchange.log.bytes += out.len() as u64;
            client.queue(&out);
            client.flush();
        }
        let mut clock = tick();
        // Armed when the first bytes of a chunk are queued: writes the chunk once the event
        // loop has run every task already waiting (0 ms), so a burst of frames is one write.
        let mut flush_timer: Option<Pin<Box<Delay>>> = None;
        let mut wrote_since_tick = false;
        while !turn.is_done() {
            let wake = poll_fn(|cx| {
                // The client first: once it is gone nothing else matters.
                if let Poll::Ready(how) = client.poll_gone(cx) {
                    return Poll::Ready(Wake::Gone(how));
                }
                if let Some(timer) = flush_timer.as_mut() {
                    if timer.as_mut().poll(cx).is_ready() {
                        flush_timer = None;
                        client.flush();
                        if client.queued_bytes() > limits.max_buffered_bytes {
                            return Poll::Ready(Wake::TooSlow);
                        }
                    }
                }
                if let Poll::Ready(event) = events.poll_next_unpin(cx) {
                    return Poll::Ready(Wake::Socket(event));
                }
                if clock.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Wake::Tick);
                }
                Poll::Pending
            })
            .await;
            out.clear();
            match wake {
                Wake::Gone(how) => {
                    console_log!("request {request_id}: client gone ({how:?})");
                    // The ending still goes out: on a workerd that keeps the stream open after
                    // the signal, a client that is somehow still reading gets a valid end.
                    turn.end(EndCause::ClientGone, &mut out);
                    send_abort = abort.on_client_gone;
                }
                Wake::TooSlow => {
                    console_warn!("request {request_id}: the client reads too slowly: ending");
                    turn.end(EndCause::SlowClient, &mut out);
                    send_abort = abort.on_client_gone;
                }
                Wake::Tick if matches!(client.check_progress(), Progress::Stalled(n) if n >= STALL_TICKS) =>
                {
                    console_warn!("request {request_id}: nobody reads the response: client gone");
                    turn.end(EndCause::ClientGone, &mut out);
                    send_abort = abort.on_client_gone;
                }
                Wake::Tick => {
                    clock = tick();
                    silent_ticks += 1;
                    let limit = if turn.turn_started() {
                        limits.idle_ticks
                    } else {
                        limits.first_event_ticks
                    };
                    if silent_ticks >= limit {
                        turn.end(EndCause::Timeout, &mut out);
                        send_abort = abort.on_agent_fault;
                    } else if !wrote_since_tick {
                        out.extend_from_slice(KEEP_ALIVE);
                    }
                    wrote_since_tick = false;
                }
                Wake::Socket(Some(SocketEvent::Text(text))) => {
                    match handle_text(&mut turn, &text, &limits, &mut exchange, &mut out) {
                        Read::Ours => silent_ticks = 0,
                        Read::Other => {}
                        Read::TooLarge => {
                            turn.end(EndCause::FrameTooLarge, &mut out);
                            send_abort = abort.on_agent_fault;
                        }
                    }
                }
                Wake::Socket(Some(SocketEvent::Binary)) => {
                    exchange.log.skipped_frames += 1;
                    console_warn!("request {request_id}: skipped a binary frame");
                }
                Wake::Socket(Some(SocketEvent::Closed { .. } | SocketEvent::Failed) | None) => {
                    turn.end(EndCause::SocketClosed, &mut out);
                }
            }
            if !out.is_empty() {
                if client.queue(&out) {
                    flush_timer = Some(Box::pin(Delay::from(Duration::ZERO)));
                }
                exchange.log.bytes += out.len() as u64;
                wrote_since_tick = true;
            }
        }
        if send_abort {
            // Exactly one abort: the loop is over.
            let frame = abort_frame(abort.request_id.as_deref());
            if let Err(err) = socket.send_with_str(frame) {
                console_warn!("request {request_id}: abort not sent: {err}");
            }
        }
        // Every ending: close the socket normally (after the agent closed it, this completes
        // the closing handshake; an error means it is already done), then close the body.
        let _ = socket.close(Some(NORMAL_CLOSURE), Some("done"));
        client.finish();
        exchange.log.chunks = turn.chunks_emitted();
        exchange.log.outcome = match turn.outcome() {
            // Detached, or a resumed stream: the turn runs on without this client.
            Some(gone) if gone == EndCause::ClientGone.label() && !send_abort => "detached",
            outcome => outcome.unwrap_or("unknown"),
        }
        .to_owned();
        exchange.finish();
    }
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
fn handle_text(
    turn: &mut TurnStream,
    text: &str,
    limits: &PumpLimits,
    exchange: &mut Exchange,
    out: &mut Vec<u8>,
) -> Read {
    if text.len() > limits.max_frame_bytes {
        exchange.log.skipped_frames += 1;
        console_warn!(
            "request {}: a frame of {} bytes is over the limit ({}): ending the stream",
            exchange.request_id(),
            text.len(),
            limits.max_frame_bytes
        );
        return Read::TooLarge;
    }
    match turn.push_frame(text, out) {
        FrameOutcome::Malformed(why) => {
            exchange.log.skipped_frames += 1;
            console_warn!("request {}: skipped a frame: {why}", exchange.request_id());
            Read::Other
        }
        FrameOutcome::Forwarded | FrameOutcome::Ended => Read::Ours,
        FrameOutcome::Ignored => Read::Other,
    }
}
