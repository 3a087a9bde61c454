//! What the edge shell and the demo agent both take from the Workers runtime, below both: the
//! settings read from the environment, the clock, JSON responses, and an owned stream of a
//! WebSocket's events.

pub(crate) mod clock;
pub(crate) mod config;
pub(crate) mod errors;
pub(crate) mod socket;
