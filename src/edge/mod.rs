//! The edge shell: the worker's `fetch` entry point and its routes.
//!
//! * `POST /api/sessions/:id/chat` ([`chat`]): the AI SDK endpoint.
//! * `GET /demo/sessions/:id/received|sent` ([`demo_routes`]): the demo agent's logs.
//! * anything else: a JSON 404.

mod chat;
mod client;
pub(crate) mod config;
mod demo_routes;
pub(crate) mod errors;
mod pump;
pub(crate) mod socket;
mod upstream;

use worker::{event, Context, Env, Request, Response, Router};

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
async fn fetch(req: Request, env: Env, ctx: Context) -> worker::Result<Response> {
    Router::with_data(ctx)
        .on_async("/api/sessions/:id/chat", chat::handle)
        .on_async("/demo/sessions/:id/received", demo_routes::received)
        .on_async("/demo/sessions/:id/sent", demo_routes::sent)
        .or_else_any_method("/", |_, _| errors::not_found())
        .or_else_any_method("/*path", |_, _| errors::not_found())
        .run(req, env)
        .await
}
