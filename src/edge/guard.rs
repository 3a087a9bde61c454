//! The checks every session route makes before it touches the agent: the session id (400), the
//! caller's credentials (401 with `WWW-Authenticate`, 403 for another session's token, 503 with
//! `Retry-After` when the JWKS cannot be fetched) and the caller's rate limit (429 with
//! `Retry-After`, where the binding is configured).

use worker::{Env, Response};

use super::exchange::Exchange;
use super::{hs256, jwks, rate_limit};
use crate::auth::{authorize, Admission, AuthError, Principal};
use crate::config::Config;
use crate::platform::clock::now_ms;
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
pub(crate) async fn admit(
    req: &web_sys::Request,
    env: &Env,
    config: &Config,
    session_id: &str,
    exchange: &mut Exchange,
) -> Result<Principal, worker::Result<Response>> {
    if !valid_session_id(session_id) {
        return Err(exchange.error(
            400,
            "invalid_session_id",
            "The session id must be 1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'.",
        ));
    }
    let authorization = req.headers().get("authorization").ok().flatten();
    let now_secs = now_ms() / 1000;
    let checked = match authorize(&config.auth, authorization.as_deref()) {
        Ok(Admission::Admitted(principal)) => Ok(principal),
        Ok(Admission::NeedsSecret(token)) => match hs256::verify(&token).await {
            Ok(()) => token.admit(session_id, now_secs),
            Err(err) => Err(err),
        },
        Ok(Admission::NeedsKey(token)) => match jwks::verify(&token).await {
            Ok(()) => token.admit(session_id, now_secs),
            Err(err) => Err(err),
        },
        Err(err) => Err(err),
    };
    let principal = checked.map_err(|err| auth_error(exchange, &err))?;
    exchange.log.user = principal.user_id.clone();
    rate_limit::check(req, env, config, &principal, exchange).await?;
    Ok(principal)
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
