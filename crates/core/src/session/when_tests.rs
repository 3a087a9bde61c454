//! Tests of `session::when`.

use super::*;
use serde_json::json;

fn ms(text: &str) -> Option<u64> {
    epoch_ms(&json!(text))
}

#[test]
fn dates_read_as_javascript_reads_them() {
    // Date.parse of the same strings, in Node.
    assert_eq!(ms("1970-01-01T00:00:00Z"), Some(0));
    assert_eq!(ms("2026-11-24T10:00:00.000Z"), Some(1_795_514_400_000));
    assert_eq!(ms("2000-02-29T23:59:59.999Z"), Some(951_868_799_999));
    assert_eq!(ms("2026-11-24T11:30:00.5+01:30"), Some(1_795_514_400_500));
    assert_eq!(ms("2026-11-24t10:00:00.123456z"), Some(1_795_514_400_123));
    assert_eq!(ms("2026-11-24 05:00:00-05:00"), Some(1_795_514_400_000));
    assert_eq!(
        epoch_ms(&json!(1_795_514_400_000_u64)),
        Some(1_795_514_400_000)
    );
}

#[test]
fn anything_else_is_none() {
    for bad in [
        "",
        "2026-11-24",
        "2026-11-24T10:00:00",
        "2026-13-01T00:00:00Z",
        "2026-02-29T00:00:00Z",
        "2026-11-24T24:00:00Z",
        "2026-11-24T10:00:00.Z",
        "2026-11-24T10:00:00+0100",
        "1969-12-31T23:59:59Z",
        "２026-11-24T10:00:00Z",
        "2026-11-24T10:00:00Zjunk",
    ] {
        assert_eq!(ms(bad), None, "{bad}");
    }
    assert_eq!(epoch_ms(&json!(-1)), None);
    assert_eq!(epoch_ms(&json!(1.5)), None);
    assert_eq!(epoch_ms(&json!(null)), None);
}
