//! The HTTP client's side of a stream: the response body, and the signs that the client went
//! away.
//!
//! The body is the readable side of a `TransformStream`; the pump writes SSE bytes to its
//! writable side. workerd learns that a client is gone only when it next writes to it. Then,
//! depending on the workerd version, the stream is cancelled (the write, or `writer.closed`,
//! rejects) and/or `request.signal` fires (compatibility flag `enable_request_signal`). The
//! pump's wiring watches both (`wiring.js`), so a disconnect is seen either way.
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

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Response, WritableStreamDefaultWriter};

use super::wiring;

/// The writable end of the response body, and what the pump knows of its reader.
pub(crate) struct ClientStream {
    writer: WritableStreamDefaultWriter,
    /// Writes since the last progress check.
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
    /// A new response body, and the response that streams it with `init` (a `ResponseInit`:
    /// its status and headers) and `x-request-id: request_id`. Made in one call into JavaScript
    /// (`openBody` in `wiring.js`).
    pub(crate) fn open(init: &JsValue, request_id: &str) -> Result<(Self, Response), JsValue> {
        let [writer, response, desired_size] =
            <[JsValue; 3]>::try_from(wiring::js_open_body(init, request_id)?)
                .map_err(|_| JsValue::from_str("openBody: not [writer, response, desiredSize]"))?;
        let writer: WritableStreamDefaultWriter = writer.unchecked_into();
        let response: Response = response.unchecked_into();
        let last_desired_size = desired_size.as_f64().unwrap_or(0.0);
        let stream = ClientStream {
            writer,
            writes_since_check: 0,
            last_desired_size,
            stalled_checks: 0,
            read_any: false,
            sizes: VecDeque::new(),
            sizes_total: 0,
        };
        Ok((stream, response))
    }

    /// The body's writer, which the pump's wiring watches for a client that went away.
    pub(crate) fn writer(&self) -> &WritableStreamDefaultWriter {
        &self.writer
    }

    /// Writes `bytes` as one chunk; never waits for the client to read them. `crash_ending`,
    /// when given, replaces the bytes that end the stream should the pump's engine be lost
    /// before it ends it (`wiring.js` writes them then): in the same call, so it costs no
    /// crossing of its own.
    ///
    /// One write costs the runtime about as much as everything else the worker does for a
    /// frame, so the pump writes once per turn of the event loop, not once per frame.
    pub(crate) fn write(&mut self, bytes: &[u8], crash_ending: Option<&[u8]>) {
        if bytes.is_empty() {
            return;
        }
        wiring::write(&self.writer, bytes, crash_ending);
        self.sizes.push_back(bytes.len());
        self.sizes_total += bytes.len();
        self.writes_since_check += 1;
    }

    /// Replaces the stream's crash ending (see [`ClientStream::write`]) with nothing to write.
    pub(crate) fn keep_crash_ending(&self, crash_ending: &[u8]) {
        wiring::write(&self.writer, &[], Some(crash_ending));
    }

    /// Compares the body's queue with the last check. The queue is counted in chunks (the
    /// writable side's default strategy): `desiredSize` falls by one per write and rises by
    /// one per chunk the reader takes, so the chunks read since the last check are the writes
    /// since then plus the rise of `desiredSize`.
    pub(crate) fn check_progress(&mut self) -> Progress {
        if self.read_any {
            // The rule no longer applies: no need to look at the queue.
            return Progress::Moving;
        }
        let Some(desired) = self.writer.desired_size().ok().flatten() else {
            // The stream errored or closed: the wiring reports that.
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

    /// Whether the reader took a chunk, as of the last progress check: from then on the stall
    /// rule no longer applies.
    pub(crate) fn has_read(&self) -> bool {
        self.read_any
    }

    /// The bytes written that the reader has not taken yet. The body's queue counts chunks
    /// (`desiredSize` is 1, its high-water mark, less the chunks queued), and one more may sit
    /// in the transform on its way to the reader.
    pub(crate) fn queued_bytes(&mut self) -> usize {
        let queued_chunks = match self.writer.desired_size().ok().flatten() {
            Some(desired) => (2.0 - desired).max(0.0) as usize,
            None => 0,
        };
        while self.sizes.len() > queued_chunks {
            self.sizes_total -= self.sizes.pop_front().unwrap_or(0);
        }
        self.sizes_total
    }

    /// Ends the body after the bytes already written: the turn ended, or the client is gone.
    /// (Closing rather than aborting: an aborted body is an error the runtime logs, and a
    /// client that is gone reads nothing either way.)
    pub(crate) fn finish(self) {
        wiring::close(&self.writer);
    }
}
