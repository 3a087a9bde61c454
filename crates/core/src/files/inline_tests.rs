//! Tests of `files::inline`: a data: URL's bytes, its checks and its id.

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use base64::Engine;
use proptest::prelude::*;

use super::*;
use crate::files::name::TypeList;
use crate::files::settings::DEFAULT_FILE_TYPES;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

fn settings(max: u64) -> FileSettings {
    FileSettings {
        max_file_bytes: max,
        types: TypeList::parse(DEFAULT_FILE_TYPES).unwrap(),
        url_ttl_secs: 3600,
        upload_ttl_hours: 24,
        secret: None,
    }
}

fn part(media_type: &str, url: String, filename: Option<&str>) -> Attachment {
    Attachment {
        media_type: media_type.into(),
        url,
        filename: filename.map(str::to_owned),
        size: None,
    }
}

fn data(media_type: &str, bytes: &[u8]) -> String {
    format!("data:{media_type};base64,{}", STANDARD.encode(bytes))
}

fn code(part: &Attachment, max: u64) -> &'static str {
    inline_file(part, &settings(max)).unwrap_err().kind.pair().1
}

#[test]
fn a_png_comes_out_whole_and_other_urls_are_left_alone() {
    let file = inline_file(
        &part("image/PNG", data("image/png", PNG), Some("cat.png")),
        &settings(100),
    )
    .unwrap()
    .unwrap();
    assert_eq!(file.bytes, PNG);
    assert_eq!(file.media_type, "image/png");
    let https = part("image/png", "https://example.com/cat.png".into(), None);
    assert_eq!(inline_file(&https, &settings(100)), Ok(None));
}

#[test]
fn each_bad_file_is_refused_with_its_code() {
    assert_eq!(
        code(&part("image/png", data("image/png", b""), None), 100),
        "empty_file"
    );
    assert_eq!(
        code(&part("image/png", data("image/png", PNG), None), 10),
        "file_too_large"
    );
    assert_eq!(
        code(
            &part("image/svg+xml", data("image/svg+xml", b"<svg/>"), None),
            100
        ),
        "file_type_not_allowed"
    );
    assert_eq!(
        code(&part("image/png", data("image/jpeg", PNG), None), 100),
        "file_type_mismatch"
    );
    assert_eq!(
        code(&part("image/jpeg", data("image/jpeg", PNG), None), 100),
        "file_type_mismatch"
    );
    assert_eq!(
        code(
            &part("text/plain", data("text/plain", b"\xff\xfe"), None),
            100
        ),
        "file_type_mismatch"
    );
    assert_eq!(
        code(
            &part("image/png", "data:image/png;base64,iVBOR=w".into(), None),
            100
        ),
        "invalid_attachment"
    );
    for name in ["../etc/passwd", "a\u{0}b", ".", "line\nbreak", "a\u{85}b"] {
        assert_eq!(
            code(&part("image/png", data("image/png", PNG), Some(name)), 100),
            "invalid_filename",
            "{name:?}"
        );
    }
}

#[test]
fn a_file_far_over_the_limit_is_refused_before_it_is_decoded() {
    // Not base64 at all, and far too long: the size is what is said.
    let url = format!("data:image/png;base64,{}", "!".repeat(4000));
    assert_eq!(code(&part("image/png", url, None), 100), "file_too_large");
}

#[test]
fn the_id_is_the_digests_first_128_bits() {
    let digest: String = (0u8..32).map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        content_id(&digest).unwrap().as_str(),
        "000102030405060708090a0b0c0d0e0f"
    );
    assert_eq!(content_id(&digest[..30]), None);
    assert_eq!(content_id(&digest.to_uppercase()), None);
}

proptest! {
    #[test]
    fn decodes_what_the_base64_crate_encodes(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        prop_assert_eq!(decode_base64(&STANDARD.encode(&bytes)), Some(bytes.clone()));
        prop_assert_eq!(decode_base64(&STANDARD_NO_PAD.encode(&bytes)), Some(bytes));
    }

    #[test]
    fn refuses_what_is_no_base64(text in "[A-Za-z0-9+/=!-]{0,12}") {
        let ours = decode_base64(&text);
        let theirs = STANDARD.decode(&text).ok().or_else(|| STANDARD_NO_PAD.decode(&text).ok());
        if theirs.is_some() {
            prop_assert_eq!(ours, theirs);
        } else if let Some(bytes) = ours {
            // More lenient only on the unused low bits of the last group, as atob is.
            prop_assert!(!text.contains('!') && !text.contains('-'), "{text:?} gave {bytes:?}");
        }
    }
}
