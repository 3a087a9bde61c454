//! The session feeds' watchdog for a lost WebAssembly instance: a feed's task is Rust, and once
//! the instance traps no Rust code runs again, so `watchdog.js` ends the feeds of a lost instance
//! in JavaScript (their bodies closed: their clients reconnect). A turn's stream has its own
//! (`crate::pump`, "A lost instance"). A socket that dies while the instance lives is the core's
//! `liveness`, checked by the feed's task itself.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/src/watchdog.js")]
extern "C" {
    #[wasm_bindgen(js_name = watchFeed)]
    fn js_watch_feed(
        writer: &web_sys::WritableStreamDefaultWriter,
        socket: &web_sys::WebSocket,
        period_ms: f64,
    );

    #[wasm_bindgen(js_name = unwatchFeed)]
    fn js_unwatch_feed(writer: &web_sys::WritableStreamDefaultWriter);
}

/// Watches the feed of `writer` and `socket` until [`unwatch`], checking every `period_ms` (a
/// timer of the feed's own, in JavaScript: it costs no call into WebAssembly). Watching a feed
/// again (its socket replaced) replaces its watch.
pub(crate) fn watch(
    writer: &web_sys::WritableStreamDefaultWriter,
    socket: &worker::WebSocket,
    period_ms: u64,
) {
    js_watch_feed(writer, socket.as_ref(), period_ms as f64);
}

/// Stops watching the feed of `writer`.
pub(crate) fn unwatch(writer: &web_sys::WritableStreamDefaultWriter) {
    js_unwatch_feed(writer);
}
