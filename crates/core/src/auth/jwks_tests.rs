//! Unit tests of JWKS parsing, key selection, what WebCrypto is handed, and the URL rule.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};

use super::*;

/// Base64url of `len` bytes: key numbers of the right size (nothing here does arithmetic).
fn b64(len: usize) -> String {
    URL_SAFE_NO_PAD.encode(vec![0xA5u8; len])
}

fn rsa(kid: &str) -> Value {
    json!({"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": b64(256), "e": "AQAB"})
}

fn ec(kid: &str) -> Value {
    json!({"kty": "EC", "kid": kid, "crv": "P-256", "x": b64(32), "y": b64(32)})
}

fn set(keys: Vec<Value>) -> KeySet {
    KeySet::parse(json!({ "keys": keys }).to_string().as_bytes()).unwrap()
}

#[test]
fn keys_are_found_by_kid_and_algorithm() {
    let keys = set(vec![rsa("r1"), ec("e1"), rsa("shared"), ec("shared")]);
    assert_eq!(keys.len(), 4);
    assert_eq!(keys.find("r1", Alg::Rs256).map(|k| k.alg), Some(Alg::Rs256));
    assert_eq!(keys.find("e1", Alg::Es256).map(|k| k.alg), Some(Alg::Es256));
    // A kid of another key type is not the token's key.
    assert!(keys.find("r1", Alg::Es256).is_none());
    assert!(keys.find("e1", Alg::Rs256).is_none());
    assert!(keys.find("e1", Alg::Hs256).is_none());
    assert_eq!(
        keys.find("shared", Alg::Es256).map(|k| k.alg),
        Some(Alg::Es256)
    );
    assert_eq!(
        keys.find("shared", Alg::Rs256).map(|k| k.alg),
        Some(Alg::Rs256)
    );
    assert!(keys.find("R1", Alg::Rs256).is_none());
    assert!(keys.find("", Alg::Rs256).is_none());
}

#[test]
fn webcrypto_gets_the_minimal_jwk_and_the_named_algorithms() {
    let keys = set(vec![rsa("r"), ec("e")]);
    let n = b64(256);
    let (x, y) = (b64(32), b64(32));
    assert_eq!(
        keys.find("r", Alg::Rs256).unwrap().import_json(),
        format!(r#"{{"e":"AQAB","kty":"RSA","n":"{n}"}}"#)
    );
    assert_eq!(
        keys.find("e", Alg::Es256).unwrap().import_json(),
        format!(r#"{{"crv":"P-256","kty":"EC","x":"{x}","y":"{y}"}}"#)
    );
    assert_eq!(
        import_algorithm(Alg::Rs256),
        r#"{"name":"RSASSA-PKCS1-v1_5","hash":"SHA-256"}"#
    );
    assert_eq!(
        verify_algorithm(Alg::Rs256),
        r#"{"name":"RSASSA-PKCS1-v1_5"}"#
    );
    assert_eq!(
        import_algorithm(Alg::Es256),
        r#"{"name":"ECDSA","namedCurve":"P-256"}"#
    );
    assert_eq!(
        verify_algorithm(Alg::Es256),
        r#"{"name":"ECDSA","hash":"SHA-256"}"#
    );
}

#[test]
fn keys_this_service_cannot_use_are_left_out() {
    let with = |key: Value, field: &str, value: Value| {
        let mut key = key;
        key[field] = value;
        key
    };
    let without = |key: Value, field: &str| {
        let mut key = key;
        key.as_object_mut().unwrap().remove(field);
        key
    };
    let unusable = [
        without(rsa("k"), "kid"),
        with(rsa("k"), "kid", json!(7)),
        with(rsa("k"), "use", json!("enc")),
        with(rsa("k"), "key_ops", json!(["encrypt"])),
        with(rsa("k"), "key_ops", json!("verify")),
        with(rsa("k"), "alg", json!("RS512")),
        with(rsa("k"), "alg", json!("ES256")),
        with(rsa("k"), "n", json!(b64(128))), // 1024 bits
        with(rsa("k"), "n", json!("not base64url!")),
        with(rsa("k"), "e", json!("")),
        without(rsa("k"), "e"),
        with(ec("k"), "crv", json!("P-384")),
        with(ec("k"), "x", json!(b64(31))),
        without(ec("k"), "y"),
        with(ec("k"), "alg", json!("RS256")),
        json!({"kty": "oct", "kid": "k", "k": b64(32)}),
        json!({"kty": "OKP", "kid": "k", "crv": "Ed25519", "x": b64(32)}),
        json!("a string"),
        json!(null),
    ];
    for key in unusable {
        assert!(set(vec![key.clone()]).is_empty(), "{key}");
    }
    // Fields that allow the key are fine.
    let usable = [
        with(rsa("k"), "key_ops", json!(["verify"])),
        without(without(rsa("k"), "use"), "alg"),
        with(ec("k"), "alg", json!("ES256")),
        with(ec("k"), "x5c", json!(["MIIB..."])),
    ];
    for key in usable {
        assert_eq!(set(vec![key.clone()]).len(), 1, "{key}");
    }
}

#[test]
fn documents_of_another_shape_are_errors() {
    for (document, why) in [
        (&b"not json"[..], "not JSON"),
        (b"", "not JSON"),
        (br#"{"keys": {}}"#, "no `keys` array"),
        (br#"{"key": []}"#, "no `keys` array"),
        (b"[]", "no `keys` array"),
        (b"null", "no `keys` array"),
    ] {
        assert_eq!(KeySet::parse(document), Err(why));
    }
    let big = format!(r#"{{"keys":[],"pad":"{}"}}"#, "x".repeat(MAX_JWKS_BYTES));
    assert_eq!(KeySet::parse(big.as_bytes()), Err("larger than 64 KiB"));
    assert!(KeySet::parse(br#"{"keys":[]}"#).unwrap().is_empty());
}

#[test]
fn only_https_or_local_http_urls_are_allowed() {
    for ok in [
        "https://tenant.auth0.com/.well-known/jwks.json",
        "https://clerk.example.com/.well-known/jwks.json",
        "https://x.example:8443/jwks?v=1",
        "HTTPS://x.example/jwks",
        "http://127.0.0.1:9999/jwks.json",
        "http://localhost/jwks",
        "http://LOCALHOST:80/jwks",
        "http://[::1]:8080/jwks",
    ] {
        assert!(allowed_url(ok), "{ok}");
    }
    for bad in [
        "http://tenant.auth0.com/.well-known/jwks.json",
        "http://localhost.evil.example/jwks",
        "http://127.0.0.1.evil.example/jwks",
        "http://localhost@evil.example/jwks",
        "http://evil.example@localhost/jwks",
        "http://127.0.0.1:port/jwks",
        "http://127.0.0.1:/jwks",
        "http://[::1]x/jwks",
        "https:///jwks",
        "https://",
        "https://user@x.example/jwks",
        "https://x.example/ jwks",
        "https://x.example/\njwks",
        "ftp://x.example/jwks",
        "file:///etc/jwks",
        "//x.example/jwks",
        "x.example/jwks",
        "",
    ] {
        assert!(!allowed_url(bad), "{bad}");
    }
}
