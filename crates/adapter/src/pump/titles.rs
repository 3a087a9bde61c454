//! Where a chat turn's stream tells the agent's title of its session (`title`, protocol 7): the
//! caller's list, once the stream has ended (`stub.js`'s `titleIndex`: nobody waits for it, and a
//! failure is a log line). Where the pump keeps it: the pump reads nothing of the index's routes.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::conversations::wire;
use crate::platform::settings::INDEX_BINDING;

#[wasm_bindgen(module = "/src/index/stub.js")]
extern "C" {
    #[wasm_bindgen(js_name = titleIndex)]
    fn js_title(
        env: &JsValue,
        ctx: &JsValue,
        binding: &str,
        owner: &str,
        body: &str,
        request_id: &str,
    );
}

/// The caller's list of a turn's session, for the agent's title.
pub(crate) struct Titles {
    env: JsValue,
    ctx: JsValue,
    owner: String,
    session: String,
}

impl Titles {
    /// `owner`'s list of `session`, through the worker's `env` and the request's `ctx`.
    pub(crate) fn new(env: JsValue, ctx: JsValue, owner: String, session: String) -> Self {
        Titles {
            env,
            ctx,
            owner,
            session,
        }
    }

    /// The session titled `title` in the caller's list, unless a rename titled it (the object
    /// decides); nobody waits for it.
    pub(crate) fn tell(self, title: &str, request_id: &str) {
        let body = wire::titled(&self.session, title);
        js_title(
            &self.env,
            &self.ctx,
            INDEX_BINDING,
            &self.owner,
            &body,
            request_id,
        );
    }
}
