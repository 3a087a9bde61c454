//! What a chat turn tells the index: once its prompt is admitted, the caller's list (the core's
//! `conversations::owner`) gets the session touched, listed with a title made from the prompt
//! (`conversations::title`) if it is not listed yet. Nothing waits for it: the write goes once
//! the response is the runtime's (`stub.js`), and a failure is a log line, never the turn's.
//! Without the `SESSION_INDEX` binding, turns go on unlisted, logged once an isolate.

use std::cell::Cell;

use crate::auth::Principal;
use crate::context::RouteContext;
use crate::conversations::{owner, title, wire};
use crate::index::stub::js_touch;
use crate::platform::log;
use crate::platform::settings::INDEX_BINDING;
use crate::request::ChatRequest;
use crate::request_head::Field;

thread_local! {
    /// Whether the isolate has logged that it has no index: once is enough.
    static UNLISTED_LOGGED: Cell<bool> = const { Cell::new(false) };
}

/// Tells the caller's index of this turn of `session`: a prompt (an answer to the agent's
/// question is the same turn going on), of a caller with a list. Never inlined: the chat
/// handler stays the function it was (its parser inlined in it), this one beside it.
#[inline(never)]
pub(crate) fn turn(cx: &RouteContext<'_>, session: &str, caller: &Principal, chat: &ChatRequest) {
    if chat.reply.is_some() {
        return;
    }
    let key = cx.req.header(Field::ConversationsKey);
    let Some(owner) = owner::of_turn(&cx.config.auth, caller, key) else {
        return;
    };
    let body = wire::titled(session, &title::derived(&chat.text));
    let id = cx.exchange.request_id();
    if !js_touch(cx.env, cx.ctx.as_ref(), INDEX_BINDING, &owner, &body, id) {
        unlisted(id);
    }
}

/// The first turn of an isolate without the binding: one line.
#[inline(never)]
fn unlisted(request_id: &str) {
    if !UNLISTED_LOGGED.replace(true) {
        let why = "no SESSION_INDEX binding: turns are not listed, and the conversations routes answer 501 index_not_configured";
        log::warn("index", Some(request_id), why);
    }
}
