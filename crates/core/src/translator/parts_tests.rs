//! Tests of `translator::parts`.

use super::*;

fn run(steps: &[(Option<DeltaKind>, &str)]) -> Vec<String> {
    let mut parts = OpenParts::default();
    let mut out = Vec::new();
    for (kind, delta) in steps {
        match kind {
            Some(k) => parts.delta(*k, delta.to_string(), &mut out),
            None => parts.close(&mut out),
        }
    }
    out.iter().map(UiChunk::to_json).collect()
}

#[test]
fn opens_lazily_and_reuses_the_open_part() {
    assert_eq!(
        run(&[
            (Some(DeltaKind::Text), "a"),
            (Some(DeltaKind::Text), "b"),
            (None, "")
        ]),
        [
            r#"{"type":"text-start","id":"text-1"}"#,
            r#"{"type":"text-delta","id":"text-1","delta":"a"}"#,
            r#"{"type":"text-delta","id":"text-1","delta":"b"}"#,
            r#"{"type":"text-end","id":"text-1"}"#,
        ]
    );
}

#[test]
fn switching_kind_closes_first_and_ids_never_repeat() {
    assert_eq!(
        run(&[
            (Some(DeltaKind::Reasoning), "r"),
            (Some(DeltaKind::Text), "t"),
            (None, ""),
            (Some(DeltaKind::Text), "u"),
        ]),
        [
            r#"{"type":"reasoning-start","id":"reasoning-1"}"#,
            r#"{"type":"reasoning-delta","id":"reasoning-1","delta":"r"}"#,
            r#"{"type":"reasoning-end","id":"reasoning-1"}"#,
            r#"{"type":"text-start","id":"text-2"}"#,
            r#"{"type":"text-delta","id":"text-2","delta":"t"}"#,
            r#"{"type":"text-end","id":"text-2"}"#,
            r#"{"type":"text-start","id":"text-3"}"#,
            r#"{"type":"text-delta","id":"text-3","delta":"u"}"#,
        ]
    );
}

#[test]
fn empty_deltas_and_double_close_emit_nothing() {
    assert!(run(&[(Some(DeltaKind::Text), ""), (None, ""), (None, "")]).is_empty());
}

#[test]
fn streamed_text_counts_only_text() {
    let mut parts = OpenParts::default();
    let mut out = Vec::new();
    parts.delta(DeltaKind::Reasoning, "r".into(), &mut out);
    assert!(!parts.streamed_text());
    parts.delta(DeltaKind::Text, "t".into(), &mut out);
    assert!(parts.streamed_text());
}
