//! Tests of `query`.

use super::*;

const NOW: u64 = 1_767_225_600_000;

fn query(q: &str) -> Result<ListQuery, Refusal> {
    ListQuery::from_url(&format!("https://w.example/api/sessions{q}"), NOW)
}

#[test]
fn the_limit_is_1_to_100_and_20_by_default() {
    assert_eq!(query("").unwrap().limit, DEFAULT_LIMIT);
    assert_eq!(DEFAULT_LIMIT, 20);
    assert_eq!(query("?limit=1").unwrap().limit, 1);
    assert_eq!(query("?limit=100").unwrap().limit, 100);
    assert_eq!(query("?other=x&limit=7#top").unwrap().limit, 7);
    for bad in [
        "0",
        "101",
        "-1",
        "",
        "ten",
        "1.5",
        "1e2",
        " 5",
        "99999999999999999999999",
    ] {
        let refused = query(&format!("?limit={bad}")).unwrap_err();
        assert_eq!(refused.kind, INVALID_QUERY, "{bad}");
        assert_eq!(
            refused.message,
            "`limit` must be a whole number from 1 to 100."
        );
    }
    assert_eq!(query("?limit").unwrap_err().kind, INVALID_QUERY);
}

#[test]
fn a_cursor_is_read_and_an_empty_one_is_the_first_page() {
    let cursor = Cursor {
        as_of: NOW - 1000,
        at: NOW - 5000,
        id: "s1".into(),
    };
    let read = query(&format!("?limit=5&cursor={}", cursor.encode())).unwrap();
    assert_eq!(read.cursor, Some(cursor));
    assert_eq!(query("?cursor=").unwrap().cursor, None);
    assert_eq!(
        query("?cursor=&limit=3").unwrap(),
        ListQuery {
            limit: 3,
            cursor: None
        }
    );
}

#[test]
fn a_cursor_changed_or_over_a_day_old_is_refused() {
    let refused = query("?cursor=AAAA").unwrap_err();
    assert_eq!(refused.kind, INVALID_QUERY);
    assert!(
        refused.message.contains("`next` of an earlier page"),
        "{}",
        refused.message
    );
    let at = |as_of: u64| {
        Cursor {
            as_of,
            at: as_of - 10,
            id: "s1".into(),
        }
        .encode()
    };
    assert!(
        query(&format!("?cursor={}", at(NOW - CURSOR_TTL_MS))).is_ok(),
        "a day old serves"
    );
    let refused = query(&format!("?cursor={}", at(NOW - CURSOR_TTL_MS - 1))).unwrap_err();
    assert_eq!(refused.kind, INVALID_QUERY);
    assert!(
        refused.message.contains("list again from the first page"),
        "{}",
        refused.message
    );
    // A cursor of a clock ahead (another machine's) serves.
    assert!(query(&format!("?cursor={}", at(NOW + 60_000))).is_ok());
}
