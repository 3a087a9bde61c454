//! Awaiting a JavaScript promise: [`settled`] is a future of its outcome, and makes no Rust
//! closure (the promise settles into one callback made once per isolate, `promise.js`).
//!
//! The callback is handed the key of the promise's state in a [`Slab`]. wasm-bindgen's
//! `JsFuture` makes two closures a promise, each a call across the WebAssembly boundary to make
//! and one to drop, and an entry in the collector's finalization registry (`bench/crossings.mjs`
//! counts the calls).
//!
//! Ordering: the outcome arrives in a microtask of the runtime's, after the call that made the
//! future has returned; the task that awaits it is woken then, and reads it once. A future
//! dropped before its promise settles frees its state at once; the outcome that arrives later
//! finds no state under its key and is dropped.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use js_sys::Promise;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::slab::{Key, Slab};

#[wasm_bindgen(module = "/src/promise.js")]
extern "C" {
    #[wasm_bindgen(js_name = settle)]
    fn js_settle(promise: &Promise, slot: u32, generation: u32, callback: &JsValue);
}

/// Where a promise is.
enum State {
    /// Not settled yet; the waker of the task that awaits it, once it has.
    Pending(Option<Waker>),
    /// Settled: its value, or what it was rejected with.
    Settled(Result<JsValue, JsValue>),
}

thread_local! {
    /// The state of each promise a future awaits.
    static PROMISES: RefCell<Slab<State>> = const { RefCell::new(Slab::new()) };
    /// The one callback every promise settles into: `(slot, generation, ok, value)`. Made at the
    /// isolate's first await and never dropped.
    static CALLBACK: JsValue =
        Closure::<dyn Fn(u32, u32, bool, JsValue)>::new(on_settled).into_js_value();
}

/// The outcome of a promise, as a future: `Ok(value)` or `Err(reason)`.
pub struct Settled {
    key: Key,
}

/// Starts listening to `promise` now; the future resolves to its outcome.
pub fn settled(promise: &Promise) -> Settled {
    let key = PROMISES.with(|promises| promises.borrow_mut().insert(State::Pending(None)));
    CALLBACK.with(|callback| js_settle(promise, key.slot, key.generation, callback));
    Settled { key }
}

/// A promise's outcome, from `promise.js`: kept under its key, and its task woken.
fn on_settled(slot: u32, generation: u32, ok: bool, value: JsValue) {
    let key = Key { slot, generation };
    let outcome = if ok { Ok(value) } else { Err(value) };
    // The borrow ends before the wake: a waker may run code that awaits another promise.
    let waker = PROMISES.with(|promises| {
        let mut promises = promises.try_borrow_mut().ok()?;
        let state = promises.get_mut(key)?;
        match std::mem::replace(state, State::Settled(outcome)) {
            State::Pending(waker) => waker,
            // Settled twice: `promise.js` calls once a promise.
            State::Settled(_) => None,
        }
    });
    if let Some(waker) = waker {
        waker.wake();
    }
}

impl Future for Settled {
    type Output = Result<JsValue, JsValue>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let key = self.key;
        // What the borrow replaces goes after it: a waker dropped may drop a task's future.
        let (ready, _replaced) = PROMISES.with(|promises| {
            let Ok(mut promises) = promises.try_borrow_mut() else {
                return (None, None);
            };
            match promises.get_mut(key) {
                Some(State::Pending(waker)) => (None, waker.replace(cx.waker().clone())),
                Some(State::Settled(_)) => match promises.remove(key) {
                    Some(State::Settled(outcome)) => (Some(outcome), None),
                    _ => (None, None),
                },
                // Polled after it was ready: a bug of the caller's; it stays pending rather than
                // panicking.
                None => (None, None),
            }
        });
        ready.map_or(Poll::Pending, Poll::Ready)
    }
}

impl Drop for Settled {
    fn drop(&mut self) {
        // Nothing when the outcome was taken: the key is stale by then. The state goes after the
        // borrow (it may hold a waker).
        let key = self.key;
        let state = PROMISES
            .try_with(|promises| promises.try_borrow_mut().ok()?.remove(key))
            .ok()
            .flatten();
        drop(state);
    }
}
