//! The frame that is most of a stream, read in one pass with nothing copied: a text or reasoning
//! delta whose strings hold no escape. Every other frame is left to [`super::parse_frame`].
//!
//! The reader is a shortcut, never a second parser with rules of its own: it answers only for
//! text that [`super::parse_frame`] reads as the same delta, and `None` for anything it is not
//! sure of (an escape, a nested value, a repeated field, a number with a fraction, text that is
//! not JSON), which the caller then parses in full. So a frame it declines loses nothing and
//! is judged, and logged when malformed, exactly as before.

use crate::json_out::plain_len;

/// Text or reasoning: which delta a frame (or a [`PlainDelta`]) is, and so which kind of
/// streamed part it extends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeltaKind {
    /// `message.part.text-delta`.
    Text,
    /// `message.part.reasoning-delta`.
    Reasoning,
}

/// A delta frame, its strings borrowed from the frame's text. Having no escape, they are also
/// their own JSON: written between quotes they are exactly what `serde_json` writes for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlainDelta<'a> {
    pub kind: DeltaKind,
    pub turn_id: &'a str,
    pub delta: &'a str,
}

/// Longest integer read as an unknown field's value: far below where `serde_json` would fall
/// back to a float (20 digits), so any run of digits this long is one it accepts.
const MAX_INTEGER_DIGITS: usize = 15;

/// Reads `text` as a delta frame when it is one JSON object of plain members: keys and string
/// values with no escape and no control character, other values `true`, `false`, `null` or a
/// short integer; `type`, `turnId` and `delta` each once. `None` for anything else.
pub fn read_plain_delta(text: &str) -> Option<PlainDelta<'_>> {
    match glance(text) {
        Glance::Other(_) => None,
        Glance::MaybeDelta => read_members(text),
    }
}

/// What the ends of a frame say of its type before it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Glance<'a> {
    /// A delta, or a type that does not stand at an end: the frame must be read to know.
    MaybeDelta,
    /// The type, standing at an end, of a frame that is no delta.
    Other(&'a str),
}

/// A frame that is no delta is not read through to find that out: most say so where the cheap
/// look at either end finds their type. A delta whose type stands there is known by a glance at
/// its end or its start, and skips the look, which would be work done twice (in workerd's
/// profile the look took half as long as reading a delta's strings).
pub(super) fn glance(text: &str) -> Glance<'_> {
    let delta_at_an_end =
        text.ends_with("-delta\"}") || text.starts_with("{\"type\":\"message.part.");
    if delta_at_an_end {
        return Glance::MaybeDelta;
    }
    match sniff_type(text) {
        Some(kind) if delta_kind(kind).is_none() => Glance::Other(kind),
        _ => Glance::MaybeDelta,
    }
}

/// The `type` read straight from the text where it stands at either end of the object, with no
/// whitespace around it: first, as agents that build their frames by hand write it, or last, as
/// writers that sort keys do (`serde_json::Value`, the demo agent). `None` otherwise (spaces, an
/// escape in the kind): the caller parses.
///
/// In valid JSON the answer is the top level's `type`. At the start: the object's first key.
/// At the end: the final `}` closes the top level, the `"` before it ends its last string
/// (`<kind>`, which holds no quote), whose opening quote follows the `:` of a member whose key
/// is `"type"` — its opening quote follows a `,` or `{`, so it is no escaped quote. Text that is
/// not valid JSON fails the whole parse that follows, as it would fail the tag pass.
pub(super) fn sniff_type(text: &str) -> Option<&str> {
    const KEY: &str = r#""type":""#;
    let first = || {
        Some(
            text.strip_prefix('{')?
                .strip_prefix(KEY)?
                .split_once('"')?
                .0,
        )
    };
    // The kind holds no quote, so it starts after the last quote: one byte search from the end
    // (a search for the whole key sets up a substring searcher per frame, which cost more than
    // the rest of this function).
    let last = || {
        let body = text.strip_suffix("\"}")?;
        // A byte loop: a kind is a few bytes long, shorter than a memrchr's set-up.
        let quote = body.bytes().rposition(|b| b == b'"')?;
        let (before, kind) = body.split_at(quote + 1);
        let before = before.strip_suffix(KEY)?;
        matches!(before.bytes().last(), Some(b',' | b'{')).then_some(kind)
    };
    first()
        .or_else(last)
        .filter(|kind| !kind.bytes().any(|b| b == b'\\' || b == b'"'))
}

/// [`read_plain_delta`] after the glance: the members, read in one pass.
pub(super) fn read_members(text: &str) -> Option<PlainDelta<'_>> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    let (mut kind, mut turn_id, mut delta) = (None, None, None);
    reader.expect(b'{')?;
    if !reader.eat(b'}') {
        loop {
            let key = reader.string()?;
            reader.expect(b':')?;
            match key {
                "type" => once(&mut kind, delta_kind(reader.string()?)?)?,
                "turnId" => once(&mut turn_id, reader.string()?)?,
                "delta" => once(&mut delta, reader.string()?)?,
                _ => reader.scalar()?,
            }
            if reader.eat(b'}') {
                break;
            }
            reader.expect(b',')?;
        }
    }
    reader.skip_whitespace();
    if reader.at != reader.bytes.len() {
        return None;
    }
    Some(PlainDelta {
        kind: kind?,
        turn_id: turn_id?,
        delta: delta?,
    })
}

fn delta_kind(kind: &str) -> Option<DeltaKind> {
    match kind {
        "message.part.text-delta" => Some(DeltaKind::Text),
        "message.part.reasoning-delta" => Some(DeltaKind::Reasoning),
        _ => None,
    }
}

/// Sets a field seen for the first time; a second sighting declines the frame.
fn once<T>(field: &mut Option<T>, value: T) -> Option<()> {
    field.replace(value).is_none().then_some(())
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// JSON's whitespace (RFC 8259, section 2): space, tab, line feed, carriage return.
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// Consumes `byte` after any whitespace, if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_whitespace();
        let found = self.bytes.get(self.at) == Some(&byte);
        self.at += usize::from(found);
        found
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }

    /// A string with no escape and no control character: its contents.
    fn string(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.at;
        let len = plain_len(&self.bytes[start..]);
        self.at = start + len;
        // The closing quote itself, with nothing skipped: whitespace inside a string is its text.
        if self.bytes.get(self.at) != Some(&b'"') {
            return None;
        }
        self.at += 1;
        // Both ends sit next to an ASCII quote, so they are character boundaries.
        self.text.get(start..start + len)
    }

    /// An unknown field's value, skipped: a plain string, a literal or a short integer.
    fn scalar(&mut self) -> Option<()> {
        self.skip_whitespace();
        match self.bytes.get(self.at)? {
            b'"' => self.string().map(drop),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.integer(),
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let rest = self.bytes.get(self.at..)?;
        rest.starts_with(word).then(|| self.at += word.len())
    }

    /// `-?(0|[1-9][0-9]*)`, at most [`MAX_INTEGER_DIGITS`] digits, not followed by a fraction
    /// or an exponent (those are declined, not read).
    fn integer(&mut self) -> Option<()> {
        self.at += usize::from(self.bytes.get(self.at) == Some(&b'-'));
        let digits = self.bytes[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let leading_zero = digits > 1 && self.bytes[self.at] == b'0';
        if digits == 0 || digits > MAX_INTEGER_DIGITS || leading_zero {
            return None;
        }
        self.at += digits;
        match self.bytes.get(self.at) {
            Some(b'.' | b'e' | b'E') => None,
            _ => Some(()),
        }
    }
}

#[cfg(test)]
#[path = "plain_tests.rs"]
mod tests;
