//! HS256 JWT verification (RFC 7519 / RFC 7515 compact form), nothing else accepted, and the
//! claim rules: `exp` required, an optional lifetime cap, a `sub` fit for a header, and the
//! configurable claim that lists the sessions.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::Sha256;

use super::AuthError;

/// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds. One minute covers the drift
/// between an issuer's clock and the edge's without keeping a dead token alive long.
pub const CLOCK_SKEW_SECS: u64 = 60;

/// The claim that lists the sessions a token may open, unless `JWT_SESSIONS_CLAIM` names another.
pub const DEFAULT_SESSIONS_CLAIM: &str = "sessions";

/// The registered claim names of RFC 7519 section 4.1: each has its own meaning, so none can be
/// the sessions claim.
pub const REGISTERED_CLAIMS: [&str; 7] = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti"];

/// What a JWT must satisfy beyond its signature, from the worker's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwtRules {
    /// The top-level claim listing the sessions the token may open (`JWT_SESSIONS_CLAIM`). Taken
    /// as one key, dots and slashes included: providers namespace custom claims as
    /// `https://example.com/sessions`.
    pub sessions_claim: String,
    /// Longest lifetime accepted, `exp - iat` in seconds (`JWT_MAX_AGE_S`); `None`: no cap.
    pub max_age_secs: Option<u64>,
}

impl Default for JwtRules {
    fn default() -> Self {
        JwtRules {
            sessions_claim: DEFAULT_SESSIONS_CLAIM.to_owned(),
            max_age_secs: None,
        }
    }
}

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
    #[serde(default)]
    iat: Option<f64>,
    /// Every other claim, the sessions claim among them.
    #[serde(flatten)]
    other: Map<String, Value>,
}

impl Claims {
    /// Whether the token may open `session_id`: its claim `sessions_claim` is `"*"` or an
    /// array naming the session; absent or any other shape means no session.
    pub fn allows(&self, sessions_claim: &str, session_id: &str) -> bool {
        match self.other.get(sessions_claim) {
            Some(Value::String(s)) => s == "*",
            Some(Value::Array(ids)) => ids.iter().any(|id| id.as_str() == Some(session_id)),
            _ => false,
        }
    }
}

/// Verifies `token` with `secret` at unix time `now` against `rules` and returns its claims.
pub fn verify(token: &str, secret: &[u8], rules: &JwtRules, now: u64) -> Result<Claims, AuthError> {
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
    check_claims(&claims, rules, now)?;
    Ok(claims)
}

/// The time and subject checks of a signed token's claims.
fn check_claims(claims: &Claims, rules: &JwtRules, now: u64) -> Result<(), AuthError> {
    let skew = CLOCK_SKEW_SECS as f64;
    let now = now as f64;
    // A token without `exp` would never expire: one leak would be a key for good.
    let exp = claims
        .exp
        .ok_or(AuthError::Invalid("it has no expiry (`exp`)"))?;
    if now > exp + skew {
        return Err(AuthError::Expired);
    }
    if claims.nbf.is_some_and(|nbf| now + skew < nbf) {
        return Err(AuthError::NotYetValid);
    }
    if let Some(max_age_secs) = rules.max_age_secs {
        let iat = claims.iat.ok_or(AuthError::Invalid(
            "it has no issue time (`iat`), which the lifetime limit needs",
        ))?;
        // An `iat` ahead of the clock would stretch the lifetime past the cap unseen.
        if iat > now + skew {
            return Err(AuthError::Invalid(
                "its issue time (`iat`) is in the future",
            ));
        }
        if exp - iat > max_age_secs as f64 {
            return Err(AuthError::TooLongLived { max_age_secs });
        }
    }
    if claims
        .sub
        .as_deref()
        .is_some_and(|sub| !is_header_safe(sub))
    {
        return Err(AuthError::Invalid(
            "its `sub` must be visible ASCII characters, with spaces only between them",
        ));
    }
    Ok(())
}

/// Whether `sub` reaches the agent unchanged as the `X-User-Id` header value: one or more
/// visible ASCII characters (0x21–0x7E) and spaces, neither starting nor ending with a space.
/// CR, LF, NUL, tab and other controls cannot be in a header at all (the agent call would
/// fail); characters past ASCII are Latin-1 in a header, not UTF-8, and would reach the agent
/// as another string; and a header value loses its leading and trailing spaces (RFC 9110
/// section 5.5), and an empty one reads as none: each way the agent would see another user
/// than the token names.
pub fn is_header_safe(sub: &str) -> bool {
    !sub.is_empty()
        && !sub.starts_with(' ')
        && !sub.ends_with(' ')
        && sub.bytes().all(|b| b == b' ' || b.is_ascii_graphic())
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
