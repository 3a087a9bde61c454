//! A request's head as the edge reads it in one call into JavaScript (`crates/adapter/src/incoming.js`): the
//! id and the time the edge gives the request (`crypto.randomUUID()`, `Date.now()`), its
//! method, its URL and the headers some route reads, as one text.
//!
//! Reading each of them on its own is a call across the WebAssembly boundary (fourteen per chat
//! turn, most with a string to copy), so the edge reads them all at once. The text is the
//! fields in [`Field`]'s order, each ended by a line feed; a header the request does not carry
//! is a lone NUL. Neither character can occur in a field: the Fetch standard forbids both in
//! header values (a header value is a byte sequence "that has no leading or trailing HTTP
//! whitespace bytes, no 0x00 NUL or HTTP newline bytes"), a serialized URL holds neither, a
//! method is a token, and the id and the time are made of hex digits, dashes and digits.

use std::ops::Range;

/// What `incoming.js` writes for a header the request does not carry.
const ABSENT: &str = "\u{0}";

/// The fields of the text, in its order (shared with `crates/adapter/src/incoming.js`'s `HEADERS`, which
/// lists the headers after the id, the time, the method and the URL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The request's id: a random (version 4) UUID.
    Id,
    /// When the edge received it: `Date.now()`, milliseconds since the Unix epoch.
    ReceivedMs,
    Method,
    Url,
    Origin,
    ContentType,
    ContentLength,
    Authorization,
    /// `CF-Connecting-IP`: the client's address, as Cloudflare's edge sets it.
    ClientIp,
    /// `X-Questions`: what the agent's questions become for this client
    /// ([`crate::questions::QUESTIONS_HEADER`]).
    Questions,
    AccessControlRequestHeaders,
}

impl Field {
    /// Every field, in the text's order.
    pub const ALL: [Field; 11] = [
        Field::Id,
        Field::ReceivedMs,
        Field::Method,
        Field::Url,
        Field::Origin,
        Field::ContentType,
        Field::ContentLength,
        Field::Authorization,
        Field::ClientIp,
        Field::Questions,
        Field::AccessControlRequestHeaders,
    ];

    /// The header's name, lower case as `Headers.get` takes it; `None` for the fields before
    /// the headers.
    pub fn header_name(self) -> Option<&'static str> {
        Some(match self {
            Field::Id | Field::ReceivedMs | Field::Method | Field::Url => return None,
            Field::Origin => "origin",
            Field::ContentType => "content-type",
            Field::ContentLength => "content-length",
            Field::Authorization => "authorization",
            Field::ClientIp => "cf-connecting-ip",
            Field::Questions => crate::questions::QUESTIONS_HEADER,
            Field::AccessControlRequestHeaders => "access-control-request-headers",
        })
    }

    /// The field's place in the text ([`Field::ALL`]'s order, which is the enum's: a test checks
    /// it).
    const fn position(self) -> usize {
        self as usize
    }

    /// The field's bit in a [`HeaderSet`]: 0 for the fields before the headers.
    fn bit(self) -> u32 {
        match self.position().checked_sub(FIELDS_BEFORE_HEADERS) {
            Some(at) => 1 << at,
            None => 0,
        }
    }
}

/// The headers a head is read with: a bit each, in the text's order (bit 0 is [`Field::Origin`]),
/// as `incoming.js`'s `readHead` takes them. A header left out is not read at all (each read is a
/// call into the runtime) and reads as absent: the settings leave out the ones no route of theirs
/// reads ([`crate::config::Config::headers_read`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeaderSet(u32);

impl HeaderSet {
    /// Every header of [`Field::ALL`].
    pub const ALL: HeaderSet = HeaderSet((1 << HEADER_COUNT) - 1);

    /// The set without `field`'s header (a field before the headers changes nothing).
    #[must_use]
    pub fn without(self, field: Field) -> HeaderSet {
        HeaderSet(self.0 & !field.bit())
    }

    /// Whether `field`'s header is read.
    pub fn contains(self, field: Field) -> bool {
        self.0 & field.bit() != 0
    }

    /// The bits, as `readHead` takes them.
    pub fn bits(self) -> u32 {
        self.0
    }
}

/// The fields before the headers: the id, the time, the method and the URL.
const FIELDS_BEFORE_HEADERS: usize = 4;

/// The headers of [`Field::ALL`].
const HEADER_COUNT: usize = Field::ALL.len() - FIELDS_BEFORE_HEADERS;

/// A request's head: the text `incoming.js` wrote, and where each field is in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestHead {
    text: String,
    /// Each field's bytes in `text`, in [`Field::ALL`]'s order; `None` for an absent header.
    fields: [Option<Range<usize>>; Field::ALL.len()],
}

impl RequestHead {
    /// The head of `text`, or `None` when it is not one: another number of fields, or a field
    /// before the headers absent or (the time) not a number.
    pub fn parse(text: String) -> Option<RequestHead> {
        let mut fields: [Option<Range<usize>>; Field::ALL.len()] = Default::default();
        let mut start = 0;
        for slot in &mut fields {
            let len = text[start..].find('\n')?;
            let value = &text[start..start + len];
            *slot = (value != ABSENT).then_some(start..start + len);
            start += len + 1;
        }
        let head = RequestHead { text, fields };
        let complete = start == head.text.len()
            && head.get(Field::Id).is_some()
            && head.get(Field::Method).is_some()
            && head.get(Field::Url).is_some()
            && head.received_ms().is_some();
        complete.then_some(head)
    }

    /// The request's id.
    pub fn id(&self) -> &str {
        self.get(Field::Id).unwrap_or_default()
    }

    fn received_ms(&self) -> Option<u64> {
        self.get(Field::ReceivedMs)?.parse().ok()
    }

    /// When the edge received the request, in milliseconds since the Unix epoch.
    pub fn received_at_ms(&self) -> u64 {
        self.received_ms().unwrap_or_default()
    }

    /// The request's method (`GET`, `POST`, …).
    pub fn method(&self) -> &str {
        self.get(Field::Method).unwrap_or_default()
    }

    /// The request's URL, serialized (`https://host/path?query`).
    pub fn url(&self) -> &str {
        self.get(Field::Url).unwrap_or_default()
    }

    /// A header's value (`Headers.get`'s: several are joined by `, `), or `None` when absent.
    pub fn header(&self, field: Field) -> Option<&str> {
        self.get(field)
    }

    fn get(&self, field: Field) -> Option<&str> {
        self.fields[field.position()]
            .clone()
            .map(|range| &self.text[range])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(fields: &[&str]) -> String {
        fields.iter().map(|f| format!("{f}\n")).collect()
    }

    #[test]
    fn reads_each_field_and_tells_an_absent_header_from_an_empty_one() {
        let head = RequestHead::parse(text(&[
            "0b6e5d1a-4c1f-4c8e-9a51-2f0f4f1b7c3d",
            "1764072000123",
            "POST",
            "https://example.com/api/sessions/s1/chat?trace=1",
            "https://app.example",
            "application/json",
            "120",
            "\u{0}",
            "",
            "approvals",
            "\u{0}",
        ]))
        .expect("a head");
        assert_eq!(head.id(), "0b6e5d1a-4c1f-4c8e-9a51-2f0f4f1b7c3d");
        assert_eq!(head.received_at_ms(), 1_764_072_000_123);
        assert_eq!(head.method(), "POST");
        assert_eq!(
            head.url(),
            "https://example.com/api/sessions/s1/chat?trace=1"
        );
        assert_eq!(head.header(Field::Origin), Some("https://app.example"));
        assert_eq!(head.header(Field::ContentType), Some("application/json"));
        assert_eq!(head.header(Field::ContentLength), Some("120"));
        assert_eq!(head.header(Field::Authorization), None);
        assert_eq!(head.header(Field::ClientIp), Some(""));
        assert_eq!(head.header(Field::Questions), Some("approvals"));
        assert_eq!(head.header(Field::AccessControlRequestHeaders), None);
    }

    #[test]
    fn refuses_a_text_of_another_shape() {
        const NO: &str = "\u{0}";
        let all = ["id", "17", "GET", "https://h/", NO, NO, NO, NO, NO, NO, NO];
        assert!(RequestHead::parse(text(&all)).is_some());
        assert_eq!(RequestHead::parse(text(&all[..10])), None, "a field short");
        assert_eq!(
            RequestHead::parse(format!("{}extra", text(&all))),
            None,
            "text after the last field"
        );
        assert_eq!(
            RequestHead::parse(text(&all).trim_end().to_owned()),
            None,
            "the last field not ended"
        );
        for (at, what) in [
            (0, "no id"),
            (1, "no time"),
            (2, "no method"),
            (3, "no URL"),
        ] {
            let mut missing = all;
            missing[at] = NO;
            assert_eq!(RequestHead::parse(text(&missing)), None, "{what}");
        }
        let mut not_a_time = all;
        not_a_time[1] = "soon";
        assert_eq!(
            RequestHead::parse(text(&not_a_time)),
            None,
            "a time that is no number"
        );
        assert_eq!(RequestHead::parse(String::new()), None);
    }

    /// `incoming.js` lists the headers in [`Field::ALL`]'s order, after the fields before them.
    #[test]
    fn incoming_js_lists_the_same_headers_in_the_same_order() {
        let js = include_str!("../../adapter/src/incoming.js");
        let list = js
            .split_once("const HEADERS = [")
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(list, _)| list)
            .expect("incoming.js has `const HEADERS = [...]`");
        let js_names: Vec<&str> = list
            .split(',')
            .map(|name| name.trim().trim_matches('"'))
            .filter(|name| !name.is_empty())
            .collect();
        let rust_names: Vec<&str> = Field::ALL
            .iter()
            .filter_map(|field| field.header_name())
            .collect();
        assert_eq!(js_names, rust_names);
    }

    #[test]
    fn each_field_knows_its_place_in_the_text() {
        for (at, field) in Field::ALL.into_iter().enumerate() {
            assert_eq!(field.position(), at, "{field:?}");
        }
    }

    #[test]
    fn a_header_set_has_a_bit_per_header_in_the_text_order() {
        assert_eq!(HeaderSet::ALL.bits(), 0b111_1111);
        let headers: Vec<Field> = Field::ALL
            .into_iter()
            .filter(|f| f.header_name().is_some())
            .collect();
        for (i, &field) in headers.iter().enumerate() {
            let without = HeaderSet::ALL.without(field);
            assert_eq!(
                without.bits(),
                HeaderSet::ALL.bits() & !(1 << i),
                "{field:?}"
            );
            assert!(!without.contains(field));
            assert!(HeaderSet::ALL.contains(field));
        }
        assert_eq!(HeaderSet::ALL.without(Field::Url), HeaderSet::ALL);
    }
}
