//! The demo agent's Durable Object: the class wrangler.toml binds, its `fetch` (the socket's
//! upgrade and the inspection routes), and the pieces only it runs.

mod connection;
mod files;
mod fresh;
mod list_store;
mod log;
mod session;
mod sql;
mod store;
mod turn;

use std::rc::Rc;

use worker::{
    durable_object, DurableObject, Env, Headers, Method, Request, Response, Result, State,
    WebSocketPair,
};

use crate::persona::Persona;
use crate::platform::errors::{json_error, not_found};
use crate::platform::settings::demo_enabled;
use crate::platform::socket::SocketEvents;
use connection::Connection;
use session::Session;
use session_agent_core::refusal::DEMO_AGENT_OFF;

/// Session id prefix for which the agent answers the upgrade without a WebSocket.
const NO_WEBSOCKET_PREFIX: &str = "nows-";
/// The header of the upgrade's answer in which the agent says its protocol.
const PROTOCOL_HEADER: &str = "x-agent-protocol";
/// Session id prefix for which the agent's fetch fails (the stub throws).
const THROW_PREFIX: &str = "throw-";

/// The demo SessionAgent class (`class_name = "DemoSessionAgent"`).
#[durable_object]
pub struct DemoSessionAgent {
    env: Env,
    session: Rc<Session>,
}

impl DurableObject for DemoSessionAgent {
    fn new(state: State, env: Env) -> Self {
        // The bucket the adapter keeps files in, for `/files` (none without it).
        let files = env.bucket("FILES").ok();
        let session = Session::new(state.storage(), &state.storage(), files);
        DemoSessionAgent {
            env,
            session: Rc::new(session),
        }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        if !demo_enabled(&self.env) {
            return json_error(DEMO_AGENT_OFF, "The demo agent is turned off.");
        }
        let upgrade = req.headers().get("upgrade")?.unwrap_or_default();
        if upgrade.eq_ignore_ascii_case("websocket") {
            return self.accept_adapter(&req);
        }
        match (req.method(), req.path().as_str()) {
            (Method::Get, "/demo/received") => json(self.session.logs.received_json().await?),
            (Method::Get, "/demo/sent") => json(self.session.logs.sent_json()),
            (Method::Get, "/demo/connections") => json(self.session.logs.connections_json()),
            _ => not_found(),
        }
    }
}

impl DemoSessionAgent {
    /// Accepts a client's socket: sends it `init` and adds it to the session's broadcast in one
    /// step, then reads it in a task of its own.
    fn accept_adapter(&self, req: &Request) -> Result<Response> {
        let session_id = req.headers().get("x-session-id")?.unwrap_or_default();
        if session_id.starts_with(NO_WEBSOCKET_PREFIX) {
            return json(r#"{"demo":"this session answers without a WebSocket"}"#.into());
        }
        if session_id.starts_with(THROW_PREFIX) {
            return Err(worker::Error::RustError(
                "demo agent: failing on purpose for a throw- session".into(),
            ));
        }
        let pair = WebSocketPair::new()?;
        let events = SocketEvents::listen(&pair.server)
            .map_err(|e| worker::Error::RustError(format!("listen: {e:?}")))?;
        pair.server.accept()?;
        let id = self.session.next_conn();
        let header = |name: &str| req.headers().get(name).ok().flatten();
        self.session.logs.connected(
            id,
            serde_json::json!({
                "x-session-id": header("x-session-id"),
                "x-user-id": header("x-user-id"),
                "x-client": header("x-client"),
            }),
        );
        if let Some(stopped) = self.session.join(id, &pair.server, &session_id) {
            let connection = Connection {
                events,
                session: self.session.clone(),
                id,
                stopped,
            };
            wasm_bindgen_futures::spawn_local(connection.serve());
        }
        let response = Response::from_websocket(pair.client)?;
        // The protocol it keeps, on the upgrade's answer (docs/agent-protocol.md, "Versions"):
        // 5, or 4 as the `proto4-` persona; none as an agent that sends less (`noinit-`,
        // `noinflight-`), which keeps an older one.
        if let Some(protocol) = Persona::of(&session_id).protocol() {
            let headers = Headers::new();
            headers.set(PROTOCOL_HEADER, &protocol.to_string())?;
            return Ok(response.with_headers(headers));
        }
        Ok(response)
    }
}

fn json(body: String) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/json; charset=utf-8")?;
    Ok(Response::builder()
        .with_headers(headers)
        .fixed(body.into_bytes()))
}
