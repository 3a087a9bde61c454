//! Why a caller was refused, and the code ([`crate::refusal`]) and message it is answered with.

use crate::refusal::{self, Code, Refusal};

/// Why a caller was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// No `Authorization: Bearer …` header.
    Missing,
    /// The credentials are wrong: bad token, bad signature, bad shape, an algorithm refused or
    /// without a configured key, no `kid` or one the JWKS lacks, no `exp`, an `iat` missing
    /// under a lifetime cap or ahead of the clock, a wrong `iss` or `aud`, a `sub` unfit for a
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
    /// Valid credentials that do not cover every session, asking for the list of them.
    NotEverySession,
    /// The JWKS cannot be fetched (network error, non-2xx, not a key set): the token cannot be
    /// checked, so it is not let through. Worth a retry after that many seconds.
    Unavailable { retry_after_secs: u64 },
}

impl AuthError {
    /// 401 for missing or bad credentials, 403 for a session the token does not cover, 503
    /// when the keys to check it cannot be had.
    pub fn kind(&self) -> Code {
        match self {
            AuthError::Missing => refusal::UNAUTHORIZED,
            AuthError::Invalid(_) | AuthError::TooLongLived { .. } => refusal::INVALID_TOKEN,
            AuthError::Expired => refusal::TOKEN_EXPIRED,
            AuthError::NotYetValid => refusal::TOKEN_NOT_YET_VALID,
            AuthError::Forbidden | AuthError::NotEverySession => refusal::FORBIDDEN,
            AuthError::Unavailable { .. } => refusal::AUTH_UNAVAILABLE,
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
            AuthError::NotEverySession => "Listing your conversations needs a bearer token whose sessions claim is \"*\" (every session).".into(),
            AuthError::Unavailable { retry_after_secs } => format!(
                "The keys that bearer tokens are checked with cannot be fetched right now. Try again in {retry_after_secs} seconds."
            ),
        }
    }
}

impl From<AuthError> for Refusal {
    /// With its challenge (RFC 6750 section 3: the scheme, and the error once credentials were
    /// presented), or when to try again.
    fn from(err: AuthError) -> Self {
        let refusal = Refusal::new(err.kind(), err.message());
        match err {
            AuthError::Missing => refusal.with_header("www-authenticate", "Bearer".into()),
            AuthError::Forbidden | AuthError::NotEverySession => refusal,
            AuthError::Unavailable { retry_after_secs } => {
                refusal.with_header("retry-after", retry_after_secs.to_string())
            }
            _ => refusal.with_header("www-authenticate", "Bearer error=\"invalid_token\"".into()),
        }
    }
}
