//! The pump of one streamed answer (a chat POST, or a resume GET): agent frames in, SSE bytes
//! out, as each burst of messages arrives.
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
//! No task is woken per frame. JavaScript ([`wiring`]) delivers the frames of one turn of the
//! event loop in one call, and each other event (a tick, the socket's end, the client's) as it
//! happens; the [`Engine`](engine::Engine) translates them synchronously and writes what they made
//! as one chunk. Time is kept by one ticking timer ([`TICK_MS`]): a frame costs no timer, and
//! each tick decides on keep-alives and timeouts. A tick that would only count (the client has
//! read, something was written since the tick before, no timeout is near) is not delivered at
//! all: the engine says so after each delivery, JavaScript counts the tick, and the next
//! delivery applies it first. While frames come faster than ticks, most ticks cost no call into
//! WebAssembly (at a thousand streams at once, each lives for seconds: dozens of ticks).
//!
//! The pump has no task: the callbacks own the engine, and the request waits (`waitUntil`) for
//! the promise the wiring settles when the engine stops it.

pub(crate) mod client;
mod engine;
mod wiring;

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Promise;
use web_sys::AbortSignal;
use worker::WebSocket;

use self::engine::Engine;
use self::wiring::Wiring;
use super::exchange::Exchange;
use crate::config::Config;
use crate::platform::socket::SocketEvents;
use crate::turn_stream::TurnStream;
use client::ClientStream;

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
    /// The socket's events so far, if anything listened before the pump: it takes over what
    /// they queued.
    pub(crate) events: Option<SocketEvents>,
    pub(crate) client: ClientStream,
    /// The request's `signal`, which fires when the client goes away (where workerd has it).
    pub(crate) signal: Option<AbortSignal>,
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

impl Pump {
    /// Starts pumping at once: what the stream holds already, the frame read early and the
    /// socket events queued so far are handled now, the rest as they arrive. Returns the promise
    /// that settles when the stream has ended (and its log line is written), or `None` when it
    /// ended already.
    pub(crate) fn start(self: Box<Self>) -> Option<Promise> {
        let Pump {
            socket,
            events,
            client,
            signal,
            turn,
            early_frame,
            abort,
            limits,
            exchange,
        } = *self;
        // Dropping the events' listeners and registering the wiring's happen in this one call,
        // so no message falls between them.
        let backlog = events.map(SocketEvents::into_backlog).unwrap_or_default();
        let js_socket: web_sys::WebSocket = socket.as_ref().clone();
        let writer = client.writer().clone();
        let mut engine = Engine::new(socket, client, turn, abort, limits, exchange);
        engine.begin(early_frame, backlog);
        if engine.is_over() {
            return None;
        }
        let engine = Rc::new(RefCell::new(Some(engine)));
        let wiring = Wiring::attach(&js_socket, &writer, signal, TICK_MS, Rc::clone(&engine));
        // No callback runs before this returns: the wiring delivers from later tasks only.
        if let Some(engine) = engine.borrow_mut().as_mut() {
            engine.on_end(wiring.stopper());
        }
        Some(wiring.done())
    }
}
