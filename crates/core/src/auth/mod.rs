//! Who may open a session: `AUTH_MODE` = `none` | `token` | `jwt`, checked before any upstream work.
//!
//! * `token`: `Authorization: Bearer <token>` must equal the configured secret (compared in
//!   constant time, in a time that the presented token's length alone sets: [`same_token`]).
//! * `jwt`: a JWT ([`jwt`]) signed with HS256 and the configured secret, or with RS256 or ES256
//!   and a key of the provider's JWKS ([`jwks`], fetched per [`key_cache`] by the edge); the edge
//!   verifies every signature with the platform's WebCrypto (no hash or HMAC code in the wasm);
//!   with an `exp` and, when `JWT_MAX_AGE_S` is set, a lifetime within
//!   it, the `iss` and `aud` configured; its `sub` is the user id sent to the agent (so it must
//!   be fit for a header), its `sessions` claim (or the one `JWT_SESSIONS_CLAIM` names) lists
//!   the sessions it may open.
//!
//! Missing or bad credentials are 401 (with `WWW-Authenticate: Bearer`); a valid token
//! for another session is 403; a JWKS that cannot be fetched is 503.

pub mod base64url;
mod error;
pub mod jwks;
pub mod jwt;
pub mod key_cache;

pub use error::AuthError;
pub use jwt::EVERY_SESSION;
use jwt::{Alg, JwtRules, Token};
use subtle::{ConditionallySelectable, ConstantTimeEq};

/// How callers authenticate.
#[derive(Clone, PartialEq, Eq)]
pub enum AuthMode {
    /// Anyone may open any session (local demo only).
    None,
    /// One shared bearer token.
    Token { secret: String },
    /// JWTs whose claims meet `rules`, signed with HS256 and `secret`, or with RS256 or ES256
    /// and a key of the JWKS at `jwks_url`; at least one of the two is set.
    Jwt {
        secret: Option<Vec<u8>>,
        jwks_url: Option<String>,
        rules: JwtRules,
    },
}

impl AuthMode {
    /// The mode's `AUTH_MODE` name.
    pub fn name(&self) -> &'static str {
        match self {
            AuthMode::None => "none",
            AuthMode::Token { .. } => "token",
            AuthMode::Jwt { .. } => "jwt",
        }
    }
}

impl std::fmt::Debug for AuthMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a secret, not even in a debug log.
        f.write_str(match self {
            AuthMode::None => "AuthMode::None",
            AuthMode::Token { .. } => "AuthMode::Token",
            AuthMode::Jwt { .. } => "AuthMode::Jwt",
        })
    }
}

/// Why a mode could not be configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

/// The mode of a worker whose `AUTH_MODE` is not set: `jwt`, the one that checks most. Without
/// `AUTH_SECRET` or `JWKS_URL` it refuses every request (`500 misconfigured`, the log naming what
/// is missing); `none` is only ever a mode written out.
pub const DEFAULT_MODE: &str = "jwt";

/// The shortest `AUTH_SECRET` accepted, in bytes: HS256's key size (RFC 7518 section 3.2: "a key
/// of the same size as the hash output (for instance, 256 bits for "HS256") or larger MUST be
/// used"), for the `token` mode's secret too. A shorter one could be guessed online.
pub const MIN_SECRET_BYTES: usize = 32;

impl AuthMode {
    /// The mode named by `AUTH_MODE`, with the keys it needs: `token` the secret, `jwt` the
    /// secret (HS256) or a JWKS URL (RS256, ES256) or both; `rules` apply to `jwt` only. An
    /// unknown mode, a mode without its keys, a secret shorter than [`MIN_SECRET_BYTES`], a JWKS
    /// URL that is neither `https:` nor local, or one set for another mode (which would not check
    /// it) is an error: the worker then refuses every request rather than run open or weak.
    pub fn from_config(
        mode: Option<&str>,
        secret: Option<&str>,
        jwks_url: Option<&str>,
        rules: JwtRules,
    ) -> Result<Self, ConfigError> {
        let secret = secret.filter(|s| !s.is_empty());
        let jwks_url = jwks_url.map(str::trim).filter(|u| !u.is_empty());
        // Closed by default: no AUTH_MODE is `jwt`, which then needs its keys.
        let mode = mode.unwrap_or(DEFAULT_MODE);
        if let Some(url) = jwks_url {
            if mode != "jwt" {
                return Err(ConfigError(
                    "JWKS_URL is set but AUTH_MODE is not \"jwt\"".into(),
                ));
            }
            if !jwks::allowed_url(url) {
                return Err(ConfigError(
                    "JWKS_URL must be an https: URL (http: only to 127.0.0.1 or localhost)".into(),
                ));
            }
        }
        if let Some(short) = secret.filter(|s| s.len() < MIN_SECRET_BYTES && mode != "none") {
            // Its length only: never a byte of the secret.
            return Err(ConfigError(format!(
                "AUTH_SECRET must be at least {MIN_SECRET_BYTES} bytes (HS256's key size); this one has {}",
                short.len()
            )));
        }
        match (mode, secret) {
            ("none", _) => Ok(AuthMode::None),
            ("token", Some(s)) => Ok(AuthMode::Token {
                secret: s.to_owned(),
            }),
            ("token", None) => Err(ConfigError("AUTH_SECRET is not set".into())),
            ("jwt", None) if jwks_url.is_none() => Err(ConfigError(
                "AUTH_MODE is \"jwt\" (the default when it is not set) but neither AUTH_SECRET nor JWKS_URL is set".into(),
            )),
            ("jwt", secret) => Ok(AuthMode::Jwt {
                secret: secret.map(|s| s.as_bytes().to_vec()),
                jwks_url: jwks_url.map(str::to_owned),
                rules,
            }),
            (other, _) => Err(ConfigError(format!("unknown AUTH_MODE {other:?}"))),
        }
    }
}

/// The authenticated caller.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Principal {
    /// Sent to the agent as `X-User-Id` where known (the JWT's `sub`).
    pub user_id: Option<String>,
    /// When the caller's credentials end (a JWT's `exp` and the clock skew the worker allows, in
    /// ms since the Unix epoch: when it would refuse the token): a request that lasts (the session
    /// feed) ends there too.
    /// `None`: credentials that do not expire (a static token, no auth).
    pub expires_at_ms: Option<u64>,
}

/// The token of an `Authorization: Bearer <token>` header (scheme case-insensitive).
pub fn bearer_token(header: Option<&str>) -> Option<&str> {
    let (scheme, token) = header?.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// How far [`authorize`] got.
#[derive(Debug)]
pub enum Admission<'a> {
    /// The caller is let in.
    Admitted(Principal),
    /// An HS256 token: the edge verifies its HMAC with the secret, then calls
    /// [`SecretToken::admit`].
    NeedsSecret(SecretToken<'a>),
    /// An RS256 or ES256 token: the edge verifies its signature with the JWKS key it names, then
    /// calls [`KeyedToken::admit`].
    NeedsKey(KeyedToken<'a>),
}

/// An HS256 JWT: its signature, HMAC-SHA-256 of [`Token::signed_part`], needs `secret`.
pub struct SecretToken<'a> {
    pub token: Token<'a>,
    /// The key of the HMAC (`AUTH_SECRET`).
    pub secret: &'a [u8],
    rules: &'a JwtRules,
}

impl std::fmt::Debug for SecretToken<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the secret.
        f.debug_struct("SecretToken")
            .field("token", &self.token)
            .finish_non_exhaustive()
    }
}

impl SecretToken<'_> {
    /// The caller of `session_id` at unix time `now`, once the signature was verified.
    pub fn admit(&self, session_id: &str, now: u64) -> Result<Principal, AuthError> {
        admit_claims(&self.token, self.rules, session_id, now)
    }
}

/// A JWT whose signature needs a JWKS key.
#[derive(Debug)]
pub struct KeyedToken<'a> {
    pub token: Token<'a>,
    /// Where its key is published (`JWKS_URL`).
    pub jwks_url: &'a str,
    /// The key it names (`kid`).
    pub kid: String,
    rules: &'a JwtRules,
}

impl KeyedToken<'_> {
    /// The caller of `session_id` at unix time `now`, once the signature was verified.
    pub fn admit(&self, session_id: &str, now: u64) -> Result<Principal, AuthError> {
        admit_claims(&self.token, self.rules, session_id, now)
    }
}

/// Checks the caller as far as this can be done without a signature check: a JWT's claims and
/// session are checked once the edge has verified its signature ([`SecretToken::admit`],
/// [`KeyedToken::admit`]).
pub fn authorize<'a>(
    mode: &'a AuthMode,
    authorization: Option<&'a str>,
) -> Result<Admission<'a>, AuthError> {
    if *mode == AuthMode::None {
        return Ok(Admission::Admitted(Principal::default()));
    }
    let token = bearer_token(authorization).ok_or(AuthError::Missing)?;
    match mode {
        AuthMode::None => Ok(Admission::Admitted(Principal::default())),
        AuthMode::Token { secret } => {
            if same_token(token.as_bytes(), secret.as_bytes()) {
                Ok(Admission::Admitted(Principal::default()))
            } else {
                Err(AuthError::Invalid("unknown token"))
            }
        }
        AuthMode::Jwt {
            secret,
            jwks_url,
            rules,
        } => {
            let mut token = Token::parse(token)?;
            let no_key = || AuthError::Invalid("no key is configured for its algorithm (`alg`)");
            if token.alg == Alg::Hs256 {
                return Ok(Admission::NeedsSecret(SecretToken {
                    token,
                    secret: secret.as_deref().ok_or_else(no_key)?,
                    rules,
                }));
            }
            let jwks_url = jwks_url.as_deref().ok_or_else(no_key)?;
            let kid = token
                .kid
                .take()
                .ok_or(AuthError::Invalid("it names no key (`kid`)"))?;
            Ok(Admission::NeedsKey(KeyedToken {
                token,
                jwks_url,
                kid,
                rules,
            }))
        }
    }
}

/// Whether the presented token equals the secret, in constant time: every byte of `presented`
/// is compared with the secret's bytes (cycled), with no early exit, and a length mismatch is
/// one more difference; so the time depends on the presented token's length only, and shows
/// neither where the two differ nor the secret's length. (The secret is never empty:
/// [`AuthMode::from_config`] refuses that.)
pub fn same_token(presented: &[u8], secret: &[u8]) -> bool {
    let mut same = presented.len().ct_eq(&secret.len());
    let len = secret.len() as u64;
    let mut at = 0u64;
    for &byte in presented {
        // `at` is always below `len`; no byte when the secret is empty.
        let expected = secret.get(at as usize).copied().unwrap_or(0);
        same &= byte.ct_eq(&expected);
        at += 1;
        at = u64::conditional_select(&at, &0, at.ct_eq(&len));
    }
    same.into()
}

/// The claims of a verified `token` against `rules`, and the session it opens.
fn admit_claims(
    token: &Token<'_>,
    rules: &JwtRules,
    session_id: &str,
    now: u64,
) -> Result<Principal, AuthError> {
    let claims = token.verified_claims(rules, now)?;
    if !claims.allows(&rules.sessions_claim, session_id) {
        return Err(if session_id == EVERY_SESSION {
            AuthError::NotEverySession
        } else {
            AuthError::Forbidden
        });
    }
    Ok(Principal {
        expires_at_ms: claims.expires_at_ms(),
        user_id: claims.sub,
    })
}

#[cfg(test)]
mod hs256_native;
#[cfg(test)]
#[path = "keyed_tests.rs"]
mod keyed_tests;
#[cfg(test)]
#[path = "auth_tests.rs"]
mod tests;
