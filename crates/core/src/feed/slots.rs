//! How many session feeds an isolate holds open, in all, for each session and for each caller,
//! against `MAX_FEEDS`, `MAX_SESSION_FEEDS` and `MAX_USER_FEEDS`: the counting rule (the edge,
//! `crates/adapter/src/feed/`, keeps one count per isolate and gives a place back when its feed
//! ends).
//!
//! The caller is the rate limit's ([`crate::rate_limit::caller_key`]): the JWT's `sub`, else the
//! client's address (`CF-Connecting-IP`, which Cloudflare's edge sets on every request). A request
//! with neither (one that came through no Cloudflare edge: a local run) is counted for its
//! session and the isolate only. `MAX_USER_FEEDS` is below `MAX_FEEDS` (a setting at or above
//! it is refused, `crate::config`), so one caller never holds every place: at least
//! `MAX_FEEDS − MAX_USER_FEEDS` stay for the others.

use std::collections::HashMap;

use crate::rate_limit::caller_key;
use crate::refusal::Refusal;

/// The caps a count is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// `MAX_SESSION_FEEDS`.
    pub per_session: usize,
    /// `MAX_USER_FEEDS`.
    pub per_caller: usize,
    /// `MAX_FEEDS`.
    pub total: usize,
}

/// The key a feed's caller is counted under: `user:<sub>`, `ip:<address>`, or `None` for a
/// request with neither (counted for its session and the isolate only).
pub fn caller(user_id: Option<&str>, client_ip: Option<&str>) -> Option<String> {
    let ip = client_ip.map(str::trim).filter(|ip| !ip.is_empty());
    (user_id.is_some() || ip.is_some()).then(|| caller_key(user_id, ip))
}

/// The feeds open: their number, their number per session and per caller.
#[derive(Debug, Default)]
pub struct FeedCount {
    total: usize,
    per_session: HashMap<String, usize>,
    per_caller: HashMap<String, usize>,
}

impl FeedCount {
    /// Takes a place for a feed of `session` opened by `caller` (see [`caller`]), or refuses it
    /// at a cap: the session's first, then the caller's (both 429: the client may close one of
    /// its others), then the isolate's (503).
    pub fn take(&mut self, session: &str, caller: Option<&str>, caps: Caps) -> Result<(), Refusal> {
        if count_of(&self.per_session, Some(session)) >= caps.per_session {
            return Err(Refusal::too_many_feeds(caps.per_session));
        }
        if caller.is_some() && count_of(&self.per_caller, caller) >= caps.per_caller {
            return Err(Refusal::too_many_caller_feeds(caps.per_caller));
        }
        if self.total >= caps.total {
            return Err(Refusal::feeds_full());
        }
        self.total += 1;
        *self.per_session.entry(session.to_owned()).or_insert(0) += 1;
        if let Some(caller) = caller {
            *self.per_caller.entry(caller.to_owned()).or_insert(0) += 1;
        }
        Ok(())
    }

    /// Gives back a place of `session` taken by `caller` (a feed ended). A session or a caller
    /// with no feed left is forgotten.
    pub fn give_back(&mut self, session: &str, caller: Option<&str>) {
        if !release(&mut self.per_session, session) {
            return;
        }
        if let Some(caller) = caller {
            release(&mut self.per_caller, caller);
        }
        self.total = self.total.saturating_sub(1);
    }

    /// The feeds open: in all, for `session` and for `caller` (for the tests).
    #[cfg(test)]
    pub fn open(&self, session: &str, caller: Option<&str>) -> (usize, usize, usize) {
        (
            self.total,
            count_of(&self.per_session, Some(session)),
            count_of(&self.per_caller, caller),
        )
    }
}

/// The count of `key` in `counts` (0 when absent).
fn count_of(counts: &HashMap<String, usize>, key: Option<&str>) -> usize {
    key.and_then(|key| counts.get(key)).copied().unwrap_or(0)
}

/// Takes one off the count of `key`, forgetting it at 0; `false` when it had none.
fn release(counts: &mut HashMap<String, usize>, key: &str) -> bool {
    let Some(count) = counts.get_mut(key) else {
        return false;
    };
    *count -= 1;
    if *count == 0 {
        counts.remove(key);
    }
    true
}

#[cfg(test)]
#[path = "slots_tests.rs"]
mod tests;
