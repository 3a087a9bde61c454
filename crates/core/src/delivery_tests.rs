//! Tests of a delivery's reading: the same stream, byte for byte, as pushing each piece `split`
//! gives, whichever frames the shortcut writes.

use super::*;
use crate::turn_stream::EndCause;
use proptest::prelude::*;

const SEPARATOR: u8 = 0x1e;

/// What a caller does with a delivery (as the worker's pump does): streamed deltas count, a
/// frame over the limit ends the stream, any other frame is pushed.
fn by_delivery(text: &str, max_len: usize) -> (String, u64, usize) {
    let mut stream = TurnStream::new(Some("r1"));
    let (mut out, mut streamed) = (Vec::new(), 0);
    let mut delivery = Delivery::new(text.as_bytes(), SEPARATOR, max_len);
    while !stream.is_done() {
        match delivery.next(&mut stream, &mut out) {
            None => break,
            Some(Next::Streamed) => streamed += 1,
            Some(Next::Frame(frame)) if frame.len() > max_len => {
                stream.end(EndCause::FrameTooLarge, &mut out)
            }
            Some(Next::Frame(frame)) => {
                stream.push_unmatched(std::str::from_utf8(frame).unwrap(), &mut out);
            }
        }
    }
    (
        String::from_utf8(out).unwrap(),
        stream.chunks_emitted(),
        streamed,
    )
}

/// The same, each piece of `split` pushed as it is.
fn by_split(text: &str, max_len: usize) -> (String, u64) {
    let mut stream = TurnStream::new(Some("r1"));
    let mut out = Vec::new();
    for piece in text.split(char::from(SEPARATOR)) {
        if stream.is_done() {
            break;
        }
        if piece.len() > max_len {
            stream.end(EndCause::FrameTooLarge, &mut out);
        } else {
            stream.push_frame(piece, &mut out);
        }
    }
    (String::from_utf8(out).unwrap(), stream.chunks_emitted())
}

fn frames(texts: &[&str]) -> String {
    texts.join("\u{1e}")
}

const CREATE: &str = r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#;

#[test]
fn deltas_of_the_open_part_are_written_where_they_start() {
    let text = frames(&[
        CREATE,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"a"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"b"}"#,
        r#"{"delta":"c","turnId":"t1","type":"message.part.text-delta"}"#,
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
    ]);
    let (out, chunks, streamed) = by_delivery(&text, 1000);
    // The first delta opens the part and is read in full; the two after it extend it.
    assert_eq!(streamed, 2);
    assert_eq!((out, chunks), by_split(&text, 1000));
}

#[test]
fn pieces_are_those_of_split() {
    for text in [
        "",
        "\u{1e}",
        "a\u{1e}",
        "\u{1e}b",
        "a\u{1e}\u{1e}b",
        "é😀\u{1e}x",
    ] {
        let mut stream = TurnStream::new(None);
        let mut delivery = Delivery::new(text.as_bytes(), SEPARATOR, usize::MAX);
        let mut pieces = Vec::new();
        while let Some(next) = delivery.next(&mut stream, &mut Vec::new()) {
            match next {
                Next::Frame(frame) => pieces.push(std::str::from_utf8(frame).unwrap()),
                Next::Streamed => panic!("no part is open"),
            }
        }
        assert_eq!(pieces, text.split('\u{1e}').collect::<Vec<_>>(), "{text:?}");
    }
}

#[test]
fn a_delta_over_the_limit_is_handed_back() {
    let delta = r#"{"type":"message.part.text-delta","turnId":"t1","delta":"aaaa"}"#;
    let text = frames(&[CREATE, delta, delta, delta]);
    let (out, chunks, streamed) = by_delivery(&text, delta.len() - 1);
    assert_eq!(streamed, 0);
    assert!(out.contains(r#""errorText":"#), "{out}");
    assert_eq!((out, chunks), by_split(&text, delta.len() - 1));
    // At the limit exactly, it is streamed.
    assert_eq!(by_delivery(&text, delta.len()).2, 2);
}

/// Frames of a turn, mostly deltas of the one part, in both orders, some the shortcut cannot
/// take (escapes, whitespace, another turn or kind), some cut short or holding a raw separator.
fn frame() -> impl Strategy<Value = String> {
    let delta = (
        prop::sample::select(vec!["text", "text", "text", "reasoning"]),
        prop::sample::select(vec!["t1", "t1", "t1", "t2"]),
        prop::sample::select(vec!["w", " w2", "", "é 😀", r"a\nb", "\u{1e}", "x\u{1e}y"]),
        prop::sample::select(vec![0u8, 1, 2]),
    )
        .prop_map(|(kind, turn, text, how)| {
            let kind = format!("message.part.{kind}-delta");
            match how {
                0 => format!(r#"{{"delta":"{text}","turnId":"{turn}","type":"{kind}"}}"#),
                1 => format!(r#"{{"type":"{kind}","turnId":"{turn}","delta":"{text}"}}"#),
                _ => format!(r#"{{"type":"{kind}", "turnId":"{turn}","delta":"{text}"}}"#),
            }
        });
    let others = prop::sample::select(vec![
        CREATE,
        r#"{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"running"}"#,
        r#"{"type":"agentStatus","status":"thinking"}"#,
        r#"{"type":"message.part.text-delta","turnId":"t1","delta":"cut"#,
        r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
        "",
    ])
    .prop_map(str::to_owned);
    prop_oneof![4 => delta, 1 => others]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn writes_what_pushing_each_piece_writes(
        frames in prop::collection::vec(frame(), 0..30),
        max_len in prop::sample::select(vec![usize::MAX, 60, 64, 70]),
    ) {
        let text = frames.join("\u{1e}");
        let (out, chunks, _) = by_delivery(&text, max_len);
        prop_assert_eq!((out, chunks), by_split(&text, max_len));
    }
}
