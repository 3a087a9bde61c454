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
//! a body whose queue the reader has not drained at all for a while has nobody reading it.

use std::task::{Context, Poll};

use futures::future::{Fuse, FusedFuture, FutureExt};
use js_sys::{Function, Promise, Uint8Array};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortSignal, ReadableStream, TransformStream, WritableStreamDefaultWriter};

/// How the client was seen to go away (for the log).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Gone {
    /// `request.signal` fired.
    Signal,
    /// A write to the response body failed.
    WriteFailed,
    /// The response body was cancelled or errored.
    StreamClosed,
}

/// The writable end of the response body, plus the watchers for a client that went away.
pub(crate) struct ClientStream {
    writer: WritableStreamDefaultWriter,
    /// The newest write: when the stream is cancelled, every pending write rejects, so watching
    /// the newest one is enough. Older ones are dropped; their promises stay handled.
    last_write: Fuse<JsFuture>,
    /// `writer.closed`: rejects when the stream errors or the reader cancels it.
    closed: Fuse<JsFuture>,
    /// Resolves when `request.signal` fires; never, when the request has no signal.
    aborted: Fuse<JsFuture>,
    /// Writes queued since the last progress check.
    writes_since_check: u64,
    /// `writer.desiredSize` at the last progress check.
    last_desired_size: f64,
    /// Consecutive progress checks that found queued chunks and none of them read.
    stalled_checks: u32,
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
        let aborted = match signal {
            Some(signal) => JsFuture::from(abort_promise(&signal)).fuse(),
            None => Fuse::terminated(),
        };
        let last_desired_size = writer.desired_size().ok().flatten().unwrap_or(0.0);
        let stream = ClientStream {
            writer,
            last_write: Fuse::terminated(),
            closed,
            aborted,
            writes_since_check: 0,
            last_desired_size,
            stalled_checks: 0,
        };
        Ok((stream, transform.readable()))
    }

    /// Queues `bytes` for the client at once; never waits for the client to read them.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        // The runtime keeps the chunk, so it gets its own copy of the bytes.
        let chunk = Uint8Array::from(bytes);
        self.writes_since_check += 1;
        self.last_write = JsFuture::from(self.writer.write_with_chunk(&chunk)).fuse();
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
        if read <= 0.0 && desired < 0.0 {
            self.stalled_checks += 1;
            Progress::Stalled(self.stalled_checks)
        } else {
            self.stalled_checks = 0;
            Progress::Moving
        }
    }

    /// Ready when the client is seen to be gone.
    pub(crate) fn poll_gone(&mut self, cx: &mut Context<'_>) -> Poll<Gone> {
        if !self.aborted.is_terminated() && self.aborted.poll_unpin(cx).is_ready() {
            return Poll::Ready(Gone::Signal);
        }
        if !self.last_write.is_terminated() {
            if let Poll::Ready(Err(_)) = self.last_write.poll_unpin(cx) {
                return Poll::Ready(Gone::WriteFailed);
            }
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
    pub(crate) fn finish(self) {
        // Dropping the future keeps the promise's rejection handled if the client left.
        drop(JsFuture::from(self.writer.close()));
    }
}

/// A promise that resolves when `signal` fires (at once if it already has).
fn abort_promise(signal: &AbortSignal) -> Promise {
    let mut register = |resolve: Function, _reject: Function| {
        if signal.aborted() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        } else {
            // `resolve` itself is the listener: no Rust closure has to outlive this call.
            let _ = signal.add_event_listener_with_callback("abort", &resolve);
        }
    };
    Promise::new(&mut register)
}
