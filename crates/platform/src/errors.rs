//! Error responses: every one the worker sends has the JSON body of [`crate::error_body`].

use worker::{Headers, Response, Result};

use crate::error_body::error_json;
use crate::refusal::Code;

/// A JSON error response of a code of the catalogue ([`crate::refusal`]) and a plain `message`.
pub fn json_error(kind: Code, message: &str) -> Result<Response> {
    json_response(kind.status, error_json(kind.code, message))
}

/// A JSON response that is never cached.
pub fn json_response(status: u16, json: String) -> Result<Response> {
    let headers = Headers::new();
    headers.set("content-type", "application/json; charset=utf-8")?;
    headers.set("cache-control", "no-store")?;
    Ok(Response::builder()
        .with_status(status)
        .with_headers(headers)
        .fixed(json.into_bytes()))
}

/// 404 for every path the demo agent's object does not serve.
#[cfg(feature = "demo")]
pub fn not_found() -> Result<Response> {
    use crate::refusal::{NOT_FOUND, NOT_FOUND_MESSAGE};
    json_error(NOT_FOUND, NOT_FOUND_MESSAGE)
}
