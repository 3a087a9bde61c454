//! The smallest useful workers-rs worker: every request gets the JSON 404 that this project's
//! worker and the TS adapter answer for an unknown path, with its `Content-Type`. What a request
//! to it costs is what any Rust worker pays before its own code runs (bench/entry.mjs).
#![forbid(unsafe_code)]

use web_sys::{Headers, ResponseInit};
use worker::{event, Context, Env};

/// The same bytes as the project's answer to an unknown path (`src/platform/errors.rs`).
const NOT_FOUND: &str =
    r#"{"error":{"code":"not_found","message":"There is nothing at this path."}}"#;

#[event(fetch)]
async fn fetch(
    _req: web_sys::Request,
    _env: Env,
    _ctx: Context,
) -> worker::Result<web_sys::Response> {
    let headers = Headers::new()?;
    headers.set("content-type", "application/json; charset=utf-8")?;
    let init = ResponseInit::new();
    init.set_status(404);
    init.set_headers(&headers);
    Ok(web_sys::Response::new_with_opt_str_and_init(
        Some(NOT_FOUND),
        &init,
    )?)
}
