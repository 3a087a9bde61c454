//! A request's way through the adapter: its head and the settings, its route, the handler, CORS,
//! what is left of an unread body, and the request's log line.

use crate::diagnostic::{clip, MAX_LOGGED_ID_CHARS};
use std::cell::Cell;
use std::future::Future;

use futures::future::{self, FutureExt, LocalBoxFuture};
use worker::{Context, Env, Method, Response};

use crate::platform::log;

use crate::config::{Config, ConfigError};
use crate::context::RouteContext;
use crate::failure::Failure;
use crate::guard;
use crate::handlers::conversations::{self, Asked};
use crate::handlers::{self, chat, playground};
use crate::inbound::{drain, incoming};
use crate::platform::settings;
use crate::refusal::Refusal;
use crate::request::declared_body_length;
use crate::request_head::{Field, HeaderSet, RequestHead};
use crate::request_log::Disposition;
use crate::routes::{path_of_url, Route};
use crate::{exchange, outcome, turn_log};
use exchange::{Exchange, TurnOf};
use incoming::RequestIn;
use outcome::Outcome;

/// Which paths an [`crate::Adapter`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mount {
    /// Its own routes only: any other path is the caller's ([`crate::Adapter::handle`]).
    Routes,
    /// Every path: a JSON 404 for a path that is none of its routes ([`crate::Adapter::fetch`]).
    Whole,
}

/// A request's way through the adapter; `None` when `mount` leaves its path to the caller. The
/// request stays the runtime's `Request` (`worker::Request` would copy its method and URL and
/// read its `cf` object, which the runtime builds on first access); its head is read in one call
/// ([`RequestIn`]), with the headers the settings use.
pub(crate) async fn run(
    req: &web_sys::Request,
    env: &Env,
    ctx: &Context,
    mount: Mount,
) -> worker::Result<Option<web_sys::Response>> {
    let settings = settings::load(env);
    let incoming = RequestIn::read(req, headers_read(&settings));
    let head = incoming.as_ref().map(|incoming| &incoming.head);
    let path = head.map_or("", |head| path_of_url(head.url()));
    let route = Route::match_path(path);
    let demo = cfg!(feature = "demo") && settings.as_ref().as_ref().is_ok_and(|c| c.demo_agent);
    let playground =
        cfg!(feature = "demo") && settings.as_ref().as_ref().is_ok_and(|c| c.playground);
    if mount == Mount::Routes && incoming.is_some() && !route.answered_by(demo, playground) {
        return Ok(None);
    }
    let method = Method::from(head.map_or("", RequestHead::method).to_owned());
    let mut exchange = match head {
        Some(head) => Exchange::new(head.id(), head.received_at_ms(), method.as_ref(), path),
        None => Exchange::unread(),
    };
    let origin = head.and_then(|head| head.header(Field::Origin));
    let config = settings.as_ref();
    let outcome = match (&config, &incoming) {
        (Err(err), _) => {
            log::error("settings", Some(exchange.request_id()), &err.0);
            Err(Refusal::misconfigured().into())
        }
        // The Fetch standard rules this out (`RequestHead::parse`): the runtime is at fault.
        (Ok(_), None) => {
            log::error("request_head", None, "not the shape incoming.js writes");
            Err(Refusal::internal().into())
        }
        (Ok(config), Some(incoming)) => {
            // The route's session id, valid or not: the line keeps what an id may hold.
            exchange.log.session = route
                .session()
                .map(|session| clip(session, MAX_LOGGED_ID_CHARS).to_owned());
            if matches!(route, Route::Chat { .. }) && method == Method::Post {
                // A chat request is a turn's, refused or streamed: its line holds the turn's record.
                exchange.turn = Some(TurnOf {
                    trigger: None,
                    dataset: turn_log::dataset(env),
                });
            }
            let cx = RouteContext {
                req: incoming,
                env,
                ctx,
                config,
                exchange: &mut exchange,
            };
            dispatch(cx, method, route, demo, playground).await
        }
    };
    let outcome = match outcome {
        Ok(outcome) => Ok(outcome),
        Err(Failure::Refused(refusal)) => exchange.refuse(refusal).map(Outcome::from),
        Err(Failure::Fault(err)) => {
            log::error("fault", Some(exchange.request_id()), &err.to_string());
            exchange.refuse(Refusal::internal()).map(Outcome::from)
        }
    };
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(err) => {
            // The refusal's response could not be made: the worker's entry answers its fixed
            // 500 and logs the fault; the request's own line is written first, with that 500.
            exchange
                .log
                .answered(Disposition::Refused(crate::refusal::INTERNAL_ERROR));
            exchange.finish(None);
            return Err(err);
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
                    let why = format!("waitUntil: {err:?}");
                    log::error("wait_until", Some(exchange.request_id()), &why);
                }
            }
            (response, false)
        }
        Outcome::Feed { response, live } => {
            // As a stream's: the feed runs until its client goes.
            if let Err(err) = ctx.as_ref().wait_until(&live.start()) {
                let why = format!("waitUntil: {err:?}");
                log::error("wait_until", Some(exchange.request_id()), &why);
            }
            (response, false)
        }
        Outcome::Made(response) => (response, true),
        Outcome::Ready(response) => {
            let declared = head.and_then(|head| head.header(Field::ContentLength));
            // A body declared over the bound, or of no number, is not waited for.
            if let Ok(length) = declared_body_length(declared, drain::DRAIN_BYTES) {
                drain::drain(req, length).boxed_local().await;
            }
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
        // The answer is decided (a stream may be running): a header the runtime refuses is
        // logged, and the answer goes without it.
        let headers = response.headers();
        let set = |name: &str, value: &str| {
            if let Err(err) = headers.set(name, value) {
                let why = format!("{name}: {err:?}");
                log::error("response_headers", Some(exchange.request_id()), &why);
            }
        };
        if complete {
            set("x-request-id", exchange.request_id());
        }
        for (name, value) in &cors {
            set(name, value);
        }
    }
    if complete {
        exchange.finish(None);
    }
    Ok(Some(response))
}

thread_local! {
    /// The headers read, found on the isolate's first request: its settings and bindings do not
    /// change while it lives.
    static HEADERS_READ: Cell<Option<HeaderSet>> = const { Cell::new(None) };
}

/// The headers a request's head is read with: those the settings use
/// ([`Config::headers_read`]); every one when the settings do not load.
fn headers_read(settings: &Result<Config, ConfigError>) -> HeaderSet {
    let Ok(config) = settings else {
        return HeaderSet::ALL;
    };
    HEADERS_READ.with(|cell| {
        cell.get().unwrap_or_else(|| {
            let read = config.headers_read();
            cell.set(Some(read));
            read
        })
    })
}

/// A route's work, as a future of its own. Boxed, so that each route's code is a function of its
/// own, compiled by V8 when that route first runs: awaited in place, every route's code would be
/// part of the entry's one function, which a worker's first request compiles whole
/// (`bench/first_turn.mjs`).
type Handler<'a> = LocalBoxFuture<'a, Result<Outcome, Failure>>;

/// The route's handler. `demo`: the demo's routes are on; `playground`: the playground of the
/// agent bound is (a production build has neither, and its settings never turn them on: `cfg!`
/// in `run` lets the compiler leave the demo's routes and the page out of it).
fn dispatch<'a>(
    mut cx: RouteContext<'a>,
    method: Method,
    route: Route<'a>,
    demo: bool,
    playground: bool,
) -> Handler<'a> {
    let answer = match route {
        Route::NotFound => Err(Refusal::not_found().into()),
        Route::Sessions
        | Route::Session { .. }
        | Route::Chat { .. }
        | Route::Stop { .. }
        | Route::Resume { .. }
        | Route::Messages { .. }
        | Route::Events { .. }
        | Route::Files { .. }
        | Route::File { .. }
            if method == Method::Options =>
        {
            preflight(&mut cx, route)
        }
        Route::Sessions if method == Method::Get => {
            return conversations::answer(cx, Asked::List).boxed_local();
        }
        Route::Session { session } if method == Method::Patch => {
            return conversations::answer(cx, Asked::Rename(session)).boxed_local();
        }
        Route::Session { session } if method == Method::Delete => {
            return conversations::answer(cx, Asked::Delete(session)).boxed_local();
        }
        Route::Chat { session } if method == Method::Post => {
            return chat::handle(cx, session).boxed_local();
        }
        Route::Stop { session } if method == Method::Post => {
            return answered(handlers::session::stop(cx, session));
        }
        Route::Resume { session, .. } if method == Method::Get => {
            return handlers::session::resume(cx, session).boxed_local();
        }
        Route::Messages { session } if method == Method::Get => {
            return answered(handlers::session::messages(cx, session));
        }
        Route::Events { session } if method == Method::Get => {
            return handlers::feed::open(cx, session).boxed_local();
        }
        Route::Files { session } if method == Method::Post => {
            return answered(handlers::files::upload(cx, session));
        }
        Route::File { session, file } if method == Method::Get => {
            return handlers::files::serve(cx, session, file).boxed_local();
        }
        Route::DemoLog { session, log } if demo && method == Method::Get => {
            return answered(async move {
                // The logs hold every prompt of the session: the chat route's credentials, always.
                guard::admit(&mut cx, session).await?;
                handlers::demo::forward(cx, session, log).await
            });
        }
        Route::Playground if (demo || playground) && method == Method::Get => {
            playground::page(cx.exchange, demo).map_err(Into::into)
        }
        Route::DemoLog { .. } if !demo => Err(Refusal::not_found().into()),
        Route::Playground if !demo && !playground => Err(Refusal::not_found().into()),
        route => Err(Refusal::method_not_allowed(route.allow()).into()),
    };
    future::ready(answer.map(Into::into)).boxed_local()
}

/// A handler whose answer is complete, as a [`Handler`].
fn answered<'a>(answer: impl Future<Output = Result<Response, Failure>> + 'a) -> Handler<'a> {
    answer.map(|answer| answer.map(Into::into)).boxed_local()
}

/// The CORS preflight's `204`. Never inlined, as `Pump::start`: the other routes' first
/// request does not compile it.
#[inline(never)]
fn preflight(cx: &mut RouteContext<'_>, route: Route<'_>) -> Result<Response, Failure> {
    cx.exchange.log.answered(Disposition::Preflight);
    let mut response = Response::empty()?.with_status(204);
    let headers = response.headers_mut();
    for (name, value) in cx.config.origins.preflight_headers(
        cx.req.header(Field::Origin),
        cx.req.header(Field::AccessControlRequestHeaders),
        route.allow(),
    ) {
        headers.set(name, &value)?;
    }
    Ok(response)
}
