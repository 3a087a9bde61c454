//! Unit tests of the auth modes: every refusal, every way in.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::json;

use super::hs256_native::{self, sign};
use super::jwt::{JwtRules, CLOCK_SKEW_SECS};
use super::*;

const NOW: u64 = 1_800_000_000;
const SECRET: &[u8] = b"a-long-test-secret";

/// An expiry an hour ahead, for tokens whose test is about something else.
const EXP: u64 = NOW + 3600;

/// The caller of `session` that [`authorize`] and then the edge's HS256 check (natively here)
/// let in, or the refusal; a token that needs a JWKS key is a bug of the test.
fn decided(
    admission: Result<Admission<'_>, AuthError>,
    session: &str,
) -> Result<Principal, AuthError> {
    match admission? {
        Admission::Admitted(principal) => Ok(principal),
        Admission::NeedsSecret(token) => hs256_native::admit(&token, session, NOW),
        Admission::NeedsKey(token) => panic!("needs a key: {token:?}"),
    }
}

fn check_mode(mode: &AuthMode, authorization: Option<&str>) -> Result<Principal, AuthError> {
    decided(authorize(mode, authorization), "s")
}

fn hs256(rules: JwtRules) -> AuthMode {
    AuthMode::Jwt {
        secret: Some(SECRET.to_vec()),
        jwks_url: None,
        rules,
    }
}

fn check_with(rules: JwtRules, token: &str, session: &str) -> Result<Principal, AuthError> {
    let mode = hs256(rules);
    decided(authorize(&mode, Some(&format!("Bearer {token}"))), session)
}

fn check(token: &str, session: &str) -> Result<Principal, AuthError> {
    check_with(JwtRules::default(), token, session)
}

#[test]
fn none_lets_everyone_in() {
    assert_eq!(check_mode(&AuthMode::None, None), Ok(Principal::default()));
}

#[test]
fn token_mode_compares_the_whole_token() {
    let mode = AuthMode::Token {
        secret: "s3cret".into(),
    };
    assert!(check_mode(&mode, Some("Bearer s3cret")).is_ok());
    assert!(check_mode(&mode, Some("bearer   s3cret ")).is_ok());
    for bad in [
        "Bearer s3cre",
        "Bearer s3cret2",
        "Bearer S3CRET",
        "Basic s3cret",
    ] {
        let err = check_mode(&mode, Some(bad)).unwrap_err();
        assert_eq!(err.kind().status, 401, "{bad}");
    }
    assert_eq!(check_mode(&mode, None), Err(AuthError::Missing));
    assert_eq!(check_mode(&mode, Some("Bearer ")), Err(AuthError::Missing));
}

#[test]
fn same_token_needs_every_byte_and_the_length() {
    let secret = b"s3cret";
    assert!(same_token(b"s3cret", secret));
    for bad in [
        &b""[..],
        b"s",
        b"s3cre",
        b"s3cret2",
        b"s3crets3cret",
        b"S3cret",
        b"s3creT",
    ] {
        assert!(!same_token(bad, secret), "{bad:?}");
    }
    assert!(!same_token(b"x", b""));
}

#[test]
fn an_hs256_token_is_never_admitted_before_its_signature_is_checked() {
    // The core hands every HS256 token to the edge's check, even a valid one.
    let mode = hs256(JwtRules::default());
    for secret in [SECRET, b"other"] {
        let token = sign(&json!({"sessions": "*", "exp": EXP}), secret);
        let authorization = format!("Bearer {token}");
        match authorize(&mode, Some(&authorization)) {
            Ok(Admission::NeedsSecret(token)) => assert_eq!(token.secret, SECRET),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn jwt_gives_the_user_and_checks_sessions() {
    let token = sign(
        &json!({"sub": "u1", "sessions": ["a", "b"], "exp": NOW + 60}),
        SECRET,
    );
    assert_eq!(check(&token, "b").unwrap().user_id.as_deref(), Some("u1"));
    let err = check(&token, "c").unwrap_err();
    assert_eq!(err.kind().pair(), (403, "forbidden"));
    let any = sign(&json!({"sessions": "*", "exp": EXP}), SECRET);
    assert_eq!(check(&any, "zzz").unwrap().user_id, None);
    let none = sign(&json!({"sub": "u", "exp": EXP}), SECRET);
    assert_eq!(check(&none, "a"), Err(AuthError::Forbidden));
    let wrong_star = sign(&json!({"sessions": ["*"], "exp": EXP}), SECRET);
    assert_eq!(check(&wrong_star, "a"), Err(AuthError::Forbidden));
}

#[test]
fn only_a_token_for_every_session_lists_them() {
    let star = sign(&json!({"sub": "u1", "sessions": "*", "exp": EXP}), SECRET);
    assert_eq!(
        check(&star, EVERY_SESSION).unwrap().user_id.as_deref(),
        Some("u1")
    );
    for sessions in [
        json!(["a", "b"]),
        json!(["*"]),
        json!([EVERY_SESSION, "a"]),
        json!(null),
    ] {
        let token = sign(
            &json!({"sub": "u1", "sessions": sessions, "exp": EXP}),
            SECRET,
        );
        let refused = check(&token, EVERY_SESSION).unwrap_err();
        assert_eq!(refused, AuthError::NotEverySession, "{sessions}");
        assert_eq!(refused.kind().pair(), (403, "forbidden"));
        assert!(refused.message().contains("\"*\""), "{}", refused.message());
    }
}

#[test]
fn jwt_time_claims_allow_small_skew_only() {
    let skew = CLOCK_SKEW_SECS;
    let at = |exp: u64| sign(&json!({"sessions": "*", "exp": exp}), SECRET);
    assert!(check(&at(NOW - skew), "a").is_ok());
    assert_eq!(check(&at(NOW - skew - 1), "a"), Err(AuthError::Expired));
    let nbf = |nbf: u64| sign(&json!({"sessions": "*", "nbf": nbf, "exp": EXP}), SECRET);
    assert!(check(&nbf(NOW + skew), "a").is_ok());
    assert_eq!(
        check(&nbf(NOW + skew + 1), "a"),
        Err(AuthError::NotYetValid)
    );
}

#[test]
fn forged_tokens_are_refused() {
    let good = sign(&json!({"sub": "u", "sessions": "*", "exp": EXP}), SECRET);
    let (head, rest) = good.split_once('.').unwrap();
    let (_, sig) = rest.split_once('.').unwrap();
    let enc = |v: serde_json::Value| URL_SAFE_NO_PAD.encode(v.to_string());
    let cases = [
        // Another secret.
        sign(&json!({"sub": "u", "sessions": "*", "exp": EXP}), b"other"),
        // The payload swapped under a valid signature.
        format!(
            "{head}.{}.{sig}",
            enc(json!({"sub": "admin", "sessions": "*", "exp": EXP}))
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
        assert_eq!(err.kind().status, 401, "{token}: {err:?}");
        assert_eq!(err.kind().code, "invalid_token", "{token}");
    }
}

#[test]
fn config_never_runs_open_by_accident() {
    let from = |mode, secret| AuthMode::from_config(mode, secret, None, JwtRules::default());
    assert!(
        from(None, None).is_err(),
        "no AUTH_MODE is jwt, which needs its keys"
    );
    assert_eq!(
        format!("{:?}", from(None, Some(KEY_32)).unwrap()),
        "AuthMode::Jwt"
    );
    assert_eq!(from(Some("none"), None), Ok(AuthMode::None));
    assert!(from(Some("jwt"), None).is_err());
    assert!(from(Some("token"), Some("")).is_err());
    assert!(from(Some("JWT"), Some(KEY_32)).is_err());
    assert_eq!(
        from(Some("token"), Some(KEY_32)),
        Ok(AuthMode::Token {
            secret: KEY_32.into()
        })
    );
    assert_eq!(
        format!("{:?}", from(Some("jwt"), Some(KEY_32)).unwrap()),
        "AuthMode::Jwt"
    );
}

/// A secret of exactly [`MIN_SECRET_BYTES`].
const KEY_32: &str = "k-0123456789-0123456789-01234567";

#[test]
fn a_secret_shorter_than_hs256_s_key_size_is_refused_at_start_up() {
    let from = |mode, secret| AuthMode::from_config(mode, secret, None, JwtRules::default());
    assert_eq!(KEY_32.len(), MIN_SECRET_BYTES);
    let short = &KEY_32[1..];
    for mode in ["token", "jwt"] {
        assert!(from(Some(mode), Some(KEY_32)).is_ok(), "{mode}");
        let err = from(Some(mode), Some(short)).unwrap_err().0;
        assert_eq!(
            err,
            "AUTH_SECRET must be at least 32 bytes (HS256's key size); this one has 31"
        );
        assert!(!err.contains(short));
    }
    // The local demo's `none` reads no secret, so none is too short for it.
    assert_eq!(from(Some("none"), Some("s")), Ok(AuthMode::None));
}

#[test]
fn messages_never_echo_credentials() {
    let err = check("secret-looking-token", "a").unwrap_err();
    assert!(!err.message().contains("secret-looking-token"));
    assert_eq!(AuthError::Missing.kind().code, "unauthorized");
}

/// The refusal of `token` for session "a", as (status, code, message).
fn refusal(rules: JwtRules, token: &str) -> (u16, &'static str, String) {
    let err = check_with(rules, token, "a").unwrap_err();
    (err.kind().status, err.kind().code, err.message())
}

fn invalid(message: &str) -> (u16, &'static str, String) {
    (401, "invalid_token", message.to_owned())
}

#[test]
fn jwt_without_exp_is_refused() {
    for claims in [
        json!({"sub": "u", "sessions": "*"}),
        json!({"sub": "u", "sessions": "*", "exp": null}),
        json!({"sessions": "*", "nbf": NOW - 10, "iat": NOW - 10}),
    ] {
        assert_eq!(
            refusal(JwtRules::default(), &sign(&claims, SECRET)),
            invalid("The bearer token is not valid: it has no expiry (`exp`)."),
            "{claims}"
        );
    }
    // A far expiry is still an expiry when no cap is set.
    let decade = sign(&json!({"sessions": "*", "exp": NOW + 315_360_000}), SECRET);
    assert!(check(&decade, "a").is_ok());
}

#[test]
fn jwt_claims_of_the_wrong_type_are_bad_json() {
    for claims in [
        json!({"sessions": "*", "exp": "tomorrow"}),
        json!({"sessions": "*", "exp": EXP, "nbf": true}),
        json!({"sessions": "*", "exp": EXP, "iat": [1]}),
        json!({"sessions": "*", "exp": EXP, "sub": 42}),
        json!({"sessions": "*", "exp": EXP, "iss": {"name": "x"}}),
        json!(["not", "an", "object"]),
    ] {
        assert_eq!(
            refusal(JwtRules::default(), &sign(&claims, SECRET)),
            invalid("The bearer token is not valid: bad JSON."),
            "{claims}"
        );
    }
    // `null` is as good as absent; integers and fractions are both numbers.
    let fine = json!({"sessions": "*", "exp": EXP as f64 + 0.5, "nbf": null, "sub": null});
    let principal = check(&sign(&fine, SECRET), "a").unwrap();
    assert_eq!(principal.user_id, None);
    // The credentials end when the worker would refuse them, `exp` and the skew allowed, to the
    // millisecond: a feed ends there too.
    assert_eq!(
        principal.expires_at_ms,
        Some((EXP + CLOCK_SKEW_SECS) * 1000 + 500)
    );
}

#[test]
fn jwt_max_age_caps_exp_minus_iat() {
    let capped = || JwtRules {
        max_age_secs: Some(3600),
        ..JwtRules::default()
    };
    let token =
        |iat: u64, exp: u64| sign(&json!({"sessions": "*", "iat": iat, "exp": exp}), SECRET);
    assert!(check_with(capped(), &token(NOW, NOW + 3600), "a").is_ok());
    assert!(check_with(capped(), &token(NOW - 100, NOW + 3500), "a").is_ok());
    let too_long = "The bearer token is not valid: it lives longer (`exp` - `iat`) than the limit of 3600 seconds.";
    assert_eq!(
        refusal(capped(), &token(NOW, NOW + 3601)),
        invalid(too_long)
    );
    assert_eq!(
        check_with(capped(), &token(NOW - 7200, NOW + 3600), "a"),
        Err(AuthError::TooLongLived { max_age_secs: 3600 })
    );
    // Without `iat` the lifetime is unknown: refused while the cap is set, fine without it.
    let no_iat = sign(&json!({"sessions": "*", "exp": NOW + 60}), SECRET);
    assert_eq!(
        refusal(capped(), &no_iat),
        invalid("The bearer token is not valid: it has no issue time (`iat`), which the lifetime limit needs.")
    );
    assert!(check(&no_iat, "a").is_ok());
    // An `iat` ahead of the clock (past the skew) would hide a long lifetime.
    let skew = CLOCK_SKEW_SECS;
    assert!(check_with(capped(), &token(NOW + skew, NOW + skew + 60), "a").is_ok());
    assert_eq!(
        refusal(capped(), &token(NOW + skew + 1, NOW + skew + 61)),
        invalid("The bearer token is not valid: its issue time (`iat`) is in the future.")
    );
    // The cap does not excuse an expired token.
    assert_eq!(
        check_with(capped(), &token(NOW - 4000, NOW - 3000), "a"),
        Err(AuthError::Expired)
    );
}

#[test]
fn jwt_sub_must_be_a_header_value() {
    let with_sub = |sub: &str| sign(&json!({"sub": sub, "sessions": "*", "exp": EXP}), SECRET);
    for good in [
        "u1",
        "auth0|6543",
        "user_2abc",
        "a b",
        "x@example.com",
        "~!#$%&'*+-.^_`|",
    ] {
        assert_eq!(
            check(&with_sub(good), "a").unwrap().user_id.as_deref(),
            Some(good)
        );
    }
    let message = "The bearer token is not valid: its `sub` must be visible ASCII characters, with spaces only between them.";
    for bad in [
        "",
        " u",
        "u ",
        "u\r\nx-admin: 1",
        "u\n",
        "u\r",
        "u\0",
        "a\tb",
        "\u{7f}",
        "\u{1b}[31m",
        "é",
        "ü",
        "用户",
        "\u{2028}",
    ] {
        assert_eq!(
            refusal(JwtRules::default(), &with_sub(bad)),
            invalid(message),
            "{bad:?}"
        );
    }
}

#[test]
fn sessions_claim_is_configurable_and_read_as_one_key() {
    let named = |claim: &str| JwtRules {
        sessions_claim: claim.into(),
        ..JwtRules::default()
    };
    let ns = "https://example.com/sessions";
    let token = sign(&json!({"sub": "u", ns: ["a"], "exp": EXP}), SECRET);
    assert_eq!(
        check_with(named(ns), &token, "a")
            .unwrap()
            .user_id
            .as_deref(),
        Some("u")
    );
    assert_eq!(
        check_with(named(ns), &token, "b"),
        Err(AuthError::Forbidden)
    );
    // The default name does not read the namespaced claim, nor the other way round.
    assert_eq!(check(&token, "a"), Err(AuthError::Forbidden));
    let plain = sign(&json!({"sessions": "*", "exp": EXP}), SECRET);
    assert!(check(&plain, "a").is_ok());
    assert_eq!(
        check_with(named(ns), &plain, "a"),
        Err(AuthError::Forbidden)
    );
    // A dotted name is one key, never a path.
    let nested = sign(&json!({"app": {"sessions": "*"}, "exp": EXP}), SECRET);
    assert_eq!(
        check_with(named("app.sessions"), &nested, "a"),
        Err(AuthError::Forbidden)
    );
    let dotted = sign(&json!({"app.sessions": ["a"], "exp": EXP}), SECRET);
    assert!(check_with(named("app.sessions"), &dotted, "a").is_ok());
}
