//! How many session feeds an isolate holds open, in all and for each session, against
//! `MAX_FEEDS` and `MAX_SESSION_FEEDS`: the counting rule (the edge, `crates/adapter/src/feed/`,
//! keeps one count per isolate and gives a place back when its feed ends).

use std::collections::HashMap;

use crate::refusal::Refusal;

/// The caps a count is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// `MAX_SESSION_FEEDS`.
    pub per_session: usize,
    /// `MAX_FEEDS`.
    pub total: usize,
}

/// The feeds open: their number, and their number per session.
#[derive(Debug, Default)]
pub struct FeedCount {
    total: usize,
    per_session: HashMap<String, usize>,
}

impl FeedCount {
    /// Takes a place for a feed of `session`, or refuses it at a cap: the session's first (429:
    /// its client may close one of its others), then the isolate's (503).
    pub fn take(&mut self, session: &str, caps: Caps) -> Result<(), Refusal> {
        let of_session = self.per_session.get(session).copied().unwrap_or(0);
        if of_session >= caps.per_session {
            return Err(Refusal::too_many_feeds(caps.per_session));
        }
        if self.total >= caps.total {
            return Err(Refusal::feeds_full());
        }
        self.total += 1;
        *self.per_session.entry(session.to_owned()).or_insert(0) += 1;
        Ok(())
    }

    /// Gives back a place of `session` (a feed ended). A session with no feed left is forgotten.
    pub fn give_back(&mut self, session: &str) {
        let Some(count) = self.per_session.get_mut(session) else {
            return;
        };
        *count -= 1;
        if *count == 0 {
            self.per_session.remove(session);
        }
        self.total = self.total.saturating_sub(1);
    }

    /// The feeds open, in all and for `session` (for the tests).
    #[cfg(test)]
    pub fn open(&self, session: &str) -> (usize, usize) {
        (
            self.total,
            self.per_session.get(session).copied().unwrap_or(0),
        )
    }
}

#[cfg(test)]
#[path = "slots_tests.rs"]
mod tests;
