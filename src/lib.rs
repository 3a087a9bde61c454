//! Lets any Vercel AI SDK client talk to an agent living in a SessionAgent Durable Object.
//!
//! The crate has two halves:
//!
//! * **A pure core** (every module below except `edge` and `demo`): the V2 frames the
//!   agent sends ([`v2`]), the AI SDK UI message chunks the client reads ([`ui`]), the
//!   [`translator`] state machine between them, the [`sse`] encoding, the AI SDK request
//!   body parser ([`request`]), the [`trace`] modes and [`turn_stream`], which ties them into
//!   "frames in, response bytes out". No `worker::` type appears in it; it compiles natively and is
//!   tested with plain `cargo test`. The `v2-to-sse` replay CLI is built from it.
//! * **The edge shell** (`edge`, wasm32 only): routing, auth, the WebSocket to the
//!   Durable Object, the TransformStream pump and abort forwarding, plus the embedded
//!   demo SessionAgent (`demo`).
#![forbid(unsafe_code)]

pub mod auth;
pub mod config;
pub mod cors;
pub mod delivery;
pub mod error_body;
mod json_out;
pub mod questions;
pub mod rate_limit;
pub mod request;
pub mod request_head;
pub mod request_log;
pub mod routes;
pub mod session;
pub mod sse;
pub mod trace;
pub mod translator;
pub mod turn_stream;
pub mod ui;
pub mod v2;
// Used by the edge only (its keys for JavaScript); tested natively.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) mod slab;
pub(crate) mod word_scan;

#[cfg(all(target_arch = "wasm32", feature = "demo"))]
mod demo;
#[cfg(all(target_arch = "wasm32", not(feature = "demo")))]
mod demo_off;
/// The demo agent's pure parts (its scripts, frames, rows and parsing: no `worker::` type),
/// compiled natively too so that `cargo test` runs their tests; the agent itself is wasm32-only.
/// Code only the Durable Object calls is dead here, hence the `allow`.
#[cfg(all(test, not(target_arch = "wasm32")))]
#[allow(dead_code)]
#[path = "demo"]
mod demo_pure {
    mod client_frame;
    mod frames;
    mod lazy;
    mod rows;
    mod script;
    mod step;
}
#[cfg(target_arch = "wasm32")]
mod edge;
#[cfg(target_arch = "wasm32")]
mod platform;
