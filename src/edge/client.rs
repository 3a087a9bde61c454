//! The HTTP client's side of a chat POST: the streamed response body, and the signs that the
//! client went away.
//!
//! The body is the readable side of a `TransformStream`; the pump writes SSE bytes to its
//! writable side. workerd learns that a client is gone only when it next writes to it. Then,
//! depending on the workerd version, the stream is cancelled (the write, or `writer.closed`,
//! rejects) and/or `request.signal` fires (compatibility flag `enable_request_signal`). Both are
//! watched, so a disconnect is seen either way.
//!
//! A third case gives no sign at all: a client that disconnects before the response headers
//! went out. workerd then never attaches the body to a connection, nothing reads it, and no
//! write, `writer.closed` or signal ever settles. [`ClientStream::check_progress`] catches it:
//! a body that was never read from and whose queue has not moved for a while has nobody reading
//! it. Once the client has read its first bytes the rule no longer applies: a slow link or a
//! backgrounded phone stalls too, and is still there.
//!
//! A client that reads slower than the agent sends makes the body's queue grow;
//! [`ClientStream::queued_bytes`] says by how much, so the pump can bound it.

use std::collections::VecDeque;
use std::task::{Context, Poll};

use futures::future::{Fuse, FusedFuture, FutureExt};
use js_sys::{Function, Promise, Uint8Array};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, ReadableStream, TransformStream, WritableStreamDefaultWriter};

/// How the client was seen to go away (for the log).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gone {
    /// `request.signal` fired.
    Signal,
    /// The response body was cancelled or errored (a failed write errors it too).
    StreamClosed,
}

/// The writable end of the response body, plus the watchers for a client that went away.
pub(crate) struct ClientStream {
    writer: WritableStreamDefaultWriter,
    /// Bytes queued for the next chunk: everything translated in one turn of the event loop
    /// goes out as one write ([`ClientStream::flush`]).
    pending: Vec<u8>,
    /// The one no-op rejection handler every write's promise gets.
    swallow: Function,
    /// `writer.closed`: rejects when the stream errors or the reader cancels it.
    closed: Fuse<JsFuture>,
    /// Resolves when `request.signal` fires; never, when the request has no signal.
    aborted: Fuse<JsFuture>,
    /// The signal and the `resolve` of `aborted`'s promise, which listens on it. [`Self::finish`]
    /// unhooks it and resolves the promise itself: a promise that never settles keeps the
    /// closures wasm-bindgen gave it alive, a little memory lost per request.
    signal_hook: Option<(AbortSignal, Function)>,
    /// Writes queued since the last progress check.
    writes_since_check: u64,
    /// `writer.desiredSize` at the last progress check.
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

/// Whether the reader drained anything since the last check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Progress {
    /// Something was read, or nothing is waiting.
    Moving,
    /// Chunks are waiting and none was read for this many consecutive checks.
    Stalled(u32),
}

impl ClientStream {
    /// A new response body. Returns the writer side and the stream to answer with.
    pub(crate) fn open(signal: Option<AbortSignal>) -> Result<(Self, ReadableStream), JsValue> {
        let transform = TransformStream::new()?;
        let writer = transform.writable().get_writer()?;
        let closed = JsFuture::from(writer.closed()).fuse();
        let (aborted, signal_hook) = match signal {
            Some(signal) => {
                let (promise, resolve) = abort_promise(&signal);
                (JsFuture::from(promise).fuse(), Some((signal, resolve)))
            }
            None => (Fuse::terminated(), None),
        };
        let last_desired_size = writer.desired_size().ok().flatten().unwrap_or(0.0);
        let stream = ClientStream {
            writer,
            pending: Vec::new(),
            swallow: swallow(),
            closed,
            aborted,
            signal_hook,
            writes_since_check: 0,
            last_desired_size,
            stalled_checks: 0,
            read_any: false,
            sizes: VecDeque::new(),
            sizes_total: 0,
        };
        Ok((stream, transform.readable()))
    }

    /// Queues `bytes` for the next chunk; never waits for the client to read them. Returns
    /// true when the chunk was empty: the caller then schedules a [`ClientStream::flush`] at
    /// the end of this turn of the event loop.
    pub(crate) fn queue(&mut self, bytes: &[u8]) -> bool {
        let first = self.pending.is_empty();
        self.pending.extend_from_slice(bytes);
        first && !bytes.is_empty()
    }

    /// Writes everything queued as one chunk.
    ///
    /// One write per frame costs the runtime about as much as everything else the worker
    /// does for the frame; a burst of frames (each WebSocket message is its own task) becomes
    /// one write instead.
    pub(crate) fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        // The runtime keeps the chunk, so it gets its own copy of the bytes.
        let chunk = Uint8Array::from(self.pending.as_slice());
        self.sizes.push_back(self.pending.len());
        self.sizes_total += self.pending.len();
        self.pending.clear();
        self.writes_since_check += 1;
        // A failed write also errors the stream, which `closed` reports: the promise only
        // needs a handler, and a plain function costs less than a future per write.
        let promise = self.writer.write_with_chunk(&chunk);
        let _ = promise
            .unchecked_ref::<Catchable>()
            .catch_with(&self.swallow);
    }

    /// Compares the body's queue with the last check. The queue is counted in chunks (the
    /// writable side's default strategy): `desiredSize` falls by one per write and rises by
    /// one per chunk the reader takes, so the chunks read since the last check are the writes
    /// since then plus the rise of `desiredSize`.
    pub(crate) fn check_progress(&mut self) -> Progress {
        let Some(desired) = self.writer.desired_size().ok().flatten() else {
            // The stream errored or closed: `poll_gone` reports that.
            return Progress::Moving;
        };
        let read = self.writes_since_check as f64 + (desired - self.last_desired_size);
        self.writes_since_check = 0;
        self.last_desired_size = desired;
        // Waiting: chunks the body holds beyond its one-chunk buffer, or bytes queued here
        // while it holds one.
        let waiting = desired < 0.0 || (desired <= 0.0 && !self.pending.is_empty());
        self.read_any |= read > 0.0;
        if read <= 0.0 && waiting && !self.read_any {
            self.stalled_checks += 1;
            Progress::Stalled(self.stalled_checks)
        } else {
            self.stalled_checks = 0;
            Progress::Moving
        }
    }

    /// The bytes written or about to be that the reader has not taken yet. The body's queue
    /// counts chunks (`desiredSize` is 1, its high-water mark, less the chunks queued), and one
    /// more may sit in the transform on its way to the reader.
    pub(crate) fn queued_bytes(&mut self) -> usize {
        let queued_chunks = match self.writer.desired_size().ok().flatten() {
            Some(desired) => (2.0 - desired).max(0.0) as usize,
            None => 0,
        };
        while self.sizes.len() > queued_chunks {
            self.sizes_total -= self.sizes.pop_front().unwrap_or(0);
        }
        self.sizes_total + self.pending.len()
    }

    /// Ready when the client is seen to be gone.
    pub(crate) fn poll_gone(&mut self, cx: &mut Context<'_>) -> Poll<Gone> {
        if !self.aborted.is_terminated() && self.aborted.poll_unpin(cx).is_ready() {
            return Poll::Ready(Gone::Signal);
        }
        if !self.closed.is_terminated() {
            // `closed` settles only when the stream ends; the pump never closes it before it
            // stops polling, so either outcome means the client side ended it.
            if self.closed.poll_unpin(cx).is_ready() {
                return Poll::Ready(Gone::StreamClosed);
            }
        }
        Poll::Pending
    }

    /// Ends the body after the bytes already written: the turn ended, or the client is gone.
    /// (Closing rather than aborting: an aborted body is an error the runtime logs, and a
    /// client that is gone reads nothing either way.)
    pub(crate) fn finish(mut self) {
        self.flush();
        // Dropping the future keeps the promise's rejection handled if the client left.
        drop(JsFuture::from(self.writer.close()));
        if let Some((signal, resolve)) = self.signal_hook.take() {
            let _ = signal.remove_event_listener_with_callback("abort", &resolve);
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    }
}

#[wasm_bindgen]
extern "C" {
    /// A promise, seen only to call `catch` with a plain function (js-sys's `catch` takes a
    /// Rust closure, which would be one allocation and one finalizer per write).
    #[wasm_bindgen(js_name = Promise)]
    type Catchable;
    #[wasm_bindgen(method, js_name = catch)]
    fn catch_with(this: &Catchable, handler: &Function) -> JsValue;
}

thread_local! {
    /// One no-op function per isolate for every write's rejection (workerd forbids
    /// `new Function`, so it is a Rust closure made once and never dropped).
    static SWALLOW: Function = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {})
        .into_js_value()
        .unchecked_into();
}

fn swallow() -> Function {
    SWALLOW.with(Function::clone)
}

/// A promise that resolves when `signal` fires (at once if it already has), and its `resolve`,
/// so that the owner can settle it when it stops watching.
fn abort_promise(signal: &AbortSignal) -> (Promise, Function) {
    let mut resolver = None;
    let mut register = |resolve: Function, _reject: Function| {
        if signal.aborted() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        } else {
            // `resolve` itself is the listener: no Rust closure has to outlive this call.
            let _ = signal.add_event_listener_with_callback("abort", &resolve);
        }
        resolver = Some(resolve);
    };
    let promise = Promise::new(&mut register);
    // The executor runs synchronously inside `new Promise`, so `resolve` is there; a no-op
    // stands in should it ever not be.
    let resolve = resolver.unwrap_or_else(swallow);
    (promise, resolve)
}
