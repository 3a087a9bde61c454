//! The JSON body of every error response: `{ "error": { "code": "...", "message": "..." } }`.

use serde::Serialize;

#[derive(Serialize)]
struct Body<'a> {
    error: Inner<'a>,
}

#[derive(Serialize)]
struct Inner<'a> {
    code: &'a str,
    message: &'a str,
}

/// The error body for `code` (machine-readable, `snake_case`) and `message` (one plain
/// sentence for people, without internal detail).
pub fn error_json(code: &str, message: &str) -> String {
    serde_json::to_string(&Body {
        error: Inner { code, message },
    })
    .unwrap_or_default()
}

#[cfg(test)]
#[path = "error_body_tests.rs"]
mod tests;
