//! Unit and property tests of where the chat body's message goes ([`Place`]): its id, the branch
//! of ids before it, every trigger and id shape, malformed ids, and the message limit.

use proptest::prelude::*;
use serde_json::json;

use super::*;

fn parse(body: &str) -> Result<ChatRequest, RequestError> {
    parse_chat_request(body.as_bytes(), &Limits::default())
}

/// A body of messages with these ids (`None`: no `id` field), the last the user's `hi`.
fn body_with_ids(ids: &[Option<Value>], extra: &str) -> String {
    let messages: Vec<Value> = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let role = if (ids.len() - 1 - i).is_multiple_of(2) {
                "user"
            } else {
                "assistant"
            };
            let mut message = json!({"role": role, "parts": [{"type": "text", "text": "hi"}]});
            if let Some(id) = id {
                message["id"] = id.clone();
            }
            message
        })
        .collect();
    format!(r#"{{"messages":{}{extra}}}"#, Value::Array(messages))
}

fn ids(ids: &[&str]) -> Vec<Option<Value>> {
    ids.iter().map(|id| Some(json!(id))).collect()
}

#[test]
fn a_stock_send_names_the_message_and_its_branch() {
    let req = parse(&body_with_ids(&ids(&["u1", "msg_a1", "u2"]), "")).unwrap();
    assert_eq!(
        req.place,
        Place {
            message_id: Some("u2".into()),
            branch: Some(r#"["u1","msg_a1"]"#.into()),
        }
    );
    assert!(!req.takes_back(), "a send takes nothing back by itself");
}

#[test]
fn a_first_message_continues_an_empty_branch() {
    let req = parse(&body_with_ids(&ids(&["u1"]), "")).unwrap();
    assert_eq!(req.place.message_id.as_deref(), Some("u1"));
    assert_eq!(req.place.branch.as_deref(), Some("[]"));
}

#[test]
fn a_message_without_an_id_leaves_the_branch_unknown() {
    // An earlier message without an id: the client's list cannot be followed, the agent appends.
    let req = parse(&body_with_ids(
        &[Some(json!("u1")), None, Some(json!("u2"))],
        "",
    ))
    .unwrap();
    assert_eq!(req.place.message_id.as_deref(), Some("u2"));
    assert_eq!(req.place.branch, None);
    // The last one without an id: the agent names it; the branch is still known.
    let req = parse(&body_with_ids(
        &[Some(json!("u1")), Some(json!("a1")), None],
        "",
    ))
    .unwrap();
    assert_eq!(req.place.message_id, None);
    assert_eq!(req.place.branch.as_deref(), Some(r#"["u1","a1"]"#));
    // `null` is no id, wherever it is.
    let req = parse(&body_with_ids(&[Some(Value::Null), Some(Value::Null)], "")).unwrap();
    assert_eq!(req.place, Place::default());
}

#[test]
fn ids_are_copied_as_the_body_wrote_them() {
    let body = r#"{"messages":[{"id":"a\"b\u00e9","role":"user","parts":[{"type":"text","text":"x"}]},
        {"id":"c\\d","role":"user","parts":[{"type":"text","text":"y"}]}]}"#;
    let req = parse(body).unwrap();
    assert_eq!(req.place.branch.as_deref(), Some(r#"["a\"b\u00e9"]"#));
    let branch: Vec<String> = serde_json::from_str(req.place.branch.as_deref().unwrap()).unwrap();
    assert_eq!(branch, ["a\"bé"]);
    assert_eq!(req.place.message_id.as_deref(), Some("c\\d"));
}

#[test]
fn a_malformed_id_is_refused_where_it_is() {
    let long = "x".repeat(MAX_ID_BYTES + 1);
    let longest = "x".repeat(MAX_ID_BYTES);
    for (bad, fault) in [
        (json!(7), IdFault::NotString),
        (json!(""), IdFault::Empty),
        (json!({"id": "x"}), IdFault::NotString),
        (json!(["x"]), IdFault::NotString),
        (json!(true), IdFault::NotString),
        (json!(long), IdFault::TooLong { bytes: 257 }),
    ] {
        for at in 0..3 {
            let mut list = ids(&["u1", "a1", "u2"]);
            list[at] = Some(bad.clone());
            let err = parse(&body_with_ids(&list, "")).expect_err("a bad id is refused");
            assert_eq!(
                err,
                RequestError::InvalidMessageId { index: at, fault },
                "{bad} at {at}"
            );
            assert_eq!(err.kind().pair(), (400, "invalid_message"));
            assert!(
                err.message().contains(&format!("Message {at} ")),
                "{}",
                err.message()
            );
        }
    }
    let req = parse(&body_with_ids(&ids(&[&longest, &longest]), "")).unwrap();
    assert_eq!(req.place.message_id.as_deref(), Some(longest.as_str()));
    // The first bad id is the one named.
    let list = vec![
        Some(json!("ok")),
        Some(json!(1)),
        Some(json!(2)),
        Some(json!("u")),
    ];
    assert_eq!(
        parse(&body_with_ids(&list, "")).unwrap_err(),
        RequestError::InvalidMessageId {
            index: 1,
            fault: IdFault::NotString
        }
    );
}

#[test]
fn only_a_regenerate_or_a_named_message_takes_back_by_itself() {
    let list = ids(&["u1", "a1", "u2"]);
    let cases = [
        (r#","trigger":"submit-message""#, false),
        (r#","trigger":"regenerate-message""#, true),
        (r#","trigger":"regenerate-message","messageId":"a2""#, true),
        (r#","trigger":"submit-message","messageId":"u2""#, true),
        ("", false),
    ];
    for (extra, takes_back) in cases {
        let req = parse(&body_with_ids(&list, extra)).unwrap();
        assert_eq!(req.takes_back(), takes_back, "{extra}");
    }
    let req = parse(&body_with_ids(&list, r#","messageId":"u2""#)).unwrap();
    assert_eq!(req.target_id.as_deref(), Some("u2"));
}

#[test]
fn an_answer_takes_nothing_back_whatever_its_trigger() {
    let body = r#"{"trigger":"regenerate-message","messages":[{"id":"u1","role":"user","parts":[
        {"type":"data-answer","data":{"questionId":"q1","answer":"yes"}}]}]}"#;
    let req = parse(body).unwrap();
    assert!(req.reply.is_some());
    assert!(!req.takes_back());
}

#[test]
fn a_thousand_messages_are_read_and_one_more_refused() {
    let list: Vec<String> = (0..1_000).map(|i| format!("m{i}")).collect();
    let refs: Vec<&str> = list.iter().map(String::as_str).collect();
    let req = parse(&body_with_ids(&ids(&refs), "")).unwrap();
    let branch: Vec<String> = serde_json::from_str(req.place.branch.as_deref().unwrap()).unwrap();
    assert_eq!(branch, list[..999]);
    assert_eq!(req.place.message_id.as_deref(), Some("m999"));
    let mut more = refs.clone();
    more.push("m1000");
    assert_eq!(
        parse(&body_with_ids(&ids(&more), "")).unwrap_err(),
        RequestError::TooManyMessages { limit: 1_000 }
    );
}

#[test]
fn earlier_messages_of_any_shape_are_only_asked_for_their_ids() {
    let body = r#"{"messages":[5,"x",null,[1],{"id":"a","parts":7,"role":{"no":1}},
        {"id":"u","role":"user","parts":[{"type":"text","text":"hi"}]}]}"#;
    let req = parse(body).unwrap();
    assert_eq!(req.text, "hi");
    // Messages without an id (any non-object has none): the branch is unknown.
    assert_eq!(req.place.branch, None);
    let body = r#"{"messages":[{"id":"a","parts":7,"role":{"no":1},"metadata":{"id":"no"}},
        {"id":"u","role":"user","parts":[{"type":"text","text":"hi"}]}]}"#;
    assert_eq!(
        parse(body).unwrap().place.branch.as_deref(),
        Some(r#"["a"]"#)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Whatever the ids, the branch reads back as exactly the ids before the last message, in
    /// order, and the message's id as its own.
    #[test]
    fn the_branch_is_the_ids_before_the_last(
        list in proptest::collection::vec(crate::json_out::any_text().prop_filter("an id", |id| {
            !id.is_empty() && id.len() <= MAX_ID_BYTES
        }), 1..20),
    ) {
        let refs: Vec<&str> = list.iter().map(String::as_str).collect();
        let req = parse(&body_with_ids(&ids(&refs), "")).unwrap();
        let branch: Vec<String> = serde_json::from_str(req.place.branch.as_deref().unwrap()).unwrap();
        prop_assert_eq!(&branch[..], &list[..list.len() - 1]);
        prop_assert_eq!(req.place.message_id.as_deref(), list.last().map(String::as_str));
    }
}

#[test]
fn an_answer_is_bounded_as_a_prompt_is() {
    let limits = Limits {
        max_prompt_chars: 20,
        ..Limits::default()
    };
    let parse = |body: String| parse_chat_request(body.as_bytes(), &limits);
    // An askUser output, an approval's reason, a data-answer: each at the limit, then one over.
    let ask = |output: &str| {
        format!(
            r#"{{"messages":[{{"id":"t1","role":"assistant","parts":[{{"type":"tool-askUser","toolCallId":"q1","state":"output-available","input":{{"questionId":"q1","text":"?"}},"output":{}}}]}}]}}"#,
            json!(output)
        )
    };
    let approval = |reason: &str| {
        format!(
            r#"{{"messages":[{{"id":"t1","role":"assistant","parts":[{{"type":"dynamic-tool","toolName":"deploy","toolCallId":"c2","state":"approval-responded","input":{{}},"approval":{{"id":"q2","approved":false,"reason":{}}}}}]}}]}}"#,
            json!(reason)
        )
    };
    let data = |answer: &str| {
        format!(
            r#"{{"messages":[{{"id":"u1","role":"user","parts":[{{"type":"data-answer","data":{{"questionId":"q1","answer":{}}}}}]}}]}}"#,
            json!(answer)
        )
    };
    // The JSON text counts, quotes included: 18 characters between them make 20.
    let fits = "é".repeat(18);
    let over = "é".repeat(19);
    for make in [&ask as &dyn Fn(&str) -> String, &data] {
        assert!(parse(make(&fits)).is_ok());
        let err = parse(make(&over)).unwrap_err();
        assert_eq!(err, RequestError::AnswerTooLong { limit: 20 });
        assert_eq!(err.kind().pair(), (413, "prompt_too_long"));
        assert_eq!(
            err.message(),
            "The answer is longer than the limit of 20 characters."
        );
    }
    // {"approved":false} is 18 characters; a reason makes it more.
    assert!(parse(approval("")).is_ok());
    assert_eq!(
        parse(approval("not now")).unwrap_err(),
        RequestError::AnswerTooLong { limit: 20 }
    );
    let roomy = Limits::default();
    let huge = "x".repeat(3_900_000);
    let body = ask(&huge);
    let limits = Limits {
        max_body_bytes: 8 * 1024 * 1024,
        ..roomy
    };
    assert_eq!(
        parse_chat_request(body.as_bytes(), &limits).unwrap_err(),
        RequestError::AnswerTooLong {
            limit: roomy.max_prompt_chars
        },
        "a 3.9 MB askUser output inside the body limit"
    );
}
