//! HS256 JWT verification (RFC 7519 / RFC 7515 compact form), nothing else accepted.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use serde::Deserialize;
use serde_json::Value;
use sha2::Sha256;

use super::AuthError;

/// Clock skew tolerated on `exp` and `nbf`, in seconds. One minute covers the drift
/// between an issuer's clock and the edge's without keeping a dead token alive long.
pub const CLOCK_SKEW_SECS: u64 = 60;

#[derive(Deserialize)]
struct Header {
    alg: String,
}

/// The claims this worker reads.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Claims {
    /// The user; sent to the agent as `X-User-Id`.
    #[serde(default)]
    pub sub: Option<String>,
    #[serde(default)]
    exp: Option<f64>,
    #[serde(default)]
    nbf: Option<f64>,
    /// `["id", …]` or `"*"`; absent means no session.
    #[serde(default)]
    sessions: Option<Value>,
}

impl Claims {
    /// Whether the token may open `session_id`.
    pub fn allows(&self, session_id: &str) -> bool {
        match &self.sessions {
            Some(Value::String(s)) => s == "*",
            Some(Value::Array(ids)) => ids.iter().any(|id| id.as_str() == Some(session_id)),
            _ => false,
        }
    }
}

/// Verifies `token` with `secret` at unix time `now` and returns its claims.
pub fn verify(token: &str, secret: &[u8], now: u64) -> Result<Claims, AuthError> {
    let mut segments = token.split('.');
    let (Some(header), Some(payload), Some(signature), None) = (
        segments.next(),
        segments.next(),
        segments.next(),
        segments.next(),
    ) else {
        return Err(AuthError::Invalid("not a JWT"));
    };
    let header: Header = decode_json(header)?;
    if header.alg != "HS256" {
        return Err(AuthError::Invalid("only HS256 is accepted"));
    }
    let signature = URL_SAFE_NO_PAD
        .decode(signature)
        .map_err(|_| AuthError::Invalid("bad signature encoding"))?;
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret)
        .map_err(|_| AuthError::Invalid("bad secret"))?;
    mac.update(&token.as_bytes()[..header_and_payload_len(token)]);
    mac.verify_slice(&signature)
        .map_err(|_| AuthError::Invalid("bad signature"))?;
    let claims: Claims = decode_json(payload)?;
    let now = now as f64;
    if claims
        .exp
        .is_some_and(|exp| now > exp + CLOCK_SKEW_SECS as f64)
    {
        return Err(AuthError::Expired);
    }
    if claims
        .nbf
        .is_some_and(|nbf| now + (CLOCK_SKEW_SECS as f64) < nbf)
    {
        return Err(AuthError::NotYetValid);
    }
    Ok(claims)
}

/// Length of `header.payload`, the signed input.
fn header_and_payload_len(token: &str) -> usize {
    token.rfind('.').unwrap_or(token.len())
}

fn decode_json<T: for<'de> Deserialize<'de>>(segment: &str) -> Result<T, AuthError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(segment)
        .map_err(|_| AuthError::Invalid("bad base64url"))?;
    serde_json::from_slice(&bytes).map_err(|_| AuthError::Invalid("bad JSON"))
}

/// Signs `claims` as an HS256 JWT. The worker never issues tokens; tests and tools do.
pub fn sign(claims: &Value, secret: &[u8]) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
    let input = format!("{header}.{payload}");
    let signature = match <Hmac<Sha256> as KeyInit>::new_from_slice(secret) {
        Ok(mut mac) => {
            mac.update(input.as_bytes());
            URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
        }
        Err(_) => String::new(),
    };
    format!("{input}.{signature}")
}
