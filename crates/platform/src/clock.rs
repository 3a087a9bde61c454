//! The isolate's clock, for the edge shell and the demo agent alike.

/// Milliseconds since the Unix epoch: `Date.now()` (in workerd, the time of the last I/O).
///
/// One call into JavaScript. `worker::Date::now` makes a `Date` object and asks it the time,
/// two calls and an object, and a request reads the clock several times.
pub fn now_ms() -> u64 {
    // Date.now() is a whole, non-negative number of milliseconds.
    js_sys::Date::now() as u64
}
