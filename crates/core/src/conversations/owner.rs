//! Whose list a request reads, and whose a turn writes: the name of the index's object
//! (`SESSION_INDEX`, `idFromName`).
//!
//! * `AUTH_MODE = "jwt"`: the token's `sub`'s (`user:<sub>`). A token without a `sub` has no list:
//!   the list routes answer `403 no_user`, and its turns are not listed.
//! * `none` (the local demo, a host that admits its callers itself) and `token` (one shared
//!   secret): no credential names a user, so the caller names its list with the
//!   [`KEY_HEADER`] header (`key:<key>`), a key of its own of 16 to 128 characters, such as a
//!   random UUID a browser keeps: a list per browser. Who knows the key sees the list, as who
//!   knows a session's id opens the session in these modes; a host with users of its own sets
//!   the header from its own identity, replacing the client's. Without the header there is no
//!   list (`403 no_user`, and the turns are not listed): never one list that every caller
//!   shares, which would show every conversation's title to anyone.

use crate::auth::{AuthMode, Principal};
use crate::refusal::{Refusal, INVALID_FIELD, NO_USER};
use crate::routes::valid_session_id;

/// The header that names the caller's list where the credentials name no user (`none`, `token`).
pub const KEY_HEADER: &str = "x-conversations-key";

/// The shortest key, in characters: 16, so that a key of random letters and digits is not
/// guessed (62^16 is about 2^95; a UUID is 36).
pub const MIN_KEY_CHARS: usize = 16;

/// The caller's list, or why it has none: `403 no_user`, or `400 invalid_field` for a key that is
/// not [`MIN_KEY_CHARS`] to 128 characters of a session id's alphabet (`[A-Za-z0-9._:-]`).
pub fn lister(
    auth: &AuthMode,
    principal: &Principal,
    key: Option<&str>,
) -> Result<String, Refusal> {
    of(auth, principal, key).map_err(|why| match why {
        Unnamed::NoSub => Refusal::new(
            NO_USER,
            "This token names no user (`sub`), so it has no list of conversations.",
        ),
        Unnamed::NoKey => Refusal::new(
            NO_USER,
            "This request names no list of conversations: send an X-Conversations-Key header (a key of your own, such as a random UUID).",
        ),
        Unnamed::BadKey => Refusal::new(
            INVALID_FIELD,
            format!("The X-Conversations-Key header must be {MIN_KEY_CHARS} to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'."),
        ),
    })
}

/// The list a turn of this caller is listed in, if it has one ([`lister`]).
pub fn of_turn(auth: &AuthMode, principal: &Principal, key: Option<&str>) -> Option<String> {
    of(auth, principal, key).ok()
}

/// Why a caller has no list.
enum Unnamed {
    NoSub,
    NoKey,
    BadKey,
}

fn of(auth: &AuthMode, principal: &Principal, key: Option<&str>) -> Result<String, Unnamed> {
    let (prefix, name) = match auth {
        AuthMode::Jwt { .. } => ("user:", principal.user_id.as_deref().ok_or(Unnamed::NoSub)?),
        AuthMode::None | AuthMode::Token { .. } => match key {
            Some(key) if key.len() >= MIN_KEY_CHARS && valid_session_id(key) => ("key:", key),
            Some(_) => return Err(Unnamed::BadKey),
            None => return Err(Unnamed::NoKey),
        },
    };
    Ok([prefix, name].concat())
}

#[cfg(test)]
#[path = "owner_tests.rs"]
mod tests;
