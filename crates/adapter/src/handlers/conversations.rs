//! The conversations routes at the edge, I/O only (every rule is the core's `conversations`; the
//! index's object and the calls to it are `crate::index`): a page of the caller's sessions, a
//! rename and a delete.
//!
//! * `GET /api/sessions?limit=&cursor=` ([`Asked::List`]): the newest activity first; with
//!   `live=1`, the list's changes as they happen (`crate::index::follow`);
//! * `PATCH /api/sessions/:id` ([`Asked::Rename`]): `{"title"}`, answered with the session;
//! * `DELETE /api/sessions/:id` ([`Asked::Delete`]): `204`, through [`forget`].
//!
//! One handler for the three ([`answer`]), so that the guard's and the object's code is in the
//! wasm once: the `SESSION_INDEX` binding (`501 index_not_configured` without it), the caller's
//! credentials (the chat route's guard; the list needs a token for every session), whose list it
//! is (`403 no_user` for none), then one operation of the caller's object.

use wasm_bindgen::JsValue;

use crate::context::RouteContext;
use crate::conversations::query::ListQuery;
use crate::conversations::{index_not_configured, live, owner, title, wire};
use crate::failure::Failure;
use crate::guard::admit_to;
use crate::handlers::forget::forget_agent;
use crate::handlers::message_files::delete_session_files;
use crate::inbound::body::read_request;
use crate::index::follow::follow;
use crate::index::stub::{ask, holds};
use crate::outcome::Outcome;
use crate::platform::bindings::OptionalBinding;
use crate::platform::clock::now_ms;
use crate::platform::log;
use crate::platform::settings::INDEX_BINDING;
use crate::refusal::Refusal;
use crate::request::{declared_body_length, ContentLength, RequestError};
use crate::request_head::Field;
use crate::request_log::Disposition;
use crate::routes::is_json_content_type;

thread_local! {
    /// The index's namespace, looked up once per isolate when absent.
    static INDEX: OptionalBinding = const { OptionalBinding::new(INDEX_BINDING) };
}

/// The index's namespace (`SESSION_INDEX`), when the worker has one.
pub(crate) fn index_of(env: &worker::Env) -> Option<JsValue> {
    INDEX.with(|binding| binding.get(env))
}

/// The largest rename body read, in bytes: 8 KiB, a title of 200 characters written as JSON's
/// longest escapes (a `\uXXXX\uXXXX` pair, 12 bytes, for each) with room for other members.
const MAX_RENAME_BODY_BYTES: usize = 8 * 1024;

/// What a conversations route asks.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Asked<'a> {
    /// `GET /api/sessions`.
    List,
    /// `PATCH /api/sessions/:id`.
    Rename(&'a str),
    /// `DELETE /api/sessions/:id`.
    Delete(&'a str),
}

/// A conversations route's answer.
pub(crate) async fn answer(mut cx: RouteContext<'_>, asked: Asked<'_>) -> Result<Outcome, Failure> {
    let Some(namespace) = index_of(cx.env) else {
        let why = "no SESSION_INDEX binding: the conversations routes are closed";
        log::error("index", Some(cx.exchange.request_id()), why);
        return Err(index_not_configured().into());
    };
    let session = match asked {
        Asked::List => None,
        Asked::Rename(session) | Asked::Delete(session) => Some(session),
    };
    let caller = admit_to(&mut cx, session).await?;
    let key = cx.req.header(Field::ConversationsKey);
    let owner = owner::lister(&cx.config.auth, &caller, key)?;
    let (op, body, done) = match asked {
        Asked::List if live::asked(cx.req.head.url())? => {
            return follow(&mut cx, &namespace, &owner, caller.expires_at_ms).await;
        }
        Asked::List => {
            let query = ListQuery::from_url(cx.req.head.url(), now_ms())?;
            (wire::LIST, wire::listing(&query), Disposition::Listed)
        }
        Asked::Rename(session) => {
            let title = title::renamed(&rename_body(&cx).await?)?;
            (
                wire::RENAME,
                wire::titled(session, &title),
                Disposition::Renamed,
            )
        }
        Asked::Delete(session) => {
            let user_id = caller.user_id.as_deref();
            return forget(&mut cx, &namespace, &owner, session, user_id).await;
        }
    };
    ask(&mut cx, &namespace, &owner, op, &body, done).await
}

/// A rename's body: JSON (else `415`), at most [`MAX_RENAME_BODY_BYTES`] (else `413`).
async fn rename_body(cx: &RouteContext<'_>) -> Result<Vec<u8>, Failure> {
    if !is_json_content_type(cx.req.header(Field::ContentType)) {
        return Err(Refusal::unsupported_media_type().into());
    }
    let max = MAX_RENAME_BODY_BYTES;
    let declared = match declared_body_length(cx.req.header(Field::ContentLength), max)? {
        ContentLength::Declared(len) => Some(len),
        ContentLength::Absent => None,
    };
    let read = read_request(cx.req.raw, declared, max, max, max).await;
    if read.failed {
        return Err(RequestError::Unreadable.into());
    }
    if read.over(max) {
        return Err(RequestError::TooLarge { limit: max }.into());
    }
    Ok(read.kept)
}

/// What deleting a session does, each step only once the one before it is done, so that a
/// failure removes nothing after it and the user can ask again: the caller's list must hold it
/// (`404 session_not_found`: nothing is sent to the agent of a session that is not theirs); its
/// agent forgets it (`crate::handlers::forget`: its messages, and the end of every stream and
/// feed open on it, which the agent tells); its files leave the bucket
/// (`crate::handlers::message_files::delete_session_files`); then its row leaves the list.
async fn forget(
    cx: &mut RouteContext<'_>,
    namespace: &JsValue,
    owner: &str,
    session: &str,
    user_id: Option<&str>,
) -> Result<Outcome, Failure> {
    holds(cx, namespace, owner, session).await?;
    forget_agent(cx, session, user_id).await?;
    delete_session_files(cx, session).await?;
    let body = wire::named(session);
    ask(
        cx,
        namespace,
        owner,
        wire::DELETE,
        &body,
        Disposition::Deleted,
    )
    .await
}
