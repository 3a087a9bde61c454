//! The checks every session route makes before it touches the agent (and the conversations
//! routes, the list about every session of its caller: [`admit_to`]): the session id (400), the
//! caller's credentials (401 with `WWW-Authenticate`, 403 for another session's token, 503 with
//! `Retry-After` when the JWKS cannot be fetched) and the caller's rate limit (429 with
//! `Retry-After`, where the binding is configured), which refused credentials spend too.

pub(crate) mod hs256;
pub(crate) mod jwks_cache;
pub(crate) mod rate_limiter;
mod webcrypto;

use crate::diagnostic::{clip, MAX_LOGGED_ID_CHARS};
use futures::FutureExt;

use crate::auth::{authorize, Admission, AuthError, Principal, EVERY_SESSION};
use crate::config::Config;
use crate::context::RouteContext;
use crate::failure::Failure;
use crate::platform::clock::now_ms;
use crate::refusal::Refusal;
use crate::request_head::Field;
use crate::routes::valid_session_id;

/// The caller of `session_id`, when the request may go on; else the refusal (or the runtime's
/// fault): [`admit_to`] the session.
pub(crate) async fn admit(
    cx: &mut RouteContext<'_>,
    session_id: &str,
) -> Result<Principal, Failure> {
    admit_to(cx, Some(session_id)).await
}

/// The caller of `session` (`None`: of every session it has, as the list of its conversations
/// asks, for which a JWT's sessions claim must be `"*"`, the core's [`EVERY_SESSION`]), when the
/// request may go on; else the refusal (or the runtime's fault).
///
/// What awaits (a token's signature, the rate limit) runs in boxed futures of its own, so that
/// a request that needs neither never runs, nor makes V8 compile, their code (a worker's first
/// request compiles every function it enters, whole: `bench/first_turn.mjs`).
pub(crate) async fn admit_to(
    cx: &mut RouteContext<'_>,
    session: Option<&str>,
) -> Result<Principal, Failure> {
    let session_id = match session {
        Some(id) if !valid_session_id(id) => return Err(Refusal::invalid_session_id().into()),
        Some(id) => id,
        None => EVERY_SESSION,
    };
    let authorization = cx.req.header(Field::Authorization);
    let checked = match check_now(authorization, cx.config) {
        Ok(Admission::Admitted(principal)) => Ok(principal),
        Ok(token) => verify(token, session_id)
            .boxed_local()
            .await
            .map_err(Refusal::from),
        Err(refusal) => Err(refusal),
    };
    let principal = match checked {
        Ok(principal) => principal,
        Err(refusal) => return Err(spend_refused(cx, refusal).boxed_local().await.into()),
    };
    // A token's `sub` may be any length its issuer made: the line keeps what an id may hold.
    cx.exchange.log.user = principal
        .user_id
        .as_deref()
        .map(|user| clip(user, MAX_LOGGED_ID_CHARS).to_owned());
    if let Some(binding) = rate_limiter::binding(cx.env) {
        let user_id = principal.user_id.as_deref();
        rate_limiter::check(binding, cx.req, cx.config, user_id)
            .boxed_local()
            .await?;
    }
    Ok(principal)
}

/// A refusal of the caller's credentials (a 401) spends one of the client's budget, where the
/// `RATE_LIMITER` binding is configured: the client's IP's, since no credential names it. So a
/// secret cannot be guessed faster than the limit allows; past it the answer is the 429.
async fn spend_refused(cx: &RouteContext<'_>, refusal: Refusal) -> Refusal {
    if refusal.kind.status != 401 {
        return refusal;
    }
    let Some(binding) = rate_limiter::binding(cx.env) else {
        return refusal;
    };
    match rate_limiter::check(binding, cx.req, cx.config, None).await {
        Ok(()) => refusal,
        Err(limited) => limited,
    }
}

/// The credentials, as far as they can be checked without waiting: the caller admitted, or the
/// token whose signature is still to be verified; else the refusal.
fn check_now<'a>(
    authorization: Option<&'a str>,
    config: &'a Config,
) -> Result<Admission<'a>, Refusal> {
    Ok(authorize(&config.auth, authorization)?)
}

/// A token's signature checked with WebCrypto, then its claims.
async fn verify(admission: Admission<'_>, session_id: &str) -> Result<Principal, AuthError> {
    let now_secs = now_ms() / 1000;
    match admission {
        Admission::Admitted(principal) => Ok(principal),
        Admission::NeedsSecret(token) => {
            hs256::verify(&token).await?;
            token.admit(session_id, now_secs)
        }
        Admission::NeedsKey(token) => {
            jwks_cache::verify(&token).await?;
            token.admit(session_id, now_secs)
        }
    }
}
