//! The worker's diagnostic lines ([`crate::diagnostic`]) written to the console, each with the
//! method of its level, so that every line of the log is one JSON object.

use wasm_bindgen::JsValue;

use crate::diagnostic::{Diagnostic, Level};

/// Writes `line`.
pub fn write(line: Diagnostic<'_>) {
    let text = JsValue::from_str(&line.line());
    match line.level {
        Level::Info => web_sys::console::log_1(&text),
        Level::Warn => web_sys::console::warn_1(&text),
        Level::Error => web_sys::console::error_1(&text),
    }
}

/// Writes an `info` line of `event` (of request `request_id`, if of one), with `detail`.
pub fn info(event: &'static str, request_id: Option<&str>, detail: &str) {
    write(Diagnostic {
        level: Level::Info,
        event,
        request_id,
        detail,
    });
}

/// Writes a `warn` line.
pub fn warn(event: &'static str, request_id: Option<&str>, detail: &str) {
    write(Diagnostic {
        level: Level::Warn,
        event,
        request_id,
        detail,
    });
}

/// Writes an `error` line.
pub fn error(event: &'static str, request_id: Option<&str>, detail: &str) {
    write(Diagnostic {
        level: Level::Error,
        event,
        request_id,
        detail,
    });
}
