//! Tests of `wire`.

use super::*;
use crate::conversations::cursor::Cursor;

#[test]
fn each_body_reads_back_as_the_object_reads_it() {
    let read = |text: &str| serde_json::from_str::<OpBody>(text).unwrap();
    let body = read(&titled("s1", "Quotes \" and \\ and\nlines"));
    assert_eq!(body.id.as_deref(), Some("s1"));
    assert_eq!(body.title.as_deref(), Some("Quotes \" and \\ and\nlines"));
    assert_eq!(read(&named("s2")).id.as_deref(), Some("s2"));
    let first = read(&listing(&ListQuery {
        limit: 20,
        cursor: None,
    }));
    assert_eq!((first.limit, first.cursor), (Some(20), None));
    let cursor = Cursor {
        as_of: 9,
        at: 8,
        id: "s3".into(),
    };
    let next = read(&listing(&ListQuery {
        limit: 5,
        cursor: Some(cursor.clone()),
    }));
    assert_eq!(next.limit, Some(5));
    assert_eq!(next.cursor, Some(cursor.encode()));
}

#[test]
fn the_bodies_are_what_serde_writes() {
    assert_eq!(
        titled("s1", "é \u{1}"),
        serde_json::json!({"id": "s1", "title": "é \u{1}"}).to_string()
    );
    assert_eq!(named("s1"), serde_json::json!({"id": "s1"}).to_string());
}
