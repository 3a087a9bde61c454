//! The embedded demo SessionAgent: a Durable Object that speaks the agent side of
//! `docs/agent-protocol.md`, so the worker runs with no external agent.
//!
//! `wrangler.toml` binds `SESSION_AGENT` to it by default; it answers only while
//! `DEMO_AGENT = "on"`. It behaves as a session ("Sessions" in the protocol page): every socket
//! gets an `init` first, every turn event goes to every socket, a turn outlives the socket that
//! prompted it, one turn runs at a time, and the history is kept in the object's SQLite storage.
//!
//! * `agent::session`: the sockets, the turn in flight and its message, `busy`, aborts, answers;
//! * `agent::turn`: the task that runs a turn's [`script`] (the commands, in [`step`]s; [`lazy`]
//!   deltas for benchmarks) and broadcasts its [`frames`];
//! * `agent::connection`: one socket, reading what clients send ([`client_frame`]);
//! * `agent::history_store` and [`rows`]: the stored messages and the `init` built from them;
//! * [`record`]: how the turn's message grows from the frames it sends;
//! * `agent::log`: what was received and sent, for tests.
//!
//! Two session id prefixes make it fail on purpose before any socket exists, for the tests of
//! the edge's upstream errors: `nows-` answers the upgrade with a plain `200` JSON body,
//! `throw-` makes the stub throw. Two more make it an agent that sends less, for the tests of
//! how the adapter degrades: `noinit-` sends no `init`, `noinflight-` leaves the turn in flight
//! out of it (`Session::join`).

#![forbid(unsafe_code)]

// The agent's plain parts: public so that they are whole crates' worth of API natively too,
// where `cargo test` runs their tests and no Durable Object calls them.
pub mod branch;
pub mod client_frame;
pub mod frames;
pub mod lazy;
pub mod record;
pub mod rows;
pub mod script;
pub mod seen;
pub mod step;

// The Durable Object itself (wasm32 only).
#[cfg(target_arch = "wasm32")]
mod agent;
#[cfg(target_arch = "wasm32")]
pub use agent::DemoSessionAgent;

// The core's modules, named here as they are throughout this crate (`crate::v2`, ...).
use session_agent_core::{config, questions, session, v2};
#[cfg(target_arch = "wasm32")]
use session_agent_platform as platform;
