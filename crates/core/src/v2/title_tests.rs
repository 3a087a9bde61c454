//! Tests of `title`: an agent's title as the list keeps it.

use super::*;

#[test]
fn an_agents_title_is_1_to_200_characters_trimmed_on_one_line() {
    assert_eq!(
        from_agent("  Paris weather \n").as_deref(),
        Some("Paris weather")
    );
    assert_eq!(
        from_agent("Two\nlines\tand a tab").as_deref(),
        Some("Two lines and a tab")
    );
    let longest = "é".repeat(MAX_TITLE_CHARS);
    assert_eq!(from_agent(&longest), Some(longest.clone()));
    assert_eq!(from_agent(&format!("{longest}e")), None);
    assert_eq!(from_agent(" \n\t "), None);
    assert_eq!(from_agent(""), None);
}
