//! The demo agent's class in a build without the demo (`scripts/build.sh --production`): an
//! object that answers every request `404 demo_agent_off`. wrangler.toml's migration declares
//! `DemoSessionAgent`, and a deploy must export every class its migrations declare; nothing
//! binds it in production.
//!
//! Written with wasm-bindgen alone, as the class `#[durable_object(fetch)]` would export (a
//! constructor taking the state and the environment, an async `fetch`), without the macro's
//! glue: the request made a `worker::Request`, an error made JavaScript's through `dyn Error`
//! (which keeps workers-rs' `Debug` formatting in the wasm), and with a bare `#[durable_object]`
//! the alarm, WebSocket hibernation and `connect` handlers, workers-rs' defaults (a log and a
//! panic) that nothing can call on a class nothing binds. The glue cost 9,670 bytes of the
//! gzipped wasm (bench/README.md); the demo costs 41 KB.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use worker::web_sys;

use session_agent_core::refusal::DEMO_AGENT_OFF;
use session_agent_platform::errors::json_error;

/// `class_name = "DemoSessionAgent"`, compiled out.
#[wasm_bindgen]
pub struct DemoSessionAgent;

#[wasm_bindgen(js_sys = worker::js_sys, wasm_bindgen_futures = worker::wasm_bindgen_futures)]
impl DemoSessionAgent {
    /// `new (state, env)`, as workerd makes a Durable Object; neither is needed.
    #[wasm_bindgen(constructor)]
    pub fn new(_state: JsValue, _env: JsValue) -> Self {
        DemoSessionAgent
    }

    /// Every request: `404 demo_agent_off`. A response of fixed parts is always made; were it
    /// not, the request fails with the error's text.
    pub async fn fetch(&self, _req: web_sys::Request) -> Result<JsValue, JsValue> {
        let response = json_error(
            DEMO_AGENT_OFF,
            "This build has no demo agent (scripts/build.sh --production).",
        )
        .map_err(|err| JsValue::from_str(&err.to_string()))?;
        Ok(web_sys::Response::from(response).into())
    }
}
