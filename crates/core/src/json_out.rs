//! JSON written by hand, byte for byte as `serde_json` writes it: the few shapes a stream writes
//! for every request (its fixed chunks, the prompt, the log line), where serde's map of small
//! writes, one per key, quote and comma, costs more than the rest of the work.
//!
//! Callers write the constant bytes of their shape (the braces, the quoted keys and their
//! colons) and the values through these functions; each caller's tests compare its bytes with
//! serde's. The scan for a string that needs no escape ([`plain_len`]) serves the reader of
//! delta frames (`v2::plain`) too.

use serde_json::value::RawValue;

use crate::word_scan;

/// `"`, `text`, `"`: a string JSON writes as it is (no quote, backslash or control character).
pub(crate) fn plain_string(out: &mut Vec<u8>, text: &str) {
    debug_assert_eq!(plain_len(text.as_bytes()), text.len());
    out.reserve(text.len() + 2);
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
}

/// A string as JSON, escaped as `serde_json` escapes it (most strings need no escape at all).
pub(crate) fn string(out: &mut Vec<u8>, text: &str) {
    if plain_len(text.as_bytes()) == text.len() {
        plain_string(out, text);
    } else {
        // Writing into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, text);
    }
}

/// `key` (the bytes before the value: a separator, the quoted name and its colon), then `value`
/// as a JSON string.
pub(crate) fn field(out: &mut Vec<u8>, key: &[u8], value: &str) {
    out.extend_from_slice(key);
    string(out, value);
}

/// `key`, then `value`'s JSON text as it is (serde writes a raw value verbatim).
pub(crate) fn raw_field(out: &mut Vec<u8>, key: &[u8], value: &RawValue) {
    out.extend_from_slice(key);
    out.extend_from_slice(value.get().as_bytes());
}

/// `key`, then `value` in decimal, as serde writes integers (through the same `itoa`).
pub(crate) fn number_field(out: &mut Vec<u8>, key: &[u8], value: u64) {
    out.extend_from_slice(key);
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// `key`, then `true` or `false`.
pub(crate) fn bool_field(out: &mut Vec<u8>, key: &[u8], value: bool) {
    out.extend_from_slice(key);
    out.extend_from_slice(if value { b"true" } else { b"false" });
}

/// A JSON array of `items`, each written by `write`: `[a,b,…]`, `[]` for none.
pub(crate) fn array<T>(
    out: &mut Vec<u8>,
    items: impl IntoIterator<Item = T>,
    mut write: impl FnMut(&mut Vec<u8>, T),
) {
    out.push(b'[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write(out, item);
    }
    out.push(b']');
}

/// The bytes written by `write` as a `String` (UTF-8, being JSON made of `&str`s), in a buffer
/// of `capacity` bytes to start with: the caller's estimate, so that it seldom grows.
pub(crate) fn to_string(capacity: usize, write: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut out = Vec::with_capacity(capacity);
    write(&mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// The length of the run of bytes at the start of `bytes` that a plain string holds: up to the
/// first quote, backslash or control character (all of `bytes` if none), eight bytes at a time
/// ([`crate::word_scan`]). Most of a delta frame's bytes are string contents.
pub(crate) fn plain_len(bytes: &[u8]) -> usize {
    word_scan::position(bytes, |word| {
        word_scan::below(word, 0x20) | word_scan::equal(word, b'"') | word_scan::equal(word, b'\\')
    })
    .unwrap_or(bytes.len())
}

#[cfg(test)]
pub(crate) use tests::any_text;

#[cfg(test)]
#[path = "json_out_tests.rs"]
mod tests;
