//! JWTs in the compact form (RFC 7519 / RFC 7515): the header's `alg` (HS256, RS256 or ES256,
//! nothing else) and `kid`, and the claim rules:
//! `exp` required, an optional lifetime cap, `iss` and `aud` when configured, a `sub` fit for a
//! header, and the configurable claim that lists the sessions. Signatures are verified by the
//! edge with the platform's WebCrypto: HS256 with the shared secret, RS256 and ES256 against a
//! JWKS key ([`super::jwks`]).

use serde::Deserialize;
use serde_json::{Map, Value};

use super::base64url;
use super::error::AuthError;

/// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds. One minute covers the drift
/// between an issuer's clock and the edge's without keeping a dead token alive long.
pub const CLOCK_SKEW_SECS: u64 = 60;

/// What a request about every session of its caller asks to be admitted to (the list of a user's
/// sessions, `GET /api/sessions`), in place of a session id: no session id is `*`, and only a
/// token whose sessions claim is `"*"` covers it, since the list shows every session's title.
pub const EVERY_SESSION: &str = "*";

/// The claim that lists the sessions a token may open, unless `JWT_SESSIONS_CLAIM` names another.
pub const DEFAULT_SESSIONS_CLAIM: &str = "sessions";

/// The registered claim names of RFC 7519 section 4.1: each has its own meaning, so none can be
/// the sessions claim.
pub const REGISTERED_CLAIMS: [&str; 7] = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti"];

/// Length of an ES256 signature: `r || s`, 32 bytes each (RFC 7518 section 3.4).
const ES256_SIGNATURE_LEN: usize = 64;

/// What a JWT must satisfy beyond its signature, from the worker's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JwtRules {
    /// The top-level claim listing the sessions the token may open (`JWT_SESSIONS_CLAIM`). Taken
    /// as one key, dots and slashes included: providers namespace custom claims as
    /// `https://example.com/sessions`.
    pub sessions_claim: String,
    /// Longest lifetime accepted, `exp - iat` in seconds (`JWT_MAX_AGE_S`); `None`: no cap.
    pub max_age_secs: Option<u64>,
    /// The `iss` a token must carry, exactly (`JWT_ISSUER`); `None`: not checked.
    pub issuer: Option<String>,
    /// The audience a token's `aud` (a string, or an array of strings) must name
    /// (`JWT_AUDIENCE`); `None`: not checked.
    pub audience: Option<String>,
}

impl Default for JwtRules {
    fn default() -> Self {
        JwtRules {
            sessions_claim: DEFAULT_SESSIONS_CLAIM.to_owned(),
            max_age_secs: None,
            issuer: None,
            audience: None,
        }
    }
}

/// The signature algorithms accepted: `none` and every other one are refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alg {
    /// HMAC SHA-256 with `AUTH_SECRET`.
    Hs256,
    /// RSASSA-PKCS1-v1_5 SHA-256 with a JWKS key.
    Rs256,
    /// ECDSA P-256 SHA-256 with a JWKS key.
    Es256,
}

impl Alg {
    /// The `alg` header value.
    pub fn name(self) -> &'static str {
        match self {
            Alg::Hs256 => "HS256",
            Alg::Rs256 => "RS256",
            Alg::Es256 => "ES256",
        }
    }

    fn parse(name: &str) -> Option<Self> {
        [Alg::Hs256, Alg::Rs256, Alg::Es256]
            .into_iter()
            .find(|alg| alg.name() == name)
    }
}

#[derive(Deserialize)]
struct Header {
    alg: String,
    #[serde(default)]
    kid: Option<String>,
    #[serde(default)]
    crit: Option<Value>,
}

/// A JWT taken apart, its signature not yet checked.
pub struct Token<'a> {
    pub alg: Alg,
    /// The key it names (`kid`), for RS256 and ES256.
    pub kid: Option<String>,
    /// `header.payload`: the signed bytes.
    signed: &'a str,
    payload: &'a str,
    pub signature: Vec<u8>,
}

impl std::fmt::Debug for Token<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The algorithm and key only: the rest is a bearer credential.
        write!(f, "Token {{ alg: {:?}, kid: {:?} }}", self.alg, self.kid)
    }
}

impl<'a> Token<'a> {
    /// Splits and decodes `token`; refuses any `alg` but HS256, RS256 and ES256, and a `crit`
    /// header (RFC 7515 section 4.1.11: extensions this service does not know).
    pub fn parse(token: &'a str) -> Result<Self, AuthError> {
        let mut segments = token.split('.');
        let (Some(head), Some(payload), Some(signature), None) = (
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next(),
        ) else {
            return Err(AuthError::Invalid("not a JWT"));
        };
        let header: Header = decode_json(head)?;
        let alg = Alg::parse(&header.alg).ok_or(AuthError::Invalid(
            "only HS256, RS256 and ES256 are accepted",
        ))?;
        if header.crit.is_some() {
            return Err(AuthError::Invalid(
                "it has critical header parameters (`crit`)",
            ));
        }
        let signature =
            base64url::decode(signature).ok_or(AuthError::Invalid("bad signature encoding"))?;
        if alg == Alg::Es256 && signature.len() != ES256_SIGNATURE_LEN {
            return Err(AuthError::Invalid("bad signature"));
        }
        Ok(Token {
            alg,
            kid: header.kid,
            signed: &token[..head.len() + 1 + payload.len()],
            payload,
            signature,
        })
    }

    /// The signed input, `header.payload`.
    pub fn signed_part(&self) -> &'a [u8] {
        self.signed.as_bytes()
    }

    /// The claims, checked against `rules` at unix time `now`. Only for a token whose signature
    /// was verified: before that, nothing in the payload can be trusted.
    pub fn verified_claims(&self, rules: &JwtRules, now: u64) -> Result<Claims, AuthError> {
        let claims = Claims::from_map(decode_json(self.payload)?)?;
        check_claims(&claims, rules, now)?;
        Ok(claims)
    }
}

/// The claims this worker reads. Taken out of the payload's object by hand ([`Claims::from_map`]),
/// not with `#[serde(flatten)]`, whose buffering deserializer was 4 KB of the wasm.
#[derive(Debug, Clone, PartialEq)]
pub struct Claims {
    /// The user; sent to the agent as `X-User-Id`.
    pub sub: Option<String>,
    exp: Option<f64>,
    nbf: Option<f64>,
    iat: Option<f64>,
    iss: Option<String>,
    /// A string or an array of strings (RFC 7519 section 4.1.3).
    aud: Option<Value>,
    /// Every other claim, the sessions claim among them.
    other: Map<String, Value>,
}

impl Claims {
    /// The claims of a payload object: `sub` and `iss` strings, `exp`, `nbf` and `iat`
    /// numbers, each absent or `null` when not set; any other type is "bad JSON".
    fn from_map(mut other: Map<String, Value>) -> Result<Self, AuthError> {
        let mut take = |name: &str| other.remove(name).filter(|value| !value.is_null());
        let string = |value: Option<Value>| match value {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(AuthError::Invalid("bad JSON")),
        };
        let number = |value: Option<Value>| match value {
            None => Ok(None),
            Some(value) => value
                .as_f64()
                .map(Some)
                .ok_or(AuthError::Invalid("bad JSON")),
        };
        Ok(Claims {
            sub: string(take("sub"))?,
            exp: number(take("exp"))?,
            nbf: number(take("nbf"))?,
            iat: number(take("iat"))?,
            iss: string(take("iss"))?,
            aud: take("aud"),
            other,
        })
    }

    /// When the worker stops taking the token, in milliseconds since the Unix epoch: its `exp`
    /// with the clock skew allowed ([`CLOCK_SKEW_SECS`]), as [`check_claims`] reads it (a time
    /// before 1970 reads as 0).
    pub fn expires_at_ms(&self) -> Option<u64> {
        // `as` saturates: a NaN or negative `exp` reads 0, one past u64 the largest.
        self.exp
            .map(|exp| ((exp + CLOCK_SKEW_SECS as f64) * 1000.0) as u64)
    }

    /// Whether the token may open `session_id`: its claim `sessions_claim` is `"*"` or an
    /// array naming the session; absent or any other shape means no session. Every session
    /// ([`EVERY_SESSION`], the list of a user's sessions) only the `"*"` covers.
    pub fn allows(&self, sessions_claim: &str, session_id: &str) -> bool {
        match self.other.get(sessions_claim) {
            Some(Value::String(s)) => s == "*",
            Some(Value::Array(_)) if session_id == EVERY_SESSION => false,
            Some(Value::Array(ids)) => ids.iter().any(|id| id.as_str() == Some(session_id)),
            _ => false,
        }
    }

    /// Whether `aud` names `audience`: equal to it, or an array with it among its strings.
    fn names_audience(&self, audience: &str) -> bool {
        match &self.aud {
            Some(Value::String(aud)) => aud == audience,
            Some(Value::Array(auds)) => auds.iter().any(|aud| aud.as_str() == Some(audience)),
            _ => false,
        }
    }
}

/// The time, issuer, audience and subject checks of a signed token's claims.
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
    if rules
        .issuer
        .as_deref()
        .is_some_and(|issuer| claims.iss.as_deref() != Some(issuer))
    {
        return Err(AuthError::Invalid(
            "its issuer (`iss`) is not the one trusted",
        ));
    }
    if rules
        .audience
        .as_deref()
        .is_some_and(|audience| !claims.names_audience(audience))
    {
        return Err(AuthError::Invalid(
            "its audience (`aud`) does not name this service",
        ));
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

fn decode_json<T: for<'de> Deserialize<'de>>(segment: &str) -> Result<T, AuthError> {
    let bytes = base64url::decode(segment).ok_or(AuthError::Invalid("bad base64url"))?;
    let text = String::from_utf8(bytes).map_err(|_| AuthError::Invalid("bad JSON"))?;
    serde_json::from_str(&text).map_err(|_| AuthError::Invalid("bad JSON"))
}
