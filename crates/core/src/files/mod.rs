//! A session's files, kept in the `FILES` bucket (R2): the id and the key each is kept under, and
//! the path it is served at. What an upload may be ([`upload`], [`name`], [`settings`]; whether
//! its bytes are its type, [`signature`]), a signed
//! URL ([`signed`]) and how a file is answered ([`serve`], [`range`]) are the modules below; the
//! adapter (`crates/adapter/src/handlers/files.rs`) only moves the bytes (docs/files.md).

pub mod inline;
pub mod name;
pub mod pending;
pub mod range;
pub mod serve;
pub mod settings;
pub mod signature;
pub mod signed;
pub mod upload;

/// Bytes of randomness in a file's id: 16 (128 bits), more than a version-4 UUID's 122, which
/// RFC 9562 (section 6.9) deems unguessable: no two uploads meet, and nobody guesses a file's
/// id (the signed URL is what grants access, the id only names the file).
pub const FILE_ID_BYTES: usize = 16;

/// A file's id: [`FILE_ID_BYTES`] random bytes as 32 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileId(String);

impl FileId {
    /// The id of `bytes` (from the platform's random source).
    pub fn from_random(bytes: [u8; FILE_ID_BYTES]) -> Self {
        FileId(hex(&bytes))
    }

    /// The id a path names: exactly 32 lowercase hex digits, else none (a 404 before the bucket
    /// is asked).
    pub fn parse(text: &str) -> Option<Self> {
        let valid = text.len() == 2 * FILE_ID_BYTES
            && text
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        valid.then(|| FileId(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The object's key in the bucket: `sessions/<session id>/files/<file id>`. A session id holds
/// no `/` (`crate::routes::valid_session_id`), so the key of one session's file is never under
/// another's, and deleting a session's files is one prefix.
pub fn object_key(session: &str, file: &FileId) -> String {
    format!("sessions/{session}/files/{}", file.as_str())
}

/// The prefix of every object of `session`'s: `sessions/<session id>/` (deleting a session's
/// files is deleting under it).
pub fn session_prefix(session: &str) -> String {
    format!("sessions/{session}/")
}

/// The path a file is served at: `/api/sessions/<session id>/files/<file id>`.
pub fn file_path(session: &str, file: &FileId) -> String {
    format!("/api/sessions/{session}/files/{}", file.as_str())
}

/// A decimal number of 1 to 19 digits (19 never overflow a `u64`), else none: an upload's
/// `Content-Length`, a `Range`'s positions, a signed URL's `exp`.
pub(crate) fn digits(text: &str) -> Option<u64> {
    if text.is_empty() || text.len() > 19 {
        return None;
    }
    text.bytes().try_fold(0u64, |n, b| {
        b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
    })
}

/// The raw value of the first query parameter `name` of a URL (before any `#`).
pub(crate) fn query_param<'a>(url: &'a str, name: &str) -> Option<&'a str> {
    let (_, query) = url.split('#').next()?.split_once('?')?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// `bytes` as lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    out
}

#[cfg(test)]
#[path = "files_tests.rs"]
mod tests;
