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
//!   1000, close the body;
//! * the WebAssembly instance is lost (a panic, the pump's own or, where the agent shares the
//!   instance, the agent's): no Rust code runs, and `wiring.js` ends the stream in-band with the
//!   ending the engine handed it for that case (`error` "the stream stopped on an internal
//!   error", `finish`), closes the body, and closes the socket with 1011.
//!
//! This is the one place the pump's mechanics are told; `wiring.rs`, `wiring.js` and the
//! engine point here.
//!
//! **Delivery.** No task is woken per frame. JavaScript ([`wiring`]) delivers the text frames of
//! one turn of the event loop in one call (joined by U+001E, as UTF-8 bytes), and each other
//! event (a tick, the socket's end, the client's) as it happens; the [`Engine`](engine::Engine)
//! translates them synchronously and writes what they made as one chunk. Time is kept by one
//! ticking timer ([`TICK_MS`]): a frame costs no timer, and each tick decides on keep-alives,
//! timeouts and a body nobody reads (the core's `pacing`).
//!
//! **Quiet ticks.** After each delivery the engine says whether the next tick would change
//! nothing but its counters (the client has read, something was written since the tick before,
//! no timeout is near). JavaScript then does not deliver that tick: it counts it, and the next
//! delivery applies it first. Only the first tick after a delivery can be absorbed. While frames
//! come faster than ticks, most ticks cost no call into WebAssembly (at a thousand streams at
//! once, each lives for seconds: dozens of ticks).
//!
//! **Ordering.** Events reach the engine in the order they happened: every other event first
//! hands over the frames that came before it. Nothing is delivered after the wiring is stopped.
//!
//! **Ownership.** The pump has no task: the callbacks (JavaScript's, freed by the collector once
//! nothing can call them) own the engine until it reports it is over, when they drop it; the
//! request waits (`waitUntil`) for the promise the wiring settles when the engine stops it.
//!
//! **A lost instance.** Once the WebAssembly instance has trapped (a panic: the engine's own, or,
//! where an agent shares the instance, as in the local demo, the agent's), no Rust code runs
//! again. So the engine hands JavaScript, ahead of time, the bytes that end its body then (a part
//! or a tool closed, `error`, `finish`, `[DONE]`), only when they change (a part or a tool opens
//! or closes: never for a delta); before its turn opens, the ending every stream shares, once per
//! instance. Before each call into WebAssembly, `wiring.js` checks that the instance is the one it
//! started with; once it is not (or a callback throws), it writes that ending (its finish's
//! `durationMs` grown by the time since it was made), closes the body and the agent's socket
//! (1011: the agent applies the prompt's disconnect policy), logs `instance_lost` and stops.

pub(crate) mod client;
mod engine;
mod rules;
pub(crate) mod titles;
mod wiring;

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Promise;
use worker::WebSocket;

use self::engine::Engine;
use self::rules::TICK_MS;
pub(crate) use self::rules::{AbortRule, PumpLimits};
use self::wiring::Wiring;
use super::exchange::Exchange;
use crate::platform::socket::SocketEvents;
use crate::pump::titles::Titles;
use crate::turn_stream::TurnStream;
use client::ClientStream;

/// What a stream follows and how it ends it, as a handler plans it: the stream, a frame read
/// before the pump ran, and when the agent is sent `abort`.
pub(crate) struct Follow {
    /// The stream; what it made before any frame (a resume's replay, an answer's `start`) is
    /// written first.
    pub(crate) turn: TurnStream,
    /// A frame read before the pump ran (the first turn event of an agent without `init`),
    /// handled before any other.
    pub(crate) early_frame: Option<String>,
    pub(crate) abort: AbortRule,
    /// Where the agent's title of the session goes once the stream ends (a chat turn of a
    /// caller with a list).
    pub(crate) titles: Option<Titles>,
}

/// Everything one stream's pump owns.
pub(crate) struct Pump {
    pub(crate) socket: WebSocket,
    /// The socket's events so far, if anything listened before the pump: it takes over what
    /// they queued.
    pub(crate) events: Option<SocketEvents>,
    pub(crate) client: ClientStream,
    /// The client's request, whose `signal` fires when the client goes away (where workerd has
    /// it): handed to the wiring whole, which reads `signal` in JavaScript (a call fewer).
    pub(crate) request: web_sys::Request,
    pub(crate) follow: Follow,
    pub(crate) limits: PumpLimits,
    pub(crate) exchange: Exchange,
}

impl Pump {
    /// Starts pumping at once: what the stream holds already, the frame read early and the
    /// socket events queued so far are handled now, the rest as they arrive. Returns the promise
    /// that settles when the stream has ended (and its log line is written), or `None` when it
    /// ended already.
    // Never inlined: V8 compiles a function whole when it is first called, and a worker's
    // first request that does not stream (a 404, a history) then need not compile this one.
    #[inline(never)]
    pub(crate) fn start(self: Box<Self>) -> Option<Promise> {
        let Pump {
            socket,
            events,
            client,
            request,
            follow:
                Follow {
                    turn,
                    early_frame,
                    abort,
                    titles,
                },
            limits,
            exchange,
        } = *self;
        // Dropping the events' listeners and registering the wiring's happen in this one call,
        // so no message falls between them.
        let backlog = events.map(SocketEvents::into_backlog).unwrap_or_default();
        let js_socket: web_sys::WebSocket = socket.as_ref().clone();
        let writer = client.writer().clone();
        let mut engine = Engine::new(socket, client, turn, abort, limits, exchange, titles);
        engine.begin(early_frame, backlog);
        if engine.is_over() {
            return None;
        }
        let unopened_crash_ending = engine::unopened_crash_ending();
        let engine = Rc::new(RefCell::new(Some(engine)));
        let wiring = Wiring::attach(
            &js_socket,
            &writer,
            &request,
            TICK_MS,
            unopened_crash_ending.as_deref(),
            Rc::clone(&engine),
        );
        // No callback runs before this returns: the wiring delivers from later tasks only.
        if let Some(engine) = engine.borrow_mut().as_mut() {
            engine.on_end(wiring.stopper());
        }
        Some(wiring.done())
    }
}
