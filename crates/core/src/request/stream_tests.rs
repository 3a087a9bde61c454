use proptest::prelude::*;

use super::super::{parse_chat_request, Limits};
use super::{BodyStream, StreamError as RequestError};

const BIG: usize = 1 << 30;

/// `body` through a stream in chunks of `size` bytes.
fn streamed(
    body: &[u8],
    size: usize,
    max_body: usize,
    max_held: usize,
) -> Result<Vec<u8>, RequestError> {
    let mut stream = BodyStream::new(max_body, max_held);
    for chunk in body.chunks(size.max(1)) {
        stream.push(chunk)?;
    }
    Ok(stream.finish())
}

fn compact(body: &str) -> String {
    String::from_utf8(streamed(body.as_bytes(), 3, BIG, BIG).unwrap()).unwrap()
}

#[test]
fn earlier_messages_are_kept_as_their_ids_and_the_last_whole() {
    let body = r#"{"id":"c","messages":[{"id":"m1","role":"user","parts":[{"type":"file","mediaType":"image/png","url":"data:image/png;base64,AAAA"}]},{"role":"assistant","parts":[]},"odd",{"id":"m3","role":"user","parts":[{"type":"text","text":"hi \"there\" ]}"}]}],"trigger":"submit-message"}"#;
    assert_eq!(
        compact(body),
        r#"{"id":"c","messages":[{"id":"m1"},{},0,{"id":"m3","role":"user","parts":[{"type":"text","text":"hi \"there\" ]}"}]}],"trigger":"submit-message"}"#
    );
}

#[test]
fn white_space_between_messages_is_dropped_inside_them_kept() {
    let body = "{ \"messages\" : [ {\"id\" : \"a\"} ,\n {\"id\":\"b\", \"parts\": [ ] } ] }";
    assert_eq!(
        compact(body),
        "{ \"messages\" : [{\"id\":\"a\"},{\"id\":\"b\", \"parts\": [ ] }] }"
    );
}

#[test]
fn a_key_written_with_escapes_or_deeper_is_not_messages() {
    let escaped = r#"{"mess\u0061ges":[{"id":"a","x":1},{"id":"b"}]}"#;
    assert_eq!(compact(escaped), escaped);
    let deeper = r#"{"context":{"messages":[{"id":"a","x":1},{"id":"b"}]},"messages":[]}"#;
    assert_eq!(compact(deeper), deeper);
    let value = r#"{"note":"messages","messages":[1,2]}"#;
    assert_eq!(compact(value), r#"{"note":"messages","messages":[0,2]}"#);
}

#[test]
fn what_is_no_object_is_kept_as_it_came() {
    for body in ["[1,2]", "  \"messages\"", "nul", ""] {
        assert_eq!(compact(body), body.trim_start());
    }
}

#[test]
fn an_earlier_message_that_is_not_json_is_invalid_json() {
    let body = br#"{"messages":[{"id":"a","parts":[tru]},{"id":"b"}]}"#;
    assert!(matches!(
        streamed(body, 5, BIG, BIG),
        Err(RequestError::NotJson(_))
    ));
}

#[test]
fn a_body_over_max_body_is_too_large_as_it_comes() {
    let body = format!(
        r#"{{"messages":[{{"id":"a","p":"{}"}},{{"id":"b"}}]}}"#,
        "x".repeat(5000)
    );
    let err = streamed(body.as_bytes(), 1000, 4000, BIG).unwrap_err();
    assert_eq!(err, RequestError::TooLarge { limit: 4000 });
}

#[test]
fn what_it_holds_is_one_message_not_the_body() {
    // Twenty earlier messages of 10 KB each, then a small last one: held at most about one.
    let earlier = format!(
        r#"{{"id":"e","role":"user","parts":[{{"type":"text","text":"{}"}}]}},"#,
        "y".repeat(10_000)
    );
    let body = format!(
        r#"{{"messages":[{}{{"id":"z","role":"user","parts":[{{"type":"text","text":"hi"}}]}}]}}"#,
        earlier.repeat(20)
    );
    let out = streamed(body.as_bytes(), 4096, BIG, 12_000).unwrap();
    let chat = parse_chat_request(&out, &Limits::default()).unwrap();
    assert_eq!(chat.text, "hi");
    assert_eq!(
        chat.place.branch.as_deref(),
        Some(&*format!("[{}]", vec!["\"e\""; 20].join(",")))
    );
    // The last message itself over the bound.
    let err = streamed(body.as_bytes(), 4096, BIG, 9_000).unwrap_err();
    assert_eq!(err, RequestError::MessageTooLarge { limit: 9_000 });
}

/// A JSON string of `text`'s characters, with the escapes a body may use.
fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn part() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,12}".prop_map(|t| format!(r#"{{"type":"text","text":{}}}"#, json_string(&t))),
        "[A-Za-z0-9+/]{0,40}".prop_map(|d| format!(
            r#"{{ "type" : "file", "mediaType":"image/png","url":"data:image/png;base64,{d}" }}"#
        )),
        Just(r#"{"type":"step-start","x":[[],{},null,true,-1.5e3,"\\\"]"]}"#.to_owned()),
    ]
}

fn message() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("user"), Just("assistant")],
        "[a-z0-9\"\\\\]{1,6}",
        prop::collection::vec(part(), 0..4),
        prop_oneof![Just(""), Just(" "), Just("\n\t")],
    )
        .prop_map(|(role, id, parts, ws)| {
            format!(
                r#"{ws}{{{ws}"id":{},"role":"{role}",{ws}"parts":[{}]}}{ws}"#,
                json_string(&id),
                parts.join(&format!(",{ws}"))
            )
        })
}

proptest! {
    /// However the body is cut into chunks, the parser reads from the stream what it reads from
    /// the whole body: the same request, or the same refusal.
    #[test]
    fn the_stream_reads_as_the_whole_body(
        messages in prop::collection::vec(message(), 0..6),
        last in "[ -~]{1,10}",
        chunk in 1usize..64,
        trailer in prop_oneof![Just(""), Just(r#","trigger":"submit-message","context":{"messages":[1]}"#)],
    ) {
        let mut all = messages;
        all.push(format!(r#"{{"id":"last","role":"user","parts":[{{"type":"text","text":{}}}]}}"#, json_string(&last)));
        let body = format!(r#"{{"id":"chat","messages":[{}]{trailer}}}"#, all.join(","));
        let whole = parse_chat_request(body.as_bytes(), &Limits::default());
        let out = streamed(body.as_bytes(), chunk, BIG, BIG).unwrap();
        prop_assert_eq!(parse_chat_request(&out, &Limits::default()), whole);
    }

    /// Bytes that are no chat body at all: the stream never panics, and what it gives the parser
    /// is refused as the whole body is (or, reduced, for the same reason's code).
    #[test]
    fn any_bytes_are_refused_alike(body in prop::collection::vec(any::<u8>(), 0..200), chunk in 1usize..16) {
        let whole = parse_chat_request(&body, &Limits::default());
        match streamed(&body, chunk, BIG, BIG) {
            Ok(out) => {
                let from_stream = parse_chat_request(&out, &Limits::default());
                prop_assert_eq!(from_stream.is_ok(), whole.is_ok());
            }
            Err(err) => prop_assert!(whole.is_err(), "the stream refused ({err:?}) what the parser takes"),
        }
    }
}
