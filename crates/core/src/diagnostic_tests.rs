//! Tests of `diagnostic`.

use super::*;
use proptest::prelude::*;
use serde_json::{json, Value};

#[test]
fn a_line_is_its_fields_as_json() {
    let line = Diagnostic {
        level: Level::Warn,
        event: "frame_skipped",
        request_id: Some("r1"),
        detail: "unknown variant `now`, expected one of `pending`, `running`",
    }
    .line();
    assert_eq!(
        line,
        r#"{"level":"warn","event":"frame_skipped","request":"r1","detail":"unknown variant `now`, expected one of `pending`, `running`"}"#
    );
    let bare = Diagnostic {
        level: Level::Error,
        event: "settings",
        request_id: None,
        detail: "",
    };
    assert_eq!(bare.line(), r#"{"level":"error","event":"settings"}"#);
}

#[test]
fn clip_keeps_the_first_characters() {
    assert_eq!(clip("abc", 5), "abc");
    assert_eq!(clip("abcdef", 3), "abc");
    assert_eq!(clip("éé😀x", 3), "éé😀");
    assert_eq!(clip("", 0), "");
    assert_eq!(clip(&"p".repeat(20_000), MAX_LOGGED_PATH_CHARS).len(), 256);
}

#[test]
fn an_agents_text_cannot_forge_a_line() {
    let forged = "x\n{\"requestId\":\"FORGED-LINE\",\"status\":200}\r\n";
    let line = Diagnostic {
        level: Level::Warn,
        event: "frame_skipped",
        request_id: Some("r1"),
        detail: forged,
    }
    .line();
    assert_eq!(line.lines().count(), 1, "{line}");
    let value: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(value["detail"], json!(forged));
    assert_eq!(value.get("status"), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Whatever the detail, the line is one JSON object on one line, its detail the text's
    /// first MAX_DETAIL_CHARS characters (and the mark when it was longer).
    #[test]
    fn any_detail_is_one_json_line(detail in prop_oneof![
        crate::json_out::any_text(),
        "[a\n\"\\\\é😀]{250,400}",
    ]) {
        let line = Diagnostic { level: Level::Info, event: "e", request_id: Some(&detail), detail: &detail }.line();
        prop_assert!(!line.contains('\n') && !line.contains('\r'), "{}", line);
        let value: Value = serde_json::from_str(&line).unwrap();
        let shown = value["detail"].as_str().unwrap_or_default();
        let chars = detail.chars().count();
        if chars > MAX_DETAIL_CHARS {
            prop_assert_eq!(shown.chars().count(), MAX_DETAIL_CHARS + 1);
            prop_assert!(shown.ends_with(CUT_MARK));
            prop_assert!(detail.starts_with(shown.trim_end_matches(CUT_MARK)));
        } else {
            prop_assert_eq!(shown, detail.as_str());
        }
    }
}
