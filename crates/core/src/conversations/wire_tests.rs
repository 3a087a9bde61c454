//! Tests of `wire`.

use super::*;

#[test]
fn each_body_reads_back_as_the_operation_it_was() {
    let title = "Quotes \" and \\ and\nlines";
    assert_eq!(
        Op::read(TOUCH, &titled("s1", title)),
        Some(Op::Touch { id: "s1", title })
    );
    assert_eq!(
        Op::read(RENAME, &titled("s1", "")),
        Some(Op::Rename {
            id: "s1",
            title: ""
        })
    );
    assert_eq!(
        Op::read(TITLE, &titled("s1", title)),
        Some(Op::Title { id: "s1", title })
    );
    assert_eq!(
        Op::read(TITLE, &named("s1")),
        None,
        "a title op holds a title"
    );
    assert_eq!(
        Op::read(DELETE, &named("s2")),
        Some(Op::Delete { id: "s2" })
    );
    assert_eq!(Op::read(HOLDS, &named("s2")), Some(Op::Holds { id: "s2" }));
    let first = ListQuery {
        limit: 20,
        cursor: None,
    };
    assert_eq!(
        Op::read(LIST, &listing(&first)),
        Some(Op::List {
            limit: 20,
            cursor: None
        })
    );
    let cursor = Cursor {
        as_of: 9,
        at: 8,
        id: "s3".into(),
    };
    let next = ListQuery {
        limit: 5,
        cursor: Some(cursor.clone()),
    };
    assert_eq!(
        Op::read(LIST, &listing(&next)),
        Some(Op::List {
            limit: 5,
            cursor: Some(cursor)
        })
    );
}

#[test]
fn anything_else_is_no_operation() {
    for (name, body) in [
        ("other", "s1"),
        (TOUCH, "s1"),
        (RENAME, "s1"),
        (DELETE, "s1\nmore"),
        (LIST, ""),
        (LIST, "ten"),
        (LIST, "5\nforged"),
    ] {
        assert_eq!(Op::read(name, body), None, "{name} {body:?}");
    }
}
