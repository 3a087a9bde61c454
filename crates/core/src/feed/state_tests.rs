use serde_json::json;

use super::*;
use crate::history::ui_messages;
use crate::questions::{QuestionParts, QuestionView};
use crate::session::parse_init;
use crate::trace::Trace;

fn init(messages: serde_json::Value) -> Init {
    parse_init(&json!({"type": "init", "protocol": 4, "messages": messages}).to_string()).unwrap()
}

#[test]
fn the_ids_are_the_historys() {
    let init = init(json!([
        {"id": "u0", "role": "user", "parts": []},
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": ""}]},
        {"id": "u2", "role": "user", "parts": [{"type": "file", "mediaType": "image/png", "url": "data:,"}]},
        {"id": "s1", "role": "system", "parts": [{"type": "text", "text": "x"}]},
        {"id": "a1", "role": "assistant", "parts": [{"type": "finish", "reason": "error"}]},
        {"id": "u3", "role": "user", "parts": [{"type": "text", "text": "Hi"}]},
        {"id": "a2", "role": "assistant", "parts": [{"type": "text", "text": "wor"}]}
    ]));
    let view = QuestionView::new(QuestionParts::default(), Trace::default());
    let history: Vec<String> = ui_messages(&init.messages, &Trace::default(), &view)
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_owned())
        .collect();
    let state = SessionState::of(&init);
    assert_eq!(state.ids, history);
    assert_eq!(state.ids, ["u2", "a1", "u3"]);
    assert_eq!(
        state.turn,
        Some(TurnInFlight {
            turn_id: "a2".into(),
            question_id: None
        })
    );
}

#[test]
fn a_state_is_named_by_all_of_it() {
    let base = SessionState {
        ids: vec!["u1".into(), "a1".into()],
        refs: Vec::new(),
        turn: None,
    };
    let key = base.key();
    assert_eq!(key.len(), 16);
    assert!(key.bytes().all(|b| b.is_ascii_hexdigit()));
    assert_eq!(key, base.clone().key(), "the same state, the same name");
    let mut variants = vec![
        SessionState {
            ids: vec!["u1".into()],
            refs: Vec::new(),
            turn: None,
        },
        SessionState {
            ids: vec!["u1a1".into()],
            refs: Vec::new(),
            turn: None,
        },
        SessionState {
            ids: vec!["a1".into(), "u1".into()],
            refs: Vec::new(),
            turn: None,
        },
        SessionState {
            ids: vec![],
            refs: Vec::new(),
            turn: None,
        },
    ];
    let turn = |question: Option<&str>| {
        Some(TurnInFlight {
            turn_id: "a2".into(),
            question_id: question.map(Into::into),
        })
    };
    for question in [None, Some("q1"), Some("q2")] {
        variants.push(SessionState {
            ids: base.ids.clone(),
            refs: Vec::new(),
            turn: turn(question),
        });
    }
    let mut names: Vec<String> = variants.iter().map(SessionState::key).collect();
    names.push(key);
    let count = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), count, "every state has a name of its own");
}

#[test]
fn a_waiting_question_is_part_of_the_state_an_answered_one_is_not() {
    let waiting = init(json!([{"id": "a1", "role": "assistant", "parts": [
        {"type": "question", "questionId": "q1", "text": "?"}]}]));
    let answered = init(json!([{"id": "a1", "role": "assistant", "parts": [
        {"type": "question", "questionId": "q1", "text": "?", "answer": "yes"}]}]));
    assert_eq!(
        SessionState::of(&waiting)
            .turn
            .unwrap()
            .question_id
            .as_deref(),
        Some("q1")
    );
    assert_eq!(SessionState::of(&answered).turn.unwrap().question_id, None);
}

#[test]
fn fnv_1a_is_the_specifications() {
    // The FNV specification's test vectors for FNV-1a 64: "" and "a".
    let mut hash = Fnv::new();
    assert_eq!(hash.0, 0xcbf29ce484222325);
    hash.write(b"a");
    assert_eq!(hash.0, 0xaf63dc4c8601ec8c);
}
