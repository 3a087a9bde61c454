//! Error responses: every one the worker sends has the JSON body of [`crate::error_body`].

use worker::{Headers, Response, Result};

use crate::error_body::error_json;

/// A JSON error response with `status`, a stable `code` and a plain `message`.
pub(crate) fn json_error(status: u16, code: &str, message: &str) -> Result<Response> {
    json_response(status, error_json(code, message))
}

/// A JSON response that is never cached.
pub(crate) fn json_response(status: u16, json: String) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/json; charset=utf-8")?;
    headers.set("cache-control", "no-store")?;
    Ok(Response::builder()
        .with_status(status)
        .with_headers(headers)
        .fixed(json.into_bytes()))
}

/// The message of every 404.
pub(crate) const NOT_FOUND: &str = "There is nothing at this path.";

/// 404 for every path the demo agent's object does not serve.
#[cfg(feature = "demo")]
pub(crate) fn not_found() -> Result<Response> {
    json_error(404, "not_found", NOT_FOUND)
}
