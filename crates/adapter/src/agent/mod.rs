//! The agent's side of a request: its socket opened and accepted ([`upstream`]), and what it
//! says first on it ([`hydrate`]).

pub(crate) mod hydrate;
pub(crate) mod upstream;
