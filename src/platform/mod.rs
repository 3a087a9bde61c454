//! What the edge shell and the demo agent both take from the Workers runtime, below both: the
//! settings read from the environment, the clock, JSON responses, an owned stream of a
//! WebSocket's events, and the outcome of a promise as a future.

pub(crate) mod clock;
pub(crate) mod errors;
pub(crate) mod promise;
pub(crate) mod settings;
pub(crate) mod socket;
