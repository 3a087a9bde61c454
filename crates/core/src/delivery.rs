//! The frames of one delivery: the text frames an agent sent in one turn of the event loop,
//! joined by a separator byte, read one after another into a [`TurnStream`].
//!
//! Most frames of a stream are deltas of the open part, which the stream recognises where the
//! frame starts and writes at once ([`TurnStream::push_leading_delta`]), so their end needs no
//! search of its own. Any other frame is found by the next separator and handed back, for the
//! caller to push ([`TurnStream::push_unmatched`], which does not look for a delta again), with
//! its own checks, such as a limit on its size.
//!
//! Ordering rules: frames come in the order of the delivery; a frame is written or handed back
//! before the next one is looked at, so a caller that stops early (the stream ended) has seen
//! exactly the frames before. The pieces are those `split` on the separator gives: an empty
//! delivery is one empty frame, and so is the text after a separator that ends it.

use crate::turn_stream::TurnStream;
use crate::word_scan;

/// What the next frame of a delivery was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next<'a> {
    /// A delta of the open part, written to the stream already.
    Streamed,
    /// A frame for the caller to push with [`TurnStream::push_unmatched`] (it is no delta of
    /// the open part: that was checked): its bytes.
    Frame(&'a [u8]),
}

/// A delivery being read.
#[derive(Debug)]
pub struct Delivery<'a> {
    /// What is left to read; `None` after the last frame.
    rest: Option<&'a [u8]>,
    separator: u8,
    max_len: usize,
}

impl<'a> Delivery<'a> {
    /// The frames of `bytes`, joined by `separator` (an ASCII byte JSON text never holds raw).
    /// A frame longer than `max_len` is always handed back.
    pub fn new(bytes: &'a [u8], separator: u8, max_len: usize) -> Self {
        debug_assert!(separator.is_ascii());
        Delivery {
            rest: Some(bytes),
            separator,
            max_len,
        }
    }

    /// The next frame: written into `out` through `turn` when it is a delta of the open part,
    /// else handed back. `None` after the last.
    pub fn next(&mut self, turn: &mut TurnStream, out: &mut Vec<u8>) -> Option<Next<'a>> {
        let bytes = self.rest?;
        let (next, end) = match turn.push_leading_delta(bytes, self.separator, self.max_len, out) {
            Some(end) => (Next::Streamed, end),
            None => {
                let end = word_scan::find(bytes, self.separator).unwrap_or(bytes.len());
                (Next::Frame(&bytes[..end]), end)
            }
        };
        // Past the separator; none (the end of the delivery) when the frame ended it.
        self.rest = bytes.get(end + 1..);
        Some(next)
    }
}

#[cfg(test)]
#[path = "delivery_tests.rs"]
mod tests;
