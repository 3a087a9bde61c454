//! Tests of `signature`.

use super::*;

#[test]
fn each_known_type_wants_its_own_first_bytes() {
    let cases: [(&str, &[u8]); 5] = [
        ("image/png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
        ("image/jpeg", b"\xff\xd8\xff\xe0\0\x10JFIF"),
        ("image/gif", b"GIF89a\x01\0\x01\0"),
        ("image/webp", b"RIFF\x10\0\0\0WEBPVP8 "),
        ("application/pdf", b"%PDF-1.7\n"),
    ];
    for (media_type, bytes) in cases {
        assert!(starts_as(media_type, bytes, true), "{media_type}");
        assert!(starts_as(media_type, bytes, false), "{media_type}");
        for (other, _) in cases.iter().filter(|(other, _)| *other != media_type) {
            assert!(
                !starts_as(other, bytes, true),
                "{media_type}'s bytes as {other}"
            );
        }
    }
    assert!(!starts_as("image/png", b"<svg xmlns=", true));
    assert!(!starts_as("image/png", b"", true));
}

#[test]
fn text_is_utf8_and_a_head_may_end_inside_a_character() {
    let text = "café ☕".as_bytes();
    assert!(starts_as("text/plain", text, true));
    let cut = &text[..text.len() - 1];
    assert!(starts_as("text/plain", cut, false), "a head cut in the cup");
    assert!(
        !starts_as("text/plain", cut, true),
        "a whole file cut in the cup"
    );
    assert!(!starts_as("text/markdown", b"\x89PNG\r\n\x1a\n", false));
    assert!(!starts_as("text/plain", b"ok \xff then", false));
}

#[test]
fn a_type_of_no_known_signature_is_taken_as_it_says() {
    assert!(starts_as("application/zip", b"anything", true));
    assert!(starts_as("audio/mpeg", b"", false));
}
