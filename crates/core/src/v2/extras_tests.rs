//! Tests of protocol 6's frames: what is read, and each bound that skips a frame.

use super::*;
use crate::v2::{parse_frame, Frame, FrameError};
use serde_json::Value;

fn data(fields: &str) -> Result<Frame, FrameError> {
    parse_frame(&format!(
        r#"{{"type":"message.part.data","turnId":"t1",{fields}}}"#
    ))
}

fn source(fields: &str) -> Result<Frame, FrameError> {
    parse_frame(&format!(
        r#"{{"type":"message.part.source","turnId":"t1",{fields}}}"#
    ))
}

fn metadata(value: &str) -> Result<Frame, FrameError> {
    parse_frame(&format!(
        r#"{{"type":"message.metadata","turnId":"t1","metadata":{value}}}"#
    ))
}

#[test]
fn a_data_part_is_read_with_its_data_as_written() {
    let Ok(Frame::Data(part)) = data(r#""name":"weather","id":"w1","data":{"b":1, "a":[2]}"#)
    else {
        panic!("not read");
    };
    assert_eq!(part.turn_id, "t1");
    assert_eq!(part.part.name, "weather");
    assert_eq!(part.part.id.as_deref(), Some("w1"));
    assert_eq!(part.part.data.get(), r#"{"b":1, "a":[2]}"#);
    assert!(!part.part.transient);
    let Ok(Frame::Data(part)) = data(r#""name":"a.b:c-d_9","data":null,"transient":true"#) else {
        panic!("not read");
    };
    assert!(part.part.transient && part.part.id.is_none());
    let Ok(Frame::Data(part)) =
        data(r#""name":"w","id":null,"data":[],"transient":null,"more":{"x":1}"#)
    else {
        panic!("null is absent, an unknown field ignored");
    };
    assert!(!part.part.transient && part.part.id.is_none());
    assert!(
        parse_frame(r#"{"type":"message.part.data","name":"w","data":1}"#).is_err(),
        "no turnId"
    );
    assert!(
        parse_frame(r#"{"type":"message.part.data","turnId":"t1","name":"w","data":1"#).is_err(),
        "cut short"
    );
}

#[test]
fn a_garbled_data_part_is_an_error() {
    let long = "n".repeat(MAX_DATA_NAME_CHARS + 1);
    let deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
    let id = "i".repeat(MAX_PART_ID_BYTES + 1);
    for fields in [
        r#""name":"weather""#.to_owned(),          // no data
        r#""data":1"#.to_owned(),                  // no name
        r#""name":"","data":1"#.to_owned(),        // empty name
        r#""name":"a b","data":1"#.to_owned(),     // a space
        r#""name":"wéather","data":1"#.to_owned(), // not ASCII
        format!(r#""name":"{long}","data":1"#),    // too long
        r#""name":"status","data":1"#.to_owned(),  // the adapter's own
        r#""name":"question","data":1"#.to_owned(),
        r#""name":"answer","data":1"#.to_owned(),
        r#""name":"w","id":"","data":1"#.to_owned(), // empty id
        format!(r#""name":"w","id":"{id}","data":1"#), // long id
        r#""name":"w","id":7,"data":1"#.to_owned(),  // id not a string
        r#""name":"w","data":1,"transient":"yes""#.to_owned(), // transient not a bool
        format!(r#""name":"w","data":{deep}"#),      // nests too deep
    ] {
        assert!(data(&fields).is_err(), "{fields}");
    }
    let name = "n".repeat(MAX_DATA_NAME_CHARS);
    let id = "i".repeat(MAX_PART_ID_BYTES);
    let deep = format!("{}{}", "[".repeat(64), "]".repeat(64));
    assert!(data(&format!(r#""name":"{name}","id":"{id}","data":{deep}"#)).is_ok());
}

#[test]
fn a_source_is_a_web_page_or_a_document() {
    let Ok(Frame::Source(web)) = source(
        r#""sourceId":"s1","url":"HTTPS://example.com/a","title":"A","mediaType":"text/html","filename":"a.html""#,
    ) else {
        panic!("not read");
    };
    let expected = Source {
        source_id: "s1".into(),
        url: Some("HTTPS://example.com/a".into()),
        media_type: None,
        title: Some("A".into()),
        filename: None,
    };
    assert_eq!(web.part, expected, "a web page keeps only its own fields");
    let Ok(Frame::Source(doc)) = source(
        r#""sourceId":"s2","mediaType":"application/pdf","title":"Climate","filename":"c.pdf""#,
    ) else {
        panic!("not read");
    };
    assert_eq!(doc.part.url, None);
    assert_eq!(doc.part.filename.as_deref(), Some("c.pdf"));
}

#[test]
fn a_garbled_source_is_an_error() {
    let long_url = format!("https://e.com/{}", "a".repeat(MAX_EXTRA_BYTES));
    let long_type = "t".repeat(256);
    for fields in [
        r#""url":"https://e.com""#.to_owned(), // no sourceId
        r#""sourceId":"","url":"https://e.com""#.to_owned(), // empty sourceId
        r#""sourceId":"s1""#.to_owned(),       // neither kind
        r#""sourceId":"s1","url":"javascript:alert(1)""#.to_owned(), // no web URL
        r#""sourceId":"s1","url":"/relative""#.to_owned(),
        format!(r#""sourceId":"s1","url":"{long_url}""#), // too long
        r#""sourceId":"s1","mediaType":"application/pdf""#.to_owned(), // a document without title
        format!(r#""sourceId":"s1","mediaType":"{long_type}","title":"T""#),
        r#""sourceId":"s1","url":7"#.to_owned(), // url not a string
    ] {
        assert!(source(&fields).is_err(), "{fields}");
    }
}

#[test]
fn metadata_is_an_object_of_the_agents_own_keys() {
    let Ok(Frame::Metadata(meta)) = metadata(r#"{"app":{"lang":"en"}}"#) else {
        panic!("not read");
    };
    assert_eq!(meta.part.get(), r#"{"app":{"lang":"en"}}"#);
    let big = format!(r#"{{"a":"{}"}}"#, "x".repeat(MAX_EXTRA_BYTES));
    for value in ["[1]", "\"text\"", "null", big.as_str()] {
        assert!(metadata(value).is_err(), "{value}");
    }
    for key in RESERVED_METADATA_KEYS {
        assert!(metadata(&format!(r#"{{"{key}":1}}"#)).is_err(), "{key}");
    }
    assert!(
        metadata(r#"{"app":{"model":"mine"}}"#).is_ok(),
        "reserved only at the top"
    );
}

#[test]
fn metadata_merges_as_the_ai_sdk_merges_it() {
    let mut base = serde_json::json!({"app": {"lang": "en", "n": [1]}, "keep": 1});
    let over = serde_json::json!({"app": {"tone": "brief", "n": [2]}, "keep": {"x": 1}});
    let (Value::Object(base_map), Value::Object(over)) = (&mut base, over) else {
        unreachable!()
    };
    merge_metadata(base_map, &over);
    assert_eq!(
        base,
        serde_json::json!({"app": {"lang": "en", "tone": "brief", "n": [2]}, "keep": {"x": 1}})
    );
}
