//! Tests of `cursor`.

use super::*;
use proptest::prelude::*;

fn cursor(as_of: u64, at: u64, id: &str) -> Cursor {
    Cursor {
        as_of,
        at,
        id: id.to_owned(),
    }
}

#[test]
fn a_cursor_decodes_to_what_was_encoded() {
    let c = cursor(1_767_225_600_123, 1_767_225_599_000, "chat-42");
    let text = c.encode();
    assert!(
        text.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "{text}"
    );
    assert_eq!(Cursor::decode(&text), Some(c));
}

#[test]
fn the_encoding_is_base64url_as_the_crate_reads_it() {
    use base64::Engine;
    for len in 0..20 {
        let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
        assert_eq!(
            base64url_encode(&bytes),
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&bytes)
        );
    }
}

#[test]
fn a_changed_or_cut_cursor_is_refused() {
    let text = cursor(1_767_225_600_123, 1_767_225_599_000, "chat-42").encode();
    // Every character changed to every other one of the alphabet: none decodes (a changed byte
    // fails the check; a change of the last character's unused low bits, base64url's rule).
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (at, old) in text.char_indices() {
        for new in alphabet.chars().filter(|&c| c != old) {
            let mut changed = text.clone();
            changed.replace_range(at..at + 1, &new.to_string());
            assert_eq!(Cursor::decode(&changed), None, "{changed}");
        }
    }
    for end in 0..text.len() {
        assert_eq!(Cursor::decode(&text[..end]), None, "cut to {end}");
    }
    assert_eq!(Cursor::decode(&format!("{text}A")), None);
    assert_eq!(Cursor::decode("not a cursor"), None);
    assert_eq!(Cursor::decode(""), None);
}

#[test]
fn a_cursor_of_another_version_or_a_bad_id_is_refused_even_with_its_check() {
    let forge = |version: u8, id: &[u8]| {
        let mut bytes = vec![version];
        bytes.extend_from_slice(&7u64.to_be_bytes());
        bytes.extend_from_slice(&5u64.to_be_bytes());
        bytes.extend_from_slice(id);
        bytes.extend_from_slice(&check(&bytes).to_be_bytes());
        base64url_encode(&bytes)
    };
    assert_eq!(Cursor::decode(&forge(1, b"ok")), Some(cursor(7, 5, "ok")));
    assert_eq!(Cursor::decode(&forge(2, b"ok")), None, "another version");
    assert_eq!(Cursor::decode(&forge(1, b"a b")), None, "no session's id");
    assert_eq!(Cursor::decode(&forge(1, &[0xff, 0xfe])), None, "not UTF-8");
    assert_eq!(Cursor::decode(&forge(1, b"")), None, "no id");
    assert_eq!(
        Cursor::decode(&forge(1, "x".repeat(129).as_bytes())),
        None,
        "too long an id"
    );
}

proptest! {
    #[test]
    fn any_cursor_round_trips(as_of: u64, at: u64, id in "[A-Za-z0-9._:-]{1,128}") {
        let c = cursor(as_of, at, &id);
        prop_assert_eq!(Cursor::decode(&c.encode()), Some(c));
    }

    #[test]
    fn a_flipped_bit_is_refused(as_of: u64, at: u64, id in "[A-Za-z0-9._:-]{1,40}", bit in 0usize..1000) {
        let c = cursor(as_of, at, &id);
        let mut bytes = base64url::decode(&c.encode()).unwrap();
        let bit = bit % (bytes.len() * 8);
        bytes[bit / 8] ^= 1 << (bit % 8);
        prop_assert_eq!(Cursor::decode(&base64url_encode(&bytes)), None);
    }
}
