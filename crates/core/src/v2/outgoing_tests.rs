//! Tests of `v2::outgoing`.

use super::*;
use serde_json::json;
use serde_json::value::RawValue;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]

    #[test]
    fn the_prompt_is_what_serde_writes(
        content in crate::json_out::any_text(),
        request_id in crate::json_out::any_text(),
        detach: bool,
        files in proptest::collection::vec((crate::json_out::any_text(), proptest::option::of(crate::json_out::any_text())), 0..3),
        context in proptest::option::of(crate::json_out::any_text()),
        message_id in proptest::option::of(crate::json_out::any_text()),
        branch in proptest::option::of(proptest::collection::vec(crate::json_out::any_text(), 0..4)),
    ) {
        let context = context.map(|text| serde_json::value::to_raw_value(&serde_json::json!({ "page": text })).unwrap());
        let attachments: Vec<Attachment> = files
            .into_iter()
            .map(|(url, filename)| Attachment { media_type: "text/plain".into(), url, filename, size: None })
            .collect();
        let on_disconnect = if detach { OnDisconnect::Detach } else { OnDisconnect::Abort };
        let branch = branch.map(|ids| serde_json::value::to_raw_value(&ids).unwrap());
        let derived = to_json(&Outgoing::Prompt {
            content: &content,
            request_id: &request_id,
            on_disconnect,
            message_id: message_id.as_deref(),
            branch: branch.as_deref(),
            attachments: &attachments,
            context: context.as_deref(),
        });
        let prompt = Prompt {
            content: &content,
            request_id: &request_id,
            on_disconnect,
            message_id: message_id.as_deref(),
            branch: branch.as_deref().map(RawValue::get),
            attachments: &attachments,
            context: context.as_deref().map(RawValue::get),
        };
        proptest::prop_assert_eq!(prompt.to_frame(), derived);
    }
}

/// A prompt of `content` and request `r`, under abort, with nothing else.
fn plain(content: &str) -> Prompt<'_> {
    Prompt {
        content,
        request_id: "r",
        on_disconnect: OnDisconnect::Abort,
        message_id: None,
        branch: None,
        attachments: &[],
        context: None,
    }
}

#[test]
fn outgoing_frames_are_exact() {
    let prompt = Prompt {
        request_id: "r1",
        ..plain("hi \"you\"")
    };
    assert_eq!(
        prompt.to_frame(),
        r#"{"type":"prompt","content":"hi \"you\"","requestId":"r1","onDisconnect":"abort"}"#
    );
    let files = [Attachment {
        media_type: "image/png".into(),
        url: "data:image/png;base64,AA==".into(),
        filename: None,
        size: None,
    }];
    let prompt = Prompt {
        on_disconnect: OnDisconnect::Detach,
        attachments: &files,
        ..plain("x")
    };
    assert_eq!(
        prompt.to_frame(),
        r#"{"type":"prompt","content":"x","requestId":"r","onDisconnect":"detach","attachments":[{"mediaType":"image/png","url":"data:image/png;base64,AA=="}]}"#
    );
    // A file the adapter keeps: its size in bytes (protocol 6).
    let kept = [Attachment {
        size: Some(48_213),
        filename: Some("cat.png".into()),
        ..files[0].clone()
    }];
    let prompt = Prompt {
        attachments: &kept,
        ..plain("x")
    };
    assert_eq!(
        prompt.to_frame(),
        r#"{"type":"prompt","content":"x","requestId":"r","onDisconnect":"abort","attachments":[{"mediaType":"image/png","url":"data:image/png;base64,AA==","filename":"cat.png","size":48213}]}"#
    );
    let context = r#"{"page":"/pricing","plan":"pro"}"#;
    let prompt = Prompt {
        context: Some(context),
        ..plain("x")
    };
    assert_eq!(
        prompt.to_frame(),
        r#"{"type":"prompt","content":"x","requestId":"r","onDisconnect":"abort","context":{"page":"/pricing","plan":"pro"}}"#
    );
    let prompt = Prompt {
        message_id: Some("u\"2"),
        branch: Some(r#"["u1","msg_a1"]"#),
        ..plain("x")
    };
    assert_eq!(
        prompt.to_frame(),
        r#"{"type":"prompt","content":"x","requestId":"r","onDisconnect":"abort","messageId":"u\"2","branch":["u1","msg_a1"]}"#
    );
    assert_eq!(
        abort_frame(Some("r9")),
        r#"{"type":"abort","requestId":"r9"}"#
    );
    assert_eq!(abort_frame(None), r#"{"type":"abort"}"#);
    assert_eq!(
        answer_frame("q\"1", &json!({"pick": ["a", 1]}), OnDisconnect::Abort),
        r#"{"type":"answer","questionId":"q\"1","answer":{"pick":["a",1]},"onDisconnect":"abort"}"#
    );
}

#[test]
fn the_policy_reads_only_its_two_words() {
    assert_eq!(OnDisconnect::parse("abort"), Some(OnDisconnect::Abort));
    assert_eq!(OnDisconnect::parse("detach"), Some(OnDisconnect::Detach));
    for other in ["", "Abort", "stop", " detach"] {
        assert_eq!(OnDisconnect::parse(other), None, "{other:?}");
    }
    assert_eq!(OnDisconnect::Detach.as_str(), "detach");
}
