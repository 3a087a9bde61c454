//! Tests of `request::depth`.

use super::*;

#[test]
fn depth_counts_arrays_and_objects_open_at_once() {
    assert_eq!(nesting_depth("1"), 0);
    assert_eq!(nesting_depth("{}"), 1);
    assert_eq!(nesting_depth(r#"{"a":[1,{"b":2}],"c":{}}"#), 3);
    assert_eq!(
        nesting_depth(&format!("{}{}", "[".repeat(200), "]".repeat(200))),
        200
    );
}

#[test]
fn brackets_inside_strings_are_text() {
    assert_eq!(nesting_depth(r#"{"a":"[[[{{{"}"#), 1);
    assert_eq!(nesting_depth(r#"{"a":"\"[[[","b":"\\"}"#), 1);
    assert_eq!(nesting_depth(r#"["\\\"{"]"#), 1);
}
