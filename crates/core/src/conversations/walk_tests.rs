//! Tests of `walk`.

use super::*;

fn row(id: &str, at: u64, updated_at: u64) -> Placed {
    Placed {
        session: Listed {
            id: id.into(),
            title: format!("title of {id}"),
            created_at: 1,
            updated_at,
        },
        at,
    }
}

fn ids(page: &Page) -> Vec<&str> {
    page.sessions.iter().map(|s| s.id.as_str()).collect()
}

#[test]
fn a_page_is_newest_first_and_same_times_by_id() {
    let unmoved = vec![row("c", 30, 30), row("b", 20, 20), row("a", 20, 20)];
    let page = page(unmoved, vec![], 100, (100, ""), 10);
    assert_eq!(ids(&page), ["c", "b", "a"]);
    assert_eq!(page.next, None);
}

#[test]
fn a_full_page_names_its_last_place_as_the_next_cursor() {
    let unmoved = vec![row("c", 30, 30), row("b", 20, 20), row("a", 10, 10)];
    let page = page(unmoved, vec![], 100, (100, ""), 2);
    assert_eq!(ids(&page), ["c", "b"]);
    assert_eq!(
        page.next,
        Some(Cursor {
            as_of: 100,
            at: 20,
            id: "b".into()
        })
    );
}

#[test]
fn a_moved_session_is_placed_where_it_was_and_only_after_the_cursor() {
    // The walk is after (20, "m"): "x" was at 25 (before it: given already), "y" at 15 (after
    // it: this page's), both moved to 200 since.
    let unmoved = vec![row("b", 10, 10), row("a", 5, 5)];
    let moved = vec![row("x", 25, 200), row("y", 15, 201)];
    let page = page(unmoved, moved, 100, (20, "m"), 10);
    assert_eq!(ids(&page), ["y", "b", "a"]);
    assert_eq!(
        page.sessions[0].updated_at, 201,
        "it shows its new activity"
    );
    // Same time as the cursor's place: by id.
    let page2 = super::page(
        vec![],
        vec![row("l", 20, 300), row("n", 20, 301)],
        100,
        (20, "m"),
        10,
    );
    assert_eq!(ids(&page2), ["l"]);
}

#[test]
fn the_json_is_what_serde_writes() {
    let session = Listed {
        id: "s:1".into(),
        title: "Quote \" and é\n".into(),
        created_at: 1_767_225_600_000,
        updated_at: 1_767_225_601_234,
    };
    let expected = serde_json::json!({
        "id": "s:1", "title": "Quote \" and é\n", "createdAt": 1_767_225_600_000u64, "updatedAt": 1_767_225_601_234u64
    });
    // Compared as values, key order aside (serde's map sorts them), then as bytes in ours.
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&session_json(&session)).unwrap(),
        expected
    );
    assert_eq!(
        session_json(&session),
        r#"{"id":"s:1","title":"Quote \" and é\n","createdAt":1767225600000,"updatedAt":1767225601234}"#
    );
    let last = Page {
        sessions: vec![session.clone()],
        next: None,
    };
    assert_eq!(
        page_json(&last),
        format!(r#"{{"sessions":[{}],"next":null}}"#, session_json(&session))
    );
    let cursor = Cursor {
        as_of: 3,
        at: 2,
        id: "s".into(),
    };
    let more = Page {
        sessions: vec![session.clone(), session.clone()],
        next: Some(cursor.clone()),
    };
    let read: serde_json::Value = serde_json::from_str(&page_json(&more)).unwrap();
    assert_eq!(read["sessions"].as_array().unwrap().len(), 2);
    assert_eq!(read["next"], cursor.encode());
    let empty = Page {
        sessions: vec![],
        next: None,
    };
    assert_eq!(page_json(&empty), r#"{"sessions":[],"next":null}"#);
}
