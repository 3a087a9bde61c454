//! A user's conversations at the edge (every rule is the core's `conversations`): the index's
//! Durable Object, [`SessionIndex`], one a user, which a worker that mounts the adapter exports
//! with it ([`object`]); the worker's calls to it ([`stub`]); what a chat turn tells it
//! ([`listed`]; its agent's title, `crate::pump::titles`); and the list, live ([`follow`]). The
//! routes are `crate::handlers::conversations`.

pub(crate) mod follow;
pub(crate) mod listed;
mod object;
pub(crate) mod stub;

pub use object::SessionIndex;
