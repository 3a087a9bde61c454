//! The index's Durable Object, `SessionIndex` (wrangler.toml's `SESSION_INDEX`): one user's
//! sessions in its SQLite storage, each operation the worker sends answered by the core
//! (`crate::conversations::store::Index`), the statements run by `object.js` in one call a batch.
//!
//! Written with wasm-bindgen alone, as the class `#[durable_object]` would export (a constructor
//! taking the state and the environment, a `fetch`), without the macro's glue (an async `fetch`
//! through `worker::Request`, errors made JavaScript's through `dyn Error`, and workers-rs'
//! default alarm and WebSocket handlers): its `fetch` is synchronous, as SQLite in a Durable
//! Object is, and the operation travels in the URL, so no body is read. Its sockets are the live
//! lists' (hibernating: an idle list feed costs the object nothing). wasm-bindgen exports the
//! class from every worker that links the adapter, the mounting example's included.

use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::conversations::live::{FOLLOW, FOLLOWER_TAG, MAX_LIST_FEEDS};
use crate::conversations::store::{batch_json, Index, IndexSql, Statement};
use crate::platform::clock::now_ms;
use crate::v2::{PING, PONG};

#[wasm_bindgen(module = "/src/index/object.js")]
extern "C" {
    #[wasm_bindgen(js_name = storageOf)]
    fn js_storage_of(state: &JsValue) -> JsValue;

    #[wasm_bindgen(js_name = runBatch, catch)]
    fn js_run_batch(storage: &JsValue, batch: &str) -> Result<String, JsValue>;

    #[wasm_bindgen(js_name = opOf)]
    fn js_op_of(request: &web_sys::Request) -> String;

    #[wasm_bindgen(js_name = answer)]
    fn js_answer(status: u16, body: &str) -> web_sys::Response;

    #[wasm_bindgen(js_name = followers)]
    fn js_followers(state: &JsValue, tag: &str) -> u32;

    #[wasm_bindgen(js_name = follow)]
    fn js_follow(state: &JsValue, tag: &str, max: u32) -> web_sys::Response;

    #[wasm_bindgen(js_name = tell)]
    fn js_tell(state: &JsValue, tag: &str, event: &str);

    #[wasm_bindgen(js_name = answerPings)]
    fn js_answer_pings(state: &JsValue, ping: &str, pong: &str);

    #[wasm_bindgen(js_name = closeBack)]
    fn js_close_back(socket: &JsValue, code: &JsValue, reason: &JsValue);
}

/// The object's SQLite storage, a batch a call.
struct Storage(JsValue);

impl IndexSql for Storage {
    fn batch(&self, statements: &[Statement]) -> Result<Vec<Value>, String> {
        let rows = js_run_batch(&self.0, &batch_json(statements))
            .map_err(|err| err.as_string().unwrap_or_default())?;
        match serde_json::from_str(&rows).map_err(|err| err.to_string())? {
            Value::Array(each) => Ok(each),
            _ => Err("not a list of rows".into()),
        }
    }
}

/// `class_name = "SessionIndex"`: one user's index (`idFromName` of the user's key, the core's
/// `conversations::owner`).
#[wasm_bindgen]
pub struct SessionIndex {
    state: JsValue,
    index: Index<Storage>,
}

#[wasm_bindgen]
impl SessionIndex {
    /// `new (state, env)`, as workerd makes a Durable Object.
    #[wasm_bindgen(constructor)]
    pub fn new(state: JsValue, _env: JsValue) -> SessionIndex {
        js_answer_pings(&state, PING, PONG);
        SessionIndex {
            index: Index::new(Storage(js_storage_of(&state))),
            state,
        }
    }

    /// An operation of the worker's (`crate::index::stub`), answered at once; after a write, its
    /// event to every list feed open on the list (`crate::conversations::live`). `follow` opens
    /// one (`crate::index::follow`).
    pub fn fetch(&self, request: web_sys::Request) -> web_sys::Response {
        let op = js_op_of(&request);
        let (name, body) = op.split_once('\n').unwrap_or((&op, ""));
        if name == FOLLOW {
            return js_follow(&self.state, FOLLOWER_TAG, MAX_LIST_FEEDS as u32);
        }
        let followed = js_followers(&self.state, FOLLOWER_TAG) > 0;
        let (answer, event) = self.index.serve_live(name, body, now_ms(), followed);
        if let Some(event) = event {
            js_tell(&self.state, FOLLOWER_TAG, &event);
        }
        js_answer(answer.status, &answer.body)
    }

    /// A list feed's socket says nothing the object reads (the worker's pings are answered by
    /// the runtime).
    #[wasm_bindgen(js_name = webSocketMessage)]
    pub fn web_socket_message(&self, _socket: JsValue, _message: JsValue) {}

    /// A list feed's socket the worker closed: closed back, as the runtime asks.
    #[wasm_bindgen(js_name = webSocketClose)]
    pub fn web_socket_close(&self, socket: JsValue, code: JsValue, reason: JsValue) {
        js_close_back(&socket, &code, &reason);
    }
}
