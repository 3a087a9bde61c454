//! The `errorText`s the adapter gives a tool still open when a stream ends: its own words, never
//! the agent's (so the trace mode `normal` keeps them: `crate::trace`).

/// The user stopped the turn.
pub const CANCELED: &str = "Canceled";
/// The turn ended under it.
pub const INTERRUPTED: &str = "Interrupted";
/// The stream ends at a question: the turn waits for the user, and its continuation (the
/// answer's stream) shows the call again with its outcome.
pub const AWAITING_ANSWER: &str = "Waiting for your answer";
/// Every one of them.
pub const ALL: [&str; 3] = [CANCELED, INTERRUPTED, AWAITING_ANSWER];
