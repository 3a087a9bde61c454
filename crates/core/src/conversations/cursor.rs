//! A list's `next`: an opaque cursor that names where the next page starts, in the order the list
//! had when its first page was read ([`Cursor::as_of`]). Its bytes are a version, that time, the
//! place of the last session the page gave ([`Cursor::at`], [`Cursor::id`]) and a check, as
//! base64url (RFC 4648 section 5, no padding: nothing in it needs escaping in a URL).
//!
//! The check refuses a cursor changed by hand or cut short (`400 invalid_query`), so that clients
//! treat it as opaque. It is no secret and grants nothing: a cursor places a walk in the caller's
//! own list, which the caller's credentials choose, never the cursor (`super::owner`).

use crate::auth::base64url;
use crate::routes::valid_session_id;

/// The layout's version, its first byte: a cursor of another layout is refused.
const VERSION: u8 = 1;

/// Bytes of the layout besides the id: the version, two times of 8 bytes, the check of 8.
const FIXED_BYTES: usize = 1 + 8 + 8 + 8;

/// Where a walk through a list is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// When the walk's first page was read (the index's clock, ms since the Unix epoch): its
    /// pages keep the order the list had then.
    pub as_of: u64,
    /// The last session given: its activity time as of [`Cursor::as_of`] ...
    pub at: u64,
    /// ... and its id, which orders sessions of the same time.
    pub id: String,
}

impl Cursor {
    /// The cursor as the text a page's `next` carries.
    pub fn encode(&self) -> String {
        let mut bytes = Vec::with_capacity(FIXED_BYTES + self.id.len());
        bytes.push(VERSION);
        bytes.extend_from_slice(&self.as_of.to_be_bytes());
        bytes.extend_from_slice(&self.at.to_be_bytes());
        bytes.extend_from_slice(self.id.as_bytes());
        bytes.extend_from_slice(&check(&bytes).to_be_bytes());
        base64url_encode(&bytes)
    }

    /// The cursor `text` is, or `None`: not base64url, another version, a check that does not
    /// match, or an id that is no session's.
    pub fn decode(text: &str) -> Option<Cursor> {
        let bytes = base64url::decode(text)?;
        if bytes.len() <= FIXED_BYTES || bytes[0] != VERSION {
            return None;
        }
        let (payload, tail) = bytes.split_at(bytes.len() - 8);
        if check(payload).to_be_bytes() != tail {
            return None;
        }
        let time = |at: usize| u64::from_be_bytes(payload[at..at + 8].try_into().unwrap_or([0; 8]));
        let id = std::str::from_utf8(&payload[17..]).ok()?;
        valid_session_id(id).then(|| Cursor {
            as_of: time(1),
            at: time(9),
            id: id.to_owned(),
        })
    }
}

/// FNV-1a, 64 bits (the Fowler–Noll–Vo hash: draft-eastlake-fnv's offset basis and prime): a
/// change of any byte changes it, in ten lines and no table.
fn check(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// base64url without padding (RFC 4648 section 5), as [`base64url::decode`] reads it.
fn base64url_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk
            .iter()
            .enumerate()
            .fold(0u32, |word, (i, &b)| word | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(word >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

#[cfg(test)]
#[path = "cursor_tests.rs"]
mod tests;
