//! The embedded demo SessionAgent: a Durable Object that speaks the agent side of
//! `docs/agent-protocol.md`, so the worker runs with no external agent.
//!
//! `wrangler.toml` binds `SESSION_AGENT` to it by default; it answers only while
//! `DEMO_AGENT = "on"`. It behaves as a session ("Sessions" in the protocol page): every socket
//! gets an `init` first, every turn event goes to every socket, a turn outlives the socket that
//! prompted it, one turn runs at a time, and the history is kept in the object's SQLite storage.
//!
//! * [`session`]: the sockets, the turn in flight and its message, `busy`, aborts, answers;
//! * [`turn`]: the task that runs a turn's [`script`] (the commands, in [`step`]s; [`lazy`]
//!   deltas for benchmarks) and broadcasts its [`frames`];
//! * [`connection`]: one socket, reading what clients send ([`incoming`]);
//! * [`history`] and [`rows`]: the stored messages and the `init` built from them;
//! * [`log`]: what was received and sent, for tests.
//!
//! Two session id prefixes make it fail on purpose before any socket exists, for the tests of
//! the edge's upstream errors: `nows-` answers the upgrade with a plain `200` JSON body,
//! `throw-` makes the stub throw. Two more make it an agent that sends less, for the tests of
//! how the adapter degrades: `noinit-` sends no `init`, `noinflight-` leaves the turn in flight
//! out of it ([`session::Session::join`]).

mod client_frame;
mod connection;
mod frames;
mod history_store;
mod lazy;
mod log;
mod rows;
mod script;
mod session;
mod step;
mod turn;

use std::rc::Rc;

use worker::{
    durable_object, DurableObject, Env, Headers, Method, Request, Response, Result, State,
    WebSocketPair,
};

use crate::platform::errors::{json_error, not_found};
use crate::platform::settings::demo_enabled;
use crate::platform::socket::SocketEvents;
use connection::Connection;
use session::Session;

/// Session id prefix for which the agent answers the upgrade without a WebSocket.
const NO_WEBSOCKET_PREFIX: &str = "nows-";
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
        let session = Session::new(state.storage(), &state.storage());
        DemoSessionAgent {
            env,
            session: Rc::new(session),
        }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        if !demo_enabled(&self.env) {
            return json_error(404, "demo_agent_off", "The demo agent is turned off.");
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
        Response::from_websocket(pair.client)
    }
}

fn json(body: String) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/json; charset=utf-8")?;
    Ok(Response::builder()
        .with_headers(headers)
        .fixed(body.into_bytes()))
}
