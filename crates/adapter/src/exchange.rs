//! One request's bookkeeping: its id, its clock, its log line, and the headers every answer gets.

use std::borrow::Cow;

use wasm_bindgen::JsValue;
use worker::{Response, Result};

use crate::platform::clock::now_ms;
use crate::platform::errors::json_error;
use crate::refusal::Refusal;
use crate::request_log::{uuid_v4, Answered, RequestLog};

/// The request in flight. Exactly one log line is written for it: by the entry point for an
/// answer that is complete when returned, by the pump when a stream ends.
pub(crate) struct Exchange {
    pub(crate) log: RequestLog,
    started_ms: u64,
}

impl Exchange {
    /// The request `request_id`, received at `started_ms`.
    pub(crate) fn new(request_id: &str, started_ms: u64, method: &str, path: &str) -> Self {
        Exchange {
            log: RequestLog {
                request_id: request_id.to_owned(),
                method: method.to_owned(),
                path: path.to_owned(),
                ..RequestLog::default()
            },
            started_ms,
        }
    }

    /// A request whose head could not be read: a new id, received now.
    pub(crate) fn unread() -> Self {
        Exchange::new(&new_request_id(), now_ms(), "", "")
    }

    /// A copy for the task that outlives the handler (a stream's pump), which then writes
    /// the log line when the stream ends.
    pub(crate) fn handed_off(&self) -> Self {
        Exchange {
            log: self.log.clone(),
            started_ms: self.started_ms,
        }
    }

    pub(crate) fn request_id(&self) -> &str {
        &self.log.request_id
    }

    /// The JSON error answer of `refusal`, with its headers; its status and code become the log
    /// line's. A 5xx message gets the request id, which the log line carries too, so a report
    /// can be matched to it.
    pub(crate) fn refuse(&mut self, refusal: Refusal) -> Result<Response> {
        self.log.answered(Answered::Refused(refusal.kind));
        let Refusal {
            kind,
            message,
            headers,
        } = refusal;
        let message = if kind.status >= 500 {
            Cow::Owned(format!("{message} Request id: {}.", self.log.request_id))
        } else {
            message
        };
        let mut response = json_error(kind, &message)?;
        for (name, value) in headers {
            response.headers_mut().set(name, &value)?;
        }
        Ok(response)
    }

    /// Writes the log line.
    pub(crate) fn finish(mut self) {
        self.log.duration_ms = now_ms().saturating_sub(self.started_ms);
        // The line as it is: `console_log!` would format it into a copy first.
        web_sys::console::log_1(&JsValue::from_str(&self.log.to_line()));
    }
}

/// A random UUID (version 4), for a request without a head (one with a head gets its id from
/// `incoming.js`, in the same form).
fn new_request_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // crypto.getRandomValues does not fail in workerd; a clock-based id still tells
        // requests apart should it ever do so.
        let now = now_ms().to_le_bytes();
        bytes[..8].copy_from_slice(&now);
    }
    uuid_v4(bytes)
}
