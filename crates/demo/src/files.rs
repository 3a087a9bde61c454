//! `/files`: the demo agent says what it received of each file of the prompt (its name, media
//! type, size and the first bytes of its SHA-256, and the size the prompt gave), so that a test
//! proves the bytes arrived whole
//! (docs/files.md). The bytes come from the `FILES` bucket by the key the file's URL names
//! (`crates/core/src/files`: the agent reads through a binding, never through a frame), or from a
//! `data:` URL when the worker keeps no bucket. Here the words and where the bytes are; the
//! Durable Object reads them (`agent::session`).

use session_agent_core::files::inline::decode_base64;
use session_agent_core::files::object_key;
use session_agent_core::files::signed::file_of_url;
use session_agent_core::v2::Attachment;
use sha2::{Digest, Sha256};

/// The command that asks for it.
pub const FILES_COMMAND: &str = "/files";

/// Hex digits of the SHA-256 the reply shows: 16 (64 bits), enough that a test tells any two
/// files apart, short enough to read.
pub const SHOWN_DIGEST_HEX: usize = 16;

/// Where a file's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// In the bucket, under this key.
    Bucket(String),
    /// In the URL itself.
    Inline(Vec<u8>),
    /// Nowhere the agent reads (another server's URL).
    Elsewhere,
}

/// Where the bytes of `file`, a prompt's attachment in `session`, are.
pub fn source_of(file: &Attachment, session: &str) -> Source {
    if let Some(id) = file_of_url(&file.url, session) {
        return Source::Bucket(object_key(session, &id));
    }
    let payload = file
        .url
        .get(..5)
        .filter(|scheme| scheme.eq_ignore_ascii_case("data:"))
        .and_then(|_| file.url.split_once(','))
        .and_then(|(_, payload)| decode_base64(payload));
    payload.map_or(Source::Elsewhere, Source::Inline)
}

/// One line of the reply for `file`, whose bytes are `bytes` (`None`: not read), then the size
/// the prompt gave (protocol 6's `size`: the adapter gives it for a file in its bucket).
pub fn line(file: &Attachment, bytes: Option<&[u8]>) -> String {
    let name = file.filename.as_deref().unwrap_or("(no name)");
    let said = match file.size {
        Some(size) => format!("the prompt said {size} bytes"),
        None => "the prompt gave no size".to_owned(),
    };
    match bytes {
        Some(bytes) => {
            let digest = Sha256::digest(bytes);
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            format!(
                "{name} {} {} bytes sha256 {}, {said}",
                file.media_type,
                bytes.len(),
                &hex[..SHOWN_DIGEST_HEX]
            )
        }
        None => format!("{name} {} not read, {said}", file.media_type),
    }
}

#[cfg(test)]
#[path = "files_tests.rs"]
mod tests;
