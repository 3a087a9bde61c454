//! `POST /api/sessions/:id/chat`: one AI SDK chat request, streamed from the session's agent.
//!
//! The steps: validate the session id, `Content-Type` and body (JSON errors, 4xx); open the
//! agent's socket and send the `prompt` with a fresh `requestId` (JSON errors, 5xx); answer
//! `200` with the UI stream headers and a body the [`Pump`] fills as frames arrive.

use futures::StreamExt;
use worker::{console_error, Context, Headers, Method, Request, Response, RouteContext};

use super::client::ClientStream;
use super::config;
use super::errors::{json_error, method_not_allowed};
use super::pump::Pump;
use super::upstream::{self, AgentSocket};
use crate::request::{parse_chat_request, RequestError};
use crate::sse::RESPONSE_HEADERS;
use crate::turn_stream::TurnStream;
use crate::v2::prompt_frame;

/// Longest session id (issue 3: 1–128 characters).
const MAX_SESSION_ID_LEN: usize = 128;

/// WebSocket close code for "the server hit an unexpected condition" (RFC 6455, 7.4.1).
const INTERNAL_ERROR: u16 = 1011;

pub(crate) async fn handle(
    mut req: Request,
    route: RouteContext<Context>,
) -> worker::Result<Response> {
    if req.method() != Method::Post {
        return method_not_allowed("POST");
    }
    let session_id = route.param("id").cloned().unwrap_or_default();
    if !valid_session_id(&session_id) {
        return json_error(
            400,
            "invalid_session_id",
            "The session id must be 1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'.",
        );
    }
    let content_type = req.headers().get("content-type").ok().flatten();
    if !is_json(content_type.as_deref()) {
        return json_error(
            415,
            "unsupported_media_type",
            "The request body must be JSON (Content-Type: application/json).",
        );
    }
    let config = match config::load(&route.env) {
        Ok(config) => config,
        Err(err) => {
            console_error!("configuration: {err}");
            return json_error(500, "misconfigured", "The service is misconfigured.");
        }
    };
    let body = match read_body(&mut req, config.limits.max_body_bytes).await {
        Ok(body) => body,
        Err(err) => return request_error(&err),
    };
    let chat = match parse_chat_request(&body, &config.limits) {
        Ok(chat) => chat,
        Err(err) => return request_error(&err),
    };

    let AgentSocket { socket, events } =
        match upstream::connect(&route.env, &config, &session_id).await {
            Ok(agent) => agent,
            Err(err) => return json_error(err.status(), err.code(), err.message()),
        };
    let request_id = new_request_id();
    let prompt = prompt_frame(&chat.text, &request_id, &chat.attachments);
    if socket.send_with_str(prompt).is_err() {
        let _ = socket.close(Some(INTERNAL_ERROR), Some("prompt not sent"));
        let err = upstream::UpstreamError::SocketFailed;
        return json_error(err.status(), err.code(), err.message());
    }

    let (client, body) = match ClientStream::open(Some(req.inner().signal())) {
        Ok(opened) => opened,
        Err(_) => {
            let _ = socket.close(Some(INTERNAL_ERROR), Some("no response stream"));
            return json_error(
                500,
                "internal_error",
                "The response stream could not be created.",
            );
        }
    };
    let pump = Pump {
        socket,
        events,
        client,
        turn: TurnStream::new(Some(&request_id)),
        request_id,
    };
    // `wait_until` runs the pump as a task tied to this request: it may finish (and must send
    // the abort) after the client has gone and the response is cancelled.
    route.data.wait_until(pump.run());

    let headers = Headers::new();
    for (name, value) in RESPONSE_HEADERS {
        headers.set(name, value)?;
    }
    Ok(Response::builder()
        .with_status(200)
        .with_headers(headers)
        .stream(body))
}

fn request_error(err: &RequestError) -> worker::Result<Response> {
    json_error(err.status(), err.code(), &err.message())
}

/// 1–128 characters of `[A-Za-z0-9._:-]`.
fn valid_session_id(id: &str) -> bool {
    (1..=MAX_SESSION_ID_LEN).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

/// `application/json` or any `application/*+json`, parameters (`; charset=utf-8`) allowed.
fn is_json(content_type: Option<&str>) -> bool {
    let Some(value) = content_type else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
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

/// A random UUID (version 4): the `requestId` that ties the agent's turn to this POST.
fn new_request_id() -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // crypto.getRandomValues does not fail in workerd; a clock-based id still tells turns
        // apart should it ever do so.
        let now = worker::Date::now().as_millis().to_le_bytes();
        bytes[..8].copy_from_slice(&now);
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}
