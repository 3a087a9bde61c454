//! Tests of the delta shapes: the frames they match, those they leave to the readers, and that
//! whatever they match the full parser reads as the same delta.

use super::*;
use crate::v2::{parse_frame, Frame};
use proptest::prelude::*;

/// The delta of `frame` when the whole frame has `shape`'s shape (as `TurnStream::push_frame`
/// asks of it).
fn delta_of<'a>(shape: &DeltaShape, frame: &'a str) -> Option<&'a str> {
    let found = shape.match_start(frame.as_bytes())?;
    (found.end == frame.len())
        .then(|| frame.get(found.delta))
        .flatten()
}

fn text_shape() -> DeltaShape {
    DeltaShape::new(DeltaKind::Text, "t1")
}

#[test]
fn matches_both_orders_agents_write() {
    let shape = text_shape();
    // The reference TypeScript agent's order (an object literal), and the demo agent's (sorted).
    assert_eq!(
        delta_of(
            &shape,
            r#"{"type":"message.part.text-delta","turnId":"t1","delta":" w2"}"#
        ),
        Some(" w2")
    );
    assert_eq!(
        delta_of(
            &shape,
            r#"{"delta":" w2","turnId":"t1","type":"message.part.text-delta"}"#
        ),
        Some(" w2")
    );
    assert_eq!(
        delta_of(
            &DeltaShape::new(DeltaKind::Reasoning, "t1"),
            r#"{"type":"message.part.reasoning-delta","turnId":"t1","delta":"héllo 😀"}"#
        ),
        Some("héllo 😀")
    );
    // The empty delta is a delta too (the caller decides what it writes).
    assert_eq!(
        delta_of(
            &shape,
            r#"{"delta":"","turnId":"t1","type":"message.part.text-delta"}"#
        ),
        Some("")
    );
}

#[test]
fn leaves_every_other_frame_to_the_readers() {
    let shape = text_shape();
    for text in [
        // Another turn, another kind, another type.
        r#"{"type":"message.part.text-delta","turnId":"t2","delta":"x"}"#,
        r#"{"delta":"x","turnId":"t12","type":"message.part.text-delta"}"#,
        r#"{"type":"message.part.reasoning-delta","turnId":"t1","delta":"x"}"#,
        r#"{"delta":"x","turnId":"t1","type":"message.part.reasoning-delta"}"#,
        r#"{"delta":"x","turnId":"t1","type":"message.part.text-deltas"}"#,
        // An escape, a quote or a control character in the delta.
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"a\nb"}"#,
        r#"{"delta":"a\"b","turnId":"t1","type":"message.part.text-delta"}"#,
        "{\"type\":\"message.part.text-delta\",\"turnId\":\"t1\",\"delta\":\"a\tb\"}",
        // Whitespace, another field, another order, a field twice, text after the object.
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"x" }"#,
        r#"{"delta": "x","turnId":"t1","type":"message.part.text-delta"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"x","i":1}"#,
        r#"{"turnId":"t1","type":"message.part.text-delta","delta":"x"}"#,
        r#"{"delta":"x","turnId":"t1","type":"message.part.text-delta","delta":"y"}"#,
        r#"{"delta":"x","turnId":"t1","type":"message.part.text-delta"}}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"x"}{"#,
        // Cut short anywhere.
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"x"#,
        r#"{"delta":"x","turnId":"t1","type":"message.part.text-delta""#,
        r#"{"delta":"x"#,
        "",
    ] {
        assert_eq!(delta_of(&shape, text), None, "{text}");
    }
}

#[test]
fn a_turn_id_that_needs_escapes_is_matched_as_serde_writes_it() {
    let shape = DeltaShape::new(DeltaKind::Text, "t\"1\n");
    assert_eq!(
        delta_of(
            &shape,
            r#"{"type":"message.part.text-delta","turnId":"t\"1\n","delta":"x"}"#
        ),
        Some("x")
    );
    // Another spelling of the same id is left to the readers.
    assert_eq!(
        delta_of(
            &shape,
            r#"{"type":"message.part.text-delta","turnId":"t\"1\u000a","delta":"x"}"#
        ),
        None
    );
}

#[test]
fn the_start_of_a_delivery_says_where_its_frame_ends() {
    let shape = text_shape();
    let first = r#"{"delta":"a","turnId":"t1","type":"message.part.text-delta"}"#;
    let second = r#"{"type":"message.part.text-delta","turnId":"t1","delta":"b"}"#;
    let delivery = format!("{first}\u{1e}{second}");
    let found = shape.match_start(delivery.as_bytes()).unwrap();
    assert_eq!((&delivery[found.delta], found.end), ("a", first.len()));
    let rest = &delivery[first.len() + 1..];
    let found = shape.match_start(rest.as_bytes()).unwrap();
    assert_eq!((&rest[found.delta], found.end), ("b", second.len()));
}

/// Turn ids and deltas: plain, with escapes, with any character.
fn any_string() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z0-9 -]{0,12}",
        1 => any::<String>(),
        1 => prop::collection::vec(
            prop::sample::select(vec!['a', '"', '\\', '\n', '\u{1}', 'é', '😀', '\u{1e}', '}']),
            0..6,
        )
        .prop_map(|chars| chars.into_iter().collect()),
    ]
}

/// A delta frame in either order, then a few edits (a character put in, taken out, or put in
/// the place of another), so that most texts are near a frame of the shape and some are one.
fn near_frame() -> impl Strategy<Value = (DeltaKind, String, String)> {
    let kind = prop::sample::select(vec![DeltaKind::Text, DeltaKind::Reasoning]);
    let edit = (
        0usize..100,
        0u8..3,
        prop::sample::select(vec!['"', '\\', ',', ':', '{', '}', ' ', 'x', '\u{1e}', 'é']),
    );
    (
        kind.clone(),
        kind,
        "t1|t2|[a-z0-9-]{0,8}",
        any_string(),
        any::<bool>(),
        prop::collection::vec(edit, 0..3),
    )
        .prop_map(|(kind, frame_kind, turn, delta, sorted, edits)| {
            let type_name = match frame_kind {
                DeltaKind::Text => "message.part.text-delta",
                DeltaKind::Reasoning => "message.part.reasoning-delta",
            };
            let (t, d) = (json(&turn), json(&delta));
            let mut text = if sorted {
                format!(r#"{{"delta":{d},"turnId":{t},"type":"{type_name}"}}"#)
            } else {
                format!(r#"{{"type":"{type_name}","turnId":{t},"delta":{d}}}"#)
            };
            for (at, how, c) in edits {
                let boundaries: Vec<usize> = (0..=text.len())
                    .filter(|&i| text.is_char_boundary(i))
                    .collect();
                let at = boundaries[at % boundaries.len()];
                let next = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                match how {
                    0 => text.insert(at, c),
                    1 => text.replace_range(at..next, ""),
                    _ => text.replace_range(at..next, c.encode_utf8(&mut [0; 4])),
                }
            }
            (kind, turn, text)
        })
}

fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6000))]

    /// Whatever a shape matches, the full parser reads as that kind's delta of that turn, with
    /// the same text.
    #[test]
    fn agrees_with_the_full_parser((kind, turn, text) in near_frame()) {
        let shape = DeltaShape::new(kind, &turn);
        if let Some(matched) = delta_of(&shape, &text) {
            let parsed = match (kind, parse_frame(&text)) {
                (DeltaKind::Text, Ok(Frame::TextDelta(d)))
                | (DeltaKind::Reasoning, Ok(Frame::ReasoningDelta(d))) => d,
                (_, other) => panic!("matched {matched:?} in {text:?}, parsed {other:?}"),
            };
            prop_assert_eq!(&parsed.turn_id, &turn);
            prop_assert_eq!(parsed.delta, matched);
        }
    }

    /// An unedited frame of the turn is matched exactly when its delta needs no escape.
    #[test]
    fn matches_every_plain_delta(turn in any_string(), delta in any_string(), sorted in any::<bool>()) {
        let shape = DeltaShape::new(DeltaKind::Text, &turn);
        let (t, d) = (json(&turn), json(&delta));
        let text = if sorted {
            format!(r#"{{"delta":{d},"turnId":{t},"type":"message.part.text-delta"}}"#)
        } else {
            format!(r#"{{"type":"message.part.text-delta","turnId":{t},"delta":{d}}}"#)
        };
        let plain = json(&delta) == format!("\"{delta}\"");
        prop_assert_eq!(delta_of(&shape, &text), plain.then_some(delta.as_str()));
    }
}

#[test]
fn the_generator_reaches_both_answers() {
    // The first property means little unless the edited frames are matched now and then.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut matched, mut declined) = (0, 0);
    for _ in 0..6000 {
        let (kind, turn, text) = near_frame().new_tree(&mut runner).unwrap().current();
        match delta_of(&DeltaShape::new(kind, &turn), &text) {
            Some(_) => matched += 1,
            None => declined += 1,
        }
    }
    assert!(
        matched > 200 && declined > 200,
        "{matched} matched, {declined} declined"
    );
}
