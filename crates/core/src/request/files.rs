//! The file parts of the last message: what the agent may be given to fetch or read. A `url` is
//! `https:` with a public host ([`host`](super::host)), port optional, no user name or password;
//! or `data:` with a media type and `;base64`. Anything else could point an agent that fetches
//! its files at what only the agent can reach (SSRF, OWASP API7), or at nothing it can read. The
//! URL is checked as written, and what a WHATWG parser would read differently from it (spaces,
//! control characters, `\`, an `https:` without `//`) is refused, not repaired: the agent gets
//! the `url` exactly as the client sent it. A `data:` URL carries its bytes in the body, so it is
//! bounded by the body limit (`MAX_BODY_BYTES`, [`Limits::max_body_bytes`](super::Limits)), not
//! by the prompt's. The `mediaType` and `filename` are text the agent shows or stores: bounded.

use std::fmt;

use super::host::{check_host, HostFault};
pub use crate::bounds::{MAX_FILENAME_BYTES, MAX_MEDIA_TYPE_BYTES};

/// Why a file part is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFault {
    Url(UrlFault),
    MediaTypeTooLong { bytes: usize },
    FilenameTooLong { bytes: usize },
}

/// Why a file part's `url` is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UrlFault {
    /// Neither `https:` nor `data:`.
    Scheme,
    /// A space, a control character or a backslash: what a WHATWG parser strips or reads as `/`.
    Spacing,
    /// `https:` without `//` and a host.
    NoAuthority,
    /// A user name or password (`user@host`).
    UserInfo,
    /// A port that is not a number from 1 to 65535.
    Port,
    Host(HostFault),
    /// A `data:` URL without a media type and `;base64` before its comma.
    DataHeader,
    /// A `data:` URL whose data is not base64: the first byte that is not, and where it is in
    /// the data (a client's bug, or a body damaged on its way, is then told apart).
    DataPayload {
        at: usize,
        byte: u8,
        of: usize,
    },
    /// This worker's URL of a file of another session.
    OtherSession,
    /// This worker's URL under the session's files that names no file.
    NoFile,
}

impl FileFault {
    /// What is wrong, as a clause that names the field ("its `url` …").
    pub fn says(&self) -> String {
        self.to_string()
    }
}

/// Written straight into the refusal's sentence (no text made on the way: less of the wasm).
impl fmt::Display for FileFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileFault::Url(fault) => {
                f.write_str("its `url` ")?;
                fault.fmt(f)
            }
            FileFault::MediaTypeTooLong { bytes } => write!(
                f,
                "its `mediaType` is {bytes} bytes, over the limit of {MAX_MEDIA_TYPE_BYTES} (RFC 6838: a type and a subtype of at most 127 characters each)"
            ),
            FileFault::FilenameTooLong { bytes } => write!(
                f,
                "its `filename` is {bytes} bytes of UTF-8, over the limit of {MAX_FILENAME_BYTES}"
            ),
        }
    }
}

/// What is wrong, as the end of "its `url` …".
impl fmt::Display for UrlFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            UrlFault::Host(fault) => {
                f.write_str("has a host that ")?;
                fault.says()
            }
            UrlFault::Scheme => "is neither https: nor data:, the only URLs accepted",
            UrlFault::Spacing => "has a space, a control character or a backslash",
            UrlFault::NoAuthority => "is an https: URL without `//` and a host",
            UrlFault::UserInfo => "has a user name or password (`@`)",
            UrlFault::Port => "has a port that is not a number from 1 to 65535",
            UrlFault::DataHeader => {
                "is a data: URL without a media type and `;base64` before its comma"
            }
            UrlFault::DataPayload { at, byte, of } => {
                return write!(
                    f,
                    "is a data: URL whose data is not base64 (byte 0x{byte:02x} at {at} of its {of})"
                );
            }
            UrlFault::OtherSession => "names a file of another session",
            UrlFault::NoFile => "is this worker's URL of no file",
        };
        f.write_str(text)
    }
}

/// Where this worker serves files: its origin (`scheme://host[:port]`, as the request's URL has
/// it) and the session the request is for. A file part whose URL is this origin's is taken when
/// it names a file of this session (`/api/sessions/<session>/files/<file id>`, signed or not),
/// whatever its host: `127.0.0.1` in a local run.
#[derive(Debug, Clone, Copy)]
pub struct FilesAt<'a> {
    pub origin: &'a str,
    pub session: &'a str,
}

impl FilesAt<'_> {
    /// `None` for a URL of another origin, or of this one outside `/api/sessions/`; else the
    /// file of this session it names, or why it names none.
    pub fn names(&self, url: &str) -> Option<Result<crate::files::FileId, UrlFault>> {
        let path = url
            .strip_prefix(self.origin)?
            .strip_prefix("/api/sessions/")?;
        let end = path
            .bytes()
            .position(|b| b == b'?' || b == b'#')
            .unwrap_or(path.len());
        let Some(file) = path[..end]
            .strip_prefix(self.session)
            .and_then(|rest| rest.strip_prefix("/files/"))
        else {
            return Some(Err(UrlFault::OtherSession));
        };
        Some(crate::files::FileId::parse(file).ok_or(UrlFault::NoFile))
    }
}

/// Checks a file part's fields; `at`, where this worker serves files, when its URLs are taken.
pub fn check_file_at(
    media_type: &str,
    url: &str,
    filename: Option<&str>,
    at: Option<&FilesAt<'_>>,
) -> Result<(), FileFault> {
    match at.and_then(|at| at.names(url)) {
        Some(named) => drop(named.map_err(FileFault::Url)?),
        None => check_url(url).map_err(FileFault::Url)?,
    }
    check_fields(media_type, filename)
}

/// Checks a file part's fields.
pub fn check_file(media_type: &str, url: &str, filename: Option<&str>) -> Result<(), FileFault> {
    check_url(url).map_err(FileFault::Url)?;
    check_fields(media_type, filename)
}

/// A file part's `mediaType` and `filename`: bounded.
fn check_fields(media_type: &str, filename: Option<&str>) -> Result<(), FileFault> {
    if media_type.len() > MAX_MEDIA_TYPE_BYTES {
        return Err(FileFault::MediaTypeTooLong {
            bytes: media_type.len(),
        });
    }
    match filename {
        Some(name) if name.len() > MAX_FILENAME_BYTES => {
            Err(FileFault::FilenameTooLong { bytes: name.len() })
        }
        _ => Ok(()),
    }
}

/// Checks a file part's `url` (the scheme compared case-insensitively, RFC 3986 section 3.1).
pub fn check_url(url: &str) -> Result<(), UrlFault> {
    if url.bytes().any(|b| b <= b' ' || b == 0x7f || b == b'\\') {
        return Err(UrlFault::Spacing);
    }
    let Some((scheme, rest)) = url.split_once(':') else {
        return Err(UrlFault::Scheme);
    };
    if scheme.eq_ignore_ascii_case("https") {
        check_https(rest)
    } else if scheme.eq_ignore_ascii_case("data") {
        check_data(rest)
    } else {
        Err(UrlFault::Scheme)
    }
}

/// An `https:` URL after its scheme: `//`, then `host[:port]`, then a path, query or fragment.
fn check_https(rest: &str) -> Result<(), UrlFault> {
    let after = rest.strip_prefix("//").ok_or(UrlFault::NoAuthority)?;
    // Byte scans, not `str`'s pattern searches: the same, in less of the wasm.
    let end = after
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(after.len());
    let authority = &after[..end];
    if authority.bytes().any(|b| b == b'@') {
        return Err(UrlFault::UserInfo);
    }
    // An IPv6 literal has colons of its own: the port comes after its `]`.
    let close = authority.bytes().rposition(|b| b == b']').unwrap_or(0);
    let split_at = authority.bytes().skip(close).position(|b| b == b':');
    let split_at = split_at.map(|i| close + i);
    let (host, port) = match split_at {
        Some(colon) => (&authority[..colon], Some(&authority[colon + 1..])),
        None => (authority, None),
    };
    if port.is_some_and(|port| !is_port(port)) {
        return Err(UrlFault::Port);
    }
    check_host(host).map_err(UrlFault::Host)
}

/// Whether `port` is a decimal number from 1 to 65535.
fn is_port(port: &str) -> bool {
    // Counted only once known to be at most five digits.
    if !(1..=5).contains(&port.len()) || !port.bytes().all(|b| b.is_ascii_digit()) {
        return false;
    }
    let value = port.bytes().fold(0u32, |n, b| n * 10 + u32::from(b - b'0'));
    (1..=65_535).contains(&value)
}

/// A `data:` URL after its scheme: `type/subtype[;parameters];base64,` and base64 (RFC 2397).
fn check_data(rest: &str) -> Result<(), UrlFault> {
    let (header, payload) = rest.split_once(',').ok_or(UrlFault::DataHeader)?;
    let base64_at = header.len().checked_sub(";base64".len());
    let (params, marker) = match base64_at {
        Some(at) if header.is_char_boundary(at) => header.split_at(at),
        _ => return Err(UrlFault::DataHeader),
    };
    let media_type = params.split(';').next().unwrap_or_default();
    if !marker.eq_ignore_ascii_case(";base64") || !is_media_type(media_type) {
        return Err(UrlFault::DataHeader);
    }
    let not_base64 = payload
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')));
    match not_base64 {
        None => Ok(()),
        Some(at) => Err(UrlFault::DataPayload {
            at,
            byte: payload.as_bytes()[at],
            of: payload.len(),
        }),
    }
}

/// Whether `text` is `type/subtype`, each a name of RFC 6838's characters (section 4.2).
fn is_media_type(text: &str) -> bool {
    let name = |part: &str| {
        !part.is_empty()
            && part.bytes().all(|b| {
                b.is_ascii_alphanumeric()
                    || matches!(
                        b,
                        b'!' | b'#' | b'$' | b'&' | b'-' | b'^' | b'_' | b'.' | b'+'
                    )
            })
    };
    text.split_once('/')
        .is_some_and(|(kind, subtype)| name(kind) && name(subtype))
}

#[cfg(test)]
#[path = "files_tests.rs"]
mod tests;
