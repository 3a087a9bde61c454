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

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Response, WritableStreamDefaultWriter};

use super::wiring;
use crate::pacing::{Progress, ReaderWatch};

/// A `ResponseInit` of `200` and `headers`, as a plain object: made once per isolate by each kind
/// of streamed answer (the response copies it), and handed to [`ClientStream::open`].
pub(crate) fn ok_init(headers: &[(&str, &str)]) -> JsValue {
    let fields = Object::new();
    for (name, value) in headers {
        // Setting a property of a new plain object does not fail.
        let _ = Reflect::set(&fields, &(*name).into(), &(*value).into());
    }
    let init = Object::new();
    let _ = Reflect::set(&init, &"status".into(), &200.into());
    let _ = Reflect::set(&init, &"headers".into(), &fields);
    init.into()
}

/// The writable end of the response body, and what the pump knows of its reader (the core's
/// [`ReaderWatch`], fed with the writer's `desiredSize`).
pub(crate) struct ClientStream {
    writer: WritableStreamDefaultWriter,
    watch: ReaderWatch,
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
        let stream = ClientStream {
            writer,
            watch: ReaderWatch::new(desired_size.as_f64().unwrap_or(0.0)),
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
        self.watch.wrote(bytes.len());
    }

    /// Replaces the stream's crash ending (see [`ClientStream::write`]) with nothing to write.
    pub(crate) fn keep_crash_ending(&self, crash_ending: &[u8]) {
        wiring::write(&self.writer, &[], Some(crash_ending));
    }

    /// The writer's `desiredSize` now; `None` once the stream errored or closed.
    fn desired_size(&self) -> Option<f64> {
        self.writer.desired_size().ok().flatten()
    }

    /// Whether the reader drained anything since the last check ([`ReaderWatch::check`]).
    pub(crate) fn check_progress(&mut self) -> Progress {
        let writer = &self.writer;
        self.watch.check(|| writer.desired_size().ok().flatten())
    }

    /// Whether the reader took a chunk, as of the last progress check: from then on the stall
    /// rule no longer applies.
    pub(crate) fn has_read(&self) -> bool {
        self.watch.has_read()
    }

    /// The bytes written that the reader has not taken yet ([`ReaderWatch::queued_bytes`]).
    pub(crate) fn queued_bytes(&mut self) -> usize {
        let desired = self.desired_size();
        self.watch.queued_bytes(desired)
    }

    /// Ends the body after the bytes already written: the turn ended, or the client is gone.
    /// (Closing rather than aborting: an aborted body is an error the runtime logs, and a
    /// client that is gone reads nothing either way.)
    pub(crate) fn finish(self) {
        wiring::close(&self.writer);
    }
}
