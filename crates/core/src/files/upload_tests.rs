//! Tests of `files::upload`: the checks before the body, and the answer.

use super::*;
use crate::files::name::MAX_FILENAME_BYTES;
use crate::files::settings::DEFAULT_FILE_TYPES;

const URL: &str = "https://w/api/sessions/s/files?filename=cat.png";

fn types() -> TypeList {
    TypeList::parse(DEFAULT_FILE_TYPES).unwrap()
}

#[test]
fn an_upload_within_its_bounds_is_named_and_typed() {
    let upload = Upload::check(URL, Some("image/PNG"), Some("100"), &types(), 100).unwrap();
    assert_eq!(
        upload,
        Upload {
            media_type: "image/png".into(),
            filename: Some("cat.png".into()),
            declared_bytes: Some(100),
        }
    );
    let chunked = Upload::check(
        "https://w/x",
        Some("text/plain; charset=utf-8"),
        None,
        &types(),
        1,
    )
    .unwrap();
    assert_eq!((chunked.filename, chunked.declared_bytes), (None, None));
}

#[test]
fn each_bound_refuses_with_its_code() {
    let code = |ct: Option<&str>, cl: Option<&str>, url: &str| {
        Upload::check(url, ct, cl, &types(), 100).unwrap_err().kind
    };
    assert_eq!(code(Some("image/png"), Some("101"), URL), FILE_TOO_LARGE);
    // The size is checked first: a too large body of a refused type is not waited for either.
    assert_eq!(code(Some("text/html"), Some("101"), URL), FILE_TOO_LARGE);
    assert_eq!(
        code(Some("text/html"), Some("1"), URL),
        FILE_TYPE_NOT_ALLOWED
    );
    assert_eq!(
        code(Some("image/svg+xml"), Some("1"), URL),
        FILE_TYPE_NOT_ALLOWED
    );
    assert_eq!(code(None, Some("1"), URL), FILE_TYPE_NOT_ALLOWED);
    assert_eq!(code(Some("image/png"), Some("1x"), URL), BODY_UNREADABLE);
    assert_eq!(code(Some("image/png"), Some("0"), URL), EMPTY_FILE);
    assert_eq!(
        code(Some("image/png"), Some("1"), "https://w/x?filename=a%2Fb"),
        INVALID_FILENAME
    );
}

#[test]
fn the_answer_is_a_file_ui_part_with_its_size() {
    let upload = Upload::check(URL, Some("image/png"), Some("3"), &types(), 100).unwrap();
    assert_eq!(
        file_part_json(&upload, "https://w/f?exp=1&sig=ab", 3),
        r#"{"type":"file","url":"https://w/f?exp=1&sig=ab","mediaType":"image/png","filename":"cat.png","size":3}"#
    );
    let unnamed = Upload {
        filename: None,
        ..upload
    };
    assert_eq!(
        file_part_json(&unnamed, "u", 0),
        r#"{"type":"file","url":"u","mediaType":"image/png","size":0}"#
    );
}

#[test]
fn the_answer_is_serde_s_bytes_for_any_name_and_url() {
    for (url, name) in [
        ("u", None),
        ("https://w/\"q\"", Some("a\\b\u{1}\u{7f}é\n.png")),
    ] {
        let upload = Upload {
            media_type: "text/plain".into(),
            filename: name.map(str::to_owned),
            declared_bytes: None,
        };
        let mut expected =
            serde_json::json!({"type": "file", "url": url, "mediaType": "text/plain", "size": 7});
        if let Some(name) = name {
            expected["filename"] = name.into();
        }
        let got: serde_json::Value =
            serde_json::from_str(&file_part_json(&upload, url, 7)).unwrap();
        assert_eq!(got, expected);
        let keys: Vec<String> = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(
            &file_part_json(&upload, url, 7),
        )
        .unwrap()
        .keys()
        .cloned()
        .collect();
        assert_eq!(keys.len(), if name.is_some() { 5 } else { 4 });
    }
}

#[test]
fn too_large_names_the_bound() {
    assert_eq!(
        too_large(10).message,
        "The file is larger than 10 bytes, the most one upload may be."
    );
}

#[test]
fn the_filename_message_names_its_bound() {
    assert!(FILENAME_MESSAGE.contains(&format!("1 to {MAX_FILENAME_BYTES} bytes")));
}

#[test]
fn an_upload_whose_first_bytes_are_not_its_type_is_a_mismatch() {
    let png = Upload::check(URL, Some("image/png"), Some("20"), &types(), 100).unwrap();
    assert!(check_head(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 20).is_ok());
    let refused = check_head(&png, b"<html><script>", 14).unwrap_err();
    assert_eq!(refused.kind, FILE_TYPE_MISMATCH);
    // Text: a head cut inside a character is text; the whole file cut there is not.
    let text = Upload::check(URL, Some("text/plain"), None, &types(), 100).unwrap();
    let cup = "☕".as_bytes();
    assert!(check_head(&text, &cup[..2], 3).is_ok());
    assert!(check_head(&text, &cup[..2], 2).is_err());
}
