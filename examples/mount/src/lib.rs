//! A worker with routes of its own that mounts the chat adapter: the adapter answers
//! `/api/sessions/...`, and hands every other request back, unread, to the worker's own routes.
// A worker is wasm32 only; in this repository's workspace, `cargo test --workspace` builds it
// natively too, as an empty crate.
#![cfg(target_arch = "wasm32")]

use session_agent_adapter::Adapter;
use worker::{event, web_sys, Context, Env, Request, Response, Result};

// #region mount
#[event(fetch)]
async fn fetch(req: web_sys::Request, env: Env, ctx: Context) -> Result<web_sys::Response> {
    if let Some(response) = Adapter::new().handle(&req, &env, &ctx).await? {
        return Ok(response);
    }
    // #endregion mount
    let mut req = Request::from(req);
    let response = match (req.method(), req.path().as_str()) {
        (worker::Method::Get, "/health") => Response::ok("ok"),
        (worker::Method::Post, "/echo") => Response::ok(req.text().await?),
        _ => Response::error("This worker has no such page.", 404),
    };
    Ok(response?.into())
}
