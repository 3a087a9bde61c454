//! The agent's side of a delete (`DELETE /api/sessions/:id`, protocol 7): a socket of its own to
//! the session's agent, the `forget` frame, and the wait for its `forgotten`. An agent whose
//! upgrade's answer says an older protocol is not asked (`409 agent_cannot_forget`); one that
//! errs, closes or stays silent fails the delete (`502`, `504`), so that nothing else is removed
//! and the user can ask again. What the answer means is the core's (`crate::forget`).

use futures::future::{FutureExt, LocalBoxFuture};
use worker::Env;

use crate::agent::hydrate::read_forgotten;
use crate::agent::upstream;
use crate::config::Config;
use crate::context::RouteContext;
use crate::failure::Failure;
use crate::platform::socket::{close_done, close_failed};
use crate::refusal::Refusal;
use crate::v2::{forget_frame, FORGET_PROTOCOL};

/// Asks the agent of `session` to forget it, for the caller `user_id`; `Ok` once it keeps
/// nothing of it.
pub(crate) async fn forget_agent(
    cx: &RouteContext<'_>,
    session: &str,
    user_id: Option<&str>,
) -> Result<(), Failure> {
    let request_id = cx.exchange.request_id();
    forget_boxed(cx.env, cx.config, session, user_id, request_id).await
}

/// [`forget_session`] as one boxed future, so that its steps are in the wasm once, whoever
/// awaits them (a delete, retention's run).
pub(crate) fn forget_boxed<'a>(
    env: &'a Env,
    config: &'a Config,
    session: &'a str,
    user_id: Option<&'a str>,
    request_id: &'a str,
) -> LocalBoxFuture<'a, Result<(), Failure>> {
    forget_session(env, config, session, user_id, request_id).boxed_local()
}

/// [`forget_agent`] outside a request (retention: `crate::retention`), `request_id` naming the
/// `forget` and its log lines.
async fn forget_session(
    env: &Env,
    config: &Config,
    session: &str,
    user_id: Option<&str>,
    request_id: &str,
) -> Result<(), Failure> {
    let opened = upstream::connect_from(env, config, session, user_id, FORGET_PROTOCOL).await?;
    let Ok(mut agent) = opened else {
        return Err(Refusal::agent_cannot_forget().into());
    };
    if agent
        .socket
        .send_with_str(forget_frame(request_id))
        .is_err()
    {
        close_failed(&agent.socket, "forget not sent");
        return Err(upstream::UpstreamError::SocketFailed.into());
    }
    let answered = read_forgotten(&mut agent.events, request_id).await;
    close_done(&agent.socket);
    Ok(answered?)
}
