//! The worker this repository deploys: the adapter (`session-agent-adapter`) mounted as any
//! workers-rs worker mounts it, and the Durable Object class `wrangler.toml` declares: the demo
//! agent (`session-agent-demo`), or in the production build, where the agent is a worker of its
//! own, an inert stand-in.
#![cfg(target_arch = "wasm32")]
#![forbid(unsafe_code)]

use session_agent_adapter::Adapter;
use worker::web_sys;
use worker::{event, Context, Env};

#[cfg(feature = "demo")]
pub use session_agent_demo::DemoSessionAgent;
#[cfg(not(feature = "demo"))]
mod demo_off;

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Every path: the adapter's routes, and its JSON 404 for any other (this worker has no routes
/// of its own; `examples/mount/` shows a worker that has).
#[event(fetch)]
async fn fetch(req: web_sys::Request, env: Env, ctx: Context) -> worker::Result<web_sys::Response> {
    Adapter::new().fetch(&req, &env, &ctx).await
}
