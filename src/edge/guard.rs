//! The checks every session route makes before it touches the agent: the session id (400), the
//! caller's credentials (401 with `WWW-Authenticate`, 403 for another session's token, 503 with
//! `Retry-After` when the JWKS cannot be fetched) and the caller's rate limit (429 with
//! `Retry-After`, where the binding is configured).

use futures::FutureExt;
use worker::{Env, Response};

use super::exchange::Exchange;
use super::incoming::RequestIn;
use super::{hs256, jwks_cache, rate_limiter};
use crate::auth::{authorize, Admission, AuthError, Principal};
use crate::config::Config;
use crate::platform::clock::now_ms;
use crate::request_head::Field;
use crate::routes::valid_session_id;

/// The `Ok` value of a step that returns `Result<T, worker::Result<Response>>`, or the error
/// answer, returned from the handler at once (as its own type: a `Response`, or an `Outcome`).
macro_rules! or_answer {
    ($step:expr) => {
        match $step {
            Ok(value) => value,
            Err(answer) => return answer.map(Into::into),
        }
    };
}
pub(crate) use or_answer;

/// The caller, when the request may go on; else the error answer to send.
///
/// What awaits (a token's signature, the rate limit) runs in boxed futures of its own, so that
/// a request that needs neither never runs, nor makes V8 compile, their code (a worker's first
/// request compiles every function it enters, whole: `bench/first_turn.mjs`).
pub(crate) async fn admit(
    req: &RequestIn<'_>,
    env: &Env,
    config: &Config,
    session_id: &str,
    exchange: &mut Exchange,
) -> Result<Principal, worker::Result<Response>> {
    let authorization = req.header(Field::Authorization);
    let principal = match check_now(authorization, config, session_id, exchange)? {
        Admission::Admitted(principal) => principal,
        token => verify(token, session_id)
            .boxed_local()
            .await
            .map_err(|err| auth_error(exchange, &err))?,
    };
    exchange.log.user = principal.user_id.clone();
    if let Some(binding) = rate_limiter::binding(env) {
        rate_limiter::check(binding, req, config, &principal, exchange)
            .boxed_local()
            .await?;
    }
    Ok(principal)
}

/// The session id and the credentials, as far as they can be checked without waiting: the
/// caller admitted, or the token whose signature is still to be verified; else the error answer.
fn check_now<'a>(
    authorization: Option<&'a str>,
    config: &'a Config,
    session_id: &str,
    exchange: &mut Exchange,
) -> Result<Admission<'a>, worker::Result<Response>> {
    if !valid_session_id(session_id) {
        return Err(exchange.error(
            400,
            "invalid_session_id",
            "The session id must be 1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'.",
        ));
    }
    authorize(&config.auth, authorization).map_err(|err| auth_error(exchange, &err))
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

fn auth_error(exchange: &mut Exchange, err: &AuthError) -> worker::Result<Response> {
    let mut response = exchange.error(err.status(), err.code(), &err.message())?;
    if err.status() == 401 {
        // RFC 6750 section 3: the scheme, and the error once credentials were presented.
        let challenge = match err {
            AuthError::Missing => "Bearer".to_owned(),
            _ => "Bearer error=\"invalid_token\"".to_owned(),
        };
        response.headers_mut().set("www-authenticate", &challenge)?;
    }
    if let AuthError::Unavailable { retry_after_secs } = err {
        response
            .headers_mut()
            .set("retry-after", &retry_after_secs.to_string())?;
    }
    Ok(response)
}
