//! Tests of `error_body`.

use super::*;

#[test]
fn shape_is_exact_and_escaped() {
    assert_eq!(
        error_json("bad_request", "say \"hi\""),
        r#"{"error":{"code":"bad_request","message":"say \"hi\""}}"#
    );
}
