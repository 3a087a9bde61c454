//! The protocol-4 persona's rule (`proto4-` sessions, [`crate::persona`]; docs/agent-protocol.md,
//! "Agents of protocol 4"): an agent that keeps a list, not a tree, and deletes before a turn what
//! the turn does not follow (a regenerate, an edit, a fork, and a stale device's send alike), so
//! that the adapter's `409 stale_conversation` can be tried against a real one. The agent of
//! protocol 5 keeps every message instead (the core's `tree`).
//!
//! The rule, in order: a stored message with the prompt's `messageId` is replaced (it and every
//! message after it are taken back); else the newest message of the prompt's `branch` that is
//! stored is the one the turn follows (every message after it is taken back); else nothing is
//! taken back (the turn is appended). Pure: no storage, no clock.

/// The rule itself is the core's, the one the adapter checks an agent of protocol 4 against
/// (`session_agent_core::protocol4`), so the persona deletes exactly what the adapter expects.
pub use session_agent_core::protocol4::kept;

#[cfg(test)]
#[path = "proto4_tests.rs"]
mod tests;
