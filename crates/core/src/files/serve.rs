//! The headers a file is served with: its stored media type, never sniffed; inline only for a
//! raster image, every other type an attachment; a sandbox for whatever a browser opens anyway;
//! a private cache no longer than the URL's life.

use crate::files::name::{content_disposition, media_type};
use crate::files::range::RangeAnswer;
use crate::refusal::{Refusal, FILE_NOT_FOUND, RANGE_NOT_SATISFIABLE};

/// The media types a browser shows inline on the worker's origin: raster images, which run no
/// script and fetch nothing. SVG is an image that can script; it is an attachment, as HTML and
/// everything else is (OWASP's File Upload Cheat Sheet: serve user files as attachments, or from
/// another domain).
pub const INLINE_TYPES: [&str; 5] = [
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/avif",
];

/// The `Content-Security-Policy` of every file: nothing may load, and the document (an HTML or
/// SVG file opened anyway) is a sandbox of a unique origin, with no script.
pub const FILE_CSP: &str = "default-src 'none'; sandbox";

/// The media type a stored file is served with: its own, as [`media_type`] keeps it, else
/// `application/octet-stream` (RFC 9110 section 8.3: the type of bytes of no known type).
pub fn served_type(stored: Option<&str>) -> String {
    media_type(stored).unwrap_or_else(|| "application/octet-stream".to_owned())
}

/// How long a client may keep a file's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cache {
    /// Asked with a signed URL that is good for `secs_left` more seconds: kept that long, by the
    /// browser only.
    Signed { secs_left: u64 },
    /// Asked with the caller's credentials: kept by the browser only, checked again each time.
    Credentials,
}

/// The headers of a file's `200` or `206` (`range` is [`RangeAnswer::Whole`] or a part), each
/// name and value a line (what the edge's `fileResponse` takes in one string; no value holds a
/// line feed): its type, `nosniff`, its disposition with its name, the CSP, `Accept-Ranges`,
/// `Cache-Control`, and a part's `Content-Range`. The body's length is the runtime's (the
/// bucket's stream knows it).
pub fn file_headers(
    stored_type: Option<&str>,
    filename: Option<&str>,
    cache: Cache,
    range: RangeAnswer,
    size: u64,
) -> String {
    let media = served_type(stored_type);
    let disposition = if INLINE_TYPES.contains(&media.as_str()) {
        "inline"
    } else {
        "attachment"
    };
    let cache = match cache {
        Cache::Signed { secs_left } => format!("private, max-age={secs_left}"),
        Cache::Credentials => "private, no-cache".to_owned(),
    };
    let mut lines = String::with_capacity(320);
    for (name, value) in [
        ("content-type", media.as_str()),
        ("x-content-type-options", "nosniff"),
        (
            "content-disposition",
            &content_disposition(disposition, filename),
        ),
        ("content-security-policy", FILE_CSP),
        ("accept-ranges", "bytes"),
        ("cache-control", &cache),
        (
            "content-range",
            &range.content_range(size).unwrap_or_default(),
        ),
    ] {
        if !value.is_empty() {
            lines.extend([name, "\n", value, "\n"]);
        }
    }
    lines
}

/// `404 file_not_found`: no file of this session has this id (or the id is none).
pub fn file_not_found() -> Refusal {
    Refusal::new(FILE_NOT_FOUND, "This session has no such file.")
}

/// `416 range_not_satisfiable`, with the `Content-Range` that gives the file's size (RFC 9110
/// section 15.5.17).
pub fn range_not_satisfiable(size: u64) -> Refusal {
    Refusal::new(
        RANGE_NOT_SATISFIABLE,
        "The range asked for starts past the end of the file.",
    )
    .with_header("content-range", format!("bytes */{size}"))
}

#[cfg(test)]
#[path = "serve_tests.rs"]
mod tests;
