//! Tests of `grow`.

use super::*;

#[test]
fn the_command_asks_for_a_bounded_number() {
    assert_eq!(asked("/grow 3"), Some(3));
    assert_eq!(asked("  /grow   5000 extra"), Some(5_000));
    assert_eq!(asked("/grow 5001"), Some(MAX_GROW));
    assert_eq!(asked("/grow"), Some(DEFAULT_GROW));
    assert_eq!(asked("/grow many"), Some(DEFAULT_GROW));
    assert_eq!(asked("/grows 3"), None);
    assert_eq!(asked("please /grow 3"), None);
    assert_eq!(MAX_GROW * 2, MAX_SESSION_MESSAGES);
}

#[test]
fn the_reply_says_what_was_stored() {
    assert_eq!(
        reply(2_500, 2_500),
        "Grew the conversation by 2,500 exchanges (5,000 messages)."
    );
    assert_eq!(
        reply(5_000, 4_999),
        "Grew the conversation by 4,999 exchanges (9,998 messages). 5,000 were asked: \
         the session holds at most 10,000 messages."
    );
}
