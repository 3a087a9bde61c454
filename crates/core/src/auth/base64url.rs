//! base64url without padding (RFC 4648 section 5), the encoding of a JWT's segments and of a JWK's
//! numbers: decoding only, as strict as the `base64` crate's `URL_SAFE_NO_PAD` (no `=`, no other
//! character, the unused low bits of the last character zero: [`crate::base64`]'s strict flavor).
//! The tests hold it to that crate's answers.

use crate::base64::{self, Flavor};

/// The bytes `text` encodes; `None` when it is not unpadded base64url.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    base64::decode(text, Flavor::UrlStrict)
}

#[cfg(test)]
#[path = "base64url_tests.rs"]
mod tests;
