//! `GET /api/sessions?live=1`: the caller's list, live (docs/sessions.md, "Live lists"; the rules
//! are the core's `conversations::live`): a socket to the list's object, which tells it every
//! write, carried to the client as SSE by `follow.js`; `429 too_many_feeds` past the list's cap,
//! which its object counts. It holds a place of the isolate's feeds while it is open, as a session
//! feed does (`crate::feed::place`: `MAX_FEEDS` in all, `503 feeds_full`), so that an isolate's
//! open feeds stay bounded whatever kind they are. Its response's headers are a session feed's (`follow.js` holds them,
//! tests/js/worker/wire_constants.test.mjs holds them equal to the core's `feed::RESPONSE_HEADERS`).

use js_sys::Promise;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::context::RouteContext;
use crate::conversations::live::{
    FOLLOW, KEEP_ALIVE_MS, MAX_LIST_FEEDS, PING_EVERY_KEEP_ALIVES, SILENT_PINGS,
};
use crate::failure::Failure;
use crate::feed::place;
use crate::outcome::Outcome;
use crate::platform::log;
use crate::platform::promise::settled;
use crate::refusal::Refusal;
use crate::request_log::Disposition;
use crate::v2::{PING, PONG};

#[wasm_bindgen(module = "/src/index/follow.js")]
extern "C" {
    #[wasm_bindgen(js_name = followList)]
    #[allow(clippy::too_many_arguments)]
    fn js_follow_list(
        namespace: &JsValue,
        owner: &str,
        op: &str,
        keep_alive_ms: f64,
        ping_every: u32,
        silent_pings: u32,
        ping: &str,
        pong: &str,
        expires_at_ms: f64,
        request: &web_sys::Request,
        on_end: JsValue,
    ) -> Promise;
}

/// The key a live list's place is counted under in the isolate's feeds, beside the sessions'
/// ids (a session id holds no space, so none is one of these).
fn place_key(owner: &str) -> String {
    format!("list {owner}")
}

/// The live list of `owner` in `namespace`, for a caller whose credentials end at
/// `expires_at_ms` (`None`: never).
pub(crate) async fn follow(
    cx: &mut RouteContext<'_>,
    namespace: &JsValue,
    owner: &str,
    expires_at_ms: Option<u64>,
) -> Result<Outcome, Failure> {
    // Counted for the isolate alone: its list's cap is its object's, and a tab's session feed and
    // live list together must not halve the caller's session feeds.
    let slot = place::reserve_list(cx.config, &place_key(owner))?;
    // Given back when `follow.js` ends the feed, or refuses or fails to open it: once.
    let on_end = Closure::once_into_js(move || drop(slot));
    let opened = js_follow_list(
        namespace,
        owner,
        FOLLOW,
        KEEP_ALIVE_MS as f64,
        PING_EVERY_KEEP_ALIVES,
        SILENT_PINGS,
        PING,
        PONG,
        expires_at_ms.unwrap_or(0) as f64,
        cx.req.raw,
        on_end,
    );
    match settled(&opened).await {
        Ok(answer) if answer.is_null() => Err(Refusal::too_many_list_feeds(MAX_LIST_FEEDS).into()),
        Ok(answer) => {
            cx.exchange.log.answered(Disposition::Listed);
            Ok(Outcome::Made(answer.unchecked_into()))
        }
        Err(err) => {
            let detail = err.as_string().unwrap_or_default();
            log::error("index", Some(cx.exchange.request_id()), &detail);
            Err(Refusal::internal().into())
        }
    }
}
