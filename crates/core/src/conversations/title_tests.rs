//! Tests of `title`.

use super::*;
use crate::refusal::{INVALID_BODY, INVALID_JSON, INVALID_TITLE};

#[test]
fn a_made_title_is_the_first_line_with_text_trimmed() {
    assert_eq!(derived("What can you do?"), "What can you do?");
    assert_eq!(derived("  Plan a trip  \nto Lisbon in May"), "Plan a trip");
    assert_eq!(derived("\n\n   \r\n  second line\nthird"), "second line");
    assert_eq!(derived("tab\there"), "tab here");
    assert_eq!(derived(""), "");
    assert_eq!(derived(" \n\t\n"), "");
}

#[test]
fn a_long_first_line_is_cut_to_80_characters_with_an_ellipsis() {
    let exact = "a".repeat(DERIVED_TITLE_CHARS);
    assert_eq!(derived(&exact), exact, "80 characters are kept whole");
    let long = "b".repeat(DERIVED_TITLE_CHARS + 1);
    let cut = derived(&long);
    assert_eq!(cut.chars().count(), DERIVED_TITLE_CHARS);
    assert!(cut.ends_with(ELLIPSIS));
    assert_eq!(cut, format!("{}…", "b".repeat(DERIVED_TITLE_CHARS - 1)));
}

#[test]
fn a_cut_falls_on_a_character_boundary_and_drops_a_trailing_space() {
    // Four-byte characters: a byte cut would split one.
    let emoji = "🦀".repeat(100);
    let cut = derived(&emoji);
    assert_eq!(cut.chars().count(), DERIVED_TITLE_CHARS);
    assert_eq!(cut, format!("{}…", "🦀".repeat(DERIVED_TITLE_CHARS - 1)));
    // Combining and wide scripts too.
    let mixed = "日本語のテキスト ".repeat(20);
    let cut = derived(&mixed);
    assert!(cut.chars().count() <= DERIVED_TITLE_CHARS);
    assert!(mixed.starts_with(cut.trim_end_matches(ELLIPSIS)));
    // A cut just after a word leaves no space before the ellipsis.
    let words = format!("{} tail of the line", "x".repeat(DERIVED_TITLE_CHARS - 2));
    assert_eq!(
        derived(&words),
        format!("{}…", "x".repeat(DERIVED_TITLE_CHARS - 2))
    );
}

#[test]
fn a_rename_takes_a_trimmed_title_of_1_to_200_characters() {
    assert_eq!(
        renamed(br#"{"title":"Trip to Lisbon"}"#).unwrap(),
        "Trip to Lisbon"
    );
    assert_eq!(
        renamed(br#"{"title":"  padded  ","other":1}"#).unwrap(),
        "padded"
    );
    let longest = "é".repeat(MAX_TITLE_CHARS);
    let body = serde_json::json!({ "title": longest }).to_string();
    assert_eq!(
        renamed(body.as_bytes()).unwrap(),
        longest,
        "200 characters, 400 bytes"
    );
    let spaced = format!("   {longest}   ");
    let body = serde_json::json!({ "title": spaced }).to_string();
    assert_eq!(
        renamed(body.as_bytes()).unwrap(),
        longest,
        "white space around is not counted"
    );
}

#[test]
fn a_rename_refuses_what_is_no_title() {
    let code = |body: &[u8]| renamed(body).unwrap_err().kind;
    assert_eq!(code(b"not json"), INVALID_JSON);
    assert_eq!(code(br#"["title"]"#), INVALID_BODY);
    assert_eq!(code(br#""title""#), INVALID_BODY);
    for body in [
        r#"{}"#,
        r#"{"title":null}"#,
        r#"{"title":42}"#,
        r#"{"title":""}"#,
        r#"{"title":"   \n\t "}"#,
    ] {
        assert_eq!(code(body.as_bytes()), INVALID_TITLE, "{body}");
    }
    let over = serde_json::json!({ "title": "x".repeat(MAX_TITLE_CHARS + 1) }).to_string();
    let refused = renamed(over.as_bytes()).unwrap_err();
    assert_eq!(refused.kind, INVALID_TITLE);
    assert!(
        refused.message.contains("1 to 200 characters"),
        "{}",
        refused.message
    );
}
