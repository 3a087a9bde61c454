//! The bytes a feed's client has not read yet, and what the feed does when they would pass
//! [`MAX_QUEUED_BYTES`]: it falls behind. A feed behind writes nothing (no event, no
//! keep-alive); its state still follows the session (`Feed`), and once its client has taken
//! every byte queued, it is sent one `sync` of the session as it is then, in place of all it
//! missed (the event a reconnecting client gets: it loads the history if it holds other
//! messages, and resumes the turn in flight). "Every byte" is read as "no more than
//! [`LOW_WATER_BYTES`]": the edge's count of what waits may include a chunk already on its way
//! to the client (`ReaderWatch::queued_bytes`).
//!
//! So a client that stopped reading (a backgrounded tab, a phone in a tunnel, a client that
//! means harm) holds at most [`MAX_QUEUED_BYTES`] of the isolate, whatever turns carry; only an
//! event over 48 KiB (a `sync` or a `turn-start` that names thousands of message ids), which
//! goes out when no more than [`LOW_WATER_BYTES`] wait, may take it past, by that event. A feed
//! behind is still found out when its client goes: its queue is a write workerd has not finished,
//! and that write fails then.

/// The most bytes queued for one feed's client: 64 KiB. Every event but a `sync` or a
/// `turn-start` on a long session is under 200 bytes, and a `turn-start` carries at most
/// `MAX_MESSAGE_BYTES` (16 KiB) of its user message, so a client that stalls for a few turns
/// keeps them; the isolate's `MAX_FEEDS` (1,000) feeds all behind hold at most 64 MB, half of
/// its 128 MB, and the 100 stalled feeds of bench/feeds.mjs 6.4 MB.
pub const MAX_QUEUED_BYTES: usize = 64 * 1024;

/// What may still wait for a client that counts as having read everything: 16 KiB, a quarter of
/// the bound, the largest single chunk a feed writes but for the rare event over 48 KiB.
pub const LOW_WATER_BYTES: usize = 16 * 1024;

/// Whether a feed is behind.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Backlog {
    behind: bool,
    /// Writes dropped while behind (the log line's count).
    dropped: u64,
}

/// What the feed does with the bytes it has for its client now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    /// Write them.
    Write,
    /// Drop them: the feed is behind.
    Drop,
}

impl Backlog {
    /// `len` bytes to write, `queued` bytes not yet read by the client: written while they fit
    /// under [`MAX_QUEUED_BYTES`] (or the client has read everything: an event larger than the
    /// room goes out alone), else dropped, and the feed is behind until [`Backlog::caught_up`].
    pub fn admit(&mut self, queued: usize, len: usize) -> Admit {
        if !self.behind && (queued <= LOW_WATER_BYTES || queued + len <= MAX_QUEUED_BYTES) {
            return Admit::Write;
        }
        self.behind = true;
        self.dropped += 1;
        Admit::Drop
    }

    /// Whether a feed behind may write again now that `queued` bytes wait: once its client has
    /// taken them all (no more than [`LOW_WATER_BYTES`] wait). `true` once per falling behind:
    /// the edge then writes the feed's `sync`.
    pub fn caught_up(&mut self, queued: usize) -> bool {
        let caught_up = self.behind && queued <= LOW_WATER_BYTES;
        if caught_up {
            self.behind = false;
        }
        caught_up
    }

    /// Whether the feed is behind.
    pub fn is_behind(&self) -> bool {
        self.behind
    }

    /// The writes dropped while behind, in all.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

#[cfg(test)]
#[path = "backlog_tests.rs"]
mod tests;
