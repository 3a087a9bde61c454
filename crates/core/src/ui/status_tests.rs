//! Tests of `ui::status`.

use super::*;

fn json(status: &str, detail: Option<&str>) -> Option<String> {
    status_chunk(status, detail).map(|c| c.to_json())
}

#[test]
fn phases_map_and_others_drop() {
    assert_eq!(
        json("thinking", None).as_deref(),
        Some(r#"{"type":"data-status","data":{"phase":"thinking"},"transient":true}"#)
    );
    assert_eq!(
        json("compacting", Some("x")).as_deref(),
        Some(r#"{"type":"data-status","data":{"phase":"compacting"},"transient":true}"#)
    );
    for other in ["idle", "streaming", "error", "", "THINKING"] {
        assert_eq!(json(other, None), None, "{other}");
    }
}

#[test]
fn label_is_at_most_a_tool_name() {
    assert_eq!(
        json("tool_calling", Some("fs.read_file")).as_deref(),
        Some(
            r#"{"type":"data-status","data":{"phase":"tool_use","label":"fs.read_file"},"transient":true}"#
        )
    );
    let long = "a".repeat(MAX_LABEL_CHARS + 1);
    for leaky in ["rm -rf /", "read {\"path\":1}", "", "név", long.as_str()] {
        assert_eq!(
            json("tool_calling", Some(leaky)).as_deref(),
            Some(r#"{"type":"data-status","data":{"phase":"tool_use"},"transient":true}"#),
            "{leaky}"
        );
    }
    assert!(is_tool_name(&"a".repeat(MAX_LABEL_CHARS)));
    // Thinking never carries a label, even a token-shaped one.
    assert_eq!(
        json("thinking", Some("planning")).as_deref(),
        Some(r#"{"type":"data-status","data":{"phase":"thinking"},"transient":true}"#)
    );
}
