//! Tests of the plain-delta reader: what it reads, what it declines, and that whatever it reads
//! the full parser reads as the same delta.

use super::*;
use crate::v2::{parse_frame, read_frame, Frame, FrameRead};
use proptest::prelude::*;

fn read(text: &str) -> Option<(DeltaKind, &str, &str)> {
    read_plain_delta(text).map(|d| (d.kind, d.turn_id, d.delta))
}

#[test]
fn reads_the_shapes_agents_write() {
    let text = Some((DeltaKind::Text, "t1", " w2"));
    // Hand-built, `type` first; keys sorted (serde_json's Value), `type` last.
    assert_eq!(
        read(r#"{"type":"message.part.text-delta","turnId":"t1","delta":" w2"}"#),
        text
    );
    assert_eq!(
        read(r#"{"delta":" w2","turnId":"t1","type":"message.part.text-delta"}"#),
        text
    );
    // Spaced out, with fields this reader does not know.
    assert_eq!(
        read(
            " {\n \"type\" : \"message.part.text-delta\", \"turnId\":\"t1\",\r\n\t\"index\": -12,\
             \"final\":false,\"ok\":true,\"note\":null,\"messageId\":\"m\",\"delta\":\" w2\" } \n"
        ),
        text
    );
    assert_eq!(
        read(r#"{"type":"message.part.reasoning-delta","turnId":"t","delta":"héllo 😀"}"#),
        Some((DeltaKind::Reasoning, "t", "héllo 😀"))
    );
    assert_eq!(
        read(r#"{"type":"message.part.text-delta","turnId":"","delta":""}"#),
        Some((DeltaKind::Text, "", ""))
    );
}

#[test]
fn declines_what_it_is_not_sure_of() {
    for text in [
        // Escapes, in a value or a key, and raw control characters.
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"a\nb"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"\u0041"}"#,
        r#"{"type":"message.part.text\u002ddelta","turnId":"t","delta":"x"}"#,
        r#"{"type":"message.part.text-delta","turn\u0049d":"t","delta":"x"}"#,
        "{\"type\":\"message.part.text-delta\",\"turnId\":\"t\",\"delta\":\"a\tb\"}",
        "{\"type\":\"message.part.text-delta\",\"turnId\":\"t\",\"delta\":\"\t\"}",
        // Nested values, fractions, exponents, leading zeros, long integers.
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","meta":{}}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","i":[1]}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","i":1.5}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","i":1e5}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","i":01}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","i":1234567890123456}"#,
        // Repeated or missing fields, values of the wrong type.
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","delta":"y"}"#,
        r#"{"type":"message.part.text-delta","type":"message.part.text-delta","turnId":"t","delta":"x"}"#,
        r#"{"type":"message.part.text-delta","delta":"x"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t"}"#,
        r#"{"type":"message.part.text-delta","turnId":7,"delta":"x"}"#,
        // Other frames.
        r#"{"type":"message.create","turnId":"t","delta":"x"}"#,
        r#"{"type":"complete"}"#,
        "{}",
        // Not JSON: cut short, trailing text, bad literals, no separator.
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x""#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x"}}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x"} x"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","b":tru}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x","b":-}"#,
        r#"{"type":"message.part.text-delta" "turnId":"t","delta":"x"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t","delta":"x",}"#,
        "",
        "[]",
    ] {
        assert_eq!(read(text), None, "{text}");
    }
}

/// String values, plain and escaped; the first two are the delta kinds.
const STRINGS: [&str; 10] = [
    "\"message.part.text-delta\"",
    "\"message.part.reasoning-delta\"",
    "\"message.create\"",
    "\"t1\"",
    "\"\"",
    "\" w2 é 😀\"",
    "\"a\\\"b\"",
    "\"\\u0041\"",
    "\"x\\ny\"",
    "\"\t\"",
];

/// Pieces of frames, valid and not: members this reader reads, members it declines, and
/// separators, whitespace and stray bytes, joined at random.
fn piece() -> impl Strategy<Value = String> {
    let strings = prop::sample::select(STRINGS.to_vec());
    let others = prop::sample::select(vec![
        "0",
        "-0",
        "-",
        "12",
        "01",
        "1.5",
        "1e9",
        "-7E2",
        "true",
        "false",
        "null",
        "nul",
        "{}",
        "[1,\"x\"]",
        "{\"a\":[]}",
        "99999999999999999999",
    ]);
    let keys = prop::sample::select(vec![
        "\"type\"",
        "\"turnId\"",
        "\"delta\"",
        "\"messageId\"",
        "\"index\"",
        "\"turn\\u0049d\"",
    ]);
    let punctuation = prop::sample::select(vec!["{", "}", ":", ",", " ", "\n", "\r\t", "x", ""]);
    prop_oneof![
        4 => (keys.clone(), strings).prop_map(|(k, v)| format!("{k}:{v}")),
        2 => (keys, others).prop_map(|(k, v)| format!("{k} : {v}")),
        1 => punctuation.prop_map(str::to_owned),
    ]
}

/// A frame made of pieces: the three members of a delta (their values drawn like any other)
/// and a few more pieces, shuffled, mostly as one object, sometimes broken.
fn frame() -> impl Strategy<Value = String> {
    // Mostly plain strings (a quarter of them delta kinds), else any value.
    let value = prop_oneof![
        2 => prop::sample::select(STRINGS[..6].to_vec()),
        1 => prop::sample::select([&STRINGS[..], &["7"]].concat()),
    ];
    let required = (value.clone(), value.clone(), value).prop_map(|(kind, turn, delta)| {
        vec![
            format!("\"type\":{kind}"),
            format!("\"turnId\":{turn}"),
            format!("\"delta\":{delta}"),
        ]
    });
    (
        required,
        prop::collection::vec(piece(), 0..4),
        prop::sample::select(vec![",", ", ", ",,", ""]),
        prop::sample::select(vec![
            ("{", "}"),
            (" {", "} \n"),
            ("{", ""),
            ("", "}"),
            ("{", "}x"),
        ]),
    )
        .prop_flat_map(|(mut members, extra, comma, ends)| {
            members.extend(extra);
            (Just(members).prop_shuffle(), Just(comma), Just(ends))
        })
        .prop_map(|(members, comma, (open, close))| format!("{open}{}{close}", members.join(comma)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Whatever the reader reads, the full parser reads as the same delta.
    #[test]
    fn agrees_with_the_full_parser(text in frame()) {
        if let Some(plain) = read_plain_delta(&text) {
            let (kind, delta) = match parse_frame(&text) {
                Ok(Frame::TextDelta(d)) => (DeltaKind::Text, d),
                Ok(Frame::ReasoningDelta(d)) => (DeltaKind::Reasoning, d),
                other => panic!("read {plain:?} from {text:?}, parsed {other:?}"),
            };
            prop_assert_eq!(plain.kind, kind);
            prop_assert_eq!(plain.turn_id, delta.turn_id);
            prop_assert_eq!(plain.delta, delta.delta);
        }
    }
}

#[test]
fn the_generator_reaches_both_answers() {
    // The property above means little unless frames of both kinds come out of the generator.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut read_some, mut declined) = (0, 0);
    for _ in 0..4000 {
        let text = frame().new_tree(&mut runner).unwrap().current();
        match read_plain_delta(&text) {
            Some(_) => read_some += 1,
            None => declined += 1,
        }
    }
    assert!(
        read_some > 20 && declined > 20,
        "{read_some} read, {declined} declined"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// `read_frame`, which looks at a frame's ends once, answers what the two readers answer on
    /// their own: the plain delta, else the full parse, its error included.
    #[test]
    fn read_frame_is_the_two_readers(text in frame()) {
        let expected = match read_plain_delta(&text) {
            Some(delta) => Ok(format!("{:?}", FrameRead::Plain(delta))),
            None => parse_frame(&text).map(|frame| format!("{:?}", FrameRead::Parsed(frame))),
        };
        prop_assert_eq!(read_frame(&text).map(|read| format!("{read:?}")), expected);
    }
}

#[test]
fn read_frame_parses_other_frames_as_the_type_at_their_ends() {
    for text in [
        r#"{"type":"agentStatus","status":"thinking"}"#,
        r#"{"status":"idle","type":"agentStatus"}"#,
        r#"{"type":"complete"}"#,
        r#"{"messages":[],"session":{"id":"s"},"type":"init"}"#,
        r#"{"finalText":"w1","reason":"end_turn","turnId":"t","type":"message.finalize"}"#,
        r#"{"turnId":"t","type":"message.create"}"#,
        r#"{"turnId":"t","type":"message.create""#,
        r#"{"type":"message.finalize","turnId":"t"}"#,
    ] {
        let read = read_frame(text).map(|read| format!("{read:?}"));
        let parsed = parse_frame(text).map(|frame| format!("{:?}", FrameRead::Parsed(frame)));
        assert_eq!(read, parsed, "{text}");
    }
}
