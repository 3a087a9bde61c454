//! Who may open a session: `AUTH_MODE` = `none` | `token` | `jwt`, checked before any upstream work.
//!
//! * `token`: `Authorization: Bearer <token>` must equal the configured secret (compared in
//!   constant time, through SHA-256 digests so not even the length leaks).
//! * `jwt`: an HS256 JWT signed with the configured secret ([`jwt`]), with an `exp` and, when
//!   `JWT_MAX_AGE_S` is set, a lifetime within it; its `sub` is the user id sent to the agent
//!   (so it must be fit for a header), its `sessions` claim (or the one `JWT_SESSIONS_CLAIM`
//!   names) lists the sessions it may open.
//!
//! Missing or bad credentials are 401 (with `WWW-Authenticate: Bearer`); a valid token
//! for another session is 403.

pub mod jwt;

use jwt::JwtRules;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// How callers authenticate.
#[derive(Clone, PartialEq, Eq)]
pub enum AuthMode {
    /// Anyone may open any session (local demo only).
    None,
    /// One shared bearer token.
    Token { secret: String },
    /// HS256 JWTs signed with `secret`, whose claims meet `rules`.
    Jwt { secret: Vec<u8>, rules: JwtRules },
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

impl AuthMode {
    /// The mode named by `AUTH_MODE`, with the secret it needs; `rules` apply to `jwt` only.
    /// An unknown mode, or a mode without its secret, is an error: the worker then refuses
    /// every request rather than run open.
    pub fn from_config(
        mode: Option<&str>,
        secret: Option<&str>,
        rules: JwtRules,
    ) -> Result<Self, ConfigError> {
        let secret = secret.filter(|s| !s.is_empty());
        match (mode.unwrap_or("none"), secret) {
            ("none", _) => Ok(AuthMode::None),
            ("token", Some(s)) => Ok(AuthMode::Token {
                secret: s.to_owned(),
            }),
            ("jwt", Some(s)) => Ok(AuthMode::Jwt {
                secret: s.as_bytes().to_vec(),
                rules,
            }),
            ("token" | "jwt", None) => Err(ConfigError("AUTH_SECRET is not set".into())),
            (other, _) => Err(ConfigError(format!("unknown AUTH_MODE {other:?}"))),
        }
    }
}

/// The authenticated caller.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Principal {
    /// Sent to the agent as `X-User-Id` where known (the JWT's `sub`).
    pub user_id: Option<String>,
}

/// Why a caller was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// No `Authorization: Bearer …` header.
    Missing,
    /// The credentials are wrong: bad token, bad signature, bad shape, wrong algorithm, no
    /// `exp`, an `iat` missing under a lifetime cap or ahead of the clock, a `sub` unfit for a
    /// header.
    Invalid(&'static str),
    /// The JWT's `exp` has passed.
    Expired,
    /// The JWT lives longer (`exp - iat`) than `JWT_MAX_AGE_S` allows.
    TooLongLived { max_age_secs: u64 },
    /// The JWT's `nbf` is still ahead.
    NotYetValid,
    /// Valid credentials that do not cover this session.
    Forbidden,
}

impl AuthError {
    /// 401 for missing or bad credentials, 403 for a session the token does not cover.
    pub fn status(&self) -> u16 {
        match self {
            AuthError::Forbidden => 403,
            _ => 401,
        }
    }

    /// A stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            AuthError::Missing => "unauthorized",
            AuthError::Invalid(_) | AuthError::TooLongLived { .. } => "invalid_token",
            AuthError::Expired => "token_expired",
            AuthError::NotYetValid => "token_not_yet_valid",
            AuthError::Forbidden => "forbidden",
        }
    }

    /// One sentence for the caller; never echoes the credentials.
    pub fn message(&self) -> String {
        match self {
            AuthError::Missing => "This endpoint needs an `Authorization: Bearer` token.".into(),
            AuthError::Invalid(why) => format!("The bearer token is not valid: {why}."),
            AuthError::Expired => "The bearer token has expired.".into(),
            AuthError::TooLongLived { max_age_secs } => format!(
                "The bearer token is not valid: it lives longer (`exp` - `iat`) than the limit of {max_age_secs} seconds."
            ),
            AuthError::NotYetValid => "The bearer token is not valid yet.".into(),
            AuthError::Forbidden => "The bearer token does not give access to this session.".into(),
        }
    }
}

/// The token of an `Authorization: Bearer <token>` header (scheme case-insensitive).
pub fn bearer_token(header: Option<&str>) -> Option<&str> {
    let (scheme, token) = header?.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Checks the caller of `session_id` at unix time `now`.
pub fn authorize(
    mode: &AuthMode,
    authorization: Option<&str>,
    session_id: &str,
    now: u64,
) -> Result<Principal, AuthError> {
    if *mode == AuthMode::None {
        return Ok(Principal::default());
    }
    let token = bearer_token(authorization).ok_or(AuthError::Missing)?;
    match mode {
        AuthMode::None => Ok(Principal::default()),
        AuthMode::Token { secret } => {
            let same: bool = Sha256::digest(token.as_bytes())
                .ct_eq(&Sha256::digest(secret.as_bytes()))
                .into();
            if same {
                Ok(Principal::default())
            } else {
                Err(AuthError::Invalid("unknown token"))
            }
        }
        AuthMode::Jwt { secret, rules } => {
            let claims = jwt::verify(token, secret, rules, now)?;
            if !claims.allows(&rules.sessions_claim, session_id) {
                return Err(AuthError::Forbidden);
            }
            Ok(Principal {
                user_id: claims.sub,
            })
        }
    }
}

#[cfg(test)]
mod tests;
