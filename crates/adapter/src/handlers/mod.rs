//! What each route does, one module a route family: the chat POST ([`chat`], and [`chat_reply`]
//! for one that answers the agent's question), the session's resume, stop and history
//! ([`session`]), the session feed ([`feed`]), a session's files ([`files`]), a user's
//! conversations ([`conversations`], and [`forget`], the agent's side of a delete), the demo's routes and the playground page; and
//! [`streaming`], which starts a streamed answer for the chat POST and the resume.

pub(crate) mod chat;
pub(crate) mod chat_reply;
pub(crate) mod conversations;
pub(crate) mod demo;
pub(crate) mod feed;
pub(crate) mod files;
pub(crate) mod forget;
pub(crate) mod message_files;
pub(crate) mod playground;
pub(crate) mod session;
pub(crate) mod streaming;
