//! Tests of `live`: each event's bytes are what serde reads back.

use super::*;
use serde_json::json;

#[test]
fn each_event_reads_back_as_its_json() {
    let session = Listed {
        id: "s1".into(),
        title: "Quotes \" and\nlines".into(),
        created_at: 1,
        updated_at: 2,
    };
    let read: serde_json::Value = serde_json::from_str(&changed(&session)).unwrap();
    assert_eq!(
        read,
        json!({"type":"session","session":{"id":"s1","title":"Quotes \" and\nlines","createdAt":1,"updatedAt":2}})
    );
    let read: serde_json::Value = serde_json::from_str(&deleted("a\"b")).unwrap();
    assert_eq!(read, json!({"type":"deleted","id":"a\"b"}));
}

#[test]
fn live_is_asked_by_live_1_alone() {
    assert!(!asked("https://w/api/sessions").unwrap());
    assert!(!asked("https://w/api/sessions?limit=5").unwrap());
    assert!(asked("https://w/api/sessions?live=1").unwrap());
    assert!(asked("https://w/api/sessions?x=2&live=1").unwrap());
    for bad in [
        "?live=0",
        "?live=true",
        "?live",
        "?live=1&limit=5",
        "?cursor=&live=1",
    ] {
        let refused = asked(&format!("https://w/api/sessions{bad}")).unwrap_err();
        assert_eq!(refused.kind, INVALID_QUERY, "{bad}");
    }
}
