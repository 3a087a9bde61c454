//! HS256 in native code, for the tests only: signing test tokens, and the stand-in for the edge's
//! WebCrypto check (the adapter's `hs256` module), so the pure core's HS256 path is tested end to end.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::Sha256;

use super::{AuthError, Principal, SecretToken};

/// Signs `claims` as an HS256 JWT. The worker never issues tokens; tests do.
pub fn sign(claims: &Value, secret: &[u8]) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    let input = format!("{header}.{payload}");
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret).expect("any key length");
    mac.update(input.as_bytes());
    format!(
        "{input}.{}",
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    )
}

/// What the edge does with an HS256 token: its signature checked with the secret (401 "bad
/// signature" when it does not match), then its claims and session.
pub fn admit(token: &SecretToken<'_>, session_id: &str, now: u64) -> Result<Principal, AuthError> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(token.secret).expect("any key length");
    mac.update(token.token.signed_part());
    mac.verify_slice(&token.token.signature)
        .map_err(|_| AuthError::Invalid("bad signature"))?;
    token.admit(session_id, now)
}
