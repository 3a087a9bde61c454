//! A chat POST's body read as a stream: chunk by chunk, holding no more than one message at a
//! time. The AI SDK sends the whole chat with every POST, each earlier message with its files
//! again (a stock `useChat` sends a photo as a `data:` URL in every later request), and only the
//! last message is the request's; so each message of `messages` is held only until the next one
//! starts, then kept as its `id` alone (`{"id":…}`: all that [`super::parse_chat_request`] reads
//! of it, [`super::messages`]). What comes out ([`BodyStream::finish`]) is the body with the
//! earlier messages so reduced, which the one-pass parser reads as it reads a whole body.
//!
//! Bounds: the body's bytes are counted against `MAX_BODY_BYTES` (`body_too_large`), what is held
//! at once (the message being read, and the body's other fields and earlier ids) against
//! `MAX_MESSAGE_BYTES` (`message_too_large`): the worker's memory is bounded by the latter
//! whatever the body's length. Every earlier message is still parsed as JSON when it is let go,
//! so a malformed one is the same `invalid_json` it always was.

use serde::Deserialize;
use serde_json::value::RawValue;

/// Why a body's stream is refused (`crate::request::RequestError` says it to the client).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamError {
    /// More than `max_body` bytes came.
    TooLarge { limit: usize },
    /// It would hold more than `max_held` bytes at once.
    MessageTooLarge { limit: usize },
    /// An earlier message is not JSON (why, as serde_json says it).
    NotJson(String),
}

/// The key of the messages array, as the scanner compares it (unescaped: a key written with
/// escapes is copied whole, and only bounded).
const MESSAGES_KEY: &[u8] = b"messages";

/// Room kept after the last message for the body's end (its `]`, and the fields after
/// `messages`: `trigger`, `messageId`, a `context` of at most 16 KiB): 32 KiB.
const TAIL_BYTES: usize = 32 * 1024;

/// How many bytes of a key at the body's top level are compared: enough for `messages`.
const KEY_CAPTURE: usize = 16;

/// Where the scanner is in the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Before the body's first byte that is not white space.
    Start,
    /// In the top-level object, outside `messages`: copied as it comes.
    Top,
    /// In the `messages` array, between its elements.
    Between,
    /// In an element of `messages`: held.
    Element,
    /// After an element of `messages`, held whole: the last one if `]` comes next.
    After,
    /// The body is not an object: copied whole (the parser says what is wrong).
    Whole,
}

/// A chat body read chunk by chunk ([`BodyStream::push`]), earlier messages reduced to their ids.
#[derive(Debug)]
pub struct BodyStream {
    place: Place,
    /// What is kept of the body: its top level and each earlier message's reduction.
    out: Vec<u8>,
    /// The message being read.
    element: Vec<u8>,
    /// Arrays and objects open, the body's own object at depth 1, `messages` at 2.
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// At the top level: whether the next string is a key, and its first bytes.
    expect_key: bool,
    key: Vec<u8>,
    capturing_key: bool,
    /// The key before the `:` just read was `messages`, and its value has not started.
    messages_next: bool,
    /// The element held is a scalar (a string, a number, a literal) whose end is its first
    /// `,` `]` or white space outside a string.
    scalar: bool,
    total: usize,
    max_body: usize,
    max_held: usize,
}

/// The part of an earlier message that is kept: its `id`, as written.
#[derive(Deserialize)]
struct Earlier<'a> {
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
}

impl BodyStream {
    /// A stream that refuses a body over `max_body` bytes, or one that would make it hold more
    /// than `max_held` at once.
    pub fn new(max_body: usize, max_held: usize) -> Self {
        BodyStream {
            place: Place::Start,
            out: Vec::new(),
            element: Vec::new(),
            depth: 0,
            in_string: false,
            escaped: false,
            expect_key: false,
            key: Vec::new(),
            capturing_key: false,
            messages_next: false,
            scalar: false,
            total: 0,
            max_body,
            max_held,
        }
    }

    /// Reads the next chunk of the body.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), StreamError> {
        self.total = self.total.saturating_add(chunk.len());
        if self.total > self.max_body {
            return Err(StreamError::TooLarge {
                limit: self.max_body,
            });
        }
        let mut at = 0;
        while at < chunk.len() {
            at = match self.place {
                Place::Element => self.element_bytes(chunk, at),
                Place::Whole => {
                    self.out.extend_from_slice(&chunk[at..]);
                    chunk.len()
                }
                _ => {
                    self.structural(chunk[at])?;
                    at + 1
                }
            };
            if self.out.len().saturating_add(self.element.len()) > self.max_held {
                return Err(StreamError::MessageTooLarge {
                    limit: self.max_held,
                });
            }
        }
        Ok(())
    }

    /// The body with its earlier messages reduced to their ids, for
    /// [`super::parse_chat_request`]. A body cut inside `messages` keeps what it held, so that
    /// the parser says it is not JSON.
    pub fn finish(mut self) -> Vec<u8> {
        self.out.append(&mut self.element);
        self.out
    }

    /// How many bytes were read.
    pub fn total(&self) -> usize {
        self.total
    }

    /// One byte outside an element of `messages`.
    fn structural(&mut self, byte: u8) -> Result<(), StreamError> {
        let space = matches!(byte, b' ' | b'\t' | b'\n' | b'\r');
        match self.place {
            Place::Start if space => {}
            Place::Start if byte == b'{' => {
                self.out.push(byte);
                self.depth = 1;
                self.expect_key = true;
                self.place = Place::Top;
            }
            Place::Start => {
                self.out.push(byte);
                self.place = Place::Whole;
            }
            Place::Between | Place::After if space => {}
            Place::Between if byte == b']' => self.close_messages(),
            Place::Between => {
                self.place = Place::Element;
                self.scalar = !matches!(byte, b'{' | b'[');
                self.in_string = byte == b'"';
                self.element.push(byte);
                if !self.scalar {
                    self.depth = 3;
                }
            }
            // Another message follows: the one held was an earlier one.
            Place::After if byte == b',' => {
                let reduced = reduce(&self.element)?;
                self.element.clear();
                self.out.extend_from_slice(&reduced);
                self.out.push(byte);
                self.place = Place::Between;
            }
            // The array ends: the one held is the last message, kept whole.
            Place::After if byte == b']' => self.keep_last(),
            // Not JSON: kept as it came, for the parser to say so.
            Place::After => {
                self.out.append(&mut self.element);
                self.out.push(byte);
                self.place = Place::Whole;
            }
            _ => self.top(byte),
        }
        Ok(())
    }

    /// The last message, whole: what was kept before it goes in front of it, in the message's own
    /// buffer, sized once with room for the body's end, so that a message of megabytes (a photo
    /// as a data: URL) is never held twice, nor its buffer doubled by the bytes after it.
    fn keep_last(&mut self) {
        let mut last = std::mem::take(&mut self.element);
        let before = std::mem::take(&mut self.out);
        last.reserve_exact(before.len() + TAIL_BYTES);
        last.splice(0..0, before);
        self.out = last;
        self.close_messages();
    }

    /// The `]` of `messages`.
    fn close_messages(&mut self) {
        self.out.push(b']');
        self.depth = 1;
        self.place = Place::Top;
    }

    /// One byte of the top level (and of any value in it but `messages`'s array).
    fn top(&mut self, byte: u8) {
        self.out.push(byte);
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if byte == b'\\' {
                self.escaped = true;
                if self.capturing_key {
                    // A key with an escape is never taken for `messages`.
                    self.capturing_key = false;
                    self.key.clear();
                    self.key.push(byte);
                }
            } else if byte == b'"' {
                self.in_string = false;
                self.capturing_key = false;
            } else if self.capturing_key && self.key.len() < KEY_CAPTURE {
                self.key.push(byte);
            }
            return;
        }
        if matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
            return;
        }
        let messages_next = std::mem::take(&mut self.messages_next);
        match byte {
            b'"' => {
                self.in_string = true;
                if self.depth == 1 && self.expect_key {
                    self.key.clear();
                    self.capturing_key = true;
                    self.expect_key = false;
                }
            }
            b':' if self.depth == 1 => {
                self.messages_next = self.key == MESSAGES_KEY;
                self.key.clear();
            }
            b',' if self.depth == 1 => self.expect_key = true,
            b'[' if self.depth == 1 && messages_next => {
                self.depth = 2;
                self.place = Place::Between;
            }
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
    }

    /// Bytes of the element held, from `at`: up to its end (then what follows is between
    /// elements again), or the chunk's end. Answers where the next byte to read is.
    fn element_bytes(&mut self, chunk: &[u8], at: usize) -> usize {
        let mut i = at;
        while i < chunk.len() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                    i += 1;
                    continue;
                }
                // The long runs (a data: URL) are passed over in one search.
                i += chunk[i..]
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\')
                    .unwrap_or(chunk.len() - i);
                if i == chunk.len() {
                    break;
                }
                if chunk[i] == b'\\' {
                    self.escaped = true;
                } else {
                    self.in_string = false;
                    if self.scalar {
                        // A string element ends with its quote.
                        return self.held(chunk, at, i + 1);
                    }
                }
                i += 1;
                continue;
            }
            let byte = chunk[i];
            if self.scalar {
                if matches!(byte, b',' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    return self.held(chunk, at, i);
                }
            } else {
                match byte {
                    b'"' => self.in_string = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => {
                        self.depth -= 1;
                        if self.depth == 2 {
                            return self.held(chunk, at, i + 1);
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
        }
        self.element.extend_from_slice(&chunk[at..i]);
        i
    }

    /// The element ends at `end` (`chunk[at..end]` its last bytes): it is held whole until the
    /// next byte that is not white space says whether it was the last ([`BodyStream::structural`]).
    fn held(&mut self, chunk: &[u8], at: usize, end: usize) -> usize {
        self.element.extend_from_slice(&chunk[at..end]);
        self.place = Place::After;
        self.scalar = false;
        self.depth = 2;
        end
    }
}

/// What an earlier message is reduced to: `{"id":…}` with its `id` as written, `{}` for an object
/// without one, `0` for what is no object (the parser reads an id from neither). Parsing it says
/// whether it is JSON at all.
fn reduce(element: &[u8]) -> Result<Vec<u8>, StreamError> {
    let raw: &RawValue =
        serde_json::from_slice(element).map_err(|e| StreamError::NotJson(e.to_string()))?;
    if !raw.get().starts_with('{') {
        return Ok(b"0".to_vec());
    }
    let earlier: Earlier<'_> =
        serde_json::from_str(raw.get()).map_err(|e| StreamError::NotJson(e.to_string()))?;
    Ok(match earlier.id {
        Some(id) => {
            let mut out = Vec::with_capacity(id.get().len() + 7);
            out.extend_from_slice(b"{\"id\":");
            out.extend_from_slice(id.get().as_bytes());
            out.push(b'}');
            out
        }
        None => b"{}".to_vec(),
    })
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
