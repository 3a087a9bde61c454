//! Unit tests of the chat body parser, one per accepted shape and per refusal.

use super::*;

fn parse(body: &str) -> Result<ChatRequest, RequestError> {
    parse_chat_request(body.as_bytes(), &Limits::default())
}

fn code(body: &str) -> (u16, &'static str) {
    let err = parse(body).expect_err("accepted");
    err.kind().pair()
}

#[test]
fn reads_the_ai_sdk_v5_body() {
    let req = parse(
        r#"{"id":"chat1","messages":[
            {"id":"m1","role":"user","parts":[{"type":"text","text":"old"}]},
            {"id":"m2","role":"assistant","parts":[{"type":"step-start"},{"type":"text","text":"x","state":"done"}]},
            {"id":"m3","role":"user","metadata":{"k":1},"parts":[
                {"type":"file","mediaType":"image/png","url":"data:image/png;base64,AA==","filename":"a.png"},
                {"type":"text","text":"Hello"},{"type":"text","text":"world"}]}
        ],"trigger":"submit-message","extraField":{"any":"thing"}}"#,
    )
    .unwrap();
    assert_eq!(req.chat_id.as_deref(), Some("chat1"));
    assert_eq!(req.trigger.as_deref(), Some("submit-message"));
    assert_eq!(req.target_id, None);
    assert_eq!(req.text, "Hello\nworld");
    assert_eq!(
        req.attachments,
        [Attachment {
            media_type: "image/png".into(),
            url: "data:image/png;base64,AA==".into(),
            filename: Some("a.png".into()),
            size: None,
        }]
    );
}

#[test]
fn regenerate_with_message_id_and_files_only() {
    let req = parse(
        r#"{"id":"c","trigger":"regenerate-message","messageId":"m9","messages":[
            {"id":"u","role":"user","parts":[{"type":"file","mediaType":"text/plain","url":"https://x/y"}]}]}"#,
    )
    .unwrap();
    assert_eq!(req.target_id.as_deref(), Some("m9"));
    assert_eq!(req.text, "");
    assert_eq!(req.attachments.len(), 1);
    assert_eq!(req.attachments[0].filename, None);
}

#[test]
fn every_bad_shape_has_its_code() {
    let cases: &[(&str, u16, &str)] = &[
        ("", 400, "invalid_json"),
        ("{", 400, "invalid_json"),
        ("hello", 400, "invalid_json"),
        ("[]", 400, "invalid_body"),
        ("\"x\"", 400, "invalid_body"),
        ("null", 400, "invalid_body"),
        (r#"{"id":5,"messages":[]}"#, 400, "invalid_field"),
        ("{}", 400, "missing_messages"),
        (r#"{"messages":{}}"#, 400, "missing_messages"),
        (r#"{"messages":"hi"}"#, 400, "missing_messages"),
        (r#"{"messages":null}"#, 400, "missing_messages"),
        (r#"{"messages":[]}"#, 400, "no_messages"),
        (r#"{"messages":[1]}"#, 400, "invalid_message"),
        (r#"{"messages":[{"role":"user"}]}"#, 400, "invalid_message"),
        (
            r#"{"messages":[{"role":"user","parts":{}}]}"#,
            400,
            "invalid_message",
        ),
        (
            r#"{"messages":[{"role":"user","parts":[{"text":"x"}]}]}"#,
            400,
            "invalid_message",
        ),
        (
            r#"{"messages":[{"role":"user","parts":[{"type":"text"}]}]}"#,
            400,
            "invalid_message",
        ),
        (
            r#"{"messages":[{"role":"user","parts":[{"type":"text","text":3}]}]}"#,
            400,
            "invalid_message",
        ),
        (
            r#"{"messages":[{"role":"user","parts":[{"type":"file","url":"u"}]}]}"#,
            400,
            "invalid_message",
        ),
        (
            r#"{"messages":[{"role":"assistant","parts":[{"type":"text","text":"x"}]}]}"#,
            422,
            "last_message_not_from_user",
        ),
        (
            r#"{"messages":[{"role":"user","parts":[]}]}"#,
            422,
            "empty_message",
        ),
        (
            r#"{"messages":[{"role":"user","parts":[{"type":"text","text":"  \n"}]}]}"#,
            422,
            "empty_message",
        ),
        (
            r#"{"messages":[{"role":"user","parts":[{"type":"step-start"}]}]}"#,
            422,
            "empty_message",
        ),
    ];
    for (body, status, expected) in cases {
        assert_eq!(code(body), (*status, *expected), "{body}");
    }
    assert_eq!(
        parse_chat_request(b"\xff\xfe", &Limits::default())
            .unwrap_err()
            .kind()
            .code,
        "invalid_json"
    );
}

#[test]
fn limits_are_enforced() {
    let limits = Limits {
        max_body_bytes: 200,
        max_message_bytes: 200,
        max_messages: 2,
        max_prompt_chars: 5,
    };
    let msg = r#"{"role":"user","parts":[{"type":"text","text":"héllo"}]}"#;
    let ok = format!(r#"{{"messages":[{msg}]}}"#);
    assert_eq!(
        parse_chat_request(ok.as_bytes(), &limits).unwrap().text,
        "héllo"
    );
    let long = r#"{"messages":[{"role":"user","parts":[{"type":"text","text":"héllo!"}]}]}"#;
    let err = parse_chat_request(long.as_bytes(), &limits).unwrap_err();
    assert_eq!(err.kind().pair(), (413, "prompt_too_long"));
    let many = format!(r#"{{"messages":[{msg},{msg},{msg}]}}"#);
    let limits_big_body = Limits {
        max_body_bytes: 10_000,
        ..limits.clone()
    };
    let err = parse_chat_request(many.as_bytes(), &limits_big_body).unwrap_err();
    assert_eq!(err.kind().pair(), (413, "too_many_messages"));
    let huge = " ".repeat(201);
    let err = parse_chat_request(huge.as_bytes(), &limits).unwrap_err();
    assert_eq!(err.kind().pair(), (413, "body_too_large"));
}

#[test]
fn messages_say_what_is_wrong() {
    let err = parse(r#"{"messages":[{"role":"system","parts":[]}]}"#).unwrap_err();
    assert_eq!(
        err.message(),
        "The last message must come from the user (or be the assistant's, with the agent's question answered on its tool part), not `system`."
    );
    let err = parse("{").unwrap_err();
    assert!(err
        .message()
        .starts_with("The request body is not valid JSON: "));
    assert_eq!(err.to_string(), err.message());
}

#[test]
fn a_data_answer_part_makes_an_answer() {
    let req = parse(
        r#"{"id":"c","messages":[{"id":"u","role":"user","parts":[
            {"type":"text","text":"Yes"},
            {"type":"data-answer","data":{"questionId":"q1","answer":{"pick":["yes"]}}}]}]}"#,
    )
    .unwrap();
    assert_eq!(
        req.reply,
        Some(Reply::Data(Answer {
            question_id: "q1".into(),
            answer: serde_json::json!({"pick": ["yes"]}),
            denied_call: None,
        }))
    );
    assert_eq!(req.text, "Yes");
    // Without any text, the answer alone is enough.
    let req = parse(
        r#"{"messages":[{"role":"user","parts":[{"type":"data-answer","data":{"questionId":"q","answer":null}}]}]}"#,
    )
    .unwrap();
    let Some(Reply::Data(answer)) = req.reply else {
        panic!("an answer")
    };
    assert_eq!(answer.answer, Value::Null);
}

#[test]
fn bad_answers_are_refused_with_what_is_missing() {
    for parts in [
        r#"[{"type":"data-answer","data":{"answer":"yes"}}]"#,
        r#"[{"type":"data-answer","data":{"questionId":1,"answer":"yes"}}]"#,
        r#"[{"type":"data-answer","data":{"questionId":"q"}}]"#,
        r#"[{"type":"data-answer"}]"#,
        r#"[{"type":"data-answer","data":{"questionId":"q","answer":1}},{"type":"data-answer","data":{"questionId":"r","answer":2}}]"#,
    ] {
        let body = format!(r#"{{"messages":[{{"role":"user","parts":{parts}}}]}}"#);
        assert_eq!(code(&body), (400, "invalid_message"), "{parts}");
    }
    let err = parse(r#"{"messages":[{"role":"user","parts":[{"type":"data-answer","data":{}}]}]}"#)
        .unwrap_err();
    assert!(err
        .message()
        .contains("`data.questionId` (a string) and `data.answer`"));
}

/// The body's options beside `messages`: each read when given, and a clear 400 naming the field
/// and its values when it is anything else.
#[test]
fn body_options_are_read_and_checked() {
    let body = |field: &str, v: &str| {
        format!(
            r#"{{"{field}":{v},"messages":[{{"role":"user","parts":[{{"type":"text","text":"x"}}]}}]}}"#
        )
    };
    let read = |field: &str, v: &str| parse(&body(field, v)).unwrap();
    assert_eq!(
        read("onDisconnect", r#""detach""#).on_disconnect,
        Some(OnDisconnect::Detach)
    );
    assert_eq!(
        read("onDisconnect", r#""abort""#).on_disconnect,
        Some(OnDisconnect::Abort)
    );
    assert_eq!(read("onDisconnect", "null").on_disconnect, None);
    assert_eq!(
        read("trace", r#""minimal""#).trace,
        Some(TraceMode::Minimal)
    );
    assert_eq!(read("trace", r#""full""#).trace, Some(TraceMode::Full));
    assert_eq!(read("trace", "null").trace, None);
    for (field, bad) in [
        ("onDisconnect", r#""later""#),
        ("onDisconnect", "1"),
        ("onDisconnect", r#"["detach"]"#),
        ("trace", r#""verbose""#),
        ("trace", "2"),
        ("trace", "{}"),
    ] {
        let err = parse(&body(field, bad)).unwrap_err();
        assert_eq!(err.kind().pair(), (400, "invalid_field"), "{field} {bad}");
        assert!(
            err.message().contains(&format!("`{field}` must be")),
            "{field} {bad}"
        );
    }
}

#[test]
fn file_urls_must_be_https_or_data() {
    let body = |url: &str| {
        let part = serde_json::json!({"type": "file", "mediaType": "image/png", "url": url});
        format!(
            r#"{{"messages":[{{"role":"user","parts":[{{"type":"text","text":"x"}},{part}]}}]}}"#
        )
    };
    for good in [
        "https://files.example/a.png",
        "HTTPS://files.example/a.png",
        "hTtPs://x",
        "data:image/png;base64,AA==",
        "DATA:text/plain;BASE64,aGk=",
    ] {
        let req = parse(&body(good)).unwrap_or_else(|e| panic!("{good}: {e}"));
        assert_eq!(req.attachments[0].url, good, "forwarded as sent");
    }
    for bad in [
        "http://files.example/a.png",
        "HTTP://x",
        "file:///etc/passwd",
        "javascript:alert(1)",
        "ftp://x/y",
        "blob:https://x/1",
        "ws://x",
        "gopher://x",
        "/relative/a.png",
        "a.png",
        "//files.example/a.png",
        "",
        " https://x",
        "\thttps://x",
        "ht\ttps://x",
        "https\n://x",
        "https//x",
        "httpsx://x",
        "data",
        "DATA:,hi",
        "data:text/plain,a:b",
    ] {
        let err = parse(&body(bad)).unwrap_err();
        assert!(
            matches!(err, RequestError::InvalidAttachment { part: 1, .. }),
            "{bad:?}"
        );
        assert_eq!(err.kind().pair(), (400, "invalid_attachment"));
        assert!(
            err.message()
                .starts_with("File part 1 of the last message may not go to the agent: its `url` "),
            "{}",
            err.message()
        );
    }
    // Only the last message is read: an old message's file is never forwarded, so never checked.
    let old = r#"{"messages":[
        {"role":"user","parts":[{"type":"file","mediaType":"text/plain","url":"file:///x"}]},
        {"role":"user","parts":[{"type":"text","text":"x"}]}]}"#;
    assert!(parse(old).unwrap().attachments.is_empty());
}

#[test]
fn the_envelope_is_refused_as_it_always_was() {
    // Each case's code and sentence, checked against the parser that read the body in three
    // passes (the body, then `messages`, then each message) before it was read in one.
    let cases: &[(&str, &str, &str)] = &[
        (
            " \n {\"id\":5,\"messages\":[]} ",
            "invalid_field",
            "The request body is malformed: invalid type: integer `5`, expected a string at line 1 column 7.",
        ),
        (
            r#"[{"messages":[]}]"#,
            "invalid_body",
            "The request body must be a JSON object.",
        ),
        (
            " [] ",
            "invalid_body",
            "The request body must be a JSON object.",
        ),
        (
            r#"{"messages":[{"role":"user","parts":[]}]} x"#,
            "invalid_json",
            "The request body is not valid JSON: trailing characters at line 1 column 43.",
        ),
        (
            "{\"messages\":[1,\n2,",
            "invalid_json",
            "The request body is not valid JSON: EOF while parsing a value at line 2 column 2.",
        ),
        (
            r#"{"messages":true}"#,
            "missing_messages",
            "The request body must have a `messages` array.",
        ),
        (
            r#"{"messages":-5.5}"#,
            "missing_messages",
            "The request body must have a `messages` array.",
        ),
        (
            r#"{"messages":[1,{"x":[2]},"old"],"messages2":1}"#,
            "invalid_message",
            // Since the branch's ids are read (protocol 4), the last message's fields are read one
            // by one, and say so in words rather than serde's.
            "The last message is malformed: it is not a JSON object.",
        ),
    ];
    for (body, code, message) in cases {
        let err = parse(body).expect_err(body);
        assert_eq!(
            (err.kind().code, err.message().as_str()),
            (*code, *message),
            "{body}"
        );
    }
}
#[test]
fn an_out_of_range_number_as_messages_is_a_malformed_field() {
    // The one answer the one-pass reading changed: `messages` is read as whatever value it is,
    // and a number past f64's range cannot be read at all. It was `missing_messages` when the
    // field was first kept as raw text.
    assert_eq!(
        parse(r#"{"messages":1e400}"#).unwrap_err().message(),
        "The request body is malformed: number out of range at line 1 column 17."
    );
}

/// What `sendAutomaticallyWhen` posts once a question is answered on its tool part: the last
/// message is the assistant's, and the request answers in it.
#[test]
fn an_assistant_message_with_an_answered_question_is_an_answer() {
    let body = |parts: &str, id: &str| {
        format!(
            r#"{{"id":"c","trigger":"submit-message","messageId":"t1","messages":[
            {{"id":"u1","role":"user","parts":[{{"type":"text","text":"/deploy"}}]}},
            {{{id}"role":"assistant","parts":[{{"type":"step-start"}},{parts}]}}]}}"#
        )
    };
    let approved = r#"{"type":"dynamic-tool","toolName":"deploy","toolCallId":"c2","state":"approval-responded","input":{},"approval":{"id":"q2","approved":false,"reason":"no"}}"#;
    let req = parse(&body(approved, r#""id":"t1","#)).unwrap();
    let Some(Reply::InMessage(answered)) = req.reply else {
        panic!("an answer in the message")
    };
    assert_eq!(answered.message_id, "t1");
    assert_eq!(
        answered.answers,
        vec![Answer {
            question_id: "q2".into(),
            answer: serde_json::json!({"approved": false, "reason": "no"}),
            denied_call: Some("c2".into()),
        }]
    );
    assert_eq!(req.text, "");
    // An assistant message that answers nothing is still refused, as are one without an id and
    // another role.
    let text = r#"{"type":"text","text":"hi","state":"done"}"#;
    assert_eq!(
        code(&body(text, r#""id":"t1","#)),
        (422, "last_message_not_from_user")
    );
    assert_eq!(code(&body(approved, "")), (400, "invalid_message"));
    let system = body(approved, r#""id":"t1","#).replace("assistant", "system");
    assert_eq!(code(&system), (422, "last_message_not_from_user"));
}

#[test]
fn a_declared_length_is_refused_before_the_body() {
    let max = Limits::default().max_body_bytes;
    for value in ["104857601", "200000000", "99999999999999999999999"] {
        let err = declared_body_length(Some(value), max).unwrap_err();
        assert_eq!(err.kind().pair(), (413, "body_too_large"), "{value}");
        assert_eq!(
            err.message(),
            "The request body is larger than the limit of 104857600 bytes."
        );
    }
    let err = declared_body_length(Some("1e12"), max).unwrap_err();
    assert_eq!(err.kind().pair(), (400, "body_unreadable"));
    assert_eq!(
        declared_body_length(Some("104857600"), max),
        Ok(ContentLength::Declared(max))
    );
    assert_eq!(declared_body_length(None, max), Ok(ContentLength::Absent));
}
