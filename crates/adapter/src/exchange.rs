//! One request's bookkeeping: its id, its clock, its log line (with the turn's record in it when
//! the request is a turn's), and a refusal's JSON answer. (The entry point sets `x-request-id`
//! on an answer; a stream's gets it where its response is made.)

use crate::diagnostic::{clip, MAX_LOGGED_PATH_CHARS};
use std::borrow::Cow;

use wasm_bindgen::JsValue;
use worker::{Response, Result};

use crate::platform::clock::now_ms;
use crate::platform::errors::json_error;
use crate::refusal::Refusal;
use crate::request_log::{uuid_v4, Disposition, RequestLog};
use crate::turn_log;
use crate::turn_record::{Trigger, TurnRecord, TurnRequest};
use crate::turn_stream::TurnStream;

/// The request in flight. Exactly one log line is written for it: by the entry point for an
/// answer that is complete when returned, by the pump when a stream ends.
pub(crate) struct Exchange {
    pub(crate) log: RequestLog,
    started_ms: u64,
    /// Set when the request is a turn's (a chat POST, a resume that streams): its line then
    /// holds the turn's record.
    pub(crate) turn: Option<TurnOf>,
    /// The refusal's code, when the request was refused: a turn's record says it.
    refused: Option<&'static str>,
}

/// What a turn's record needs from the edge besides the stream.
pub(crate) struct TurnOf {
    /// `None` until the chat request's body is read.
    pub(crate) trigger: Option<Trigger>,
    pub(crate) dataset: Option<turn_log::Dataset>,
}

impl Exchange {
    /// The request `request_id`, received at `started_ms`.
    pub(crate) fn new(request_id: &str, started_ms: u64, method: &str, path: &str) -> Self {
        Exchange {
            log: RequestLog {
                request_id: request_id.to_owned(),
                method: method.to_owned(),
                // A client's path may be any length: the line keeps its start.
                path: clip(path, MAX_LOGGED_PATH_CHARS).to_owned(),
                ..RequestLog::default()
            },
            started_ms,
            turn: None,
            refused: None,
        }
    }

    /// A request whose head could not be read: a new id, received now. Never inlined, as
    /// `Pump::start`: a request read as it should be does not compile it.
    #[inline(never)]
    pub(crate) fn unread() -> Self {
        Exchange::new(&new_request_id(), now_ms(), "", "")
    }

    /// A copy for the task that outlives the handler (a stream's pump), which then writes
    /// the log line when the stream ends. A copy, not a move: the entry point still names the
    /// request (its id) in a line of its own should `waitUntil` refuse the pump's promise; the
    /// turn's record goes with the copy, so only the pump's line can hold it.
    pub(crate) fn handed_off(&mut self) -> Self {
        Exchange {
            log: self.log.clone(),
            started_ms: self.started_ms,
            turn: self.turn.take(),
            refused: self.refused,
        }
    }

    pub(crate) fn request_id(&self) -> &str {
        &self.log.request_id
    }

    /// An empty `204` for a session route with nothing to give (`disposition`: a resume with no
    /// turn in flight, a feed of an agent with no `init`), `no-store` as every answer about a
    /// session: a 204 is cacheable by default (RFC 9110 §15.3.5), and a browser would keep the
    /// session's address after its visitor logged out.
    pub(crate) fn nothing(&mut self, disposition: Disposition) -> Result<Response> {
        self.log.answered(disposition);
        let mut response = Response::empty()?.with_status(204);
        response.headers_mut().set("cache-control", "no-store")?;
        Ok(response)
    }

    /// The JSON error answer of `refusal`, with its headers; its status and code become the log
    /// line's. A 5xx message gets the request id, which the log line carries too, so a report
    /// can be matched to it.
    pub(crate) fn refuse(&mut self, refusal: Refusal) -> Result<Response> {
        self.log.answered(Disposition::Refused(refusal.kind));
        self.refused = Some(refusal.kind.code);
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

    /// Writes the log line, with the turn's record in it when the request is a turn's, and the
    /// record's data point where a dataset is bound. `stream`: the turn's stream that ended, and
    /// whether the agent was sent its `abort` (which tells an aborted turn from a detached one);
    /// `None` for a request answered at once.
    pub(crate) fn finish(mut self, stream: Option<(&TurnStream, bool)>) {
        let now = now_ms();
        self.log.duration_ms = now.saturating_sub(self.started_ms);
        let log = &self.log;
        let record = self.turn.as_ref().and_then(|turn| {
            let request = TurnRequest {
                request_id: &log.request_id,
                session: log.session.as_deref().unwrap_or_default(),
                caller: log.user.as_deref(),
                trigger: turn.trigger,
                started_at: self.started_ms,
                ended_at: now,
                bytes: log.bytes,
            };
            let record = match (stream, self.refused) {
                (Some((stream, abort_sent)), _) => {
                    TurnRecord::of_stream(request, stream.facts(), abort_sent)
                }
                (None, Some(code)) => TurnRecord::refused(request, code),
                // A turn's request is either streamed or refused.
                (None, None) => return None,
            };
            Some((record, turn.dataset.as_ref()))
        });
        // The line as it is: `console_log!` would format it into a copy first.
        let line = log.line(record.as_ref().map(|(record, _)| record));
        web_sys::console::log_1(&JsValue::from_str(&line));
        if let Some((record, Some(dataset))) = record {
            turn_log::write_point(&record, dataset);
        }
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
