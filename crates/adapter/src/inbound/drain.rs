//! Reading what is left of a request body that the worker answered without reading: a 401 or a
//! 404 to a POST, a stop request, a bad `Content-Type`, a body refused for its declared length.
//!
//! An HTTP/1.1 client may still be sending the body when the answer comes; a server that answers
//! and then drops the unread rest can leave the connection reset, and the client sees a network
//! error instead of the answer. Locally that happens now and then for a short body when
//! Miniflare's static-asset router stands in front of the worker (`[assets]` in wrangler.toml:
//! about one POST in 150 whose body went unread), and to a third of the 8 MiB bodies declared
//! over a 64 KiB `MAX_BODY_BYTES` (200 in a row, 6 at a time); none once the body is read. So the
//! worker reads such a body to its end before it answers, up to [`DRAIN_BYTES`]: past it, the
//! client is sending far more than any request of ours takes, and cutting the connection is the
//! right answer to it. A body that declares a length past the bound is not waited for at all, nor
//! is a client that stops sending for [`DRAIN_IDLE_MS`] (a client may declare 5 MB and send
//! nothing: its answer, a 413 among others, goes within that wait).

use wasm_bindgen::prelude::wasm_bindgen;

use crate::platform::promise::settled;
use crate::request::ContentLength;

/// How much of a body answered unread is read and dropped before the answer: 16 MiB, past any
/// body a client of ours sends by mistake (a few large files over a small `MAX_BODY_BYTES`).
pub(crate) const DRAIN_BYTES: usize = 16 * 1024 * 1024;

/// How long a drain waits for a body's next chunk: 1 s. A client uploading sends chunks
/// milliseconds apart; one that declared a length and sends nothing gets its answer after this.
const DRAIN_IDLE_MS: u32 = 1_000;

#[wasm_bindgen(module = "/src/inbound/drain.js")]
extern "C" {
    #[wasm_bindgen(js_name = drainBody)]
    fn js_drain_body(request: &web_sys::Request, limit: f64, idle_ms: u32) -> js_sys::Promise;
}

/// Reads and drops the rest of `req`'s body, at most [`DRAIN_BYTES`]; nothing when the body was
/// read already, or there is none. `length`: what its `Content-Length` says, read against
/// [`DRAIN_BYTES`] ([`crate::request::declared_body_length`]; a request whose `Content-Length` is
/// over it or no number is not drained).
pub(crate) async fn drain(req: &web_sys::Request, length: ContentLength) {
    if req.body_used() || length == ContentLength::Declared(0) {
        return;
    }
    // Counted in JavaScript and dropped; never fails.
    let _ = settled(&js_drain_body(req, DRAIN_BYTES as f64, DRAIN_IDLE_MS)).await;
}
