use super::*;
use crate::refusal::{FEEDS_FULL, TOO_MANY_FEEDS};

const CAPS: Caps = Caps {
    per_session: 2,
    total: 3,
};

#[test]
fn a_session_is_capped_before_the_isolate() {
    let mut count = FeedCount::default();
    count.take("a", CAPS).unwrap();
    count.take("a", CAPS).unwrap();
    let refused = count.take("a", CAPS).unwrap_err();
    assert_eq!(refused.kind, TOO_MANY_FEEDS);
    assert_eq!(refused.headers, [("retry-after", "30".to_owned())]);
    assert_eq!(count.open("a"), (2, 2), "a refusal takes no place");
    count.take("b", CAPS).unwrap();
    let refused = count.take("c", CAPS).unwrap_err();
    assert_eq!(refused.kind, FEEDS_FULL);
    // The session's cap still comes first when both are reached.
    assert_eq!(count.take("a", CAPS).unwrap_err().kind, TOO_MANY_FEEDS);
}

#[test]
fn a_place_given_back_is_taken_again() {
    let mut count = FeedCount::default();
    count.take("a", CAPS).unwrap();
    count.take("a", CAPS).unwrap();
    count.give_back("a");
    assert_eq!(count.open("a"), (1, 1));
    count.take("a", CAPS).unwrap();
    count.give_back("a");
    count.give_back("a");
    assert_eq!(count.open("a"), (0, 0));
    assert!(
        count.per_session.is_empty(),
        "a session with no feed is forgotten"
    );
    // Giving back what was never taken changes nothing.
    count.give_back("a");
    count.give_back("z");
    assert_eq!(count.open("a"), (0, 0));
    for session in ["x", "y", "z"] {
        count.take(session, CAPS).unwrap();
    }
    assert_eq!(count.take("w", CAPS).unwrap_err().kind, FEEDS_FULL);
}
