//! A session's messages as a tree (protocol 5, docs/agent-protocol.md, "Branches"): every message
//! an agent ever stored, each naming the message it follows (its parent), so that a regenerate,
//! an edit, a fork or a stale device's send makes a new branch and sets the old one aside instead
//! of deleting it. The rules are here, on any store that can answer a few questions ([`TreeRead`]);
//! an agent keeps the messages (the demo agent in SQLite, `crates/demo/src/tree_store.rs`;
//! the TypeScript library keeps the same rules in `packages/session-agent/src/tree.ts`).
//!
//! - [`attach`]: where a prompt's turn goes: the message it follows, and whether its user message
//!   is one already stored (a regenerate) or a new one (a send, an edit, a fork).
//! - [`page`]: the current branch (the branch of the newest message: what `init` and a reload
//!   show), the branch through any message to its newest descendant, and older pages, each with
//!   its messages' siblings.
//! - [`MemTree`]: a store in memory, for tests and as the rules' plainest caller.
//!
//! Pure: no storage, no clock.

mod attach;
mod mem;
mod page;
mod store;

pub use attach::{attach, Attach, Place};
pub use mem::{MemTree, Turned};
pub use page::{page, siblings, Page, Want, MAX_PAGE_BYTES, MAX_PAGE_MESSAGES};
pub use store::{Node, TreeRead};

/// Most messages a session's store holds (protocol 5: the reference agents' cap, which
/// docs/agent-protocol.md states). A turn adds two; past the cap a prompt is refused
/// (`session_full`) and nothing is deleted. 10,000 messages of at most 512 KiB each (the demo
/// agent's row) stay under half of the 10 GB a Durable Object may store, and 5,000 turns are many
/// times the longest conversation a person keeps.
pub const MAX_SESSION_MESSAGES: usize = 10_000;

pub use crate::session::{is_ref, MAX_REF_BYTES};
