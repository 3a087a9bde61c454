//! The pure core of the SessionAgent chat adapter: the V2 frames an agent sends ([`v2`]), the AI
//! SDK UI message chunks a client reads ([`ui`]), the [`translator`] state machine between them,
//! the [`sse`] encoding, the AI SDK request body ([`request`]), the [`trace`] modes and
//! [`turn_stream`], which ties them into "frames in, response bytes out"; and the rules the
//! adapter applies around a turn: the settings ([`config`]), [`auth`], [`cors`], [`routes`], the
//! session's `init` ([`session`]) and [`history`], the session feed ([`feed`]), a user's
//! conversations ([`conversations`]), the log line ([`request_log`]).
//!
//! No `worker`, `web_sys` or `wasm_bindgen` type appears here, and this crate cannot depend on
//! one: it compiles natively and is tested with plain `cargo test`. The `v2-to-sse` replay CLI is
//! built from it; the adapter (`session-agent-adapter`) is its one caller at the edge.
#![forbid(unsafe_code)]

pub mod answering;
pub mod auth;
pub mod base64;
pub mod bounds;
pub mod config;
pub mod conversations;
pub mod cors;
pub mod delivery;
pub mod diagnostic;
pub mod error_body;
pub mod feed;
pub mod files;
pub mod forget;
pub mod history;
pub mod hydration;
mod json_out;
pub mod liveness;
pub mod pacing;
pub mod pages;
pub mod protocol4;
pub mod questions;
pub mod rate_limit;
pub mod refusal;
pub mod request;
pub mod request_head;
pub mod request_log;
pub mod routes;
pub mod session;
pub mod slab;
pub mod sse;
pub mod trace;
pub mod translator;
pub mod tree;
pub mod turn_record;
pub mod turn_stream;
pub mod ui;
pub mod v2;
mod word_scan;
