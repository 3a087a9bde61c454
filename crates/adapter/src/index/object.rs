//! The index's Durable Object, `SessionIndex` (wrangler.toml's `SESSION_INDEX`): one user's
//! sessions in its SQLite storage, each operation the worker sends answered by the core
//! (`crate::conversations::store::Index`), the statements run by `object.js` in one call a batch.
//!
//! Written with wasm-bindgen alone, as the class `#[durable_object]` would export (a constructor
//! taking the state and the environment, a `fetch`), without the macro's glue (an async `fetch`
//! through `worker::Request`, errors made JavaScript's through `dyn Error`, and workers-rs'
//! default alarm and WebSocket handlers): its `fetch` is synchronous, as SQLite in a Durable
//! Object is, and the operation travels in the URL, so no body is read. wasm-bindgen exports the
//! class from every worker that links the adapter, the mounting example's included.

use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::conversations::store::{batch_json, Index, IndexSql, Statement};
use crate::platform::clock::now_ms;

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
    index: Index<Storage>,
}

#[wasm_bindgen]
impl SessionIndex {
    /// `new (state, env)`, as workerd makes a Durable Object.
    #[wasm_bindgen(constructor)]
    pub fn new(state: JsValue, _env: JsValue) -> SessionIndex {
        SessionIndex {
            index: Index::new(Storage(js_storage_of(&state))),
        }
    }

    /// An operation of the worker's (`crate::index::stub`), answered at once.
    pub fn fetch(&self, request: web_sys::Request) -> web_sys::Response {
        let op = js_op_of(&request);
        let (name, body) = op.split_once('\n').unwrap_or((&op, ""));
        let answer = self.index.serve(name, body, now_ms());
        js_answer(answer.status, &answer.body)
    }
}
