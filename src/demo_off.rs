//! The demo agent's class in a build without the demo (`scripts/build.sh --production`): an
//! object that answers every request `404 demo_agent_off`. wrangler.toml's migration declares
//! `DemoSessionAgent`, and a deploy must export every class its migrations declare; nothing
//! binds it in production. Its Durable Object glue costs about 5 KB of the gzipped wasm, where
//! the demo costs 41 KB.

use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

use session_agent_core::refusal::DEMO_AGENT_OFF;
use session_agent_platform::errors::json_error;

/// `class_name = "DemoSessionAgent"`, compiled out.
#[durable_object]
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
