//! Bindings a worker may leave out (the rate limiter, the turns' dataset): found absent once, not
//! looked up again while the isolate lives; found present, read for each request, as the
//! request's own.

use std::cell::Cell;

use js_sys::Reflect;
use wasm_bindgen::JsValue;
use worker::Env;

/// One optional binding of the worker's environment, by name. Kept in a `thread_local!`: an
/// isolate's bindings are fixed for its life, so a worker without the binding pays its lookup
/// (two calls into JavaScript) on the isolate's first request only.
pub struct OptionalBinding {
    name: &'static str,
    absent: Cell<bool>,
}

impl OptionalBinding {
    pub const fn new(name: &'static str) -> Self {
        OptionalBinding {
            name,
            absent: Cell::new(false),
        }
    }

    /// The binding, when the environment has one.
    pub fn get(&self, env: &Env) -> Option<JsValue> {
        if self.absent.get() {
            return None;
        }
        let binding =
            Reflect::get(env, &JsValue::from_str(self.name)).unwrap_or(JsValue::UNDEFINED);
        if binding.is_undefined() {
            self.absent.set(true);
            return None;
        }
        Some(binding)
    }
}
