//! The edge shell: the worker's `fetch` entry point, routing, CORS and the request's log line.
//!
//! * `POST /api/sessions/:id/chat` ([`chat`]): the AI SDK endpoint (a prompt or an answer).
//! * `GET /api/sessions/:id/chat/:chatId/stream`, `POST /api/sessions/:id/chat/stop` and
//!   `GET /api/sessions/:id/messages` ([`session_routes`]): resume, stop and history.
//! * `OPTIONS` on any of these: the CORS preflight.
//! * `GET /demo/sessions/:id/received|sent|connections` ([`demo_routes`]): the demo agent's logs.
//! * `GET /` ([`playground`]): the chat panel's playground page, with the demo agent only.
//!   (`GET /widget.js` and the panel it loads, `/widget/panel-<version>.js`, are static assets: they
//!   never reach the worker.)
//! * anything else: a JSON 404; a known path with another method: a JSON 405 with `Allow`.
//!
//! Every answer carries `x-request-id`, and CORS headers for allowed origins only.

mod answer;
mod chat;
mod demo_routes;
mod drain;
mod exchange;
mod guard;
mod hs256;
mod hydrate;
mod incoming;
mod jwks_cache;
mod outcome;
mod playground;
mod pump;
mod rate_limiter;
mod session_routes;
mod stream;
mod upstream;
mod webcrypto;

use std::cell::Cell;
use std::future::Future;

use futures::future::{self, FutureExt, LocalBoxFuture};
use worker::{console_error, event, Context, Env, Method, Response};

use crate::config::{Config, ConfigError};
use crate::platform::{errors, settings};
use crate::request_head::{Field, HeaderSet, RequestHead};
use crate::request_log::Answered;
use crate::routes::{path_of_url, Route};
use exchange::Exchange;
use incoming::RequestIn;
use outcome::Outcome;

/// How much of an unread body is drained when the settings did not load: the default
/// `MAX_BODY_BYTES`.
const DRAIN_DEFAULT_BYTES: usize = 4 * 1024 * 1024;

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The entry point. The request stays the runtime's `Request` (`worker::Request` would copy its
/// method and URL and read its `cf` object, which the runtime builds on first access); its head
/// is read in one call ([`RequestIn`]), with the headers the settings use.
#[event(fetch)]
async fn fetch(req: web_sys::Request, env: Env, ctx: Context) -> worker::Result<web_sys::Response> {
    let settings = settings::load(&env);
    let incoming = RequestIn::read(&req, headers_read(&env, &settings));
    let head = incoming.as_ref().map(|incoming| &incoming.head);
    let path = head.map_or("", |head| path_of_url(head.url()));
    let method = Method::from(head.map_or("", RequestHead::method).to_owned());
    let mut exchange = match head {
        Some(head) => Exchange::new(head.id(), head.received_at_ms(), method.as_ref(), path),
        None => Exchange::unread(),
    };
    let origin = head.and_then(|head| head.header(Field::Origin));
    let config = settings.as_ref();
    let outcome = match (&config, &incoming) {
        (Err(err), _) => {
            console_error!("configuration: {err}");
            exchange
                .error(500, "misconfigured", "The service is misconfigured.")
                .map(Into::into)
        }
        // The Fetch standard rules this out (`RequestHead::parse`): the runtime is at fault.
        (Ok(_), None) => {
            console_error!("request head: not the shape incoming.js writes");
            exchange
                .error(500, "internal_error", "Something went wrong on our side.")
                .map(Into::into)
        }
        (Ok(config), Some(incoming)) => {
            let route = Route::match_path(path);
            exchange.log.session = route.session().map(str::to_owned);
            dispatch(incoming, method, &env, config, route, &mut exchange).await
        }
    };
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(err) => {
            console_error!("request {}: {err}", exchange.request_id());
            exchange
                .error(500, "internal_error", "Something went wrong on our side.")?
                .into()
        }
    };
    // Exactly one log line: the pump's, when a stream ends; else this one, below.
    let (response, complete): (web_sys::Response, bool) = match outcome {
        Outcome::Streaming { response, pump } => {
            // `waitUntil` keeps the request alive until the stream ends, which may be after the
            // client has gone and the response is cancelled.
            if let Some(ended) = pump.start() {
                if let Err(err) = ctx.as_ref().wait_until(&ended) {
                    // The body stream still keeps the request alive while the client reads;
                    // after a client leaves, the rest of the turn may then be cut short.
                    console_error!("request {}: waitUntil: {err:?}", exchange.request_id());
                }
            }
            (response, false)
        }
        Outcome::Answered(response) => {
            let limit = config
                .as_ref()
                .map_or(DRAIN_DEFAULT_BYTES, |c| c.limits.max_body_bytes);
            let declared = head.and_then(|head| head.header(Field::ContentLength));
            drain::drain(&req, drain::declared_length(declared), limit)
                .boxed_local()
                .await;
            (response.into(), true)
        }
    };
    // A streamed answer got its `x-request-id` where its response was made (`openBody`); the
    // headers are reached only when something is left to set (a call into JavaScript each).
    let cors = match &config {
        Ok(config) => config.origins.response_headers(origin),
        Err(_) => Vec::new(),
    };
    if complete || !cors.is_empty() {
        let headers = response.headers();
        if complete {
            headers.set("x-request-id", exchange.request_id())?;
        }
        for (name, value) in cors {
            headers.set(name, &value)?;
        }
    }
    if complete {
        exchange.finish();
    }
    Ok(response)
}

thread_local! {
    /// The headers read, found on the isolate's first request: its settings and bindings do not
    /// change while it lives.
    static HEADERS_READ: Cell<Option<HeaderSet>> = const { Cell::new(None) };
}

/// The headers a request's head is read with: those the settings use
/// ([`Config::headers_read`]); every one when the settings do not load.
fn headers_read(env: &Env, settings: &Result<Config, ConfigError>) -> HeaderSet {
    let Ok(config) = settings else {
        return HeaderSet::ALL;
    };
    HEADERS_READ.with(|cell| {
        cell.get().unwrap_or_else(|| {
            let read = config.headers_read(rate_limiter::binding(env).is_some());
            cell.set(Some(read));
            read
        })
    })
}

/// A route's work, as a future of its own. Boxed, so that each route's code is a function of its
/// own, compiled by V8 when that route first runs: awaited in place, every route's code would be
/// part of the entry's one function, which a worker's first request compiles whole
/// (`bench/first_turn.mjs`).
type Handler<'a> = LocalBoxFuture<'a, worker::Result<Outcome>>;

/// The route's handler.
fn dispatch<'a>(
    req: &'a RequestIn<'a>,
    method: Method,
    env: &'a Env,
    config: &'a Config,
    route: Route<'a>,
    exchange: &'a mut Exchange,
) -> Handler<'a> {
    // A production build has no demo agent, and its settings never turn it on: `cfg!` lets the
    // compiler leave the demo's routes (and the playground's page) out of it.
    let demo = cfg!(feature = "demo") && config.demo_agent;
    let answer = match route {
        Route::NotFound => exchange.error(404, "not_found", errors::NOT_FOUND),
        Route::Chat { .. } | Route::Stop { .. } | Route::Resume { .. } | Route::Messages { .. }
            if method == Method::Options =>
        {
            preflight(req, config, route, exchange)
        }
        Route::Chat { session } if method == Method::Post => {
            return chat::handle(req, env, config, session, exchange).boxed_local();
        }
        Route::Stop { session } if method == Method::Post => {
            return answered(session_routes::stop(req, env, config, session, exchange));
        }
        Route::Resume { session, .. } if method == Method::Get => {
            return session_routes::resume(req, env, config, session, exchange).boxed_local();
        }
        Route::Messages { session } if method == Method::Get => {
            return answered(session_routes::messages(
                req, env, config, session, exchange,
            ));
        }
        Route::DemoLog { session, log } if demo && method == Method::Get => {
            return answered(async move {
                // The logs hold every prompt of the session: the chat route's credentials, always.
                guard::or_answer!(guard::admit(req, env, config, session, exchange).await);
                demo_routes::forward(env, session, log, exchange).await
            });
        }
        Route::Playground if demo && method == Method::Get => playground::page(exchange),
        Route::DemoLog { .. } | Route::Playground if !demo => {
            exchange.error(404, "not_found", errors::NOT_FOUND)
        }
        route => {
            let allow = route.allow();
            exchange
                .error(
                    405,
                    "method_not_allowed",
                    &format!("This path only answers {allow}."),
                )
                .and_then(|mut response| {
                    response.headers_mut().set("allow", allow)?;
                    Ok(response)
                })
        }
    };
    future::ready(answer.map(Into::into)).boxed_local()
}

/// A handler whose answer is complete, as a [`Handler`].
fn answered<'a>(answer: impl Future<Output = worker::Result<Response>> + 'a) -> Handler<'a> {
    answer.map(|answer| answer.map(Into::into)).boxed_local()
}

/// The CORS preflight's `204`.
fn preflight(
    req: &RequestIn<'_>,
    config: &Config,
    route: Route<'_>,
    exchange: &mut Exchange,
) -> worker::Result<Response> {
    exchange.log.answered(Answered::Preflight);
    let mut response = Response::empty()?.with_status(204);
    let headers = response.headers_mut();
    for (name, value) in config.origins.preflight_headers(
        req.header(Field::Origin),
        req.header(Field::AccessControlRequestHeaders),
        route.allow(),
    ) {
        headers.set(name, &value)?;
    }
    Ok(response)
}
