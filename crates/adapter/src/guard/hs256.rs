//! HS256 tokens at the edge: the HMAC-SHA-256 signature checked with the platform's WebCrypto
//! ([`crate::guard::webcrypto`], the secret imported as a raw key), as [`crate::guard::jwks_cache`] checks RS256 and
//! ES256.

use crate::auth::{AuthError, SecretToken};
use crate::guard::webcrypto::{self, Check, KeyData};

/// The WebCrypto algorithm of HS256 (RFC 7518 section 3.2), for the key's import and the check.
const HMAC_SHA256: &str = r#"{"name":"HMAC","hash":"SHA-256"}"#;

/// `Ok` when `token`'s signature is the HMAC of its signed part with its secret, else the
/// refusal (401). (WebCrypto takes any non-empty secret as an HMAC key.)
pub(crate) async fn verify(token: &SecretToken<'_>) -> Result<(), AuthError> {
    let check = Check {
        key: KeyData::Raw(token.secret),
        import_algorithm: HMAC_SHA256,
        verify_algorithm: HMAC_SHA256,
    };
    webcrypto::verify(check, &token.token, "hs256").await
}
