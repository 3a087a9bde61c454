//! Tests of `files`: ids, keys and paths.

use super::*;

#[test]
fn an_id_is_its_random_bytes_in_lowercase_hex() {
    let id = FileId::from_random([0xab; FILE_ID_BYTES]);
    assert_eq!(id.as_str(), "abababababababababababababababab");
    let id =
        FileId::from_random(*b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\xff");
    assert_eq!(id.as_str(), "000102030405060708090a0b0c0d0eff");
    assert_eq!(FileId::parse(id.as_str()), Some(id));
}

#[test]
fn a_path_names_an_id_only_as_32_lowercase_hex_digits() {
    for bad in [
        "",
        "abc",
        "ABABABABABABABABABABABABABABABAB",
        "abababababababababababababababa",
        "ababababababababababababababababa",
        "abababababababababababababababag",
        "../ababababababababababababababab",
        "ababababababababababababababab%2",
    ] {
        assert_eq!(FileId::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn keys_and_paths_are_within_the_session() {
    let id = FileId::parse("0123456789abcdef0123456789abcdef").unwrap();
    assert_eq!(
        object_key("s-1", &id),
        "sessions/s-1/files/0123456789abcdef0123456789abcdef"
    );
    assert_eq!(
        file_path("s-1", &id),
        "/api/sessions/s-1/files/0123456789abcdef0123456789abcdef"
    );
}

#[test]
fn digits_and_query_parameters() {
    assert_eq!(digits("0"), Some(0));
    assert_eq!(
        digits("9999999999999999999"),
        Some(9_999_999_999_999_999_999)
    );
    for bad in ["", "-1", "+1", "1 ", "1e3", "99999999999999999999"] {
        assert_eq!(digits(bad), None, "{bad:?}");
    }
    let url = "https://w/p?a=1&filename=x&exp=2&expx=3#exp=9";
    assert_eq!(query_param(url, "a"), Some("1"));
    assert_eq!(query_param(url, "exp"), Some("2"));
    assert_eq!(query_param(url, "expx"), Some("3"));
    assert_eq!(query_param(url, "b"), None);
    assert_eq!(query_param("https://w/p#?a=1", "a"), None);
}
