//! The worker this repository deploys: the adapter (`session-agent-adapter`) mounted as any
//! workers-rs worker mounts it (its `fetch` export written out), and the Durable
//! Object classes `wrangler.toml` declares: the demo agent (`session-agent-demo`), or in the
//! production build, where the agent is a worker of its own, an inert stand-in; and the
//! conversations' index of the adapter (`SessionIndex`).
#![cfg(target_arch = "wasm32")]
#![forbid(unsafe_code)]

use session_agent_adapter::Adapter;
use session_agent_platform::log;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use worker::web_sys;
use worker::{event, Context, Env, Response};

/// The conversations' index (`SESSION_INDEX`): exported with the adapter's code whatever this
/// crate names, named here as wrangler.toml binds it.
pub use session_agent_adapter::SessionIndex;
#[cfg(feature = "demo")]
pub use session_agent_demo::DemoSessionAgent;
#[cfg(not(feature = "demo"))]
mod demo_off;

/// A panic's message and place, written as the log's one JSON line (`event` `panic`): the
/// worker's every log line is one JSON object (docs/operations.md). The instance is lost after
/// it, which the pump's JavaScript side sees (docs/endpoint.md, step 9).
#[event(start)]
fn start() {
    std::panic::set_hook(Box::new(|info| {
        log::error("panic", None, &info.to_string())
    }));
}

/// Every path: the adapter's routes, and its JSON 404 for any other (this worker has no routes
/// of its own; `examples/mount/` shows a worker that has).
///
/// The export `#[event(fetch)]` would write, by hand: the same error line (the error's `Display`)
/// and the same bare 500, without the macro's detour through `Box<dyn Error>` and its `unwrap`
/// of a 500 that cannot fail. Either keeps workers-rs' `Debug` formatting of its errors in the
/// wasm: with the stand-in Durable Object's glue gone too (`demo_off`), the macro's export costs
/// 5,469 bytes of the gzipped production wasm (bench/README.md).
#[wasm_bindgen(js_sys = worker::js_sys, wasm_bindgen_futures = worker::wasm_bindgen_futures)]
pub async fn fetch(
    req: web_sys::Request,
    env: Env,
    ctx: worker::worker_sys::Context,
) -> Result<JsValue, JsValue> {
    let ctx = Context::new(ctx);
    let response = match Adapter::new().fetch(&req, &env, &ctx).await {
        Ok(response) => response,
        Err(err) => {
            log::error("fault", None, &err.to_string());
            // A 500 with a fixed text is always made; were it not, the request fails.
            Response::error("INTERNAL SERVER ERROR", 500)
                .map_err(|_| JsValue::from_str("INTERNAL SERVER ERROR"))?
                .into()
        }
    };
    Ok(JsValue::from(response))
}

/// The Cron Trigger (`[triggers]` in wrangler.toml): the adapter's scheduled work, at the
/// trigger's `scheduledTime` (the uploads' sweep: docs/files.md). Written out as `fetch` is.
#[wasm_bindgen(js_sys = worker::js_sys, wasm_bindgen_futures = worker::wasm_bindgen_futures)]
pub async fn scheduled(controller: JsValue, env: Env, _ctx: worker::worker_sys::Context) {
    let time = worker::js_sys::Reflect::get(&controller, &JsValue::from_str("scheduledTime"))
        .ok()
        .and_then(|time| time.as_f64())
        .unwrap_or(0.0);
    Adapter::new().scheduled(&env, time).await;
}
