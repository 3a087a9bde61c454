//! Tests of `store`: the index's SQL on a real SQLite, the batch read from the JSON the object's
//! JavaScript gets.

use super::*;
use proptest::prelude::*;
use rusqlite::types::{Value as SqlValue, ValueRef};
use std::collections::BTreeSet;

/// A SQLite database in memory, run as `object.js` runs a batch: from its JSON, in one
/// transaction, every statement's rows.
struct Db(rusqlite::Connection);

impl Db {
    fn new() -> Self {
        Db(rusqlite::Connection::open_in_memory().unwrap())
    }
}

impl IndexSql for &Db {
    fn batch(&self, statements: &[Statement]) -> Result<Vec<Value>, String> {
        let json: Value =
            serde_json::from_str(&batch_json(statements)).map_err(|e| e.to_string())?;
        let tx = self.0.unchecked_transaction().map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for item in json.as_array().unwrap() {
            let sql = item[0].as_str().unwrap();
            let params: Vec<SqlValue> = item[1]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| match p {
                    Value::Number(n) => SqlValue::Integer(n.as_i64().unwrap()),
                    Value::String(s) => SqlValue::Text(s.clone()),
                    other => panic!("a param {other}"),
                })
                .collect();
            let mut statement = tx.prepare(sql).map_err(|e| e.to_string())?;
            let columns = statement.column_count();
            let rows = statement
                .query_map(rusqlite::params_from_iter(params), |row| {
                    (0..columns)
                        .map(|i| {
                            row.get_ref(i).map(|value| match value {
                                ValueRef::Integer(n) => Value::from(n),
                                ValueRef::Text(t) => Value::from(String::from_utf8_lossy(t)),
                                _ => Value::Null,
                            })
                        })
                        .collect::<Result<Vec<_>, _>>()
                })
                .map_err(|e| e.to_string())?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?;
            out.push(Value::from(rows));
        }
        tx.commit().map_err(|e| e.to_string())?;
        Ok(out)
    }
}

const T0: u64 = 1_767_225_600_000;

fn ids(page: &Page) -> Vec<String> {
    page.sessions.iter().map(|s| s.id.clone()).collect()
}

#[test]
fn a_turn_lists_a_session_with_its_first_title_and_moves_it_later() {
    let db = Db::new();
    let index = Index::new(&db);
    index.touch("s1", "First question", T0).unwrap();
    index.touch("s2", "Second", T0 + 10).unwrap();
    let page = index.list(20, None, T0 + 20).unwrap();
    assert_eq!(ids(&page), ["s2", "s1"], "newest activity first");
    assert_eq!(page.next, None);
    let s1 = &page.sessions[1];
    assert_eq!(
        (s1.title.as_str(), s1.created_at, s1.updated_at),
        ("First question", T0, T0)
    );
    index
        .touch("s1", "a later message's title", T0 + 30)
        .unwrap();
    let page = index.list(20, None, T0 + 40).unwrap();
    assert_eq!(ids(&page), ["s1", "s2"], "a turn moves it to the top");
    let s1 = &page.sessions[0];
    assert_eq!(
        s1.title, "First question",
        "the first turn titles it, no later one"
    );
    assert_eq!((s1.created_at, s1.updated_at), (T0, T0 + 30));
}

#[test]
fn a_rename_wins_over_later_turns_and_is_no_activity() {
    let db = Db::new();
    let index = Index::new(&db);
    index.touch("s1", "made", T0).unwrap();
    index.touch("s2", "other", T0 + 1).unwrap();
    let renamed = index.rename("s1", "Named by me").unwrap().unwrap();
    assert_eq!(
        (renamed.title.as_str(), renamed.updated_at),
        ("Named by me", T0)
    );
    assert_eq!(
        ids(&index.list(20, None, T0 + 2).unwrap()),
        ["s2", "s1"],
        "not moved"
    );
    index.touch("s1", "a turn's title", T0 + 3).unwrap();
    let page = index.list(20, None, T0 + 4).unwrap();
    assert_eq!(page.sessions[0].title, "Named by me");
    assert_eq!(index.rename("nobody", "x").unwrap(), None);
}

#[test]
fn an_agents_title_replaces_the_first_messages_until_a_rename_and_never_lists() {
    use crate::conversations::wire::{titled, TITLE};
    let db = Db::new();
    let index = Index::new(&db);
    index
        .touch("s1", "what is the weather in paris tomorrow", T0)
        .unwrap();
    index.touch("s2", "other", T0 + 1).unwrap();
    let title = |index: &Index<&Db>, id: &str| {
        let page = index.list(20, None, T0 + 100).unwrap();
        page.sessions
            .iter()
            .find(|s| s.id == id)
            .map(|s| s.title.clone())
    };
    assert_eq!(
        index
            .serve(TITLE, &titled("s1", "Paris weather"), T0 + 2)
            .status,
        204
    );
    assert_eq!(title(&index, "s1").as_deref(), Some("Paris weather"));
    assert_eq!(
        ids(&index.list(20, None, T0 + 3).unwrap()),
        ["s2", "s1"],
        "a title is no activity"
    );
    index.titled("s1", "Paris, later").unwrap();
    assert_eq!(
        title(&index, "s1").as_deref(),
        Some("Paris, later"),
        "the latest title"
    );
    // A rename wins, over the agent's titles that follow too.
    index.rename("s1", "Mine").unwrap().unwrap();
    index.titled("s1", "The agent's again").unwrap();
    assert_eq!(title(&index, "s1").as_deref(), Some("Mine"));
    // A title lists nothing.
    assert_eq!(
        index.serve(TITLE, &titled("nobody", "x"), T0 + 4).status,
        204
    );
    assert_eq!(title(&index, "nobody"), None);
    // Deleted, then made anew by a turn: the agent titles it again.
    assert!(index.delete("s1").unwrap());
    index.touch("s1", "anew", T0 + 5).unwrap();
    index.titled("s1", "The agent's, anew").unwrap();
    assert_eq!(title(&index, "s1").as_deref(), Some("The agent's, anew"));
}

#[test]
fn a_delete_removes_the_session_and_a_new_turn_lists_it_anew() {
    let db = Db::new();
    let index = Index::new(&db);
    index.touch("s1", "old", T0).unwrap();
    index.touch("s1", "old", T0 + 1).unwrap();
    assert!(index.delete("s1").unwrap());
    assert!(!index.delete("s1").unwrap(), "gone already");
    assert!(!index.delete("never").unwrap());
    assert_eq!(index.list(20, None, T0 + 2).unwrap().sessions, []);
    let moves: i64 =
        db.0.query_row("SELECT count(*) FROM moves", [], |r| r.get(0))
            .unwrap();
    assert_eq!(moves, 0, "its moves went with it");
    index.touch("s1", "new", T0 + 3).unwrap();
    let page = index.list(20, None, T0 + 4).unwrap();
    assert_eq!(
        (page.sessions[0].title.as_str(), page.sessions[0].created_at),
        ("new", T0 + 3)
    );
}

#[test]
fn the_clock_never_gives_one_time_twice_and_goes_on_in_a_new_instance() {
    let db = Db::new();
    let index = Index::new(&db);
    index.touch("a", "a", T0).unwrap();
    index.touch("b", "b", T0).unwrap();
    index.touch("c", "c", T0 - 5_000).unwrap();
    let page = index.list(20, None, T0).unwrap();
    let times: Vec<u64> = page.sessions.iter().map(|s| s.updated_at).collect();
    assert_eq!(
        times,
        [T0 + 2, T0 + 1, T0],
        "one millisecond apart, in the order they came"
    );
    let again = Index::new(&db);
    assert_eq!(
        again.tick(T0).unwrap(),
        T0 + 3,
        "after the last stored write"
    );
}

#[test]
fn pages_follow_one_another_without_repeats_or_gaps() {
    let db = Db::new();
    let index = Index::new(&db);
    for i in 0..25u64 {
        index.touch(&format!("s{i:02}"), "t", T0 + i).unwrap();
    }
    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let page = index.list(7, cursor.as_ref(), T0 + 100).unwrap();
        assert!(page.sessions.len() <= 7);
        seen.extend(ids(&page));
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    let expected: Vec<String> = (0..25).rev().map(|i| format!("s{i:02}")).collect();
    assert_eq!(seen, expected);
    // A list that fills its last page exactly says so with the next page, which is empty.
    let db = Db::new();
    let index = Index::new(&db);
    for i in 0..4u64 {
        index.touch(&format!("s{i}"), "t", T0 + i).unwrap();
    }
    let first = index.list(2, None, T0 + 10).unwrap();
    let second = index.list(2, first.next.as_ref(), T0 + 11).unwrap();
    assert_eq!(
        (ids(&second), second.next),
        (vec!["s1".into(), "s0".into()], None)
    );
}

#[test]
fn a_session_moved_while_paging_is_given_once_where_it_was() {
    let db = Db::new();
    let index = Index::new(&db);
    for i in 0..6u64 {
        index.touch(&format!("s{i}"), "t", T0 + i).unwrap();
    }
    // s5 s4 | s3 s2 | s1 s0
    let first = index.list(2, None, T0 + 10).unwrap();
    assert_eq!(ids(&first), ["s5", "s4"]);
    // Turns now: s1 (not given yet) and s5 (given) move to the top; s9 is new.
    index.touch("s1", "t", T0 + 20).unwrap();
    index.touch("s5", "t", T0 + 21).unwrap();
    index.touch("s1", "t", T0 + 22).unwrap();
    index.touch("s9", "t", T0 + 23).unwrap();
    let second = index.list(2, first.next.as_ref(), T0 + 30).unwrap();
    assert_eq!(ids(&second), ["s3", "s2"]);
    let third = index.list(2, second.next.as_ref(), T0 + 31).unwrap();
    assert_eq!(ids(&third), ["s1", "s0"], "s1 where it was, not skipped");
    assert_eq!(
        third.sessions[0].updated_at,
        T0 + 22,
        "with its new activity"
    );
    assert_eq!(third.next, None);
    // A new first page has the new order.
    let fresh = index.list(3, None, T0 + 40).unwrap();
    assert_eq!(ids(&fresh), ["s9", "s1", "s5"]);
}

/// The moves in the table.
fn moves(db: &Db) -> i64 {
    db.0.query_row("SELECT count(*) FROM moves", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_move_is_kept_only_while_a_walk_can_need_it_and_pruned_once_an_hour() {
    let db = Db::new();
    let index = Index::new(&db);
    index.touch("a", "t", T0).unwrap();
    index.touch("a", "t", T0 + 1).unwrap();
    assert_eq!(moves(&db), 0, "no walk began: a chat's turns write no move");
    index.list(10, None, T0 + 2).unwrap();
    index.touch("a", "t", T0 + 3).unwrap();
    assert_eq!(moves(&db), 1, "a was active before the walk began");
    index.touch("a", "t", T0 + 4).unwrap();
    assert_eq!(
        moves(&db),
        1,
        "a has been active since: no walk needs where it was"
    );
    index.touch("b", "t", T0 + 5).unwrap();
    index.list(10, None, T0 + 6).unwrap();
    index.touch("b", "t", T0 + 7).unwrap();
    assert_eq!(moves(&db), 2);
    // An hour after the first prune (at T0), the next turn prunes: the move at T0 + 3 is older
    // than any cursor can need, the one at T0 + 7 not yet.
    index.touch("c", "t", T0 + 4 + MOVES_KEPT_MS).unwrap();
    assert_eq!(moves(&db), 1);
    index.touch("c", "t", T0 + 8 + MOVES_KEPT_MS).unwrap();
    assert_eq!(moves(&db), 1, "pruned 4 ms ago: not again within the hour");
    index
        .touch("c", "t", T0 + 4 + MOVES_KEPT_MS + PRUNE_EVERY_MS)
        .unwrap();
    assert_eq!(moves(&db), 0, "an hour on: pruned");
}

#[test]
fn a_new_instance_keeps_the_moves_an_earlier_instances_walk_can_need() {
    let db = Db::new();
    let index = Index::new(&db);
    index.touch("a", "t", T0).unwrap();
    let first = index.list(1, None, T0 + 1).unwrap();
    index.touch("b", "t", T0 - 5).unwrap();
    drop(index);
    // The object restarted: the walk that began at T0 + 1 may still go on.
    let again = Index::new(&db);
    again.touch("a", "t", T0 + 10).unwrap();
    assert_eq!(
        moves(&db),
        1,
        "a was active before the earlier instance's walk"
    );
    again.touch("a", "t", T0 + 11).unwrap();
    assert_eq!(moves(&db), 1, "not again: active since this instance began");
    let second = again.list(1, first.next.as_ref(), T0 + 12).unwrap();
    assert_eq!(ids(&second), ["a"], "where it was at the walk's first page");
}

#[test]
fn the_object_answers_each_operation_with_its_status() {
    use crate::conversations::query::ListQuery;
    use crate::conversations::wire::{listing, named, titled, DELETE, LIST, RENAME, TOUCH};
    let db = Db::new();
    let index = Index::new(&db);
    let touch = index.serve(TOUCH, &titled("s1", "Hello"), T0);
    // Not in the retention's directory yet: its oldest activity, for the worker to enlist it.
    assert_eq!(
        (touch.status, touch.body.as_str()),
        (201, T0.to_string().as_str())
    );
    let enlisted = index.serve(crate::conversations::wire::ENLISTED, "", T0);
    assert_eq!(enlisted.status, 204);
    let touch = index.serve(TOUCH, &titled("s1", "Hello"), T0);
    assert_eq!((touch.status, touch.body.as_str()), (204, ""));
    let list = index.serve(
        LIST,
        &listing(&ListQuery {
            limit: 20,
            cursor: None,
        }),
        T0 + 1,
    );
    assert_eq!(list.status, 200);
    let read: Value = serde_json::from_str(&list.body).unwrap();
    assert_eq!(read["sessions"][0]["title"], "Hello");
    assert_eq!(read["next"], Value::Null);
    let renamed = index.serve(RENAME, &titled("s1", "Renamed"), T0 + 2);
    assert_eq!(renamed.status, 200);
    let read: Value = serde_json::from_str(&renamed.body).unwrap();
    assert_eq!(
        (read["id"].as_str(), read["title"].as_str()),
        (Some("s1"), Some("Renamed"))
    );
    assert_eq!(index.serve(RENAME, &titled("s2", "x"), T0).status, 404);
    assert_eq!(index.serve(DELETE, &named("s2"), T0).status, 404);
    assert_eq!(index.serve(DELETE, &named("s1"), T0).status, 204);
    for (op, body) in [("other", "s1"), (TOUCH, "s1"), (LIST, "5\nforged")] {
        assert_eq!(index.serve(op, body, T0).status, 400, "{op} {body}");
    }
}

#[test]
fn holds_says_whether_the_list_has_the_session_and_changes_nothing() {
    use crate::conversations::wire::{named, titled, DELETE, HOLDS, TOUCH};
    let db = Db::new();
    let index = Index::new(&db);
    assert_eq!(index.serve(HOLDS, &named("s1"), T0).status, 404);
    assert_eq!(index.serve(TOUCH, &titled("s1", "Hello"), T0).status, 201);
    assert_eq!(index.serve(HOLDS, &named("s1"), T0 + 1).status, 204);
    assert_eq!(index.serve(HOLDS, &named("s2"), T0 + 1).status, 404);
    // Asked, it stays: the delete that follows finds it.
    assert_eq!(index.serve(HOLDS, &named("s1"), T0 + 2).status, 204);
    assert_eq!(index.serve(DELETE, &named("s1"), T0 + 3).status, 204);
    assert_eq!(index.serve(HOLDS, &named("s1"), T0 + 4).status, 404);
}

#[test]
fn a_storage_failure_is_a_500_with_its_text() {
    struct Broken;
    impl IndexSql for Broken {
        fn batch(&self, _: &[Statement]) -> Result<Vec<Value>, String> {
            Err("disk full".into())
        }
    }
    let index = Index::new(Broken);
    let answer = index.serve(crate::conversations::wire::TOUCH, "s1\nt", T0);
    assert_eq!((answer.status, answer.body.as_str()), (500, "disk full"));
}

#[test]
fn a_batch_is_json_as_the_object_reads_it() {
    let json = batch_json(&[
        statement(
            "SELECT ?",
            vec![Param::Int(7), Param::Text("a \"b\"".into())],
        ),
        statement("SELECT 1", vec![]),
    ]);
    assert_eq!(json, r#"[["SELECT ?",[7,"a \"b\""]],["SELECT 1",[]]]"#);
}

/// What happens to an index while a walk pages through it.
#[derive(Debug, Clone)]
enum Step {
    /// A turn of the session of this number (a new one if none has it).
    Turn(u8),
    Delete(u8),
    Rename(u8),
    /// The walk's next page.
    Page,
    /// Another first page (another tab's walk, which the moves must serve as well).
    Glance,
    /// The object's restart: a new instance on the same storage, later.
    Restart,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0u8..40).prop_map(Step::Turn),
        1 => (0u8..40).prop_map(Step::Delete),
        1 => (0u8..40).prop_map(Step::Rename),
        3 => Just(Step::Page),
        1 => Just(Step::Glance),
        1 => Just(Step::Restart),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A walk gives each session there at its first page exactly once (or not at all, once it is
    /// deleted), and no session made after the first page, whatever turns, renames, deletes,
    /// other walks and restarts of the object happen between its pages.
    #[test]
    fn a_walk_gives_every_session_once_whatever_turns_happen(
        before in prop::collection::vec(0u8..40, 0..40),
        steps in prop::collection::vec(step(), 0..80),
        limit in 1usize..6,
        same_ms in any::<bool>(),
    ) {
        let db = Db::new();
        let mut index = Index::new(&db);
        // Times that repeat (a burst of turns in one millisecond) or step on; a restart is later.
        let now = Cell::new(T0);
        let clock = || { if !same_ms { now.set(now.get() + 3); } now.get() };
        for n in &before {
            index.touch(&format!("s{n}"), "t", clock()).unwrap();
        }
        let first = index.list(limit, None, clock()).unwrap();
        let at_start: BTreeSet<String> = {
            let all = index.list(100, None, clock()).unwrap();
            prop_assert!(all.next.is_none());
            ids(&all).into_iter().collect()
        };
        let mut given: Vec<String> = ids(&first);
        let mut deleted = BTreeSet::new();
        let mut cursor = first.next;
        for step in steps.iter().chain(std::iter::repeat_n(&Step::Page, 200)) {
            match step {
                Step::Turn(n) => {
                    index.touch(&format!("s{n}"), "t", clock()).unwrap();
                }
                Step::Delete(n) => {
                    if index.delete(&format!("s{n}")).unwrap() {
                        deleted.insert(format!("s{n}"));
                    }
                }
                Step::Rename(n) => {
                    index.rename(&format!("s{n}"), "named").unwrap();
                }
                Step::Glance => {
                    index.list(limit, None, clock()).unwrap();
                }
                Step::Restart => {
                    index = Index::new(&db);
                    now.set(now.get() + 1000);
                }
                Step::Page => {
                    let Some(at) = cursor.take() else { continue };
                    let page = index.list(limit, Some(&at), clock()).unwrap();
                    prop_assert!(page.sessions.len() <= limit);
                    given.extend(ids(&page));
                    cursor = page.next;
                }
            }
        }
        prop_assert!(cursor.is_none(), "the walk ends");
        let unique: BTreeSet<String> = given.iter().cloned().collect();
        prop_assert_eq!(unique.len(), given.len(), "no repeats: {:?}", given);
        for id in &given {
            prop_assert!(at_start.contains(id), "{} was not there at the first page", id);
        }
        for id in &at_start {
            prop_assert!(unique.contains(id) || deleted.contains(id), "{} is missing: {:?}", id, given);
        }
    }
}

#[test]
fn a_list_is_enlisted_once_and_says_its_sessions_idle_past_a_time() {
    use crate::conversations::wire::{pair, titled, ENLISTED, EXPIRED, TOUCH};
    let db = Db::new();
    let index = Index::new(&db);
    for (i, id) in ["old", "mid", "new"].iter().enumerate() {
        index.serve(TOUCH, &titled(id, "t"), T0 + 100 * i as u64);
    }
    // Until the worker says it is in the directory, every touch asks it to be: its oldest.
    let asked = index.serve(TOUCH, &titled("new", "t"), T0 + 300);
    assert_eq!(
        (asked.status, asked.body.as_str()),
        (201, T0.to_string().as_str())
    );
    index.serve(ENLISTED, "", T0 + 301);
    assert_eq!(
        index.serve(TOUCH, &titled("new", "t"), T0 + 302).status,
        204
    );
    // The same object, again (a new instance of it): the flag is stored, not only held.
    let again = Index::new(&db);
    assert_eq!(
        again.serve(TOUCH, &titled("new", "t"), T0 + 303).status,
        204
    );

    // Idle since before T0 + 150: "old" only; "mid" (T0 + 100)... and what is left after it.
    let expired = index.serve(EXPIRED, &pair(&(T0 + 150).to_string(), 10), T0 + 400);
    assert_eq!(expired.status, 200);
    assert_eq!(expired.body, format!("{}\nold\nmid", T0 + 303));
    // Before T0 + 50: "old", and "mid" is the oldest left.
    let expired = index.serve(EXPIRED, &pair(&(T0 + 50).to_string(), 10), T0 + 400);
    assert_eq!(expired.body, format!("{}\nold", T0 + 100));
    // At most `limit`: the oldest left is the first not given, past the time or not.
    let expired = index.serve(EXPIRED, &pair(&(T0 + 999).to_string(), 1), T0 + 400);
    assert_eq!(expired.body, format!("{}\nold", T0 + 100));
    // Nothing idle: the oldest only; an empty list: 0.
    let expired = index.serve(EXPIRED, &pair(&T0.to_string(), 10), T0 + 400);
    assert_eq!(expired.body, T0.to_string());
    let none = Db::new();
    let empty = Index::new(&none);
    assert_eq!(empty.serve(EXPIRED, &pair("5", 10), T0).body, "0");
    // Every session expired: the list asks to be in the directory again at its next turn (the
    // run takes it out).
    let all = index.serve(EXPIRED, &pair(&(T0 + 999).to_string(), 10), T0 + 500);
    assert_eq!(all.body, format!("0\nold\nmid\nnew"));
    assert_eq!(
        index.serve(TOUCH, &titled("next", "t"), T0 + 600).status,
        201
    );
}

#[test]
fn the_directory_gives_the_lists_due_oldest_first_and_keeps_each_at_its_earliest() {
    use crate::conversations::wire::{pair, DUE, ENLIST, SETTLE};
    let db = Db::new();
    let directory = Index::new(&db);
    assert_eq!(
        directory.serve(ENLIST, &pair("key:b", T0 + 20), T0).status,
        204
    );
    assert_eq!(
        directory.serve(ENLIST, &pair("user:a", T0 + 10), T0).status,
        204
    );
    // Enlisted again with a later oldest (a second enlist of the same list): the earlier stays.
    directory.serve(ENLIST, &pair("user:a", T0 + 99), T0);
    let due = |before: u64, limit: u64| {
        directory
            .serve(DUE, &pair(&before.to_string(), limit), T0)
            .body
    };
    assert_eq!(due(T0 + 100, 10), "user:a\nkey:b");
    assert_eq!(due(T0 + 15, 10), "user:a");
    assert_eq!(due(T0 + 100, 1), "user:a");
    assert_eq!(due(T0, 10), "");
    // A run put a list's new oldest back, or took it out when nothing is left.
    assert_eq!(
        directory
            .serve(SETTLE, &pair("user:a", T0 + 500), T0)
            .status,
        204
    );
    assert_eq!(due(T0 + 100, 10), "key:b");
    directory.serve(SETTLE, &pair("key:b", 0), T0);
    assert_eq!(due(T0 + 1_000, 10), "user:a");
}

#[test]
fn a_followed_list_tells_each_write_and_nothing_else() {
    use crate::conversations::wire::{listing, named, titled, DELETE, LIST, RENAME, TITLE, TOUCH};
    let db = Db::new();
    let index = Index::new(&db);
    let event = |op: &str, body: &str, now: u64| -> Option<Value> {
        let (answer, event) = index.serve_live(op, body, now, true);
        assert!(answer.status < 300, "{op}: {answer:?}");
        event.map(|e| serde_json::from_str(&e).unwrap())
    };
    let made = event(TOUCH, &titled("s1", "first"), T0).unwrap();
    assert_eq!(made["type"], "session");
    assert_eq!(made["session"]["id"], "s1");
    assert_eq!(made["session"]["title"], "first");
    assert_eq!(made["session"]["updatedAt"], T0);
    let moved = event(TOUCH, &titled("s1", "ignored"), T0 + 5).unwrap();
    assert_eq!(
        (
            moved["session"]["title"].clone(),
            moved["session"]["updatedAt"].clone()
        ),
        (Value::from("first"), Value::from(T0 + 5))
    );
    let titled_by_agent = event(TITLE, &titled("s1", "By the agent"), T0 + 6).unwrap();
    assert_eq!(titled_by_agent["session"]["title"], "By the agent");
    let renamed = event(RENAME, &titled("s1", "Mine"), T0 + 7).unwrap();
    assert_eq!(renamed["session"]["title"], "Mine");
    assert_eq!(
        event(TITLE, &titled("nobody", "x"), T0 + 8),
        None,
        "a title on no listed session"
    );
    let query = crate::conversations::query::ListQuery {
        limit: 20,
        cursor: None,
    };
    assert_eq!(event(LIST, &listing(&query), T0 + 9), None, "a read");
    assert_eq!(
        event(DELETE, &named("s1"), T0 + 10).unwrap(),
        serde_json::json!({"type":"deleted","id":"s1"})
    );
    // A refusal (a delete of what is gone) tells nothing; nor does an unfollowed list.
    assert_eq!(
        index.serve_live(DELETE, &named("s1"), T0 + 11, true),
        (Answer::status(404), None)
    );
    assert_eq!(
        index
            .serve_live(TOUCH, &titled("s2", "x"), T0 + 12, false)
            .1,
        None
    );
}
