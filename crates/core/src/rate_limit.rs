//! Per-caller rate limiting, the pure part: whose budget a request spends (the JWT's `sub`, else
//! the client's IP) and the 429 it gets once that is spent (a [`Refusal`]). The counting is
//! Cloudflare's Rate Limiting binding's (the edge calls it); this service keeps no counter of its
//! own.
//!
//! The 429's headers are those of the IETF's RateLimit header fields draft
//! (draft-ietf-httpapi-ratelimit-headers, structured fields) with `Retry-After` (RFC 9110 §10.2.3):
//! `RateLimit: "caller";r=0;t=<period>`: the caller's policy has 0 requests left, and a new
//! budget within `t` seconds. The binding answers only "over or not": it tells neither its quota
//! (`limit` lives in wrangler.toml's `[[ratelimits]]`, out of the worker's reach) nor what is
//! left, so no `RateLimit-Policy` (its quota `q` is required) and no `RateLimit` on a success is
//! sent: a header that guessed would mislead a client more than none.

use crate::refusal::{Refusal, RATE_LIMITED};

/// The key of the caller's budget: `user:<sub>` for a JWT with a `sub`, else `ip:<address>` from
/// `CF-Connecting-IP`, else `ip:unknown` (a request that came through no Cloudflare edge: local
/// runs share one budget). The prefixes keep a user named like an address apart from it.
pub fn caller_key(user_id: Option<&str>, client_ip: Option<&str>) -> String {
    match (
        user_id,
        client_ip.map(str::trim).filter(|ip| !ip.is_empty()),
    ) {
        (Some(user), _) => format!("user:{user}"),
        (None, Some(ip)) => format!("ip:{ip}"),
        (None, None) => "ip:unknown".to_owned(),
    }
}

/// The name of the one policy the `RateLimit` field reports: the caller's budget.
pub const POLICY: &str = "caller";

/// A caller over its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimited {
    /// The binding's period (`RATE_LIMIT_PERIOD_S`): by then the caller has a new budget.
    pub retry_after_secs: u64,
}

impl RateLimited {
    pub fn message(&self) -> String {
        format!(
            "Too many requests from this caller. Try again in {} seconds.",
            self.retry_after_secs
        )
    }
}

impl From<RateLimited> for Refusal {
    /// With `Retry-After` and `RateLimit`: the caller's budget is new by then.
    fn from(limited: RateLimited) -> Self {
        let secs = limited.retry_after_secs;
        Refusal::new(RATE_LIMITED, limited.message())
            .with_header("retry-after", secs.to_string())
            .with_header("ratelimit", format!("\"{POLICY}\";r=0;t={secs}"))
    }
}

#[cfg(test)]
#[path = "rate_limit_tests.rs"]
mod tests;
