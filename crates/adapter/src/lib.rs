//! The adapter: the chat and session routes of a workers-rs worker, with routing, CORS and the
//! request's log line (the edge shell over `session-agent-core`).
//!
//! Mount it in your own worker with [`Adapter::handle`]: it answers its routes and hands every
//! other path back to you.
//!
//! ```ignore
//! use session_agent_adapter::Adapter;
//! use worker::{event, Context, Env, Response, Result};
//!
//! #[event(fetch)]
//! async fn fetch(req: web_sys::Request, env: Env, ctx: Context) -> Result<web_sys::Response> {
//!     if let Some(response) = Adapter::new().handle(&req, &env, &ctx).await? {
//!         return Ok(response); // the chat, resume, stop, history and feed routes
//!     }
//!     // Your own routes.
//!     Ok(Response::ok("my own route")?.into())
//! }
//! ```
//!
//! The worker binds `SESSION_AGENT` to the agent's Durable Object namespace (`[[durable_objects.
//! bindings]]` with its `script_name`), and reads the settings of `docs/configuration.md` from its
//! variables and secrets (`AUTH_MODE`, `AUTH_SECRET`, `ALLOWED_ORIGINS`, ...), once per isolate.
//! The adapter checks callers itself (`docs/auth.md`); a worker with auth of its own may check
//! first and hand the adapter only the requests it admits, with `AUTH_MODE = "none"`.
//! `examples/mount/` is a whole worker that does this, built and driven by `npm test`.
//!
//! Its routes:
//!
//! * `POST /api/sessions/:id/chat`: the AI SDK endpoint (a prompt or an answer).
//! * `GET /api/sessions/:id/chat/:chatId/stream` and `POST /api/sessions/:id/chat/stop`: resume
//!   and stop.
//! * `GET /api/sessions/:id/messages`: the history, a page at a time (`?limit=`, `?before=`,
//!   `?leaf=`: its pages and branches).
//! * `GET /api/sessions/:id/events`: the session feed, every turn of the session as it happens.
//! * `GET /api/sessions` (`?limit=`, `?cursor=`), `PATCH` and `DELETE /api/sessions/:id`: the
//!   caller's conversations, renamed and deleted, kept by [`SessionIndex`], a Durable Object of
//!   the adapter's that every worker linking it exports: bind it as `SESSION_INDEX` (with a
//!   `new_sqlite_classes` migration) to turn them on; without it they answer `501`, and turns go
//!   on unlisted.
//! * `OPTIONS` on any of these: the CORS preflight.
//! * `GET /demo/sessions/:id/received|sent|connections`: the demo agent's logs.
//! * `GET /`: the chat panel's playground page, with the demo agent only.
//!   (`GET /widget.js` and the panel it loads, `/widget/panel-<version>.js`, are static assets: they
//!   never reach the worker.)
//! * a known path with another method: a JSON 405 with `Allow`; anything else is the caller's
//!   ([`Adapter::handle`]) or a JSON 404 ([`Adapter::fetch`]).
//!
//! Every answer carries `x-request-id`, and CORS headers for allowed origins only.

#![cfg(target_arch = "wasm32")]
#![forbid(unsafe_code)]

mod agent;
mod context;
mod entry;
mod exchange;
mod failure;
mod feed;
mod guard;
mod handlers;
mod inbound;
mod index;
mod outcome;
mod pump;
mod retention;
mod sweep;
mod turn_log;
mod watchdog;

// The core's modules, named here as they are throughout this crate (`crate::config`, ...).
use session_agent_core::{
    answering, auth, config, conversations, delivery, diagnostic, files, forget, history,
    hydration, liveness, pacing, pages, protocol4, questions, rate_limit, refusal, request,
    request_head, request_log, routes, session, sse, trace, turn_record, turn_stream, v2,
};
use session_agent_platform as platform;

use entry::Mount;
pub use index::SessionIndex;
use worker::{Context, Env};

/// The adapter, as a worker mounts it. It holds nothing: the settings are read from the worker's
/// environment on an isolate's first request and kept while the isolate lives.
#[derive(Debug, Clone, Copy, Default)]
pub struct Adapter {
    _private: (),
}

impl Adapter {
    /// The adapter.
    pub const fn new() -> Self {
        Adapter { _private: () }
    }

    /// Answers `req` when its path is one of the adapter's routes (and the demo agent's, where
    /// the demo is built and `DEMO_AGENT = "on"`); `None` for any other path, which the caller
    /// answers (nothing of the request was read: its body is the caller's).
    ///
    /// A streamed answer goes on after this returns: the adapter keeps the request alive with
    /// `ctx.waitUntil` until its turn ends.
    pub async fn handle(
        &self,
        req: &web_sys::Request,
        env: &Env,
        ctx: &Context,
    ) -> worker::Result<Option<web_sys::Response>> {
        entry::run(req, env, ctx, Mount::Routes).await
    }

    /// Answers `req` whatever its path, as a worker that is only the adapter does: a JSON 404
    /// (`not_found`, with its log line) for a path that is none of its routes.
    pub async fn fetch(
        &self,
        req: &web_sys::Request,
        env: &Env,
        ctx: &Context,
    ) -> worker::Result<web_sys::Response> {
        let answer = entry::run(req, env, ctx, Mount::Whole).await?;
        // `Mount::Whole` answers every path.
        answer.ok_or_else(|| worker::Error::RustError("no answer".into()))
    }

    /// The adapter's work on a schedule, which a worker's Cron Trigger runs (`scheduled_time`:
    /// the trigger's `scheduledTime`, in milliseconds since the epoch, the sweep's clock): uploads
    /// no message named for `UPLOAD_TTL_H` are deleted (docs/files.md), and sessions idle past
    /// `SESSION_TTL_DAYS` (docs/sessions.md, "Retention"). Never fails: what goes wrong is a log
    /// line.
    pub async fn scheduled(&self, env: &Env, scheduled_time: f64) {
        let now_ms = scheduled_time.max(0.0) as u64;
        sweep::sweep_uploads(env, now_ms).await;
        retention::expire_sessions(env, now_ms).await;
    }
}
