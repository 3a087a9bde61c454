//! `POST /api/sessions/:id/chat`: one AI SDK chat request, streamed from the session's agent.
//!
//! The steps, in order: the session id (400), the caller's credentials (401/403), the
//! `Content-Type` (415) and the body (4xx) — all before the agent is touched; then the agent's
//! socket and the `prompt` with the request id as `requestId` (JSON 5xx on failure); then `200`
//! with the UI stream headers and a body the [`Pump`] fills as frames arrive.

use futures::StreamExt;
use worker::{Context, Date, Env, Headers, Request, Response};

use super::client::ClientStream;
use super::exchange::Exchange;
use super::pump::{Pump, PumpLimits};
use super::upstream::{self, AgentSocket, UpstreamError};
use crate::auth::{authorize, AuthError};
use crate::config::Config;
use crate::request::{parse_chat_request, RequestError};
use crate::routes::{is_json_content_type, valid_session_id};
use crate::sse::RESPONSE_HEADERS;
use crate::turn_stream::TurnStream;
use crate::v2::prompt_frame;

/// WebSocket close code for "the server hit an unexpected condition" (RFC 6455, 7.4.1).
const INTERNAL_ERROR: u16 = 1011;

pub(crate) async fn handle(
    mut req: Request,
    env: &Env,
    ctx: &Context,
    config: &Config,
    session_id: &str,
    exchange: &mut Exchange,
    streaming: &mut bool,
) -> worker::Result<Response> {
    if !valid_session_id(session_id) {
        return exchange.error(
            400,
            "invalid_session_id",
            "The session id must be 1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'.",
        );
    }
    let authorization = req.headers().get("authorization").ok().flatten();
    let now_secs = Date::now().as_millis() / 1000;
    let principal = match authorize(&config.auth, authorization.as_deref(), session_id, now_secs) {
        Ok(principal) => principal,
        Err(err) => return auth_error(exchange, &err),
    };
    exchange.log.user = principal.user_id.clone();
    let content_type = req.headers().get("content-type").ok().flatten();
    if !is_json_content_type(content_type.as_deref()) {
        return exchange.error(
            415,
            "unsupported_media_type",
            "The request body must be JSON (Content-Type: application/json).",
        );
    }
    let body = match read_body(&mut req, config.limits.max_body_bytes).await {
        Ok(body) => body,
        Err(err) => return exchange.error(err.status(), err.code(), &err.message()),
    };
    let chat = match parse_chat_request(&body, &config.limits) {
        Ok(chat) => chat,
        Err(err) => return exchange.error(err.status(), err.code(), &err.message()),
    };

    let agent = upstream::connect(env, config, session_id, principal.user_id.as_deref()).await;
    let AgentSocket { socket, events } = match agent {
        Ok(agent) => agent,
        Err(err) => return upstream_error(exchange, err),
    };
    let request_id = exchange.request_id().to_owned();
    let prompt = prompt_frame(&chat.text, &request_id, &chat.attachments);
    if socket.send_with_str(prompt).is_err() {
        let _ = socket.close(Some(INTERNAL_ERROR), Some("prompt not sent"));
        return upstream_error(exchange, UpstreamError::SocketFailed);
    }

    let Ok((client, body)) = ClientStream::open(Some(req.inner().signal())) else {
        let _ = socket.close(Some(INTERNAL_ERROR), Some("no response stream"));
        return exchange.error(
            500,
            "internal_error",
            "The response stream could not be created.",
        );
    };
    exchange.log.status = 200;
    let pump = Pump {
        socket,
        events,
        client,
        turn: TurnStream::new(Some(&request_id)),
        request_id,
        limits: PumpLimits::from(config),
        exchange: Exchange::handed_off(exchange),
    };
    // `wait_until` runs the pump as a task tied to this request: it may finish (and must send
    // the abort) after the client has gone and the response is cancelled.
    ctx.wait_until(pump.run());
    *streaming = true;

    let headers = Headers::new();
    for (name, value) in RESPONSE_HEADERS {
        headers.set(name, value)?;
    }
    Ok(Response::builder()
        .with_status(200)
        .with_headers(headers)
        .stream(body))
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
    Ok(response)
}

fn upstream_error(exchange: &mut Exchange, err: UpstreamError) -> worker::Result<Response> {
    exchange.error(err.status(), err.code(), err.message())
}

/// How far past the size limit an oversized body is still read (and dropped) before the 413:
/// an HTTP/1.1 client still uploading when the answer comes may see a reset connection instead
/// of the answer. 16 MiB covers any body a chat client sends by mistake (a few large files);
/// past it the runtime may cut the connection, which is fine for anything larger.
const DRAIN_SLACK_BYTES: usize = 16 * 1024 * 1024;

/// The body, at most `max` bytes; a larger one is a [`RequestError::TooLarge`].
async fn read_body(req: &mut Request, max: usize) -> Result<Vec<u8>, RequestError> {
    let too_large = RequestError::TooLarge { limit: max };
    let drain_limit = max.saturating_add(DRAIN_SLACK_BYTES);
    let declared = req.headers().get("content-length").ok().flatten();
    if declared
        .and_then(|len| len.trim().parse::<usize>().ok())
        .is_some_and(|len| len > drain_limit)
    {
        return Err(too_large);
    }
    let Ok(mut stream) = req.stream() else {
        // No body at all: the parser says what is missing.
        return Ok(Vec::new());
    };
    let mut body = Vec::new();
    let mut total = 0usize;
    while let Some(chunk) = stream.next().await {
        let chunk =
            chunk.map_err(|_| RequestError::NotJson("the body could not be read".into()))?;
        total = total.saturating_add(chunk.len());
        if total > drain_limit {
            break;
        }
        if total <= max {
            body.extend_from_slice(&chunk);
        }
    }
    if total > max {
        return Err(too_large);
    }
    Ok(body)
}
