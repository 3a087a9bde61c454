//! Whether a file's bytes are what its media type says: the first bytes of each type this worker
//! knows (the WHATWG MIME Sniffing standard's patterns for images, and PDF's `%PDF-`), and UTF-8
//! for text. Checked whole for a message's `data:` URL file ([`super::inline`]), and on its first
//! [`HEAD_BYTES`] for an upload, which streams into the bucket and is read back from there
//! ([`super::upload::check_head`]). A type of no known signature that the operator allowed
//! (`FILE_TYPES`) is taken as it says.

/// How much of an upload is read back to check it: 1 KiB. The longest signature is WebP's, 12
/// bytes; the rest is the text types' UTF-8 check, which a head this long makes on the lines
/// that matter (a binary file sent as text fails within its first bytes).
pub const HEAD_BYTES: usize = 1024;

/// Whether `bytes`, a file's first bytes (all of them when `whole`), start as a file of
/// `media_type` does. A head cut inside a UTF-8 character is still text.
pub fn starts_as(media_type: &str, bytes: &[u8], whole: bool) -> bool {
    match media_type {
        "image/png" => bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "image/jpeg" => bytes.starts_with(b"\xff\xd8\xff"),
        "image/gif" => bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a"),
        "image/webp" => bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP",
        "application/pdf" => bytes.starts_with(b"%PDF-"),
        text if text.starts_with("text/") => match std::str::from_utf8(bytes) {
            Ok(_) => true,
            // `error_len() == None`: the bytes end inside a character, which a head may.
            Err(err) => !whole && err.error_len().is_none(),
        },
        _ => true,
    }
}

#[cfg(test)]
#[path = "signature_tests.rs"]
mod tests;
