//! Unit tests of the inputs docs/endpoint.md promises to refuse, each through the whole parser:
//! a `trigger` the AI SDK never sends, ids counted in decoded bytes and made of valid Unicode,
//! JSON nested past the bound, and file parts an agent may not be given.

use serde_json::json;

use super::*;

fn parse(body: &str) -> Result<ChatRequest, RequestError> {
    parse_chat_request(body.as_bytes(), &Limits::default())
}

/// The code and the message of the refusal of `body`.
fn refusal(body: &str) -> ((u16, &'static str), String) {
    let err = parse(body).expect_err("refused");
    (err.kind().pair(), err.message())
}

/// A body of one user message, `hi`, with `extra` fields (`,"k":v`).
fn body_with(extra: &str) -> String {
    format!(
        r#"{{"messages":[{{"id":"u1","role":"user","parts":[{{"type":"text","text":"hi"}}]}}]{extra}}}"#
    )
}

#[test]
fn a_trigger_is_one_the_ai_sdk_sends() {
    for trigger in ["submit-message", "regenerate-message"] {
        let req = parse(&body_with(&format!(r#","trigger":"{trigger}""#))).unwrap();
        assert_eq!(req.trigger.as_deref(), Some(trigger));
    }
    assert_eq!(
        parse(&body_with(r#","trigger":null"#)).unwrap().trigger,
        None
    );
    for trigger in [
        "foo",
        "",
        "submit-user-message",
        "submit-tool-result",
        "resume-stream",
    ] {
        let (pair, message) = refusal(&body_with(&format!(r#","trigger":"{trigger}""#)));
        assert_eq!(pair, (400, "invalid_field"), "{trigger}");
        assert_eq!(
            message,
            "The request body is malformed: `trigger` must be \"submit-message\" or \"regenerate-message\".",
        );
    }
}

#[test]
fn a_message_id_in_the_body_is_1_to_256_bytes_of_unicode() {
    let decoded = "\\u00e9".repeat(50);
    let req = parse(&body_with(&format!(r#","messageId":"{decoded}""#))).unwrap();
    assert_eq!(req.target_id, Some("é".repeat(50)), "100 bytes decoded");
    assert_eq!(
        parse(&body_with(r#","messageId":null"#)).unwrap().target_id,
        None
    );
    let long = "x".repeat(10_000);
    for (id, says) in [
        ("\"\"".to_owned(), "is empty"),
        (
            format!("\"{long}\""),
            "is 10000 bytes of UTF-8, over the limit of 256",
        ),
        ("\"\\ud800\"".to_owned(), "is not valid Unicode"),
        ("7".to_owned(), "is not a string"),
    ] {
        let (pair, message) = refusal(&body_with(&format!(r#","messageId":{id}"#)));
        assert_eq!(pair, (400, "invalid_field"), "{id:.20}");
        assert!(
            message.starts_with(&format!(
                "The request body is malformed: `messageId` {says}"
            )),
            "{message}"
        );
    }
}

#[test]
fn message_ids_are_counted_decoded_and_must_be_unicode() {
    let body = |first: &str, last: &str| {
        format!(
            r#"{{"messages":[{{"id":{first},"role":"user","parts":[{{"type":"text","text":"a"}}]}},{{"id":{last},"role":"user","parts":[{{"type":"text","text":"b"}}]}}]}}"#
        )
    };
    // Fifty `é` as escapes: 300 bytes of JSON, 100 of UTF-8.
    let escaped = format!("\"{}\"", "\\u00e9".repeat(50));
    let req = parse(&body(&escaped, &escaped)).unwrap();
    assert_eq!(req.place.message_id, Some("é".repeat(50)));
    let over = format!("\"{}\"", "é".repeat(129));
    for (first, last, index, says) in [
        (r#""\ud800""#, r#""u2""#, 0, "is not valid Unicode"),
        (r#""u1""#, r#""\ud800""#, 1, "is not valid Unicode"),
        (
            over.as_str(),
            r#""u2""#,
            0,
            "is 258 bytes of UTF-8, over the limit of 256",
        ),
        (
            r#""u1""#,
            over.as_str(),
            1,
            "is 258 bytes of UTF-8, over the limit of 256",
        ),
        (r#""""#, r#""u2""#, 0, "is empty"),
    ] {
        let (pair, message) = refusal(&body(first, last));
        assert_eq!(pair, (400, "invalid_message"), "{first:.20} {last:.20}");
        assert!(
            message.starts_with(&format!(
                "Message {index} of `messages` (counted from 0) has an `id` that {says}"
            )),
            "{message}"
        );
    }
}

#[test]
fn context_nests_at_most_64_levels() {
    let nested = |depth: usize| {
        format!(
            "{}{}",
            "{\"a\":".repeat(depth),
            "1".to_owned() + &"}".repeat(depth)
        )
    };
    assert!(parse(&body_with(&format!(",\"context\":{}", nested(64)))).is_ok());
    for depth in [65, 127, 200] {
        let (pair, message) = refusal(&body_with(&format!(",\"context\":{}", nested(depth))));
        assert_eq!(pair, (400, "invalid_field"), "{depth}");
        assert_eq!(
            message,
            "The request body is malformed: `context` nests deeper than the limit of 64 levels of arrays and objects."
        );
    }
}

#[test]
fn parts_nested_too_deep_say_so() {
    let parts = |depth: usize| {
        let data = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        format!(
            r#"{{"messages":[{{"role":"user","parts":[{{"type":"text","text":"hi"}},{{"type":"data-x","data":{data}}}]}}]}}"#
        )
    };
    // `parts` is 1, a part 2: data of 62 arrays nests 64 deep.
    assert!(parse(&parts(62)).is_ok());
    for depth in [63, 130, 500] {
        let (pair, message) = refusal(&parts(depth));
        assert_eq!(pair, (400, "invalid_message"), "{depth}");
        assert_eq!(
            message,
            "The last message is malformed: its `parts` nest deeper than the limit of 64 levels of arrays and objects."
        );
    }
}

/// A body whose last message has text and a file part (part 1) of these fields.
fn with_file(file: Value) -> String {
    let mut part =
        json!({"type": "file", "mediaType": "image/png", "url": "https://files.example/a.png"});
    if let (Some(part), Some(fields)) = (part.as_object_mut(), file.as_object()) {
        part.extend(fields.clone());
    }
    json!({"messages": [{"role": "user", "parts": [{"type": "text", "text": "x"}, part]}]})
        .to_string()
}

#[test]
fn file_urls_the_agent_may_not_fetch_say_why() {
    for (url, why) in [
        ("https:", "is an https: URL without `//` and a host"),
        (
            "https:javascript:alert(1)",
            "is an https: URL without `//` and a host",
        ),
        (
            "https://169.254.169.254/latest/meta-data/",
            "has a host that is an IP address that is not public",
        ),
        (
            "https://127.0.0.1:8787/api/sessions/x/chat",
            "has a host that is an IP address that is not public",
        ),
        (
            "https://[::ffff:127.0.0.1]/",
            "has a host that is an IP address that is not public",
        ),
        (
            "https://10.0.0.2/",
            "has a host that is an IP address that is not public",
        ),
        (
            "https://100.64.0.1/",
            "has a host that is an IP address that is not public",
        ),
        (
            "https://[fd00::1]/",
            "has a host that is an IP address that is not public",
        ),
        ("https://localhost:8787/", "has a host that is `localhost`"),
        ("https://files.localhost/", "has a host that is `localhost`"),
        (
            "https://user:secret@files.example/",
            "has a user name or password",
        ),
        (
            "https://2130706433/",
            "has a host that ends in a number but is not an IPv4 address",
        ),
        (
            "DATA:text/html,<script>alert(1)</script>",
            "is a data: URL without a media type and `;base64`",
        ),
        (
            "data:,hi",
            "is a data: URL without a media type and `;base64`",
        ),
        ("http://files.example/a.png", "is neither https: nor data:"),
    ] {
        let (pair, message) = refusal(&with_file(json!({ "url": url })));
        assert_eq!(pair, (400, "invalid_attachment"), "{url}");
        assert!(
            message.starts_with(&format!(
                "File part 1 of the last message may not go to the agent: its `url` {why}"
            )),
            "{url}: {message}"
        );
    }
}

#[test]
fn file_names_and_media_types_are_bounded() {
    let media_type = format!("{}/{}", "a".repeat(127), "b".repeat(127));
    let req = parse(&with_file(
        json!({"mediaType": media_type, "filename": "é".repeat(127)}),
    ))
    .unwrap();
    assert_eq!(req.attachments[0].media_type.len(), 255);
    for (file, why) in [
        (
            json!({"mediaType": "a".repeat(256)}),
            "its `mediaType` is 256 bytes, over the limit of 255",
        ),
        (
            json!({"filename": "n".repeat(10_000)}),
            "its `filename` is 10000 bytes of UTF-8, over the limit of 255",
        ),
        (
            json!({"filename": "é".repeat(128)}),
            "its `filename` is 256 bytes of UTF-8, over the limit of 255",
        ),
    ] {
        let (pair, message) = refusal(&with_file(file.clone()));
        assert_eq!(pair, (400, "invalid_attachment"), "{file:.40}");
        assert!(message.contains(why), "{message}");
    }
}

#[test]
fn the_sdk_file_parts_still_pass() {
    for url in [
        "https://files.example/a.png",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "data:application/pdf;base64,JVBERi0xLjQK",
    ] {
        let req = parse(&with_file(json!({"url": url, "filename": "a.png"}))).unwrap();
        assert_eq!(req.attachments[0].url, url, "forwarded as sent");
    }
}

#[test]
fn a_data_url_counts_toward_the_body_limit_not_the_prompt() {
    // 200,000 characters of base64: twice the prompt's limit, well within the body's.
    let url = format!("data:text/plain;base64,{}", "QUFB".repeat(50_000));
    let req = parse(&with_file(json!({ "mediaType": "text/plain", "url": url }))).unwrap();
    assert_eq!(req.attachments[0].url.len(), url.len());
    let limits = Limits {
        max_body_bytes: 100_000,
        ..Limits::default()
    };
    let body = with_file(json!({ "mediaType": "text/plain", "url": url }));
    let err = parse_chat_request(body.as_bytes(), &limits).unwrap_err();
    assert_eq!(err.kind().pair(), (413, "body_too_large"));
}
