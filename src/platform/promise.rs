//! Awaiting a JavaScript promise: [`settled`] is a future of its outcome, made with one Rust
//! closure (`promise.js`), where wasm-bindgen's `JsFuture` makes two, each a call across the
//! WebAssembly boundary to make and one to drop, and an entry in the collector's finalization
//! registry (`bench/crossings.mjs` counts the calls).
//!
//! Ordering: the outcome arrives in a microtask of the runtime's, after the call that made the
//! future has returned; the task that awaits it is woken then, and reads it once.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use js_sys::Promise;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

#[wasm_bindgen(module = "/src/platform/promise.js")]
extern "C" {
    #[wasm_bindgen(js_name = settle)]
    fn js_settle(promise: &Promise, callback: &JsValue);
}

/// Where the promise is.
enum State {
    /// Not settled yet; the waker of the task that awaits it, once it has.
    Pending(Option<Waker>),
    /// Settled: its value, or what it was rejected with.
    Settled(Result<JsValue, JsValue>),
    /// The outcome was handed to the task.
    Taken,
}

/// The outcome of a promise, as a future: `Ok(value)` or `Err(reason)`.
pub(crate) struct Settled {
    state: Rc<RefCell<State>>,
}

/// Starts listening to `promise` now; the future resolves to its outcome.
pub(crate) fn settled(promise: &Promise) -> Settled {
    let state = Rc::new(RefCell::new(State::Pending(None)));
    let shared = Rc::clone(&state);
    // Owned by JavaScript from here: freed once called, or by the collector if never (a
    // promise that never settles).
    let callback = Closure::once_into_js(move |ok: bool, value: JsValue| {
        let outcome = if ok { Ok(value) } else { Err(value) };
        let before = std::mem::replace(&mut *shared.borrow_mut(), State::Settled(outcome));
        if let State::Pending(Some(waker)) = before {
            waker.wake();
        }
    });
    js_settle(promise, &callback);
    Settled { state }
}

impl Future for Settled {
    type Output = Result<JsValue, JsValue>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut state = self.state.borrow_mut();
        match std::mem::replace(&mut *state, State::Taken) {
            State::Settled(outcome) => Poll::Ready(outcome),
            State::Pending(_) => {
                *state = State::Pending(Some(cx.waker().clone()));
                Poll::Pending
            }
            // Polled after it was ready: a bug of the caller's; it stays pending rather than
            // panicking.
            State::Taken => Poll::Pending,
        }
    }
}
