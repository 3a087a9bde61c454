//! Tests of `request_log`.

use proptest::prelude::*;

use super::*;

#[test]
fn an_answer_sets_status_and_outcome_together_and_the_docs_name_each() {
    let mut log = RequestLog::default();
    log.answered(Disposition::Stopped);
    assert_eq!((log.status, log.outcome.as_str()), (202, "stopped"));
    log.answered(Disposition::DemoLog(404));
    assert_eq!((log.status, log.outcome.as_str()), (404, "demo_log"));
    let page = include_str!("../../../docs/auth.md");
    let feeds = crate::feed::FeedEnd::ALL.map(Disposition::Feed);
    for answered in Disposition::DOCUMENTED.into_iter().chain(feeds) {
        let word = format!("`{}`", answered.outcome());
        assert!(page.contains(&word), "docs/auth.md names {word}");
    }
}

#[test]
fn request_ids_are_version_4_uuids() {
    assert_eq!(uuid_v4([0; 16]), "00000000-0000-4000-8000-000000000000");
    assert_eq!(uuid_v4([0xff; 16]), "ffffffff-ffff-4fff-bfff-ffffffffffff");
    let bytes = [
        0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x0f, 0xed, 0xcb, 0xa9, 0x87, 0x65, 0x43,
        0x21,
    ];
    assert_eq!(uuid_v4(bytes), "12345678-9abc-4ef0-8fed-cba987654321");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn the_line_is_what_serde_writes(log in any_request_log()) {
        prop_assert_eq!(log.line(None), serde_json::to_string(&log).unwrap());
    }
}

/// Any request's log: texts of every kind, each optional field present or not, any numbers.
pub(crate) fn any_request_log() -> impl Strategy<Value = RequestLog> {
    let texts = prop::collection::vec(crate::json_out::any_text(), 6);
    (texts, any::<(bool, bool, u16)>(), any::<[u64; 4]>()).prop_map(
        |(t, (session, user, status), n)| RequestLog {
            request_id: t[0].clone(),
            method: t[1].clone(),
            path: t[2].clone(),
            session: session.then(|| t[3].clone()),
            user: user.then(|| t[4].clone()),
            status,
            outcome: t[5].clone(),
            chunks: n[0],
            bytes: n[1],
            skipped_frames: n[2],
            duration_ms: n[3],
        },
    )
}

#[test]
fn one_line_of_json_without_absent_fields() {
    let log = RequestLog {
        request_id: "r".into(),
        method: "POST".into(),
        path: "/api/sessions/s/chat".into(),
        session: Some("s".into()),
        user: None,
        status: 200,
        outcome: "finished".into(),
        chunks: 7,
        bytes: 420,
        skipped_frames: 1,
        duration_ms: 35,
    };
    assert_eq!(
        log.line(None),
        r#"{"requestId":"r","method":"POST","path":"/api/sessions/s/chat","session":"s","status":200,"outcome":"finished","chunks":7,"bytes":420,"skippedFrames":1,"durationMs":35}"#
    );
}
