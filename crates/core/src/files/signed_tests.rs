//! Tests of `files::signed`: the message, the URL, its query and its check, with HMAC-SHA-256
//! computed natively (the edge makes and verifies it with WebCrypto).

use super::*;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

/// The HMAC in lowercase hex, as the edge's `hmacSha256` (files.js) writes it.
fn mac(message: &str) -> String {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(SECRET).unwrap();
    mac.update(message.as_bytes());
    crate::files::hex(&mac.finalize().into_bytes())
}

/// WebCrypto's verdict, natively: the URL's `sig` is the HMAC of `message` (the edge's
/// `crypto.subtle.verify` in files.js).
fn verifies(signature: &Signature<'_>, message: &str) -> bool {
    signature.mac_hex == mac(message)
}

fn file() -> FileId {
    FileId::parse("0123456789abcdef0123456789abcdef").unwrap()
}

#[test]
fn the_message_names_the_scheme_the_session_the_file_and_the_expiry() {
    assert_eq!(
        signed_message("s1", &file(), 1_700_000_000),
        "session-agent-chat file-url v1\ns1\n0123456789abcdef0123456789abcdef\n1700000000"
    );
}

#[test]
fn a_signed_url_reads_back_and_checks() {
    let message = signed_message("s1", &file(), 2_000);
    let url = signed_url(
        "https://w.example:8443",
        "s1",
        &file(),
        2_000,
        &mac(&message),
    );
    assert!(url.starts_with(
        "https://w.example:8443/api/sessions/s1/files/0123456789abcdef0123456789abcdef?exp=2000&sig="
    ));
    let signature = Signature::from_url(&url).unwrap().unwrap();
    assert_eq!(signature.expires_at, 2_000);
    assert_eq!(
        signature.check(verifies(&signature, &message), 1_000),
        Ok(1_000)
    );
    assert_eq!(
        signature
            .check(verifies(&signature, &message), 2_000)
            .unwrap_err()
            .kind,
        URL_EXPIRED
    );
}

#[test]
fn another_file_session_or_expiry_is_another_signature() {
    let url = signed_url(
        "https://w",
        "s1",
        &file(),
        2_000,
        &mac(&signed_message("s1", &file(), 2_000)),
    );
    let signature = Signature::from_url(&url).unwrap().unwrap();
    let other = FileId::parse("ffffffffffffffffffffffffffffffff").unwrap();
    for message in [
        signed_message("s2", &file(), 2_000),
        signed_message("s1", &other, 2_000),
        signed_message("s1", &file(), 2_001),
    ] {
        assert_eq!(
            signature
                .check(verifies(&signature, &message), 1_000)
                .unwrap_err()
                .kind,
            INVALID_SIGNATURE
        );
    }
    // A forged URL past its expiry is refused as forged: the check says nothing of the clock.
    assert_eq!(
        signature
            .check(verifies(&signature, "other"), 5_000)
            .unwrap_err()
            .kind,
        INVALID_SIGNATURE
    );
}

#[test]
fn a_query_without_both_parts_or_malformed_is_refused() {
    let base = "https://w/api/sessions/s/files/0123456789abcdef0123456789abcdef";
    assert_eq!(Signature::from_url(base), Ok(None));
    assert_eq!(Signature::from_url(&format!("{base}?x=1")), Ok(None));
    let sig = "ab".repeat(32);
    for query in [
        "exp=1".to_owned(),
        format!("sig={sig}"),
        format!("exp=&sig={sig}"),
        format!("exp=-1&sig={sig}"),
        format!("exp=99999999999999999999999&sig={sig}"),
        format!("exp=1&sig={}", "AB".repeat(32)),
        "exp=1&sig=abc".to_owned(),
        format!("exp=1&sig={}", "zz".repeat(32)),
        format!("exp=1&sig={sig}00"),
    ] {
        let refused = Signature::from_url(&format!("{base}?{query}")).unwrap_err();
        assert_eq!(refused.kind, INVALID_SIGNATURE, "{query}");
    }
}

#[test]
fn the_origin_is_the_scheme_host_and_port() {
    assert_eq!(
        origin_of_url("http://127.0.0.1:8787/api/x?y"),
        "http://127.0.0.1:8787"
    );
    assert_eq!(origin_of_url("https://w.example?q"), "https://w.example");
    assert_eq!(origin_of_url("https://w.example"), "https://w.example");
}

#[test]
fn a_file_of_the_session_is_found_in_its_url_whatever_the_origin() {
    let id = "0123456789abcdef0123456789abcdef";
    for url in [
        format!("http://127.0.0.1:8787/api/sessions/s1/files/{id}?exp=1&sig=ab"),
        format!("https://chat.example/api/sessions/s1/files/{id}"),
        format!("https://chat.example/api/sessions/s1/files/{id}#x"),
    ] {
        assert_eq!(
            file_of_url(&url, "s1").map(|f| f.as_str().to_owned()),
            Some(id.to_owned()),
            "{url}"
        );
    }
    for url in [
        format!("https://chat.example/api/sessions/s2/files/{id}"),
        format!("https://chat.example/api/sessions/s1x/files/{id}"),
        format!("https://chat.example/x/api/sessions/s1/files/{id}"),
        "https://chat.example/api/sessions/s1/files/nothex".to_owned(),
        format!("data:image/png;base64,/api/sessions/s1/files/{id}"),
        "https://chat.example".to_owned(),
    ] {
        assert_eq!(file_of_url(&url, "s1"), None, "{url}");
    }
}
