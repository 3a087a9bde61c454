//! Reading a body, with a bound, the one way every reader of a body uses: a chat POST's
//! ([`crate::handlers::chat`]), what is left of a request answered unread
//! ([`crate::inbound::drain`]), a JWKS answer ([`crate::guard::jwks_cache`]). A body whose
//! `Content-Length` declares a length within the bound is read in one call; any other chunk by
//! chunk, counted as it comes (read whole, a body of any length would be held before its size
//! could be refused).

use futures::{FutureExt, StreamExt};
use worker::ByteStream;

use crate::inbound::incoming::bytes_of;
use crate::platform::promise::settled;

/// What was read of a body.
pub(crate) struct Read {
    /// Its first bytes, at most the `keep` asked for.
    pub(crate) kept: Vec<u8>,
    /// How many bytes were read, kept or not (reading stops once past the `limit` asked for).
    pub(crate) total: usize,
    /// Whether a chunk could not be read.
    pub(crate) failed: bool,
}

impl Read {
    fn failed() -> Self {
        Read {
            kept: Vec::new(),
            total: 0,
            failed: true,
        }
    }

    /// Whether the body was longer than `max` bytes.
    pub(crate) fn over(&self, max: usize) -> bool {
        self.total > max
    }
}

/// Reads `body` chunk by chunk, keeping its first `keep` bytes, and stops once more than `limit`
/// bytes came (the rest is left unread: its stream is dropped, which cancels it).
pub(crate) async fn read_capped(body: web_sys::ReadableStream, keep: usize, limit: usize) -> Read {
    let mut stream = ByteStream::from(body);
    let mut read = Read {
        kept: Vec::new(),
        total: 0,
        failed: false,
    };
    while let Some(chunk) = stream.next().await {
        let Ok(chunk) = chunk else {
            read.failed = true;
            break;
        };
        let room = keep.saturating_sub(read.kept.len());
        read.kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        read.total = read.total.saturating_add(chunk.len());
        if read.total > limit {
            break;
        }
    }
    read
}

/// Reads `req`'s body, keeping its first `keep` bytes: in one call when its `Content-Length`
/// declares (`declared`, [`crate::request::declared_body_length`]) at most `whole_up_to` bytes, as the runtime then
/// holds it to that length (a reader would cost a round trip a chunk); else chunk by chunk, with
/// [`read_capped`]'s `limit`. No body at all reads as empty.
pub(crate) async fn read_request(
    req: &web_sys::Request,
    declared: Option<usize>,
    keep: usize,
    whole_up_to: usize,
    limit: usize,
) -> Read {
    if declared.is_some_and(|len| len <= whole_up_to) {
        let Ok(promise) = req.array_buffer() else {
            return Read::failed();
        };
        let Ok(buffer) = settled(&promise).await else {
            return Read::failed();
        };
        // Copied into WebAssembly only when it is kept (a drained body is only counted).
        let mut kept = if keep > 0 {
            bytes_of(&buffer)
        } else {
            Vec::new()
        };
        let total = if keep > 0 {
            kept.len()
        } else {
            declared.unwrap_or(0)
        };
        kept.truncate(keep);
        return Read {
            kept,
            total,
            failed: false,
        };
    }
    let Some(body) = req.body() else {
        return Read {
            kept: Vec::new(),
            total: 0,
            failed: false,
        };
    };
    // Its own future (boxed): a chat client declares its body's length, so this rarely runs,
    // and a first request that does not need it does not compile it.
    read_capped(body, keep, limit).boxed_local().await
}
