//! When the JWKS is fetched again, as pure functions of the time (ms since the epoch): the
//! keys are kept for their `Cache-Control` max-age, one minute to one hour; a `kid` the set
//! does not have fetches it once, at most once a minute; a failed fetch is tried again after ten
//! seconds, and until then a token that needs the set is answered 503, never let through.
//!
//! One request fetches at a time; the others wait for its outcome in the cache. They cannot
//! await its fetch itself: the runtime ties a promise to the request that made it, and a
//! request woken from another's is canceled.

use super::error::AuthError;
use super::jwks::{Jwk, KeySet};
use super::jwt::Alg;

/// Longest time the keys are kept, in seconds: one hour (`docs/auth.md`), so a key the provider
/// withdraws stops working within the hour whatever its `Cache-Control` says.
pub const MAX_FRESH_SECS: u64 = 3600;
/// Shortest time the keys are kept, in seconds: a minute, so that a set sent with `no-store`,
/// `no-cache` or a tiny max-age is still fetched at most once a minute.
pub const MIN_FRESH_SECS: u64 = 60;
/// How long keys sent without a max-age are kept, in seconds: five minutes, so a provider's
/// rotation shows within minutes while a busy isolate fetches the set at most 12 times an hour.
pub const DEFAULT_FRESH_SECS: u64 = 300;
/// Least time between two fetches made for an unknown `kid`, in seconds (never more than once
/// a minute), so tokens with made-up `kid`s cannot make the worker hammer the JWKS.
pub const REFETCH_INTERVAL_SECS: u64 = 60;
/// Wait after a failed fetch before the next one, in seconds: a provider's outage costs it one
/// request per isolate every ten seconds, and a blip locks callers out for ten seconds at most.
pub const RETRY_AFTER_FAILURE_SECS: u64 = 10;
/// Longest a fetch may take, headers and body, in seconds: providers serve their JWKS from a
/// CDN in well under a second. After it the fetch counts as failed, and a fetch whose request
/// went away without an outcome no longer holds the others back.
pub const FETCH_TIMEOUT_SECS: u64 = 5;

const MS: u64 = 1000;

/// How long a JWKS response may be kept, in seconds, from its `Cache-Control` header: its
/// `max-age`, within [`MIN_FRESH_SECS`]..=[`MAX_FRESH_SECS`]; `no-store` and `no-cache` the
/// least; no header or no max-age [`DEFAULT_FRESH_SECS`].
pub fn fresh_secs(cache_control: Option<&str>) -> u64 {
    let mut max_age = None;
    for directive in cache_control.unwrap_or("").split(',') {
        let (name, value) = directive.split_once('=').unwrap_or((directive, ""));
        let name = name.trim();
        if name.eq_ignore_ascii_case("no-store") || name.eq_ignore_ascii_case("no-cache") {
            return MIN_FRESH_SECS;
        }
        if name.eq_ignore_ascii_case("max-age") {
            let value = value.trim().trim_matches('"');
            // A number too large for u64 is still a long time: the cap applies.
            let secs = match value.parse::<u64>() {
                Ok(secs) => Some(secs),
                Err(_) if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                    Some(u64::MAX)
                }
                Err(_) => None,
            };
            max_age = max_age.or(secs);
        }
    }
    max_age
        .unwrap_or(DEFAULT_FRESH_SECS)
        .clamp(MIN_FRESH_SECS, MAX_FRESH_SECS)
}

/// Why a fetch is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// No keys yet, or their time is up.
    Load,
    /// The token's `kid` is not in the set: the provider may have rotated its keys.
    UnknownKid,
}

/// What to do with a token's `kid`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Verify with this key.
    Use(Jwk),
    /// Fetch the set ([`KeyCache::begin_fetch`], then [`KeyCache::record`]), then decide again
    /// with [`KeyCache::decide_after_fetch`].
    Fetch(Reason),
    /// Another request is fetching the set: decide again shortly.
    Wait,
    /// Answer with this error: the `kid` is unknown (401), or the set cannot be had (503).
    Refuse(AuthError),
}

/// The isolate's JWKS and the times that rule its fetches.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeyCache {
    keys: Option<KeySet>,
    fresh_until_ms: u64,
    last_refetch_ms: Option<u64>,
    failed_at_ms: Option<u64>,
    fetching_since_ms: Option<u64>,
}

/// The refusal of a `kid` the set does not have.
pub const UNKNOWN_KID: AuthError = AuthError::Invalid("its key (`kid`) is not in the key set");

impl KeyCache {
    /// What to do with a token of `alg` naming `kid` at `now_ms`.
    pub fn decide(&self, kid: &str, alg: Alg, now_ms: u64) -> Decision {
        self.decision(kid, alg, now_ms, true)
    }

    /// The same once this request has fetched (or waited for another's fetch): never a second
    /// fetch.
    pub fn decide_after_fetch(&self, kid: &str, alg: Alg, now_ms: u64) -> Decision {
        self.decision(kid, alg, now_ms, false)
    }

    fn decision(&self, kid: &str, alg: Alg, now_ms: u64, may_fetch: bool) -> Decision {
        let fresh = self.keys.as_ref().filter(|_| now_ms < self.fresh_until_ms);
        if let Some(key) = fresh.and_then(|keys| keys.find(kid, alg)) {
            return Decision::Use(key.clone());
        }
        // Whatever else: a fetch under way may bring the key, or end a failure.
        let fetching = self
            .fetching_since_ms
            .is_some_and(|since| now_ms < since.saturating_add(FETCH_TIMEOUT_SECS * MS));
        if fetching {
            return Decision::Wait;
        }
        if let Some(failed_at) = self.failed_at_ms {
            let retry_at = failed_at.saturating_add(RETRY_AFTER_FAILURE_SECS * MS);
            if now_ms < retry_at {
                return Decision::Refuse(AuthError::Unavailable {
                    retry_after_secs: (retry_at - now_ms).div_ceil(MS),
                });
            }
        }
        if fresh.is_none() {
            return if may_fetch {
                Decision::Fetch(Reason::Load)
            } else {
                // Reached only if the clock went back after a fetch: the next request fetches.
                Decision::Refuse(AuthError::Unavailable {
                    retry_after_secs: 1,
                })
            };
        }
        let refetch_due = self
            .last_refetch_ms
            .is_none_or(|at| now_ms >= at.saturating_add(REFETCH_INTERVAL_SECS * MS));
        if may_fetch && refetch_due {
            Decision::Fetch(Reason::UnknownKid)
        } else {
            Decision::Refuse(UNKNOWN_KID)
        }
    }

    /// Notes a fetch for `reason` starting at `now_ms`: other requests wait for it, and a refetch
    /// for an unknown `kid` counts against the minute from its start.
    pub fn begin_fetch(&mut self, reason: Reason, now_ms: u64) {
        self.fetching_since_ms = Some(now_ms);
        if reason == Reason::UnknownKid {
            self.last_refetch_ms = Some(now_ms);
        }
    }

    /// Records the outcome of the fetch at `now_ms`: the set and its `Cache-Control` header, or
    /// `None` when it failed (network error, non-2xx, not a JWKS, too slow). A failure keeps the
    /// keys there were, within their time.
    pub fn record(&mut self, fetched: Option<(KeySet, Option<&str>)>, now_ms: u64) {
        self.fetching_since_ms = None;
        match fetched {
            Some((keys, cache_control)) => {
                self.keys = Some(keys);
                self.fresh_until_ms = now_ms.saturating_add(fresh_secs(cache_control) * MS);
                self.failed_at_ms = None;
            }
            None => self.failed_at_ms = Some(now_ms),
        }
    }
}

#[cfg(test)]
#[path = "key_cache_tests.rs"]
mod tests;
