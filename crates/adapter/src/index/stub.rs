//! The worker's calls to a user's index object (`stub.js`, one call each): a list route's
//! operation, whose answer is the route's, and a turn's touch, which nobody waits for (the
//! agent's title goes through [`super::titles`]).

use js_sys::Promise;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::context::RouteContext;
use crate::conversations::session_not_found;
use crate::failure::Failure;
use crate::outcome::Outcome;
use crate::platform::log;
use crate::platform::promise::settled;
use crate::refusal::Refusal;
use crate::request_log::Disposition;

#[wasm_bindgen(module = "/src/index/stub.js")]
extern "C" {
    #[wasm_bindgen(js_name = askIndex)]
    fn js_ask(namespace: &JsValue, owner: &str, op: &str, body: &str) -> Promise;

    #[wasm_bindgen(js_name = askText)]
    pub(crate) fn js_ask_text(namespace: &JsValue, name: &str, op: &str, body: &str) -> Promise;

    #[wasm_bindgen(js_name = touchIndex)]
    pub(crate) fn js_touch(
        env: &JsValue,
        ctx: &JsValue,
        binding: &str,
        owner: &str,
        body: &str,
        request_id: &str,
    ) -> bool;

}

/// Whether `owner`'s list holds `session` (`404 session_not_found` when it does not: one nobody
/// made and another user's alike); a failure of the object is logged (`index`) and answered
/// `500 internal_error`.
pub(crate) async fn holds(
    cx: &RouteContext<'_>,
    namespace: &JsValue,
    owner: &str,
    session: &str,
) -> Result<(), Failure> {
    let body = crate::conversations::wire::named(session);
    match settled(&js_ask(
        namespace,
        owner,
        crate::conversations::wire::HOLDS,
        &body,
    ))
    .await
    {
        Ok(answer) if answer.is_null() => Err(session_not_found().into()),
        Ok(_) => Ok(()),
        Err(err) => {
            let detail = err.as_string().unwrap_or_default();
            log::error("index", Some(cx.exchange.request_id()), &detail);
            Err(Refusal::internal().into())
        }
    }
}

/// Operation `op` with `body` of `owner`'s index, answered as the object answers it (`done` in
/// the log line); a session its list does not hold is `404 session_not_found`; a failure of the
/// object is logged (`index`) and answered `500 internal_error`.
pub(crate) async fn ask(
    cx: &mut RouteContext<'_>,
    namespace: &JsValue,
    owner: &str,
    op: &str,
    body: &str,
    done: Disposition,
) -> Result<Outcome, Failure> {
    match settled(&js_ask(namespace, owner, op, body)).await {
        Ok(answer) if answer.is_null() => Err(session_not_found().into()),
        Ok(answer) => {
            cx.exchange.log.answered(done);
            Ok(Outcome::Made(answer.unchecked_into()))
        }
        Err(err) => {
            let detail = err.as_string().unwrap_or_default();
            log::error("index", Some(cx.exchange.request_id()), &detail);
            Err(Refusal::internal().into())
        }
    }
}
