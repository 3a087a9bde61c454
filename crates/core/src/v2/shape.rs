//! A turn's delta frames recognised by their bytes: agents write every delta of a turn the same
//! way, so all but the delta's text is known once the turn and the kind are, and a frame that
//! is exactly those bytes around a plain text needs no reading at all.
//!
//! Like [`super::plain`], this is a shortcut and never a second parser: it answers only for a
//! frame whose text *is* a delta of the turn, written in one of the two orders agents write
//! (the `type` first, as frames built by hand or by `JSON.stringify` of an object literal have
//! it; or the keys sorted, as `serde_json::Value` writes them), with no whitespace and a delta
//! with no escape; for anything else it answers `None` and the caller reads the frame as before.

use std::ops::Range;

use super::plain::DeltaKind;
use crate::json_out::{plain_len, string as json_string};
use crate::word_scan::starts_with;

/// How a frame with sorted keys starts: its delta comes first.
const SORTED_OPENING: &[u8] = br#"{"delta":""#;
/// How a frame with its `type` first ends, after its delta: the delta comes last.
const TYPE_FIRST_CLOSING: &[u8] = br#""}"#;

/// The bytes of turn `turn_id`'s delta frames of one kind, around the delta's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeltaShape {
    /// `{"type":"<type>","turnId":<turn>,"delta":"`: up to the delta, with the `type` first.
    type_first: Vec<u8>,
    /// `","turnId":<turn>,"type":"<type>"}`: after the delta, with the keys sorted.
    sorted_closing: Vec<u8>,
}

impl DeltaShape {
    /// The shape of `kind`'s delta frames of turn `turn_id` (its JSON as `serde_json` writes it).
    pub fn new(kind: DeltaKind, turn_id: &str) -> Self {
        let kind = match kind {
            DeltaKind::Text => "message.part.text-delta",
            DeltaKind::Reasoning => "message.part.reasoning-delta",
        };
        let mut type_first = Vec::with_capacity(kind.len() + turn_id.len() + 32);
        type_first.extend_from_slice(br#"{"type":""#);
        type_first.extend_from_slice(kind.as_bytes());
        type_first.extend_from_slice(br#"","turnId":"#);
        json_string(&mut type_first, turn_id);
        type_first.extend_from_slice(br#","delta":""#);
        let mut sorted_closing = Vec::with_capacity(kind.len() + turn_id.len() + 24);
        sorted_closing.extend_from_slice(br#"","turnId":"#);
        json_string(&mut sorted_closing, turn_id);
        sorted_closing.extend_from_slice(br#","type":""#);
        sorted_closing.extend_from_slice(kind.as_bytes());
        sorted_closing.extend_from_slice(br#""}"#);
        DeltaShape {
            type_first,
            sorted_closing,
        }
    }

    /// Where the delta of the frame at the start of `bytes` lies, and where that frame ends,
    /// when the frame has this shape. The frame is `bytes[..end]`: the caller checks that it
    /// ends there (at the end of `bytes`, or at the separator that follows it), and that the
    /// delta is UTF-8 (it is wherever `bytes` is: the bytes around it are ASCII).
    ///
    /// The delta runs from the opening to the first byte a plain string cannot hold
    /// ([`plain_len`]), which must be the quote that starts the closing: so the delta holds no
    /// quote, backslash or control character (none of them a separator either), and the frame
    /// is exactly the JSON object of the three members, which [`super::parse_frame`] reads as
    /// this kind's delta of this turn.
    pub fn match_start(&self, bytes: &[u8]) -> Option<ShapeMatch> {
        let (start, closing) = if starts_with(bytes, &self.type_first) {
            (self.type_first.len(), TYPE_FIRST_CLOSING)
        } else if starts_with(bytes, SORTED_OPENING) {
            (SORTED_OPENING.len(), &self.sorted_closing[..])
        } else {
            return None;
        };
        let delta_end = start + plain_len(&bytes[start..]);
        starts_with(&bytes[delta_end..], closing).then(|| ShapeMatch {
            delta: start..delta_end,
            end: delta_end + closing.len(),
        })
    }
}

/// What [`DeltaShape::match_start`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeMatch {
    /// Where the delta's bytes lie.
    pub delta: Range<usize>,
    /// The frame's end: the length of the frame.
    pub end: usize,
}

#[cfg(test)]
#[path = "shape_tests.rs"]
mod tests;
