//! Tests of `tree_store`, on a real SQLite: its answers to the core's questions are the core's
//! own store's (`MemTree`) on random trees, a branch costs one statement whatever its length, rows
//! keep their `ref` and `parent`, a restart finishes the turns left running, `/grow` writes the
//! rows a turn would, and a failure is reported, never a panic.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::*;
use crate::record::Record;
use crate::rows::user_message;
use crate::sqlite_tests::Sqlite;
use crate::tree::MemTree;
use crate::v2::FinishReason;

/// A message of `role` named `key` after `parent`, with `text`.
fn message(key: &str, id: &str, role: Role, parent: Option<&str>, text: &str) -> Message {
    let mut message = match role {
        Role::User => user_message(id.to_owned(), text, &[], None),
        _ => {
            let mut reply = Message::assistant(id);
            reply.parts.push(Part::Text {
                text: text.to_owned(),
                streaming: None,
            });
            reply
        }
    };
    message.key = Some(key.to_owned());
    message.parent = Some(parent.map(str::to_owned));
    message
}

fn value(json: &str) -> Value {
    serde_json::from_str(json).expect("JSON")
}

/// Random trees: each message follows one stored before it (or none), with an id from a small
/// set, so that ids repeat (edits, clients numbering their messages).
fn trees() -> impl Strategy<Value = Vec<(Option<usize>, u8, bool)>> {
    prop::collection::vec((any::<Option<usize>>(), 0u8..4, any::<bool>()), 1..40)
}

proptest! {
    #[test]
    fn it_answers_as_the_cores_own_store(ops in trees(), probes in prop::collection::vec(0usize..64, 8)) {
        let db = Sqlite::new();
        let store = TreeStore::new(&db);
        let mut model = MemTree::new();
        for (i, (parent, id, user)) in ops.iter().enumerate() {
            let parent = parent.map(|p| format!("k{}", p % (i.max(1)))).filter(|_| i > 0);
            let key = format!("k{i}");
            let id = format!("id{id}");
            let role = if *user { Role::User } else { Role::Assistant };
            prop_assert!(store.insert(&message(&key, &id, role, parent.as_deref(), "t"), None, false));
            model.insert(&key, &id, role, parent.as_deref());
        }
        prop_assert_eq!(store.newest(), model.newest());
        prop_assert_eq!(store.children(None), model.children(None));
        prop_assert_eq!(store.len(), model.len());
        for probe in probes {
            let key = format!("k{}", probe % (ops.len() + 2));
            prop_assert_eq!(store.node(&key), model.node(&key));
            prop_assert_eq!(store.children(Some(&key)), model.children(Some(&key)));
            prop_assert_eq!(store.newest_under(&key), model.newest_under(&key));
            for limit in [0, 1, 3, 100] {
                prop_assert_eq!(store.lineage(&key, limit), model.lineage(&key, limit));
            }
            let id = format!("id{}", probe % 5);
            prop_assert_eq!(store.with_id(&id), model.with_id(&id));
        }
        prop_assert!(db.failures.borrow().is_empty(), "{:?}", db.failures.borrow());
    }
}

#[test]
fn after_the_storage_is_deleted_whole_a_forgetting_store_starts_from_nothing() {
    let db = Sqlite::new();
    let store = TreeStore::new(&db);
    store
        .grow(None, 3, "0123456789abcdef", "2026-12-02T10:00:00.000Z")
        .expect("grown");
    assert_eq!(store.len(), 6);
    // What `deleteAll()` leaves: no table at all.
    db.db.execute_batch("DROP TABLE demo_tree").unwrap();
    store.forget();
    assert_eq!(store.len(), 0);
    store
        .grow(None, 1, "fedcba9876543210", "2026-12-02T10:01:00.000Z")
        .expect("grown again, the table made again");
    assert_eq!(store.len(), 2);
    assert!(
        db.failures.borrow().is_empty(),
        "{:?}",
        db.failures.borrow()
    );
}

#[test]
fn a_long_branch_costs_one_statement() {
    let db = Sqlite::new();
    let store = TreeStore::new(&db);
    let last = store
        .grow(None, 2_500, "0123456789abcdef", "2026-12-02T10:00:00.000Z")
        .expect("grown");
    assert_eq!(store.len(), 5_000);
    let before = db.runs.get();
    let branch = store.lineage(&last.key, 10_000);
    assert_eq!(
        db.runs.get() - before,
        1,
        "one statement for 5,000 messages"
    );
    assert_eq!(branch.len(), 5_000);
    assert_eq!(branch[0].key, "msg_0123456789abcdef_r2500");
    assert_eq!(branch[4_999].key, "u_0123456789abcdef_g1");
    assert_eq!(branch[4_999].parent, None);
    let before = db.runs.get();
    let newest = store.newest_under(&branch[4_999].key);
    assert_eq!(
        db.runs.get() - before,
        1,
        "one statement for a subtree of 5,000"
    );
    assert_eq!(newest, Some(last));
    let rows = store.branch_rows(&branch[0].key, 200);
    assert_eq!(rows.len(), 200);
    assert_eq!(rows[199].node.key, "u_0123456789abcdef_g2401");
}

#[test]
fn grown_rows_are_the_rows_a_turn_writes() {
    let db = Sqlite::new();
    let store = TreeStore::new(&db);
    let first = message("u_a", "u1", Role::User, None, "hi");
    assert!(store.insert(&first, None, false));
    let now = "2026-12-02T10:00:00.000Z";
    let last = store.grow(Some("u_a"), 2, "b0", now).expect("grown");
    assert_eq!(last.key, "msg_b0_r2");
    assert_eq!(store.len(), 5);
    let rows: Vec<Value> = store
        .branch_rows(&last.key, 10)
        .iter()
        .rev()
        .map(|row| value(&row.json))
        .collect();
    let mut g1 = message("u_b0_g1", "u_b0_g1", Role::User, Some("u_a"), "g1");
    g1.created_at = Some(json!(now));
    let mut r1 = message(
        "msg_b0_r1",
        "msg_b0_r1",
        Role::Assistant,
        Some("u_b0_g1"),
        "r1",
    );
    r1.parts.push(Part::Finish {
        reason: FinishReason::EndTurn,
        usage: None,
        model: None,
    });
    r1.created_at = Some(json!(now));
    r1.completed_at = Some(json!(now));
    assert_eq!(rows[1], value(&row_json(&g1)));
    assert_eq!(rows[2], value(&row_json(&r1)));
    assert_eq!(rows[3]["parent"], json!("msg_b0_r1"));
    assert_eq!(rows[4]["parts"][0]["text"], json!("r2"));
    // A grown conversation of its own starts at the root.
    let root = store.grow(None, 1, "c0", now).expect("grown");
    assert_eq!(store.lineage(&root.key, 5).len(), 2);
    assert_eq!(
        store.children(None).len(),
        2,
        "beside the first conversation"
    );
    assert_eq!(store.grow(None, 0, "d0", now), None, "nothing to grow");
    assert_eq!(store.len(), 7);
}

#[test]
fn rows_keep_their_place_and_siblings_are_counted() {
    let db = Sqlite::new();
    let store = TreeStore::new(&db);
    store.insert(&message("u_1", "1", Role::User, None, "a"), None, false);
    store.insert(
        &message("m_1", "m_1", Role::Assistant, Some("u_1"), "b"),
        None,
        false,
    );
    store.insert(
        &message("m_2", "m_2", Role::Assistant, Some("u_1"), "c"),
        None,
        false,
    );
    let rows = store.branch_rows("m_2", 5);
    let summary: Vec<(&str, usize)> = rows
        .iter()
        .map(|row| (row.node.key.as_str(), row.siblings))
        .collect();
    assert_eq!(summary, [("m_2", 2), ("u_1", 1)]);
    assert_eq!(value(&rows[0].json)["ref"], json!("m_2"));
    assert_eq!(value(&rows[0].json)["parent"], json!("u_1"));
    assert_eq!(value(&rows[1].json)["parent"], Value::Null);
    assert!(store.branch_rows("nope", 5).is_empty());
    assert!(store.branch_rows("m_2", 0).is_empty());
}

#[test]
fn the_content_is_the_prompts_even_when_the_row_was_shortened() {
    let db = Sqlite::new();
    let store = TreeStore::new(&db);
    let files = [Attachment {
        media_type: "text/plain".into(),
        url: format!("data:,{}", "x".repeat(3_000_000)),
        filename: None,
        size: None,
    }];
    let mut big = user_message("u1".into(), "read this", &files, None);
    big.key = Some("u_big".into());
    big.parent = Some(None);
    let digest = content_digest("read this", &files);
    store.insert(&big, Some(&digest), false);
    assert_eq!(store.content("u_big"), Some(digest.clone()));
    assert_ne!(
        digest,
        content_digest("read this", &[]),
        "the row dropped the file"
    );
    // A message stored without a digest (grown) is read from its row.
    store.grow(Some("u_big"), 1, "g0", "now");
    assert_eq!(store.content("u_g0_g1"), Some(content_digest("g1", &[])));
    assert_eq!(store.content("nope"), None);
}

#[test]
fn a_restart_finishes_the_turns_left_running() {
    let db = Sqlite::new();
    {
        let store = TreeStore::new(&db);
        store.insert(&message("u_1", "1", Role::User, None, "go"), None, false);
        let mut running = Message::assistant("m_1");
        running.key = Some("m_1".into());
        running.parent = Some(Some("u_1".into()));
        store.insert(&running, None, true);
        // Its parts so far, stored while it runs.
        running.parts.push(Part::Text {
            text: "hal".into(),
            streaming: Some(true),
        });
        store.progress(&running);
        let mut done = message("m_0", "m_0", Role::Assistant, Some("u_1"), "x");
        done.parts.push(Part::Finish {
            reason: FinishReason::EndTurn,
            usage: None,
            model: None,
        });
        store.insert(&done, None, true);
        store.finish(&done);
        // A turn's progress never overwrites it once finished.
        store.progress(&message("m_0", "m_0", Role::Assistant, Some("u_1"), "late"));
    }
    // A new instance of the object: a new store on the same database.
    let store = TreeStore::new(&db);
    let rows = store.branch_rows("m_1", 1);
    let restarted = parse_message(&rows[0].json).expect("a message");
    assert_eq!(restarted.finish_reason(), Some(FinishReason::Error));
    assert!(matches!(&restarted.parts[0], Part::Text { text, streaming: None } if text == "hal"));
    assert!(
        rows[0].json.contains(crate::frames::RESTARTED_TEXT),
        "{}",
        rows[0].json
    );
    let done = parse_message(&store.branch_rows("m_0", 1)[0].json).expect("a message");
    assert_eq!(
        done.finish_reason(),
        Some(FinishReason::EndTurn),
        "a finished turn is left as it is"
    );
    assert!(matches!(&done.parts[0], Part::Text { text, .. } if text == "x"));
}

#[test]
fn a_failing_database_is_reported_and_reads_as_empty() {
    let db = Sqlite::new();
    let store = TreeStore::new(&db);
    store.insert(&message("u_1", "1", Role::User, None, "a"), None, false);
    *db.fail_on.borrow_mut() = Some("INSERT");
    assert!(!store.insert(&message("u_2", "2", Role::User, None, "b"), None, false));
    assert_eq!(
        store.len(),
        1,
        "a message that was not stored is not counted"
    );
    *db.fail_on.borrow_mut() = Some("SELECT");
    assert_eq!(store.newest(), None);
    assert!(store.branch_rows("u_1", 3).is_empty());
    assert_eq!(
        db.failures.borrow().as_slice(),
        [
            "store a message: failing on purpose at \"INSERT\"",
            "read the newest message: failing on purpose at \"SELECT\"",
            "read a branch: failing on purpose at \"SELECT\"",
        ]
    );
}
