//! Tests of `v2::usage`.

use super::*;
use serde_json::json;

#[test]
fn usage_keeps_whole_counts_and_drops_the_rest() {
    let read = |v: Value| read_usage(&v);
    assert_eq!(
        read(json!({"inputTokens": 12, "outputTokens": 40})),
        Some(Usage {
            input_tokens: Some(12),
            output_tokens: Some(40)
        })
    );
    assert_eq!(
        read(json!({"inputTokens": -1, "outputTokens": 2.5, "x": 1})),
        None
    );
    assert_eq!(
        read(json!({"inputTokens": "12", "outputTokens": 7})),
        Some(Usage {
            input_tokens: None,
            output_tokens: Some(7)
        })
    );
    assert_eq!(read(json!({"inputTokens": MAX_TOKENS + 1})), None);
    assert_eq!(read(json!([1, 2])), None);
    assert_eq!(read(json!(null)), None);
}

/// A field kept raw reads as its `Value` did: the same leniency, the frame kept.
#[test]
fn raw_fields_read_as_their_values() {
    let texts = [
        r#"{"inputTokens": 12, "outputTokens": 40}"#,
        r#"{"inputTokens":-1,"outputTokens":2.5}"#,
        r#"{"inputTokens":"12","outputTokens":7,"x":{"y":[1]}}"#,
        r#""gpt-x""#,
        r#""""#,
        "null",
        "[1, 2]",
        "9007199254740992",
    ];
    for text in texts {
        let raw = RawValue::from_string(text.to_owned()).unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(read_raw_usage(Some(&raw)), read_usage(&value), "{text}");
        assert_eq!(read_raw_model(Some(&raw)), read_model(&value), "{text}");
        assert_eq!(read_raw(Some(&raw)), Some(value), "{text}");
    }
    assert_eq!(read_raw_usage(None), None);
    assert_eq!(read_raw_model(None), None);
}

#[test]
fn model_and_code_are_bounded_strings() {
    assert_eq!(read_model(&json!("m")), Some("m".into()));
    assert_eq!(read_model(&json!("")), None);
    assert_eq!(read_model(&json!(7)), None);
    let long = "x".repeat(MAX_MODEL_BYTES + 1);
    assert_eq!(read_model(&json!(long)), None);
    assert_eq!(read_code(&json!("busy")), Some("busy".into()));
    assert_eq!(read_code(&json!("x".repeat(MAX_CODE_BYTES + 1))), None);
}
