//! The request as it comes in: its head read in one call ([`incoming`]), its body read
//! ([`body`]; a chat POST's as a stream, [`chat_body`]), and what is left of an unread body drained before the answer ([`drain`]).

pub(crate) mod body;
pub(crate) mod chat_body;
pub(crate) mod drain;
pub(crate) mod incoming;
