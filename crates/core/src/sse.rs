//! Server-sent events framing of the UI message stream, byte for byte as the AI SDK writes it.
//!
//! Each chunk is `data: <json>\n\n` (`json-to-sse-transform-stream.ts` in the AI SDK);
//! the stream ends with `data: [DONE]\n\n`. JSON escapes every control character, so
//! no text a chunk carries (newlines, CR, NUL, `data:` …) can end an event early.

use crate::ui::UiChunk;
use crate::v2::DeltaKind;

/// The response headers of a UI message stream
/// (`ui-message-stream-headers.ts` in the AI SDK, plus the stream marker header), with
/// `no-store` beside the SDK's `no-cache`: a resume is a `GET`, which a browser may otherwise
/// keep in its HTTP cache, where the conversation would outlive the visitor's logout.
///
/// And `x-content-type-options: nosniff`, for phones: iOS's URL loading holds back the first
/// ~512 bytes of a `text/*` response to sniff its type (Open Radar 31862557, "URLSession data
/// tasks always buffer the first 512 bytes"; `expo/fetch` issue 32950 saw ~500 characters held),
/// so a short first answer would arrive all at once, or at its end. `nosniff` says the declared
/// type stands and there is nothing to sniff; it changes nothing for any other client
/// (docs/endpoint.md, "Response headers"). Whether it lifts the hold is not proven on a device
/// (the radar says *always*), so an operator can also open each stream with a padding that fills
/// the hold ([`write_padding`], `STREAM_PADDING`).
pub const RESPONSE_HEADERS: [(&str, &str); 6] = [
    ("content-type", "text/event-stream"),
    ("cache-control", "no-cache, no-store"),
    ("connection", "keep-alive"),
    ("x-vercel-ai-ui-message-stream", "v1"),
    ("x-accel-buffering", "no"),
    ("x-content-type-options", "nosniff"),
];

/// The terminator the AI SDK writes after the last chunk.
pub const DONE: &[u8] = b"data: [DONE]\n\n";

/// An SSE comment: clients ignore it; it keeps proxies from timing out an idle stream
/// and lets the runtime notice a client that went away.
pub const KEEP_ALIVE: &[u8] = b": keep-alive\n\n";

/// The fewest bytes of an opening padding ([`write_padding`]): the iOS hold it is there to fill
/// (Open Radar 31862557: "the first 512 bytes"); fewer would leave the hold waiting on the
/// stream's own bytes.
pub const MIN_PADDING: usize = 512;

/// The most bytes of an opening padding: 4 KiB, eight times the hold, a margin for a loader that
/// holds more, at a cost a phone's link pays once a stream.
pub const MAX_PADDING: usize = 4096;

/// Appends the opening padding of a stream: one SSE comment of exactly `bytes` bytes
/// (`:`, spaces, `\n\n`), which every SSE parser skips (the AI SDK's among them), sent before
/// anything else where the operator asks for it (`STREAM_PADDING`, docs/endpoint.md). A loader
/// that holds back the first ~512 bytes of a `text/*` response whatever its headers say (iOS's,
/// Open Radar 31862557) releases them at once, and the stream's own bytes follow unheld.
/// `bytes` is 0 (nothing) or from [`MIN_PADDING`] to [`MAX_PADDING`], as the setting allows.
pub fn write_padding(out: &mut Vec<u8>, bytes: usize) {
    if bytes == 0 {
        return;
    }
    out.reserve(bytes);
    out.push(b':');
    out.resize(out.len() + bytes.saturating_sub(3), b' ');
    out.extend_from_slice(b"\n\n");
}

mod layout;

/// Appends one chunk as an SSE event.
pub fn write_chunk(out: &mut Vec<u8>, chunk: &UiChunk) {
    out.extend_from_slice(b"data: ");
    layout::write_json(out, chunk);
    out.extend_from_slice(b"\n\n");
}

/// Appends the event of a plain delta of part `id` up to the delta's text: the bytes before it
/// in every such event of the part, made once per part for [`write_plain_delta`].
pub fn write_plain_delta_head(out: &mut Vec<u8>, kind: DeltaKind, id: &str) {
    out.extend_from_slice(b"data: ");
    layout::delta_head(out, kind, id, crate::json_out::plain_string);
    out.push(b'"');
}

/// Appends a delta chunk whose strings need no escaping (a [`crate::v2::PlainDelta`]'s delta, a
/// part id the translator made) after its part's `head` ([`write_plain_delta_head`]): byte for
/// byte what [`write_chunk`] writes for the same chunk.
pub fn write_plain_delta(out: &mut Vec<u8>, head: &[u8], delta: &str) {
    out.reserve(head.len() + delta.len() + PLAIN_DELTA_TAIL.len());
    out.extend_from_slice(head);
    out.extend_from_slice(delta.as_bytes());
    out.extend_from_slice(PLAIN_DELTA_TAIL);
}

/// The bytes after a plain delta's text: its closing quote, the chunk's brace, the event's end.
const PLAIN_DELTA_TAIL: &[u8] = b"\"}\n\n";

#[cfg(test)]
#[path = "sse_tests.rs"]
mod tests;
