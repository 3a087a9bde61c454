//! What the edge shell and the demo agent both take from the Workers runtime, below both: the
//! settings read from the environment, JSON responses, and an owned stream of a WebSocket's
//! events.

pub(crate) mod config;
pub(crate) mod errors;
pub(crate) mod socket;
