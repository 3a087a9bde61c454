//! Unit tests of JWTs signed with a JWKS key (RS256, ES256) as far as the pure core takes them:
//! configuration, which tokens need a key and which are refused first, and the claim rules
//! (`iss`, `aud`, `exp`, sessions) once the edge has verified the signature.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};

use super::hs256_native::{self, sign};
use super::jwt::JwtRules;
use super::*;

const NOW: u64 = 1_800_000_000;
const EXP: u64 = NOW + 3600;
const SECRET: &[u8] = b"a-long-test-secret";
const URL: &str = "https://tenant.example/.well-known/jwks.json";

/// A token with this header and these claims, and a signature of `sig_len` bytes that nothing
/// here checks (the edge verifies it with WebCrypto).
fn keyed(header: Value, claims: Value, sig_len: usize) -> String {
    let enc = |v: &Value| URL_SAFE_NO_PAD.encode(v.to_string());
    let sig = URL_SAFE_NO_PAD.encode(vec![7u8; sig_len]);
    format!("{}.{}.{sig}", enc(&header), enc(&claims))
}

fn rs256(kid: &str, claims: Value) -> String {
    keyed(
        json!({"alg": "RS256", "typ": "JWT", "kid": kid}),
        claims,
        256,
    )
}

fn mode(secret: Option<&[u8]>, jwks_url: Option<&str>, rules: JwtRules) -> AuthMode {
    AuthMode::Jwt {
        secret: secret.map(<[u8]>::to_vec),
        jwks_url: jwks_url.map(str::to_owned),
        rules,
    }
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// The caller of session "a" for `token`, as if its signature had been verified.
fn admit_verified(mode: &AuthMode, token: &str) -> Result<Principal, AuthError> {
    let authorization = bearer(token);
    match authorize(mode, Some(&authorization))? {
        Admission::NeedsKey(keyed) => keyed.admit("a", NOW),
        Admission::Admitted(_) | Admission::NeedsSecret(_) => panic!("not a keyed token"),
    }
}

/// An HS256 key of the shortest length accepted.
const KEY: &str = "k-0123456789-0123456789-01234567";

#[test]
fn jwt_mode_takes_a_secret_a_jwks_url_or_both() {
    let rules = JwtRules::default;
    let from = |mode, secret, url| AuthMode::from_config(mode, secret, url, rules());
    assert_eq!(
        from(Some("jwt"), None, Some(URL)),
        Ok(mode(None, Some(URL), rules()))
    );
    assert_eq!(
        from(Some("jwt"), Some(KEY), Some(URL)),
        Ok(mode(Some(KEY.as_bytes()), Some(URL), rules()))
    );
    assert_eq!(
        from(Some("jwt"), Some(KEY), None),
        Ok(mode(Some(KEY.as_bytes()), None, rules()))
    );
    let err = |mode, secret, url| from(mode, secret, url).unwrap_err().0;
    assert_eq!(
        err(Some("jwt"), None, None),
        "AUTH_MODE is \"jwt\" (the default when it is not set) but neither AUTH_SECRET nor JWKS_URL is set"
    );
    assert_eq!(
        err(Some("jwt"), Some(""), None),
        "AUTH_MODE is \"jwt\" (the default when it is not set) but neither AUTH_SECRET nor JWKS_URL is set"
    );
    assert_eq!(err(Some("token"), None, None), "AUTH_SECRET is not set");
    // A JWKS URL where nothing would check it is a mistake, not a setting to ignore. (No
    // AUTH_MODE is `jwt`, which checks it.)
    for other in [Some("none"), Some("token")] {
        assert_eq!(
            err(other, Some("k"), Some(URL)),
            "JWKS_URL is set but AUTH_MODE is not \"jwt\"",
            "{other:?}"
        );
    }
    for url in [
        "http://tenant.example/jwks.json",
        "ftp://x/y",
        "tenant.example/jwks",
    ] {
        assert_eq!(
            err(Some("jwt"), None, Some(url)),
            "JWKS_URL must be an https: URL (http: only to 127.0.0.1 or localhost)",
            "{url}"
        );
    }
    assert!(from(Some("jwt"), None, Some("http://127.0.0.1:8787/jwks")).is_ok());
}

#[test]
fn rs256_and_es256_tokens_go_to_the_jwks_key_they_name() {
    let both = mode(Some(SECRET), Some(URL), JwtRules::default());
    let claims = json!({"sub": "u", "sessions": "*", "exp": EXP});
    for (token, alg) in [
        (rs256("rsa-1", claims.clone()), jwt::Alg::Rs256),
        (
            keyed(json!({"alg": "ES256", "kid": "ec-1"}), claims.clone(), 64),
            jwt::Alg::Es256,
        ),
    ] {
        let authorization = bearer(&token);
        match authorize(&both, Some(&authorization)) {
            Ok(Admission::NeedsKey(keyed)) => {
                assert_eq!(keyed.token.alg, alg);
                assert_eq!(keyed.jwks_url, URL);
                assert_eq!(
                    keyed.kid,
                    if alg == jwt::Alg::Rs256 {
                        "rsa-1"
                    } else {
                        "ec-1"
                    }
                );
                // The signed input is header.payload, byte for byte.
                let dot = token.rfind('.').unwrap();
                assert_eq!(keyed.token.signed_part(), &token.as_bytes()[..dot]);
                assert_eq!(keyed.admit("a", NOW).unwrap().user_id.as_deref(), Some("u"));
            }
            other => panic!("{other:?}"),
        }
    }
    // HS256 still works next to the JWKS.
    let hs = sign(&claims, SECRET);
    match authorize(&both, Some(&bearer(&hs))) {
        Ok(Admission::NeedsSecret(token)) => assert_eq!(
            hs256_native::admit(&token, "a", NOW)
                .unwrap()
                .user_id
                .as_deref(),
            Some("u")
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn tokens_refused_before_any_key_is_fetched() {
    let claims = json!({"sessions": "*", "exp": EXP});
    let jwks_only = mode(None, Some(URL), JwtRules::default());
    let secret_only = mode(Some(SECRET), None, JwtRules::default());
    let refusal = |mode: &AuthMode, token: &str| authorize(mode, Some(&bearer(token))).map(|_| ());
    let invalid = |why: &'static str| Err(AuthError::Invalid(why));
    // An algorithm with no key configured.
    let no_key = invalid("no key is configured for its algorithm (`alg`)");
    assert_eq!(refusal(&jwks_only, &sign(&claims, SECRET)), no_key);
    assert_eq!(refusal(&secret_only, &rs256("k", claims.clone())), no_key);
    let cases = [
        // No kid, or not a string.
        (json!({"alg": "RS256"}), 256, "it names no key (`kid`)"),
        (json!({"alg": "RS256", "kid": 7}), 256, "bad JSON"),
        // Algorithms never accepted, `none` first.
        (
            json!({"alg": "none", "kid": "k"}),
            0,
            "only HS256, RS256 and ES256 are accepted",
        ),
        (
            json!({"alg": "PS256", "kid": "k"}),
            256,
            "only HS256, RS256 and ES256 are accepted",
        ),
        (
            json!({"alg": "EdDSA", "kid": "k"}),
            64,
            "only HS256, RS256 and ES256 are accepted",
        ),
        (
            json!({"alg": "rs256", "kid": "k"}),
            256,
            "only HS256, RS256 and ES256 are accepted",
        ),
        // An extension this service does not know.
        (
            json!({"alg": "RS256", "kid": "k", "crit": ["b64"]}),
            256,
            "it has critical header parameters (`crit`)",
        ),
        // ES256 signatures are r || s, 64 bytes; a DER one is not.
        (json!({"alg": "ES256", "kid": "k"}), 71, "bad signature"),
    ];
    for (header, sig_len, why) in cases {
        let token = keyed(header, claims.clone(), sig_len);
        assert_eq!(refusal(&jwks_only, &token), invalid(why), "{token}");
    }
}

#[test]
fn issuer_and_audience_are_checked_when_set() {
    let rules = JwtRules {
        issuer: Some("https://tenant.example/".into()),
        audience: Some("https://api.example".into()),
        ..JwtRules::default()
    };
    let both = mode(Some(SECRET), Some(URL), rules);
    let base = |extra: Value| {
        let mut claims = json!({"sub": "u", "sessions": "*", "exp": EXP,
            "iss": "https://tenant.example/", "aud": "https://api.example"});
        for (k, v) in extra.as_object().unwrap() {
            claims[k] = v.clone();
        }
        claims
    };
    let ok = [
        base(json!({})),
        base(json!({"aud": ["https://other.example", "https://api.example"]})),
    ];
    for claims in ok {
        assert!(
            admit_verified(&both, &rs256("k", claims.clone())).is_ok(),
            "{claims}"
        );
        // The same rules for HS256 tokens.
        assert!(check_hs(&both, &claims).is_ok(), "{claims}");
    }
    let wrong_iss = "The bearer token is not valid: its issuer (`iss`) is not the one trusted.";
    let wrong_aud =
        "The bearer token is not valid: its audience (`aud`) does not name this service.";
    let refused = [
        (base(json!({"iss": "https://tenant.example"})), wrong_iss),
        (base(json!({"iss": "https://evil.example/"})), wrong_iss),
        (base(json!({"iss": null})), wrong_iss),
        (base(json!({"aud": "https://api.example/"})), wrong_aud),
        (base(json!({"aud": ["https://other.example"]})), wrong_aud),
        (base(json!({"aud": []})), wrong_aud),
        (base(json!({"aud": null})), wrong_aud),
        (
            base(json!({"aud": {"https://api.example": true}})),
            wrong_aud,
        ),
        (
            base(json!({"exp": null})),
            "The bearer token is not valid: it has no expiry (`exp`).",
        ),
    ];
    for (claims, message) in refused {
        let err = admit_verified(&both, &rs256("k", claims.clone())).unwrap_err();
        assert_eq!(
            (err.kind().status, err.kind().code, err.message()),
            (401, "invalid_token", message.into()),
            "{claims}"
        );
        assert_eq!(
            check_hs(&both, &claims).unwrap_err().message(),
            message,
            "{claims}"
        );
    }
    // Not set: not checked.
    let open = mode(None, Some(URL), JwtRules::default());
    assert!(admit_verified(&open, &rs256("k", json!({"sessions": "*", "exp": EXP}))).is_ok());
}

fn check_hs(mode: &AuthMode, claims: &Value) -> Result<Principal, AuthError> {
    match authorize(mode, Some(&bearer(&sign(claims, SECRET))))? {
        Admission::NeedsSecret(token) => hs256_native::admit(&token, "a", NOW),
        Admission::Admitted(_) => panic!("an HS256 token admitted unchecked"),
        Admission::NeedsKey(_) => panic!("an HS256 token needs no JWKS key"),
    }
}

#[test]
fn keyed_tokens_meet_the_time_and_session_rules() {
    let jwks = mode(None, Some(URL), JwtRules::default());
    let err = |claims| admit_verified(&jwks, &rs256("k", claims)).unwrap_err();
    assert_eq!(
        err(json!({"sessions": "*", "exp": NOW - 3600})),
        AuthError::Expired
    );
    assert_eq!(
        err(json!({"sessions": "*"})),
        AuthError::Invalid("it has no expiry (`exp`)")
    );
    assert_eq!(
        err(json!({"sessions": ["b"], "exp": EXP})),
        AuthError::Forbidden
    );
    assert_eq!(
        err(json!({"sub": "u\r\n", "sessions": "*", "exp": EXP}))
            .kind()
            .code,
        "invalid_token"
    );
}

#[test]
fn unavailable_is_a_503_that_says_when_to_retry() {
    let err = AuthError::Unavailable {
        retry_after_secs: 7,
    };
    assert_eq!(err.kind().pair(), (503, "auth_unavailable"));
    assert_eq!(
        err.message(),
        "The keys that bearer tokens are checked with cannot be fetched right now. Try again in 7 seconds."
    );
}

#[test]
fn a_token_never_shows_in_debug_output() {
    let token = rs256("k", json!({"sub": "secret-sub", "exp": EXP}));
    let parsed = jwt::Token::parse(&token).unwrap();
    let shown = format!("{parsed:?}");
    assert_eq!(shown, r#"Token { alg: Rs256, kid: Some("k") }"#);
}
