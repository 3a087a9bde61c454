//! The request as it comes in: its head read in one call ([`incoming`]), its body read
//! ([`body`]), and what is left of an unread body drained before the answer ([`drain`]).

pub(crate) mod body;
pub(crate) mod drain;
pub(crate) mod incoming;
