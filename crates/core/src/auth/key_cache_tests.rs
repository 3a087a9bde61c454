//! Unit tests of the JWKS cache policy: max-age, its bounds, refetches on an unknown `kid` and
//! after a failure, each at the millisecond it changes.

use serde_json::json;

use super::*;

const T0: u64 = 1_800_000_000_000;
const SEC: u64 = 1000;

fn keys(kids: &[&str]) -> KeySet {
    use base64::Engine;
    let n = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode([1u8; 256]);
    let keys: Vec<_> = kids
        .iter()
        .map(|kid| json!({"kty": "RSA", "kid": kid, "n": n, "e": "AQAB"}))
        .collect();
    KeySet::parse(json!({ "keys": keys }).to_string().as_bytes()).unwrap()
}

/// A cache loaded at `T0` with `kids`, kept for `cache_control`.
fn loaded(kids: &[&str], cache_control: Option<&str>) -> KeyCache {
    let mut cache = KeyCache::default();
    fetch(
        &mut cache,
        Reason::Load,
        Some((keys(kids), cache_control)),
        T0,
    );
    cache
}

/// A fetch for `reason` at `at` (begun and ended at once) with this outcome.
fn fetch(cache: &mut KeyCache, reason: Reason, outcome: Option<(KeySet, Option<&str>)>, at: u64) {
    cache.begin_fetch(reason, at);
    cache.record(outcome, at);
}

fn decide(cache: &KeyCache, kid: &str, at: u64) -> Decision {
    cache.decide(kid, Alg::Rs256, at)
}

fn is_use(decision: &Decision) -> bool {
    matches!(decision, Decision::Use(_))
}

#[test]
fn max_age_within_a_minute_and_an_hour() {
    for (header, secs) in [
        (None, DEFAULT_FRESH_SECS),
        (Some(""), DEFAULT_FRESH_SECS),
        (Some("public"), DEFAULT_FRESH_SECS),
        (Some("max-age=600"), 600),
        (Some("public, max-age=600, must-revalidate"), 600),
        (Some("Max-Age = \"120\""), 120),
        (Some("s-maxage=30, max-age=900"), 900),
        (Some("max-age=15552000"), MAX_FRESH_SECS),
        (Some("max-age=99999999999999999999999"), MAX_FRESH_SECS),
        (Some("max-age=3600"), 3600),
        (Some("max-age=3601"), 3600),
        (Some("max-age=60"), 60),
        (Some("max-age=59"), MIN_FRESH_SECS),
        (Some("max-age=0"), MIN_FRESH_SECS),
        (Some("no-store"), MIN_FRESH_SECS),
        (Some("max-age=600, no-cache"), MIN_FRESH_SECS),
        (Some("max-age=-5"), DEFAULT_FRESH_SECS),
        (Some("max-age=soon"), DEFAULT_FRESH_SECS),
        (Some("max-age="), DEFAULT_FRESH_SECS),
        (Some("max-age=120, max-age=900"), 120),
    ] {
        assert_eq!(fresh_secs(header), secs, "{header:?}");
    }
}

#[test]
fn the_first_token_loads_the_set_and_later_ones_use_it_until_max_age() {
    let empty = KeyCache::default();
    assert_eq!(decide(&empty, "k1", T0), Decision::Fetch(Reason::Load));
    let cache = loaded(&["k1"], Some("max-age=600"));
    assert!(is_use(&decide(&cache, "k1", T0)));
    assert!(is_use(&decide(&cache, "k1", T0 + 600 * SEC - 1)));
    assert_eq!(
        decide(&cache, "k1", T0 + 600 * SEC),
        Decision::Fetch(Reason::Load)
    );
    // Without a max-age, five minutes; never more than an hour.
    let plain = loaded(&["k1"], None);
    assert!(is_use(&decide(&plain, "k1", T0 + 300 * SEC - 1)));
    assert!(!is_use(&decide(&plain, "k1", T0 + 300 * SEC)));
    let year = loaded(&["k1"], Some("max-age=31536000"));
    assert!(is_use(&decide(&year, "k1", T0 + 3600 * SEC - 1)));
    assert_eq!(
        decide(&year, "k1", T0 + 3600 * SEC),
        Decision::Fetch(Reason::Load)
    );
}

#[test]
fn an_unknown_kid_refetches_once_a_minute_at_most() {
    let mut cache = loaded(&["k1"], Some("max-age=3600"));
    // Right after the load, a new kid may be a rotation: one refetch.
    assert_eq!(
        decide(&cache, "k2", T0 + SEC),
        Decision::Fetch(Reason::UnknownKid)
    );
    fetch(
        &mut cache,
        Reason::UnknownKid,
        Some((keys(&["k1", "k2"]), None)),
        T0 + SEC,
    );
    assert!(is_use(&decide(&cache, "k2", T0 + SEC)));
    // Further unknown kids within the minute: refused without a fetch.
    for kid in ["k3", "made-up", ""] {
        assert_eq!(
            decide(&cache, kid, T0 + 2 * SEC),
            Decision::Refuse(UNKNOWN_KID)
        );
    }
    assert_eq!(
        decide(&cache, "k3", T0 + 61 * SEC - 1),
        Decision::Refuse(UNKNOWN_KID)
    );
    assert_eq!(
        decide(&cache, "k3", T0 + 61 * SEC),
        Decision::Fetch(Reason::UnknownKid)
    );
    // The refetch replaced the set and its time: k2's set is kept five minutes (no max-age).
    assert!(is_use(&decide(&cache, "k1", T0 + SEC + 300 * SEC - 1)));
    assert_eq!(
        decide(&cache, "k1", T0 + SEC + 300 * SEC),
        Decision::Fetch(Reason::Load)
    );
}

#[test]
fn after_a_fetch_a_request_never_fetches_again() {
    let mut cache = loaded(&["k1"], None);
    fetch(
        &mut cache,
        Reason::UnknownKid,
        Some((keys(&["k1"]), None)),
        T0 + SEC,
    );
    assert_eq!(
        cache.decide_after_fetch("k9", Alg::Rs256, T0 + SEC),
        Decision::Refuse(UNKNOWN_KID)
    );
    // Even where a plain decision would refetch (a minute on), and a load that did not bring
    // the kid does not fetch again either.
    let later = T0 + 62 * SEC;
    assert_eq!(
        decide(&cache, "k9", later),
        Decision::Fetch(Reason::UnknownKid)
    );
    assert_eq!(
        cache.decide_after_fetch("k9", Alg::Rs256, later),
        Decision::Refuse(UNKNOWN_KID)
    );
    let fresh = loaded(&["k1"], None);
    assert_eq!(
        fresh.decide_after_fetch("k2", Alg::Rs256, T0),
        Decision::Refuse(UNKNOWN_KID)
    );
}

#[test]
fn a_failed_fetch_is_a_503_for_ten_seconds_never_an_open_door() {
    let mut cache = KeyCache::default();
    fetch(&mut cache, Reason::Load, None, T0);
    let unavailable = |secs| {
        Decision::Refuse(AuthError::Unavailable {
            retry_after_secs: secs,
        })
    };
    assert_eq!(decide(&cache, "k1", T0), unavailable(10));
    assert_eq!(
        cache.decide_after_fetch("k1", Alg::Rs256, T0),
        unavailable(10)
    );
    assert_eq!(decide(&cache, "k1", T0 + 1), unavailable(10));
    assert_eq!(decide(&cache, "k1", T0 + 9 * SEC), unavailable(1));
    assert_eq!(decide(&cache, "k1", T0 + 10 * SEC - 1), unavailable(1));
    assert_eq!(
        decide(&cache, "k1", T0 + 10 * SEC),
        Decision::Fetch(Reason::Load)
    );
    // Success clears the failure.
    fetch(
        &mut cache,
        Reason::Load,
        Some((keys(&["k1"]), None)),
        T0 + 10 * SEC,
    );
    assert!(is_use(&decide(&cache, "k1", T0 + 10 * SEC)));
}

#[test]
fn a_failed_refetch_keeps_the_keys_within_their_time() {
    let mut cache = loaded(&["k1"], Some("max-age=120"));
    fetch(&mut cache, Reason::UnknownKid, None, T0 + 5 * SEC);
    // The known key still works; the unknown one cannot be checked: 503, not 401.
    assert!(is_use(&decide(&cache, "k1", T0 + 6 * SEC)));
    assert_eq!(
        decide(&cache, "k2", T0 + 6 * SEC),
        Decision::Refuse(AuthError::Unavailable {
            retry_after_secs: 9
        })
    );
    // Ten seconds on, the refetch counts as the minute's: k2 is refused without a fetch.
    assert_eq!(
        decide(&cache, "k2", T0 + 15 * SEC),
        Decision::Refuse(UNKNOWN_KID)
    );
    // Stale keys are not used when the set cannot be fetched.
    fetch(&mut cache, Reason::Load, None, T0 + 120 * SEC);
    assert_eq!(
        decide(&cache, "k1", T0 + 121 * SEC),
        Decision::Refuse(AuthError::Unavailable {
            retry_after_secs: 9
        })
    );
}

#[test]
fn while_one_request_fetches_the_others_wait_for_its_outcome() {
    let mut cache = KeyCache::default();
    cache.begin_fetch(Reason::Load, T0);
    for kid in ["k1", "other"] {
        assert_eq!(decide(&cache, kid, T0 + 100), Decision::Wait);
        assert_eq!(
            cache.decide_after_fetch(kid, Alg::Rs256, T0 + 100),
            Decision::Wait
        );
    }
    cache.record(Some((keys(&["k1"]), None)), T0 + 200);
    assert!(is_use(&decide(&cache, "k1", T0 + 200)));
    // A refetch for one unknown kid: the same kid waits for it, a known one does not.
    cache.begin_fetch(Reason::UnknownKid, T0 + 300);
    assert!(is_use(&decide(&cache, "k1", T0 + 301)));
    assert_eq!(decide(&cache, "k2", T0 + 301), Decision::Wait);
    assert_eq!(decide(&cache, "k3", T0 + 301), Decision::Wait);
    cache.record(Some((keys(&["k1", "k2"]), None)), T0 + 400);
    assert!(is_use(&decide(&cache, "k2", T0 + 400)));
    // The refetch counted from its start: k3 is refused until a minute after it.
    assert_eq!(
        decide(&cache, "k3", T0 + 400),
        Decision::Refuse(UNKNOWN_KID)
    );
    assert_eq!(
        decide(&cache, "k3", T0 + 300 + 60 * SEC),
        Decision::Fetch(Reason::UnknownKid)
    );
}

#[test]
fn a_fetch_that_never_ends_holds_the_others_back_five_seconds() {
    let mut cache = KeyCache::default();
    cache.begin_fetch(Reason::Load, T0);
    assert_eq!(decide(&cache, "k1", T0 + 5 * SEC - 1), Decision::Wait);
    assert_eq!(
        decide(&cache, "k1", T0 + 5 * SEC),
        Decision::Fetch(Reason::Load)
    );
    // A failed fetch: the failure, not a wait, until it may be tried again.
    cache.begin_fetch(Reason::Load, T0 + 5 * SEC);
    cache.record(None, T0 + 6 * SEC);
    assert_eq!(
        decide(&cache, "k1", T0 + 6 * SEC),
        Decision::Refuse(AuthError::Unavailable {
            retry_after_secs: 10
        })
    );
}
