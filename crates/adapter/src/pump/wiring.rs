//! The Rust side of `wiring.js`: the stream's events, delivered by JavaScript to the pump's two
//! callbacks ([`Receiver`]), and the copy of each SSE chunk into the response body. How they are
//! delivered (bursts, quiet ticks, ordering, ownership, a lost instance) is told once, in the
//! pump's module (`pump/mod.rs`).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Promise};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::WritableStreamDefaultWriter;

#[wasm_bindgen(module = "/src/pump/wiring.js")]
extern "C" {
    /// `[stop, done]`: see `wire`.
    #[wasm_bindgen(js_name = wire)]
    fn js_wire(
        socket: &web_sys::WebSocket,
        writer: &WritableStreamDefaultWriter,
        request: &web_sys::Request,
        tick_ms: f64,
        on_frames: &JsValue,
        on_event: &JsValue,
        unopened_crash_ending: Option<&[u8]>,
    ) -> Vec<JsValue>;

    /// `[writer, response, desiredSize]`: see `openBody`.
    #[wasm_bindgen(catch, js_name = openBody)]
    pub(crate) fn js_open_body(init: &JsValue, request_id: &str) -> Result<Vec<JsValue>, JsValue>;

    #[wasm_bindgen(js_name = write)]
    fn js_write(writer: &WritableStreamDefaultWriter, bytes: &[u8], crash_ending: Option<&[u8]>);

    #[wasm_bindgen(js_name = close)]
    fn js_close(writer: &WritableStreamDefaultWriter);
}

/// The separator of the frames in one [`Receiver::frames`] call (RFC 7464's record separator,
/// U+001E: one byte in UTF-8).
pub(crate) const RECORD_SEPARATOR: u8 = 0x1e;

/// How the client was seen to go away (for the log).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gone {
    /// `request.signal` fired.
    Signal,
    /// The response body was cancelled or errored (a failed write errors it too).
    StreamClosed,
}

/// One event of the stream, as the pump receives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// The clock ticked.
    Tick,
    /// The agent's socket closed (with this code).
    SocketClosed(u16),
    /// The agent's socket failed.
    SocketFailed,
    /// The client went away.
    ClientGone(Gone),
    /// The agent sent a binary message (the protocol has none).
    BinaryFrame,
    /// The agent sent a text message holding a raw U+001E: no JSON text does.
    UnsplittableFrame,
}

// The event kinds `wiring.js` sends, its constants of the same names
// (tests/js/worker/wire_constants.test.mjs fails when the two disagree).
const TICK: u32 = 0;
const SOCKET_CLOSED: u32 = 1;
const SOCKET_FAILED: u32 = 2;
const CLIENT_SIGNAL: u32 = 3;
const CLIENT_STREAM: u32 = 4;
const BINARY_FRAME: u32 = 5;
const UNSPLITTABLE_FRAME: u32 = 6;

impl Event {
    /// The event of `wiring.js`'s numbers, or `None` for a number it does not send.
    fn from_js(kind: u32, code: u32) -> Option<Event> {
        Some(match kind {
            TICK => Event::Tick,
            SOCKET_CLOSED => Event::SocketClosed(u16::try_from(code).unwrap_or(0)),
            SOCKET_FAILED => Event::SocketFailed,
            CLIENT_SIGNAL => Event::ClientGone(Gone::Signal),
            CLIENT_STREAM => Event::ClientGone(Gone::StreamClosed),
            BINARY_FRAME => Event::BinaryFrame,
            UNSPLITTABLE_FRAME => Event::UnsplittableFrame,
            _ => return None,
        })
    }
}

/// What the wiring delivers to. Its one implementation is the pump's engine, which names this
/// module (its events, [`RECORD_SEPARATOR`]): the trait is what keeps this module from naming
/// the engine back, an import circle `scripts/check-circles.mjs` refuses.
pub(crate) trait Receiver {
    /// Text frames, one or more, joined by [`RECORD_SEPARATOR`], as UTF-8.
    fn frames(&mut self, bytes: &[u8]);
    /// Any other event.
    fn event(&mut self, event: Event);
    /// Applies `count` quiet ticks that passed since the last delivery, before this one's
    /// frames or event.
    fn absorb_ticks(&mut self, count: u32);
    /// Whether the next tick would change nothing but counters (no timeout, no keep-alive, no
    /// check of the client), so that it may be absorbed.
    fn next_tick_is_quiet(&self) -> bool;
    /// Whether it has ended (and stopped the wiring): the callbacks then drop it.
    fn is_over(&self) -> bool;
}

/// The delivery of one stream's events.
pub(crate) struct Wiring {
    stop: Function,
    done: Promise,
}

/// The receiver, shared by the two callbacks until it is over. Borrowed only by them, which
/// JavaScript never nests.
type Slot<R> = Rc<RefCell<Option<R>>>;

/// Hands one delivery to the receiver in `slot`, after the quiet ticks `absorbed` before it;
/// drops the receiver once it is over. Returns what the callback answers JavaScript: 1 when
/// the next tick is quiet, else 0.
fn deliver<R: Receiver>(slot: &Slot<R>, absorbed: u32, handle: impl FnOnce(&mut R)) -> u32 {
    let (over, quiet) = match slot.try_borrow_mut() {
        Ok(mut receiver) => match receiver.as_mut() {
            Some(receiver) => {
                if absorbed > 0 {
                    receiver.absorb_ticks(absorbed);
                }
                handle(receiver);
                let over = receiver.is_over();
                (over, !over && receiver.next_tick_is_quiet())
            }
            None => (false, false),
        },
        Err(_) => (false, false),
    };
    if over {
        // Outside the borrow: what the receiver owns goes now, not when the collector gets to
        // the callbacks.
        let receiver = slot.borrow_mut().take();
        drop(receiver);
    }
    u32::from(quiet)
}

impl Wiring {
    /// Starts delivering `socket`'s messages, `writer`'s end, `request.signal`'s abort and a tick
    /// every `tick_ms` to `receiver`, which the callbacks own from now on. The receiver must stop
    /// the wiring (with [`Wiring::stopper`]'s function) when it ends, before it reports
    /// [`Receiver::is_over`]. `unopened_crash_ending`, when given, is what ends any body whose
    /// receiver is lost before it handed over a crash ending of its own (with [`write`]): the
    /// ending of a stream whose turn has not opened, the same for every stream, which
    /// `wiring.js` keeps from then on.
    pub(crate) fn attach<R: Receiver + 'static>(
        socket: &web_sys::WebSocket,
        writer: &WritableStreamDefaultWriter,
        request: &web_sys::Request,
        tick_ms: u64,
        unopened_crash_ending: Option<&[u8]>,
        receiver: Slot<R>,
    ) -> Wiring {
        let frames_to = Rc::clone(&receiver);
        let on_frames =
            Closure::<dyn FnMut(Vec<u8>, u32) -> u32>::new(move |bytes: Vec<u8>, absorbed| {
                deliver(&frames_to, absorbed, |receiver| receiver.frames(&bytes))
            });
        let on_event = Closure::<dyn FnMut(u32, u32, u32) -> u32>::new(
            move |kind: u32, code: u32, absorbed: u32| match Event::from_js(kind, code) {
                Some(event) => deliver(&receiver, absorbed, |receiver| receiver.event(event)),
                // Not a kind `wiring.js` sends: the ticks still count.
                None => deliver(&receiver, absorbed, |_| {}),
            },
        );
        let mut wired = js_wire(
            socket,
            writer,
            request,
            tick_ms as f64,
            &on_frames.into_js_value(),
            &on_event.into_js_value(),
            unopened_crash_ending,
        )
        .into_iter();
        // `wire` returns its two, always; were one missing, a stop that does nothing and a
        // settled promise (the body keeps the request alive while the client reads) stand in.
        Wiring {
            stop: wired
                .next()
                .map_or_else(Function::default, JsCast::unchecked_into),
            done: wired.next().map_or_else(
                || Promise::resolve(&JsValue::UNDEFINED),
                JsCast::unchecked_into,
            ),
        }
    }

    /// The function that stops the delivery (callable from inside a callback).
    pub(crate) fn stopper(&self) -> Function {
        self.stop.clone()
    }

    /// The promise that settles when the delivery has been stopped.
    pub(crate) fn done(self) -> Promise {
        self.done
    }
}

/// Stops a wiring's delivery: no callback runs after this returns.
pub(crate) fn stop(stopper: &Function) {
    let _ = stopper.call0(&JsValue::UNDEFINED);
}

/// Writes a copy of `bytes` (none when empty) to the body behind `writer`, without waiting;
/// with `crash_ending`, keeps a copy of it as what ends that body should the receiver be lost
/// (`wiring.js`, "A lost receiver").
pub(crate) fn write(
    writer: &WritableStreamDefaultWriter,
    bytes: &[u8],
    crash_ending: Option<&[u8]>,
) {
    js_write(writer, bytes, crash_ending);
}

/// Closes the body behind `writer` after the chunks written, without waiting.
pub(crate) fn close(writer: &WritableStreamDefaultWriter) {
    js_close(writer);
}
