//! Unit tests of the auth modes: every refusal, every way in.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::json;

use super::jwt::{sign, CLOCK_SKEW_SECS};
use super::*;

const NOW: u64 = 1_800_000_000;
const SECRET: &[u8] = b"a-long-test-secret";

fn jwt_mode() -> AuthMode {
    AuthMode::Jwt {
        secret: SECRET.to_vec(),
    }
}

fn check(token: &str, session: &str) -> Result<Principal, AuthError> {
    authorize(&jwt_mode(), Some(&format!("Bearer {token}")), session, NOW)
}

#[test]
fn none_lets_everyone_in() {
    assert_eq!(
        authorize(&AuthMode::None, None, "s", NOW),
        Ok(Principal::default())
    );
}

#[test]
fn token_mode_compares_the_whole_token() {
    let mode = AuthMode::Token {
        secret: "s3cret".into(),
    };
    assert!(authorize(&mode, Some("Bearer s3cret"), "s", NOW).is_ok());
    assert!(authorize(&mode, Some("bearer   s3cret "), "s", NOW).is_ok());
    for bad in [
        "Bearer s3cre",
        "Bearer s3cret2",
        "Bearer S3CRET",
        "Basic s3cret",
    ] {
        let err = authorize(&mode, Some(bad), "s", NOW).unwrap_err();
        assert_eq!(err.status(), 401, "{bad}");
    }
    assert_eq!(authorize(&mode, None, "s", NOW), Err(AuthError::Missing));
    assert_eq!(
        authorize(&mode, Some("Bearer "), "s", NOW),
        Err(AuthError::Missing)
    );
}

#[test]
fn jwt_gives_the_user_and_checks_sessions() {
    let token = sign(
        &json!({"sub": "u1", "sessions": ["a", "b"], "exp": NOW + 60}),
        SECRET,
    );
    assert_eq!(check(&token, "b").unwrap().user_id.as_deref(), Some("u1"));
    let err = check(&token, "c").unwrap_err();
    assert_eq!((err.status(), err.code()), (403, "forbidden"));
    let any = sign(&json!({"sessions": "*"}), SECRET);
    assert_eq!(check(&any, "zzz").unwrap().user_id, None);
    let none = sign(&json!({"sub": "u"}), SECRET);
    assert_eq!(check(&none, "a"), Err(AuthError::Forbidden));
    let wrong_star = sign(&json!({"sessions": ["*"]}), SECRET);
    assert_eq!(check(&wrong_star, "a"), Err(AuthError::Forbidden));
}

#[test]
fn jwt_time_claims_allow_small_skew_only() {
    let skew = CLOCK_SKEW_SECS;
    let at = |exp: u64| sign(&json!({"sessions": "*", "exp": exp}), SECRET);
    assert!(check(&at(NOW - skew), "a").is_ok());
    assert_eq!(check(&at(NOW - skew - 1), "a"), Err(AuthError::Expired));
    let nbf = |nbf: u64| sign(&json!({"sessions": "*", "nbf": nbf}), SECRET);
    assert!(check(&nbf(NOW + skew), "a").is_ok());
    assert_eq!(
        check(&nbf(NOW + skew + 1), "a"),
        Err(AuthError::NotYetValid)
    );
}

#[test]
fn forged_tokens_are_refused() {
    let good = sign(&json!({"sub": "u", "sessions": "*"}), SECRET);
    let (head, rest) = good.split_once('.').unwrap();
    let (_, sig) = rest.split_once('.').unwrap();
    let enc = |v: serde_json::Value| URL_SAFE_NO_PAD.encode(v.to_string());
    let cases = [
        // Another secret.
        sign(&json!({"sub": "u", "sessions": "*"}), b"other"),
        // The payload swapped under a valid signature.
        format!(
            "{head}.{}.{sig}",
            enc(json!({"sub": "admin", "sessions": "*"}))
        ),
        // alg none, with and without a signature.
        format!(
            "{}.{}.",
            enc(json!({"alg": "none"})),
            enc(json!({"sessions": "*"}))
        ),
        format!(
            "{}.{}.{sig}",
            enc(json!({"alg": "none"})),
            enc(json!({"sessions": "*"}))
        ),
        // Another algorithm.
        format!(
            "{}.{}.{sig}",
            enc(json!({"alg": "HS512"})),
            enc(json!({"sessions": "*"}))
        ),
        // Shapes.
        "abc".into(),
        "a.b".into(),
        "a.b.c.d".into(),
        format!("{good}x"),
        format!("!{good}"),
    ];
    for token in cases {
        let err = check(&token, "a").unwrap_err();
        assert_eq!(err.status(), 401, "{token}: {err:?}");
        assert_eq!(err.code(), "invalid_token", "{token}");
    }
}

#[test]
fn config_never_runs_open_by_accident() {
    assert_eq!(AuthMode::from_config(None, None), Ok(AuthMode::None));
    assert!(AuthMode::from_config(Some("jwt"), None).is_err());
    assert!(AuthMode::from_config(Some("token"), Some("")).is_err());
    assert!(AuthMode::from_config(Some("JWT"), Some("x")).is_err());
    assert_eq!(
        AuthMode::from_config(Some("token"), Some("x")),
        Ok(AuthMode::Token { secret: "x".into() })
    );
    assert_eq!(
        format!(
            "{:?}",
            AuthMode::from_config(Some("jwt"), Some("hush")).unwrap()
        ),
        "AuthMode::Jwt"
    );
}

#[test]
fn messages_never_echo_credentials() {
    let err = check("secret-looking-token", "a").unwrap_err();
    assert!(!err.message().contains("secret-looking-token"));
    assert_eq!(AuthError::Missing.code(), "unauthorized");
}
