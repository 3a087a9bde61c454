//! Unit tests of the chat body's `context`: what is forwarded, and each refusal.

use super::*;

fn parse(body: &str) -> Result<ChatRequest, RequestError> {
    parse_chat_request(body.as_bytes(), &Limits::default())
}

fn with_context(context: &str) -> String {
    format!(
        r#"{{"messages":[{{"role":"user","parts":[{{"type":"text","text":"hi"}}]}}],"context":{context}}}"#
    )
}

#[test]
fn an_object_is_kept_as_it_came() {
    let req = parse(&with_context(
        r#"{ "page": "/pricing", "plan": {"tier": "pro"} }"#,
    ))
    .unwrap();
    assert_eq!(
        req.context.as_deref(),
        Some(r#"{ "page": "/pricing", "plan": {"tier": "pro"} }"#)
    );
}

#[test]
fn absent_or_null_is_none() {
    assert_eq!(parse(&with_context("null")).unwrap().context, None);
    let none = r#"{"messages":[{"role":"user","parts":[{"type":"text","text":"hi"}]}]}"#;
    assert_eq!(parse(none).unwrap().context, None);
}

#[test]
fn anything_but_an_object_is_refused() {
    for context in [r#""page""#, "[1]", "3", "true"] {
        let err = parse(&with_context(context)).expect_err(context);
        assert_eq!(err.kind().pair(), (400, "invalid_field"), "{context}");
        assert_eq!(
            err.message(),
            "The request body is malformed: `context` must be a JSON object."
        );
    }
}

#[test]
fn an_object_over_the_limit_is_refused_and_says_its_size() {
    let big = format!(r#"{{"notes":"{}"}}"#, "x".repeat(MAX_CONTEXT_BYTES));
    let err = parse(&with_context(&big)).unwrap_err();
    assert_eq!(err.kind().code, "invalid_field");
    assert_eq!(
        err.message(),
        format!(
            "The request body is malformed: `context` is {} bytes of JSON, over the limit of 16384.",
            big.len()
        )
    );
    let just = format!(r#"{{"n":"{}"}}"#, "x".repeat(MAX_CONTEXT_BYTES - 8));
    assert_eq!(just.len(), MAX_CONTEXT_BYTES);
    assert!(parse(&with_context(&just)).is_ok());
}
