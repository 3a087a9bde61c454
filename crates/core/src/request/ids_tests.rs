//! Tests of `request::ids`.

use super::*;

fn read(json: &str) -> Result<String, IdFault> {
    let raw: &RawValue = serde_json::from_str(json).unwrap();
    read_id(raw)
}

#[test]
fn an_id_is_counted_in_decoded_bytes() {
    // Fifty `é` written as escapes: 300 characters of JSON, 100 bytes of UTF-8.
    let escaped = format!("\"{}\"", "\\u00e9".repeat(50));
    assert_eq!(read(&escaped), Ok("é".repeat(50)));
    let longest = format!("\"{}\"", "x".repeat(MAX_ID_BYTES));
    assert_eq!(read(&longest), Ok("x".repeat(MAX_ID_BYTES)));
    // 129 `é`: 258 bytes.
    let over = format!("\"{}\"", "é".repeat(129));
    assert_eq!(read(&over), Err(IdFault::TooLong { bytes: 258 }));
    let long = format!("\"{}\"", "x".repeat(10_000));
    assert_eq!(read(&long), Err(IdFault::TooLong { bytes: 10_000 }));
}

#[test]
fn an_id_is_a_non_empty_string_of_valid_unicode() {
    assert_eq!(read(r#""""#), Err(IdFault::Empty));
    assert_eq!(read("7"), Err(IdFault::NotString));
    assert_eq!(read("[\"x\"]"), Err(IdFault::NotString));
    assert_eq!(read(r#""\ud800""#), Err(IdFault::NotUnicode));
    assert_eq!(read(r#""a\udc00b""#), Err(IdFault::NotUnicode));
    // A surrogate pair is one character.
    assert_eq!(read(r#""\ud83d\ude00""#), Ok("😀".into()));
}

#[test]
fn each_fault_says_what_is_wrong() {
    assert_eq!(
        IdFault::TooLong { bytes: 300 }.says(),
        "is 300 bytes of UTF-8, over the limit of 256"
    );
    assert_eq!(IdFault::Empty.says(), "is empty");
    assert!(IdFault::NotUnicode.says().contains("lone surrogate"));
}
