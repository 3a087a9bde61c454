//! What the adapter and the demo agent both take from the Workers runtime, below both: the
//! settings read from the environment, the bindings it may leave out, the clock, JSON responses, the
//! log's diagnostic lines, an owned stream of a
//! WebSocket's events, and the outcome of a promise as a future. wasm32 only: natively the crate
//! is empty.
#![cfg(target_arch = "wasm32")]
#![forbid(unsafe_code)]

pub mod bindings;
pub mod clock;
pub mod errors;
pub mod log;
pub mod promise;
pub mod settings;
pub mod socket;

// The core's modules, named here as they are throughout this crate (`crate::config`, ...).
use session_agent_core::{config, diagnostic, error_body, refusal, slab};
