//! Tests of `request_head`.

use super::*;

fn text(fields: &[&str]) -> String {
    fields.iter().map(|f| format!("{f}\n")).collect()
}

#[test]
fn reads_each_field_and_tells_an_absent_header_from_an_empty_one() {
    let head = RequestHead::parse(text(&[
        "0b6e5d1a-4c1f-4c8e-9a51-2f0f4f1b7c3d",
        "1764072000123",
        "POST",
        "https://example.com/api/sessions/s1/chat?trace=1",
        "https://app.example",
        "application/json",
        "120",
        "\u{0}",
        "",
        "approvals",
        "3f9a0c1d2b4e5f60",
        "bytes=0-99",
        "0f8fad5b-d9cb-469f-a165-70867728950e",
        "\u{0}",
    ]))
    .expect("a head");
    assert_eq!(head.id(), "0b6e5d1a-4c1f-4c8e-9a51-2f0f4f1b7c3d");
    assert_eq!(head.received_at_ms(), 1_764_072_000_123);
    assert_eq!(head.method(), "POST");
    assert_eq!(
        head.url(),
        "https://example.com/api/sessions/s1/chat?trace=1"
    );
    assert_eq!(head.header(Field::Origin), Some("https://app.example"));
    assert_eq!(head.header(Field::ContentType), Some("application/json"));
    assert_eq!(head.header(Field::ContentLength), Some("120"));
    assert_eq!(head.header(Field::Authorization), None);
    assert_eq!(head.header(Field::ClientIp), Some(""));
    assert_eq!(head.header(Field::Questions), Some("approvals"));
    assert_eq!(head.header(Field::LastEventId), Some("3f9a0c1d2b4e5f60"));
    assert_eq!(head.header(Field::Range), Some("bytes=0-99"));
    assert_eq!(
        head.header(Field::ConversationsKey),
        Some("0f8fad5b-d9cb-469f-a165-70867728950e")
    );
    assert_eq!(head.header(Field::AccessControlRequestHeaders), None);
}

#[test]
fn refuses_a_text_of_another_shape() {
    const NO: &str = "\u{0}";
    let all = [
        "id",
        "17",
        "GET",
        "https://h/",
        NO,
        NO,
        NO,
        NO,
        NO,
        NO,
        NO,
        NO,
        NO,
        NO,
    ];
    assert!(RequestHead::parse(text(&all)).is_some());
    assert_eq!(RequestHead::parse(text(&all[..13])), None, "a field short");
    assert_eq!(
        RequestHead::parse(format!("{}extra", text(&all))),
        None,
        "text after the last field"
    );
    assert_eq!(
        RequestHead::parse(text(&all).trim_end().to_owned()),
        None,
        "the last field not ended"
    );
    for (at, what) in [
        (0, "no id"),
        (1, "no time"),
        (2, "no method"),
        (3, "no URL"),
    ] {
        let mut missing = all;
        missing[at] = NO;
        assert_eq!(RequestHead::parse(text(&missing)), None, "{what}");
    }
    let mut not_a_time = all;
    not_a_time[1] = "soon";
    assert_eq!(
        RequestHead::parse(text(&not_a_time)),
        None,
        "a time that is no number"
    );
    assert_eq!(RequestHead::parse(String::new()), None);
}

/// `incoming.js` lists the headers in [`Field::ALL`]'s order, after the fields before them.
#[test]
fn incoming_js_lists_the_same_headers_in_the_same_order() {
    let js = include_str!("../../adapter/src/inbound/incoming.js");
    let list = js
        .split_once("const HEADERS = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("incoming.js has `const HEADERS = [...]`");
    let js_names: Vec<&str> = list
        .split(',')
        .map(|name| name.trim().trim_matches('"'))
        .filter(|name| !name.is_empty())
        .collect();
    let rust_names: Vec<&str> = Field::ALL
        .iter()
        .filter_map(|field| field.header_name())
        .collect();
    assert_eq!(js_names, rust_names);
}

#[test]
fn each_field_knows_its_place_in_the_text() {
    for (at, field) in Field::ALL.into_iter().enumerate() {
        assert_eq!(field.position(), at, "{field:?}");
    }
}

#[test]
fn a_header_set_has_a_bit_per_header_in_the_text_order() {
    assert_eq!(HeaderSet::ALL.bits(), 0b11_1111_1111);
    let headers: Vec<Field> = Field::ALL
        .into_iter()
        .filter(|f| f.header_name().is_some())
        .collect();
    for (i, &field) in headers.iter().enumerate() {
        let without = HeaderSet::ALL.without(field);
        assert_eq!(
            without.bits(),
            HeaderSet::ALL.bits() & !(1 << i),
            "{field:?}"
        );
        assert!(!without.contains(field));
        assert!(HeaderSet::ALL.contains(field));
    }
    assert_eq!(HeaderSet::ALL.without(Field::Url), HeaderSet::ALL);
}
