//! Tests of the history's pages: the query, the page an `init` gives, the `history` frame and
//! what the agent's answer means.

use super::*;
use crate::refusal::INVALID_QUERY;
use crate::session::parse_init;

const URL: &str = "https://w.example/api/sessions/s1/messages";

fn query(q: &str) -> Result<HistoryQuery, Refusal> {
    HistoryQuery::from_url(&format!("{URL}{q}"))
}

#[test]
fn the_query_reads_a_limit_and_one_ref() {
    let current = query("").unwrap();
    assert_eq!(
        (current.wanted, current.limit),
        (Wanted::Current, DEFAULT_PAGE_MESSAGES)
    );
    let leaf = query("?leaf=u_1a&limit=5&trace=full").unwrap();
    assert_eq!((leaf.wanted, leaf.limit), (Wanted::Leaf("u_1a".into()), 5));
    let before = query("?before=msg_2%3Ab&limit=200#x").unwrap();
    assert_eq!(before.wanted, Wanted::Before("msg_2:b".into()), "decoded");
    assert_eq!(before.limit, MAX_PAGE_MESSAGES);
    assert!(!query("?leaf=u_1a").unwrap().from_init());
    assert!(query("?limit=3").unwrap().from_init());
}

#[test]
fn a_query_it_cannot_read_is_a_400_that_says_which() {
    for (q, word) in [
        ("?limit=0", "`limit`"),
        ("?limit=201", "`limit`"),
        ("?limit=ten", "`limit`"),
        ("?before=a%20b", "`before`"),
        ("?leaf=", "`leaf`"),
        ("?leaf=%C3%A9", "`leaf`"),
        ("?leaf=%zz", "`leaf`"),
        ("?before=a&leaf=b", "only one"),
    ] {
        let refusal = query(q).unwrap_err();
        assert_eq!(refusal.kind, INVALID_QUERY, "{q}");
        assert!(refusal.message.contains(word), "{q}: {}", refusal.message);
    }
}

#[test]
fn the_history_frame_names_the_page() {
    let frame = query("?before=msg_2&limit=7").unwrap().frame("h1");
    assert_eq!(
        frame,
        r#"{"before":"msg_2","limit":7,"requestId":"h1","type":"history"}"#
    );
    let parsed: serde_json::Value = serde_json::from_str(&query("").unwrap().frame("h2")).unwrap();
    assert_eq!(
        parsed,
        serde_json::json!({"type":"history","requestId":"h2","limit":100})
    );
}

/// An `init` of protocol `protocol` holding `n` messages of a branch that starts `before`
/// messages earlier.
fn init(protocol: u64, n: usize, before: usize) -> Init {
    let messages: Vec<String> = (before..before + n)
        .map(|i| {
            let parent = if i == 0 {
                "null".to_owned()
            } else {
                format!(r#""m{}""#, i - 1)
            };
            format!(r#"{{"id":"m{i}","ref":"m{i}","parent":{parent},"role":"user","parts":[]}}"#)
        })
        .collect();
    parse_init(&format!(
        r#"{{"type":"init","protocol":{protocol},"messages":[{}]}}"#,
        messages.join(",")
    ))
    .unwrap()
}

#[test]
fn an_init_gives_the_newest_page_and_the_ref_before_it() {
    let ids = |page: &[Message]| page.iter().map(|m| m.id.clone()).collect::<Vec<_>>();
    let limit3 = query("?limit=3").unwrap();
    let (page, older) = init_page(&init(5, 5, 0), &limit3);
    assert_eq!(ids(&page), ["m2", "m3", "m4"]);
    assert_eq!(older.as_deref(), Some("m2"));
    // All of a short branch: nothing before.
    let (page, older) = init_page(&init(5, 2, 0), &limit3);
    assert_eq!((page.len(), older), (2, None));
    // An init that is itself a page of a longer branch.
    let (_, older) = init_page(&init(5, 2, 40), &limit3);
    assert_eq!(older.as_deref(), Some("m40"));
    // An older agent: its whole init, no cursor.
    let (page, older) = init_page(&init(4, 150, 0), &query("").unwrap());
    assert_eq!((page.len(), older), (150, None));
}

#[test]
fn the_answer_is_the_page_of_this_request_or_why_not() {
    let page = r#"{"type":"history","requestId":"h1","messages":[{"id":"m3","ref":"m3","parent":"m2","role":"user","parts":[]}]}"#;
    let Some(Answer::Page(messages, older)) = read_answer(page, "h1") else {
        panic!("a page")
    };
    assert_eq!((messages.len(), older.as_deref()), (1, Some("m3")));
    assert!(read_answer(page, "h2").is_none(), "another request's");
    assert!(read_answer(r#"{"type":"init","messages":[]}"#, "h1").is_none());
    assert!(read_answer(r#"{"type":"message.create","turnId":"t"}"#, "h1").is_none());
    assert!(read_answer("garbage", "h1").is_none());
    assert!(matches!(
        read_answer(
            r#"{"type":"error","code":"not_found","message":"no"}"#,
            "h1"
        ),
        Some(Answer::NotFound)
    ));
    assert!(matches!(
        read_answer(r#"{"type":"error","code":"busy","message":"busy"}"#, "h1"),
        Some(Answer::Failed(why)) if why.contains("busy")
    ));
    assert!(matches!(
        read_answer(r#"{"type":"history","requestId":"h1"}"#, "h1"),
        Some(Answer::Failed(_))
    ));
}
