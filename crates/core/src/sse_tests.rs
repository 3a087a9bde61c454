//! Tests of `sse`.

use super::*;

fn event(chunk: &UiChunk) -> String {
    let mut out = Vec::new();
    write_chunk(&mut out, chunk);
    String::from_utf8(out).unwrap()
}

fn delta(text: &str) -> UiChunk {
    UiChunk::TextDelta {
        id: "a".into(),
        delta: text.into(),
    }
}

#[test]
fn one_chunk_is_one_event() {
    let finish = UiChunk::Finish {
        message_metadata: None,
    };
    assert_eq!(event(&finish), "data: {\"type\":\"finish\"}\n\n");
    assert_eq!(DONE, b"data: [DONE]\n\n");
    assert_eq!(KEEP_ALIVE, b": keep-alive\n\n");
}

#[test]
fn the_padding_is_one_comment_of_exactly_its_bytes() {
    for bytes in [MIN_PADDING, 1000, MAX_PADDING] {
        let mut out = b"x".to_vec();
        write_padding(&mut out, bytes);
        assert_eq!(out.len(), 1 + bytes);
        let comment = &out[1..];
        assert!(comment.starts_with(b":"), "an SSE comment");
        assert!(comment.ends_with(b"\n\n"), "one whole event");
        assert!(
            comment[1..bytes - 2].iter().all(|&b| b == b' '),
            "nothing but spaces between: no line break, nothing a parser reads"
        );
    }
    let mut none = Vec::new();
    write_padding(&mut none, 0);
    assert!(none.is_empty());
}

#[test]
fn hostile_text_cannot_break_framing() {
    assert_eq!(
            event(&delta("a\nb\r\ndata: x\n\n\0")),
            "data: {\"type\":\"text-delta\",\"id\":\"a\",\"delta\":\"a\\nb\\r\\ndata: x\\n\\n\\u0000\"}\n\n"
        );
    // U+2028/2029 and emoji stay raw UTF-8: SSE splits lines only on CR and LF.
    assert_eq!(
        event(&delta("\u{2028}\u{2029}😀")),
        "data: {\"type\":\"text-delta\",\"id\":\"a\",\"delta\":\"\u{2028}\u{2029}😀\"}\n\n"
    );
}

#[test]
fn hand_written_deltas_match_the_derived_form() {
    for text in [
        "",
        "plain",
        "quote \" and \\ and \u{7f}\u{1f}",
        "\u{2028}😀\r\n",
    ] {
        for chunk in [
            delta(text),
            UiChunk::ReasoningDelta {
                id: "r\"1".into(),
                delta: text.into(),
            },
        ] {
            let derived = format!("data: {}\n\n", serde_json::to_string(&chunk).unwrap());
            assert_eq!(event(&chunk), derived);
        }
    }
}

#[test]
fn plain_deltas_are_written_as_write_chunk_writes_them() {
    for text in ["", "plain", "\u{7f} \u{2028}😀 é"] {
        for (kind, chunk) in [
            (DeltaKind::Text, delta(text)),
            (
                DeltaKind::Reasoning,
                UiChunk::ReasoningDelta {
                    id: "a".into(),
                    delta: text.into(),
                },
            ),
        ] {
            let mut head = Vec::new();
            write_plain_delta_head(&mut head, kind, "a");
            let mut out = Vec::new();
            write_plain_delta(&mut out, &head, text);
            assert_eq!(String::from_utf8(out).unwrap(), event(&chunk));
        }
    }
}

#[test]
fn a_mebibyte_delta_is_one_line() {
    let big = "x\n".repeat(512 * 1024);
    let out = event(&delta(&big));
    assert!(out.starts_with("data: {") && out.ends_with("}\n\n"));
    assert_eq!(out.matches('\n').count(), 2);
    assert_eq!(out.matches('\r').count(), 0);
}

#[test]
fn headers_match_the_sdk() {
    assert!(RESPONSE_HEADERS.contains(&("x-vercel-ai-ui-message-stream", "v1")));
    assert!(RESPONSE_HEADERS.contains(&("content-type", "text/event-stream")));
    assert!(RESPONSE_HEADERS.contains(&("x-content-type-options", "nosniff")));
}
