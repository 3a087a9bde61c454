//! Reading what is left of a request body that the worker answered without reading: a 401 or a
//! 404 to a POST, a stop request, a bad `Content-Type`.
//!
//! An HTTP/1.1 client may still be sending the body when the answer comes; a server that answers
//! and then drops the unread rest can leave the connection reset, and the client sees a network
//! error instead of the answer. Locally that happens now and then when Miniflare's static-asset
//! router stands in front of the worker (`[assets]` in wrangler.toml): in the tests, about one
//! POST in 150 whose body went unread, and none once the body is read. So the worker reads such
//! a body to its end before it answers, up to a bound: past it, the client is sending far more
//! than any request of ours takes, and cutting the connection is the right answer to it. A body
//! that declares a length past the bound is not waited for at all (a client may declare 5 MB and
//! send nothing: the answer, a 413 among others, goes at once).

use crate::inbound::body::read_request;
use crate::request::ContentLength;

/// Reads and drops the rest of `req`'s body, at most `limit` bytes; nothing when the body was
/// read already, or there is none. `length`: what its `Content-Length` says, read against `limit`
/// ([`crate::request::declared_body_length`]; a request whose `Content-Length` is over the limit
/// or no number is not drained).
pub(crate) async fn drain(req: &web_sys::Request, length: ContentLength, limit: usize) {
    let declared = match length {
        ContentLength::Declared(len) => Some(len),
        ContentLength::Absent => None,
    };
    if req.body_used() || declared == Some(0) {
        return;
    }
    // Read and dropped: nothing kept.
    read_request(req, declared, 0, limit, limit).await;
}
