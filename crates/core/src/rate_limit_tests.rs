//! Tests of `rate_limit`.

use super::*;

#[test]
fn the_user_first_then_the_address() {
    assert_eq!(caller_key(Some("u-1"), Some("203.0.113.9")), "user:u-1");
    assert_eq!(caller_key(None, Some("203.0.113.9")), "ip:203.0.113.9");
    assert_eq!(caller_key(None, Some(" 2001:db8::1 ")), "ip:2001:db8::1");
    assert_eq!(caller_key(None, Some("")), "ip:unknown");
    assert_eq!(caller_key(None, None), "ip:unknown");
    // A user whose id looks like an address does not share that address's budget.
    assert_ne!(
        caller_key(Some("203.0.113.9"), None),
        caller_key(None, Some("203.0.113.9"))
    );
}

#[test]
fn a_429_says_when_to_come_back() {
    let limited = RateLimited {
        retry_after_secs: 60,
    };
    assert_eq!(
        limited.message(),
        "Too many requests from this caller. Try again in 60 seconds."
    );
    let refusal = Refusal::from(limited);
    assert_eq!(refusal.kind, RATE_LIMITED);
    let header = |name: &str| {
        let found = refusal.headers.iter().find(|(n, _)| *n == name);
        found.map(|(_, value)| value.as_str())
    };
    assert_eq!(header("retry-after"), Some("60"));
    assert_eq!(header("ratelimit"), Some(r#""caller";r=0;t=60"#));
}
