//! What a chat turn tells the index: once its prompt is admitted, the caller's list (the core's
//! `conversations::owner`) gets the session touched, listed with a title made from the prompt
//! (`conversations::title`) if it is not listed yet; and once the turn's stream ends, the agent's
//! latest title for the session, if it gave one (`title`, protocol 7). Nothing waits for either:
//! the write goes once the response is the runtime's (`stub.js`), and a failure is a log line,
//! never the turn's.
//! Without the `SESSION_INDEX` binding, turns go on unlisted, logged once an isolate.

use std::cell::Cell;

use wasm_bindgen::JsValue;

use crate::auth::Principal;
use crate::context::RouteContext;
use crate::conversations::{owner, title, wire};
use crate::index::stub::js_touch;
use crate::platform::log;
use crate::platform::settings::INDEX_BINDING;
use crate::pump::titles::Titles;
use crate::request::ChatRequest;
use crate::request_head::Field;

thread_local! {
    /// Whether the isolate has logged that it has no index: once is enough.
    static UNLISTED_LOGGED: Cell<bool> = const { Cell::new(false) };
}

/// Tells the caller's index of this turn of `session`: a prompt (an answer to the agent's
/// question is the same turn going on), of a caller with a list; and hands back where the
/// agent's title goes for the turn's stream to tell ([`Titles`]), for an answer too. Never
/// inlined: the chat handler stays the function it was (its parser inlined in it), this one
/// beside it.
#[inline(never)]
pub(crate) fn turn(
    cx: &RouteContext<'_>,
    session: &str,
    caller: &Principal,
    chat: &ChatRequest,
) -> Option<Titles> {
    let key = cx.req.header(Field::ConversationsKey);
    let owner = owner::of_turn(&cx.config.auth, caller, key)?;
    let (env, ctx): (&JsValue, &JsValue) = (cx.env, cx.ctx.as_ref());
    if chat.reply.is_none() {
        let body = wire::titled(session, &title::derived(&chat.text));
        let id = cx.exchange.request_id();
        if !js_touch(env, ctx, INDEX_BINDING, &owner, &body, id) {
            unlisted(id);
            return None;
        }
    }
    Some(Titles::new(
        env.clone(),
        ctx.clone(),
        owner,
        session.to_owned(),
    ))
}

/// The first turn of an isolate without the binding: one line.
#[inline(never)]
fn unlisted(request_id: &str) {
    if !UNLISTED_LOGGED.replace(true) {
        let why = "no SESSION_INDEX binding: turns are not listed, and the conversations routes answer 501 index_not_configured";
        log::warn("index", Some(request_id), why);
    }
}
