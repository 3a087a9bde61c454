//! A file's signed URL: `…/files/<id>?exp=<unix seconds>&sig=<hex>`, where `sig` is the
//! HMAC-SHA-256 of [`signed_message`] under the `FILES_SECRET`, made and verified by the edge with
//! WebCrypto (native and constant-time, as a JWT's signature: no hash code in the wasm). It names the session, the file and the expiry, so a URL opens only its own
//! file, only until its expiry: an `<img src>` works with no header, and a URL that leaks (a log,
//! a forwarded message) stops working within `FILE_URL_TTL_S`. docs/files.md says why.

use crate::files::{digits, file_path, query_param, FileId};
use crate::refusal::{Refusal, INVALID_SIGNATURE, URL_EXPIRED};

/// What the signature's message starts with: the scheme and its version, so that a MAC of this
/// secret made for anything else (another scheme, another version) is never a file's signature.
pub const SIGNATURE_LABEL: &str = "session-agent-chat file-url v1";

/// Bytes of an HMAC-SHA-256 (RFC 2104 with SHA-256: its output, 256 bits); a URL's `sig` is
/// their lowercase hex, as the edge's WebCrypto side writes it.
pub const SIGNATURE_BYTES: usize = 32;

/// The text whose HMAC is the signature: the label, the session, the file and the expiry, a line
/// each (none of them can hold a line feed).
pub fn signed_message(session: &str, file: &FileId, expires_at: u64) -> String {
    format!(
        "{SIGNATURE_LABEL}\n{session}\n{}\n{expires_at}",
        file.as_str()
    )
}

/// The signed URL of a file: `origin` (the request's `scheme://host[:port]`), its path, the
/// expiry and `mac_hex` (the HMAC of [`signed_message`], in lowercase hex).
pub fn signed_url(
    origin: &str,
    session: &str,
    file: &FileId,
    expires_at: u64,
    mac_hex: &str,
) -> String {
    format!(
        "{origin}{}?exp={expires_at}&sig={mac_hex}",
        file_path(session, file)
    )
}

/// The file of `session` that `url` names when it is this worker's URL of one (any origin: the
/// one the history's message was sent from may not be this request's), signed or not; the history
/// hands such a URL out signed again ([`signed_url`], with this request's origin).
pub fn file_of_url(url: &str, session: &str) -> Option<FileId> {
    let after_scheme = url.split_once("://")?.1;
    let path = &after_scheme[after_scheme.find('/')?..];
    let end = path.find(['?', '#']).unwrap_or(path.len());
    let file = path[..end]
        .strip_prefix("/api/sessions/")?
        .strip_prefix(session)?
        .strip_prefix("/files/")?;
    FileId::parse(file)
}

/// The `scheme://host[:port]` of a serialized URL (`Request.url`).
pub fn origin_of_url(url: &str) -> &str {
    let mut slashes = 0;
    for (at, byte) in url.bytes().enumerate() {
        match byte {
            b'/' if slashes == 2 => return &url[..at],
            b'/' => slashes += 1,
            b'?' | b'#' if slashes == 2 => return &url[..at],
            _ => {}
        }
    }
    url
}

/// The `exp` and `sig` of a file's URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature<'a> {
    pub expires_at: u64,
    /// The HMAC, as the URL gives it: 64 lowercase hex digits.
    pub mac_hex: &'a str,
}

impl<'a> Signature<'a> {
    /// The signature a URL's query carries: `Ok(None)` when it has neither `exp` nor `sig` (the
    /// caller's credentials are asked instead); a `403 invalid_signature` when it has one without
    /// the other, or either does not parse.
    pub fn from_url(url: &'a str) -> Result<Option<Signature<'a>>, Refusal> {
        let (exp, sig) = (query_param(url, "exp"), query_param(url, "sig"));
        let (exp, sig) = match (exp, sig) {
            (None, None) => return Ok(None),
            (Some(exp), Some(sig)) => (exp, sig),
            _ => return Err(invalid_signature()),
        };
        let expires_at = digits(exp).ok_or_else(invalid_signature)?;
        let hex = sig.len() == 2 * SIGNATURE_BYTES
            && sig
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if !hex {
            return Err(invalid_signature());
        }
        Ok(Some(Signature {
            expires_at,
            mac_hex: sig,
        }))
    }

    /// Whether this signature opens its file at `now_secs`: `verified`, WebCrypto's verdict on
    /// the URL's `sig` as the HMAC of [`signed_message`] for this session, file and expiry; the
    /// seconds left when it does; `403 invalid_signature` when it is not, `403 url_expired` when
    /// it is past its expiry (checked after, so a forged URL never learns the clock).
    pub fn check(&self, verified: bool, now_secs: u64) -> Result<u64, Refusal> {
        if !verified {
            return Err(invalid_signature());
        }
        if now_secs >= self.expires_at {
            return Err(Refusal::new(
                URL_EXPIRED,
                "This file's link has expired: ask for the file again.",
            ));
        }
        Ok(self.expires_at - now_secs)
    }
}

fn invalid_signature() -> Refusal {
    Refusal::new(INVALID_SIGNATURE, "This file's link is not valid.")
}

#[cfg(test)]
#[path = "signed_tests.rs"]
mod tests;
