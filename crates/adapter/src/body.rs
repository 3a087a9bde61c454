//! Reading a body of no declared length chunk by chunk, with a bound: a chat POST sent without
//! `Content-Length`, what is left of a request answered unread ([`crate::drain`]), a JWKS answer
//! ([`crate::jwks_cache`]). Read whole, a body of any length would be held before its size could
//! be refused.

use futures::StreamExt;
use worker::ByteStream;

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
