//! The demo agent's class in a build without the demo (`scripts/build.sh --production`): an
//! object that answers every request `404 demo_agent_off`. wrangler.toml's migration declares
//! `DemoSessionAgent`, and a deploy must export every class its migrations declare; nothing
//! binds it in production. The demo costs 41 KB of the gzipped wasm; this glue, the constructor
//! and `fetch` alone (`#[durable_object(fetch)]`), far less. The handlers a bare
//! `#[durable_object]` would export besides (the alarm, the WebSocket hibernation handlers,
//! `connect`) are workers-rs' defaults, which log and panic, and nothing can call them here: the
//! class is bound by nothing, accepts no WebSocket and sets no alarm. They cost 3,189 bytes of
//! the gzipped wasm (bench/README.md, "Production wasm: 178,456 → …").

use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

use session_agent_core::refusal::DEMO_AGENT_OFF;
use session_agent_platform::errors::json_error;

/// `class_name = "DemoSessionAgent"`, compiled out.
#[durable_object(fetch)]
pub struct DemoSessionAgent {
    _state: State,
}

impl DurableObject for DemoSessionAgent {
    fn new(state: State, _env: Env) -> Self {
        DemoSessionAgent { _state: state }
    }

    async fn fetch(&self, _req: Request) -> Result<Response> {
        json_error(
            DEMO_AGENT_OFF,
            "This build has no demo agent (scripts/build.sh --production).",
        )
    }
}
