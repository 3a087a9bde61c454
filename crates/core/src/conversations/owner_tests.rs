//! Tests of `owner`.

use super::*;
use crate::auth::jwt::JwtRules;
use crate::refusal::{INVALID_FIELD, NO_USER};

fn jwt() -> AuthMode {
    AuthMode::Jwt {
        secret: Some(vec![7; 32]),
        jwks_url: None,
        rules: JwtRules::default(),
    }
}

fn user(sub: Option<&str>) -> Principal {
    Principal {
        user_id: sub.map(str::to_owned),
        expires_at_ms: None,
    }
}

const KEY: &str = "0f8fad5b-d9cb-469f-a165-70867728950e";

#[test]
fn under_jwt_the_list_is_the_subs_and_a_header_changes_nothing() {
    assert_eq!(
        lister(&jwt(), &user(Some("u-1")), None).unwrap(),
        "user:u-1"
    );
    assert_eq!(
        lister(&jwt(), &user(Some("u-1")), Some(KEY)).unwrap(),
        "user:u-1"
    );
    assert_ne!(
        lister(&jwt(), &user(Some("u-1")), None),
        lister(&jwt(), &user(Some("u-2")), None)
    );
    let refused = lister(&jwt(), &user(None), Some(KEY)).unwrap_err();
    assert_eq!(
        refused.kind, NO_USER,
        "a token without `sub` has no list, header or not"
    );
    assert_eq!(of_turn(&jwt(), &user(None), Some(KEY)), None);
}

#[test]
fn without_a_user_in_the_credentials_the_header_names_the_list() {
    let token = AuthMode::Token {
        secret: "s".repeat(32),
    };
    for mode in [AuthMode::None, token] {
        assert_eq!(
            lister(&mode, &user(None), Some(KEY)).unwrap(),
            format!("key:{KEY}")
        );
        assert_eq!(lister(&mode, &user(None), None).unwrap_err().kind, NO_USER);
        assert_eq!(
            of_turn(&mode, &user(None), None),
            None,
            "no list: the turn is not listed"
        );
        let shortest = "k".repeat(MIN_KEY_CHARS);
        assert!(lister(&mode, &user(None), Some(&shortest)).is_ok());
        for bad in [
            "k".repeat(MIN_KEY_CHARS - 1),
            "k".repeat(129),
            format!("{KEY} x"),
            format!("{KEY}/"),
        ] {
            let refused = lister(&mode, &user(None), Some(&bad)).unwrap_err();
            assert_eq!(refused.kind, INVALID_FIELD, "{bad}");
            assert!(refused.message.contains("X-Conversations-Key"));
        }
    }
}

#[test]
fn a_key_and_a_sub_of_the_same_text_are_different_lists() {
    let sub = lister(&jwt(), &user(Some(KEY)), None).unwrap();
    let key = lister(&AuthMode::None, &user(None), Some(KEY)).unwrap();
    assert_ne!(sub, key);
}
