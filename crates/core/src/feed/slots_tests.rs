use super::*;
use crate::refusal::{FEEDS_FULL, TOO_MANY_FEEDS};

const CAPS: Caps = Caps {
    per_session: 2,
    per_caller: 3,
    total: 4,
};

#[test]
fn a_session_is_capped_before_the_isolate() {
    let mut count = FeedCount::default();
    count.take("a", None, CAPS).unwrap();
    count.take("a", None, CAPS).unwrap();
    let refused = count.take("a", None, CAPS).unwrap_err();
    assert_eq!(refused.kind, TOO_MANY_FEEDS);
    assert_eq!(refused.headers, [("retry-after", "10".to_owned())]);
    assert_eq!(count.open("a", None), (2, 2, 0), "a refusal takes no place");
    count.take("b", None, CAPS).unwrap();
    count.take("b", None, CAPS).unwrap();
    let refused = count.take("c", None, CAPS).unwrap_err();
    assert_eq!(refused.kind, FEEDS_FULL);
    // The session's cap still comes first when both are reached.
    assert_eq!(
        count.take("a", None, CAPS).unwrap_err().kind,
        TOO_MANY_FEEDS
    );
}

#[test]
fn a_caller_is_capped_before_the_isolate_and_leaves_the_others_their_places() {
    let mut count = FeedCount::default();
    for session in ["a", "b", "c"] {
        count.take(session, Some("user:greedy"), CAPS).unwrap();
    }
    let refused = count.take("d", Some("user:greedy"), CAPS).unwrap_err();
    assert_eq!(refused.kind, TOO_MANY_FEEDS);
    assert!(
        refused.message.contains("3 feeds open"),
        "{}",
        refused.message
    );
    assert_eq!(refused.headers, [("retry-after", "10".to_owned())]);
    assert_eq!(count.open("d", Some("user:greedy")), (3, 0, 3));
    // The isolate's last place is another caller's.
    count.take("e", Some("user:other"), CAPS).unwrap();
    assert_eq!(
        count.take("f", Some("user:third"), CAPS).unwrap_err().kind,
        FEEDS_FULL
    );
    // A caller's place given back is his again.
    count.give_back("a", Some("user:greedy"));
    assert_eq!(count.open("a", Some("user:greedy")), (3, 0, 2));
    count.take("a", Some("user:greedy"), CAPS).unwrap();
}

#[test]
fn a_request_with_no_caller_is_counted_for_its_session_and_the_isolate_only() {
    let mut count = FeedCount::default();
    for session in ["a", "a", "b", "b"] {
        count.take(session, None, CAPS).unwrap();
    }
    assert_eq!(count.open("a", None), (4, 2, 0));
    assert!(count.per_caller.is_empty());
}

#[test]
fn the_caller_is_the_sub_else_the_address_else_none() {
    assert_eq!(
        caller(Some("u-1"), Some("203.0.113.7")).as_deref(),
        Some("user:u-1")
    );
    assert_eq!(
        caller(None, Some(" 203.0.113.7 ")).as_deref(),
        Some("ip:203.0.113.7")
    );
    assert_eq!(caller(None, Some("  ")), None);
    assert_eq!(caller(None, None), None);
}

#[test]
fn a_place_given_back_is_taken_again() {
    let mut count = FeedCount::default();
    count.take("a", Some("ip:1"), CAPS).unwrap();
    count.take("a", Some("ip:1"), CAPS).unwrap();
    count.give_back("a", Some("ip:1"));
    assert_eq!(count.open("a", Some("ip:1")), (1, 1, 1));
    count.take("a", Some("ip:1"), CAPS).unwrap();
    count.give_back("a", Some("ip:1"));
    count.give_back("a", Some("ip:1"));
    assert_eq!(count.open("a", Some("ip:1")), (0, 0, 0));
    assert!(
        count.per_session.is_empty() && count.per_caller.is_empty(),
        "a session or a caller with no feed is forgotten"
    );
    // Giving back what was never taken changes nothing.
    count.give_back("a", Some("ip:1"));
    count.give_back("z", None);
    assert_eq!(count.open("a", None), (0, 0, 0));
    for session in ["w", "x", "y", "z"] {
        count.take(session, None, CAPS).unwrap();
    }
    assert_eq!(count.take("v", None, CAPS).unwrap_err().kind, FEEDS_FULL);
}

#[test]
fn a_refused_feed_is_told_to_come_back_when_a_gone_client_has_given_its_place_back() {
    assert_eq!(
        crate::refusal::FEED_RETRY_AFTER_S * 1_000,
        crate::feed::GONE_WITHIN_MS
    );
}
