//! A request's head as the edge reads it in one call into JavaScript (`crates/adapter/src/inbound/incoming.js`): the
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

/// The fields of the text, in its order (shared with `crates/adapter/src/inbound/incoming.js`'s `HEADERS`, which
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
    /// `Last-Event-ID`: the state a session feed's client last saw (`crate::feed`).
    LastEventId,
    /// `Range`: the bytes of a file a client asks for (`crate::files::range`).
    Range,
    /// `X-Conversations-Key`: the caller's list of conversations where no credential names a
    /// user ([`crate::conversations::owner::KEY_HEADER`]).
    ConversationsKey,
    AccessControlRequestHeaders,
}

impl Field {
    /// Every field, in the text's order.
    pub const ALL: [Field; 14] = [
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
        Field::LastEventId,
        Field::Range,
        Field::ConversationsKey,
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
            Field::LastEventId => "last-event-id",
            Field::Range => "range",
            Field::ConversationsKey => crate::conversations::owner::KEY_HEADER,
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
#[path = "request_head_tests.rs"]
mod tests;
