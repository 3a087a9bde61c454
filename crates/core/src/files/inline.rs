//! A message's `data:` URL file, taken out of the message and kept in the bucket: what its bytes
//! must be (base64 of 1 to `MAX_FILE_BYTES` bytes, a type on `FILE_TYPES` that its first bytes
//! agree with, a name that is no path), and the id it is kept under, the first 128 bits of its
//! SHA-256: the same photo sent again with every later POST (a stock `useChat` does) is one
//! object of its session, stored once (docs/files.md, "Photos from a stock useChat").

use crate::files::name::check_filename;
use crate::files::settings::FileSettings;
use crate::files::signature::starts_as;
use crate::files::upload::{empty_file, too_large};
use crate::files::{FileId, FILE_ID_BYTES};
use crate::refusal::{
    Refusal, FILE_TYPE_MISMATCH, FILE_TYPE_NOT_ALLOWED, INVALID_ATTACHMENT, INVALID_FILENAME,
};
use crate::v2::Attachment;

/// A file part's bytes, out of its `data:` URL and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineFile {
    pub bytes: Vec<u8>,
    /// Its part's `mediaType`, lower case.
    pub media_type: String,
}

/// The file of `part` (a file part of the last message, its URL checked as a URL already) when
/// its URL is `data:`; `Ok(None)` for any other URL; the refusal when its bytes cannot be kept.
pub fn inline_file(
    part: &Attachment,
    settings: &FileSettings,
) -> Result<Option<InlineFile>, Refusal> {
    let Some(rest) = strip_prefix_ignore_case(&part.url, "data:") else {
        return Ok(None);
    };
    let media_type = part.media_type.to_ascii_lowercase();
    if !settings.types.allows(&media_type) {
        return Err(Refusal::new(
            FILE_TYPE_NOT_ALLOWED,
            "This type of file cannot be sent here (its `mediaType`).",
        ));
    }
    let (header, payload) = rest.split_once(',').unwrap_or((rest, ""));
    let own_type = header.split(';').next().unwrap_or_default();
    if !own_type.eq_ignore_ascii_case(&media_type) {
        return Err(mismatch(
            "its data: URL says another type than its `mediaType`",
        ));
    }
    if let Some(name) = &part.filename {
        check_filename(name).map_err(|_| Refusal::new(INVALID_FILENAME, FILENAME_MESSAGE))?;
    }
    // Counted before it is decoded: a file over the limit is never held twice.
    let decoded_len = payload.len() / 4 * 3;
    if decoded_len as u64 > settings.max_file_bytes.saturating_add(2) {
        return Err(too_large(settings.max_file_bytes));
    }
    let bytes = decode_base64(payload).ok_or_else(|| {
        Refusal::new(
            INVALID_ATTACHMENT,
            "A file's data: URL is not base64: its bytes cannot be read.",
        )
    })?;
    if bytes.is_empty() {
        return Err(empty_file());
    }
    if bytes.len() as u64 > settings.max_file_bytes {
        return Err(too_large(settings.max_file_bytes));
    }
    if !starts_as(&media_type, &bytes, true) {
        return Err(mismatch("its bytes are not what its `mediaType` says"));
    }
    Ok(Some(InlineFile { bytes, media_type }))
}

/// `400 invalid_attachment` for this worker's URL of a file that its session does not hold.
pub fn not_held() -> Refusal {
    Refusal::new(
        INVALID_ATTACHMENT,
        "A file of the last message names a file this session does not hold (never uploaded, or deleted).",
    )
}

/// The message of an `invalid_filename` of a file part.
const FILENAME_MESSAGE: &str = "A file's `filename` must be 1 to 255 bytes of UTF-8 with no control character, '/' or '\\', and not '.' or '..'.";

fn mismatch(why: &str) -> Refusal {
    Refusal::new(
        FILE_TYPE_MISMATCH,
        format!("A file is not the type it says: {why}."),
    )
}

/// The id a file of these bytes is kept under: the first [`FILE_ID_BYTES`] of `digest_hex`, its
/// SHA-256 in lowercase hex (made by the edge's WebCrypto). 128 bits: two different files of one
/// session never meet (a collision needs about 2^64 files).
pub fn content_id(digest_hex: &str) -> Option<FileId> {
    FileId::parse(digest_hex.get(..2 * FILE_ID_BYTES)?)
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

/// The bytes of base64 `text` (RFC 4648 section 4, the standard alphabet; its `=` padding
/// optional, as browsers' `atob` reads it); `None` when it is not base64.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    crate::base64::decode(text, crate::base64::Flavor::StandardLenient)
}

#[cfg(test)]
#[path = "inline_tests.rs"]
mod tests;
