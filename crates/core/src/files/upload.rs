//! What an upload (`POST /api/sessions/:id/files`) may be, decided before and while its body
//! comes in, and once it is stored (its first bytes, [`check_head`]), and the answer that names
//! the stored file: an AI SDK `FileUIPart`.

use crate::files::digits;
use crate::files::name::{filename_from_url, media_type, TypeList};
use crate::files::signature::starts_as;
pub use crate::files::signature::HEAD_BYTES;
use crate::json_out;
use crate::refusal::{
    Refusal, BODY_UNREADABLE, EMPTY_FILE, FILE_TOO_LARGE, FILE_TYPE_MISMATCH,
    FILE_TYPE_NOT_ALLOWED, INVALID_FILENAME,
};

/// The size of each part of an upload sent without a `Content-Length` (chunked), which goes to
/// the bucket as a multipart upload: 5 MiB, R2's smallest part (every part but the last is
/// this size; R2 wants them all of one size). The edge holds at most one part's bytes.
pub const PART_BYTES: u64 = 5 * 1024 * 1024;

/// An upload's name and type, and the size it declares, checked before its body is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upload {
    pub media_type: String,
    pub filename: Option<String>,
    /// Its `Content-Length`; `None` for a chunked body, counted as it comes in.
    pub declared_bytes: Option<u64>,
}

impl Upload {
    /// The upload of a request (its URL, `Content-Type` and `Content-Length`), or its refusal:
    /// `413 file_too_large` when it declares more than `max_bytes` (at once, before a byte is
    /// read), `400 empty_file` when it declares none, `415 file_type_not_allowed` for a type not on `types`, `400 invalid_filename`,
    /// `400 body_unreadable` for a `Content-Length` that is no number.
    pub fn check(
        url: &str,
        content_type: Option<&str>,
        content_length: Option<&str>,
        types: &TypeList,
        max_bytes: u64,
    ) -> Result<Upload, Refusal> {
        let declared_bytes = match content_length {
            None => None,
            Some(text) => Some(digits(text).ok_or_else(|| {
                Refusal::new(BODY_UNREADABLE, "The Content-Length is not a number.")
            })?),
        };
        if declared_bytes.is_some_and(|n| n > max_bytes) {
            return Err(too_large(max_bytes));
        }
        if declared_bytes == Some(0) {
            return Err(empty_file());
        }
        let media_type = media_type(content_type)
            .filter(|media| types.allows(media))
            .ok_or_else(|| {
                Refusal::new(
                    FILE_TYPE_NOT_ALLOWED,
                    "This type of file cannot be uploaded here (its Content-Type).",
                )
            })?;
        let filename =
            filename_from_url(url).map_err(|_| Refusal::new(INVALID_FILENAME, FILENAME_MESSAGE))?;
        Ok(Upload {
            media_type,
            filename,
            declared_bytes,
        })
    }
}

/// The message of `400 invalid_filename` (the tests hold its number to [`MAX_FILENAME_BYTES`]).
const FILENAME_MESSAGE: &str = "`filename` must be 1 to 255 bytes of UTF-8, percent-encoded, with no control character, '/' or '\\'.";

/// `413 file_too_large`: declared over `max_bytes`, or counted past it while it came in (the
/// bytes stored so far are deleted).
pub fn too_large(max_bytes: u64) -> Refusal {
    Refusal::new(
        FILE_TOO_LARGE,
        format!("The file is larger than {max_bytes} bytes, the most one upload may be."),
    )
}

/// `400 empty_file`: a file of no bytes (declared, or counted once it came in: then deleted).
pub fn empty_file() -> Refusal {
    Refusal::new(EMPTY_FILE, "A file has no bytes: there is nothing to keep.")
}

/// Whether an upload's first bytes (`head`, at most [`HEAD_BYTES`] of its `size`) are what its
/// media type says; `400 file_type_mismatch` when they are not (the stored file is then deleted:
/// an HTML page sent as `image/png` is never served as one).
pub fn check_head(upload: &Upload, head: &[u8], size: u64) -> Result<(), Refusal> {
    let whole = head.len() as u64 >= size;
    if starts_as(&upload.media_type, head, whole) {
        return Ok(());
    }
    Err(Refusal::new(
        FILE_TYPE_MISMATCH,
        "The file is not the type it says: its first bytes are not a file of its Content-Type.",
    ))
}

/// The JSON of the answer to `upload`, stored at `url` (its signed URL) with `size` bytes: the
/// AI SDK `FileUIPart` a client puts in its message's `parts` as it is (`type`, `url`,
/// `mediaType`, `filename`), and the stored `size`. Written by hand (`crate::json_out`), as
/// serde writes it (the tests hold it to serde's bytes).
pub fn file_part_json(upload: &Upload, url: &str, size: u64) -> String {
    json_out::to_string(128 + url.len(), |out| {
        json_out::field(out, br#"{"type":"file","url":"#, url);
        json_out::field(out, br#","mediaType":"#, &upload.media_type);
        if let Some(name) = &upload.filename {
            json_out::field(out, br#","filename":"#, name);
        }
        json_out::number_field(out, br#","size":"#, size);
        out.push(b'}');
    })
}

#[cfg(test)]
#[path = "upload_tests.rs"]
mod tests;
