//! The embedded demo SessionAgent: a Durable Object that speaks the agent side of
//! `docs/agent-protocol.md`, so the worker runs with no external agent.
//!
//! `wrangler.toml` binds `SESSION_AGENT` to it by default; it answers only while
//! `DEMO_AGENT = "on"`. It behaves as a session ("Sessions" in the protocol page): every socket
//! gets an `init` first, every turn event goes to every socket, a turn outlives the socket that
//! prompted it, one turn runs at a time, and every message is kept, as a tree (protocol 5,
//! "Branches"), in the object's SQLite storage.
//!
//! * `agent::session`: the sockets, the turn in flight and its message, `busy`, aborts, answers;
//! * `agent::turn`: the task that runs a turn's [`script`] (the commands, in [`step`]s; [`lazy`]
//!   deltas for benchmarks) and broadcasts its [`frames`];
//! * `agent::connection`: one socket, reading what clients send ([`client_frame`]);
//! * `agent::store`: the session's messages, by its [`persona`]: the tree ([`tree_store`] on
//!   [`tree_sql`], through [`sql`]; what a prompt stores and a page lists: [`conversation`];
//!   `/grow`: [`grow`]), or protocol 4's list (`agent::list_store`, cut by [`proto4`]), and
//!   [`rows`]: the stored rows and the `init` and `history` frames built from them;
//! * [`record`]: how the turn's message grows from the frames it sends;
//! * `agent::log`: what was received and sent, for tests.
//!
//! Two session id prefixes make it fail on purpose before any socket exists, for the tests of
//! the edge's upstream errors: `nows-` answers the upgrade with a plain `200` JSON body,
//! `throw-` makes the stub throw. Three more make it another agent ([`persona`]), for the tests
//! of how the adapter degrades: `noinit-` sends no `init`, `noinflight-` leaves the turn in flight
//! out of it, `proto4-` keeps protocol 4.

#![forbid(unsafe_code)]

// The agent's plain parts: public so that they are whole crates' worth of API natively too,
// where `cargo test` runs their tests and no Durable Object calls them.
pub mod client_frame;
pub mod conversation;
pub mod files;
pub mod frames;
pub mod grow;
pub mod lazy;
pub mod persona;
pub mod proto4;
pub mod record;
pub mod rows;
pub mod script;
pub mod seen;
pub mod sql;
pub mod step;
pub mod tree_sql;
pub mod tree_store;

// A real SQLite behind `sql::Sql`, for the stores' native tests.
#[cfg(test)]
#[path = "sqlite_tests.rs"]
mod sqlite_tests;

// The Durable Object itself (wasm32 only).
#[cfg(target_arch = "wasm32")]
mod agent;
#[cfg(target_arch = "wasm32")]
pub use agent::DemoSessionAgent;

// The core's modules, named here as they are throughout this crate (`crate::v2`, ...).
use session_agent_core::{questions, session, tree, v2};
#[cfg(target_arch = "wasm32")]
use session_agent_platform as platform;
