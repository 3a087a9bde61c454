//! What a route handler did: answered in full, or started a stream whose pump now owns the
//! request's log line. The entry point matches on it, so a request gets exactly one log line:
//! written by the entry point for an answer, by the pump when a stream ends.

use worker::Response;

use crate::feed::task::LiveFeed;
use crate::pump::Pump;

pub(crate) enum Outcome {
    /// A complete answer.
    Ready(Response),
    /// A complete answer made in JavaScript, with a body that needs no draining of the request
    /// (a file's, `crate::handlers::files`): handed on as it is.
    Made(web_sys::Response),
    /// A `200` whose body the pump fills; the entry point starts the pump.
    Streaming {
        /// Made in JavaScript with the body it streams (`ClientStream::open`).
        response: web_sys::Response,
        /// Boxed: the answer path, far more common, stays small.
        pump: Box<Pump>,
    },
    /// A session feed's `200`, whose body the feed fills until its client goes; the entry point
    /// starts it.
    Feed {
        response: web_sys::Response,
        live: Box<LiveFeed>,
    },
}

impl From<Response> for Outcome {
    fn from(response: Response) -> Self {
        Outcome::Ready(response)
    }
}
