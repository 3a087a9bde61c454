//! Tests of `client_frame`.

use super::*;
use serde_json::json;

#[test]
fn prompts_keep_their_usable_attachments() {
    let frame = json!({"type": "prompt", "content": "hi", "requestId": "r1", "onDisconnect": "abort", "attachments": [
        {"mediaType": "image/png", "url": "data:,x", "filename": "a.png"},
        {"url": "no media type"},
        7,
    ]});
    assert_eq!(
        parse(&frame.to_string()),
        ClientFrame::Prompt(Prompt {
            content: "hi".into(),
            request_id: Some("r1".into()),
            attachments: vec![Attachment {
                media_type: "image/png".into(),
                url: "data:,x".into(),
                filename: Some("a.png".into()),
                size: None,
            }],
            on_disconnect: Some(OnDisconnect::Abort),
            message_id: None,
            branch: None,
        })
    );
    assert_eq!(
        parse(r#"{"type":"prompt","content":5,"attachments":{},"onDisconnect":"later"}"#),
        ClientFrame::Prompt(Prompt {
            content: String::new(),
            request_id: None,
            attachments: Vec::new(),
            on_disconnect: None,
            message_id: None,
            branch: None,
        })
    );
}

#[test]
fn prompts_say_where_their_message_goes() {
    let frame = r#"{"type":"prompt","content":"x","messageId":"u2","branch":["u1","a1"]}"#;
    let ClientFrame::Prompt(prompt) = parse(frame) else {
        panic!("not a prompt");
    };
    assert_eq!(prompt.message_id.as_deref(), Some("u2"));
    assert_eq!(prompt.branch, Some(vec!["u1".to_owned(), "a1".to_owned()]));
    // Of another shape: as if absent.
    for frame in [
        r#"{"type":"prompt","messageId":"","branch":["u1",2]}"#,
        r#"{"type":"prompt","messageId":7,"branch":"u1"}"#,
    ] {
        let ClientFrame::Prompt(prompt) = parse(frame) else {
            panic!("not a prompt");
        };
        assert_eq!((prompt.message_id, prompt.branch), (None, None), "{frame}");
    }
}

#[test]
fn aborts_and_answers() {
    assert_eq!(
        parse(r#"{"type":"abort"}"#),
        ClientFrame::Abort { request_id: None }
    );
    assert_eq!(
        parse(r#"{"type":"abort","requestId":"r"}"#),
        ClientFrame::Abort {
            request_id: Some("r".into())
        }
    );
    assert_eq!(
        parse(r#"{"type":"answer","questionId":"q","answer":{"a":[1]},"onDisconnect":"detach"}"#),
        ClientFrame::Answer {
            question_id: "q".into(),
            answer: json!({"a": [1]}),
            on_disconnect: Some(OnDisconnect::Detach),
        }
    );
    assert_eq!(
        parse(r#"{"type":"answer","questionId":"q"}"#),
        ClientFrame::Answer {
            question_id: "q".into(),
            answer: Value::Null,
            on_disconnect: None,
        }
    );
}

#[test]
fn anything_else_is_ignored() {
    for text in [
        "",
        "nope",
        "[1]",
        r#"{"type":"answer","answer":"yes"}"#,
        r#"{"type":"answer","questionId":3}"#,
        r#"{"type":"hello"}"#,
        r#"{"content":"no type"}"#,
        r#"{"type":"history","leaf":"u_1"}"#,
        r#"{"type":"history","requestId":7}"#,
        r#"{"type":"forget"}"#,
        r#"{"type":"forget","requestId":["f1"]}"#,
    ] {
        assert_eq!(parse(text), ClientFrame::Other, "{text}");
    }
}

#[test]
fn a_forget_names_its_request() {
    assert_eq!(
        parse(r#"{"type":"forget","requestId":"f1","extra":true}"#),
        ClientFrame::Forget {
            request_id: "f1".into()
        }
    );
}

#[test]
fn history_frames_name_a_page() {
    assert_eq!(
        parse(r#"{"type":"history","requestId":"h1","leaf":"u_1","limit":50}"#),
        ClientFrame::History(HistoryRequest {
            request_id: "h1".into(),
            leaf: Some("u_1".into()),
            before: None,
            limit: Some(50),
        })
    );
    // Neither `leaf` nor `before`: the current branch; a limit that is no whole number is none.
    for limit in ["-1", "2.5", "\"9\"", "null"] {
        let text = format!(r#"{{"type":"history","requestId":"h2","before":"m","limit":{limit}}}"#);
        assert_eq!(
            parse(&text),
            ClientFrame::History(HistoryRequest {
                request_id: "h2".into(),
                leaf: None,
                before: Some("m".into()),
                limit: None,
            }),
            "{limit}"
        );
    }
}
