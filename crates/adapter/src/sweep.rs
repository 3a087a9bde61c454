//! The uploads' sweep (docs/files.md, "What is kept, and for how long"), run by the worker's Cron
//! Trigger ([`crate::Adapter::scheduled`]): the markers of uploads no message has named, read page
//! by page (at most `MAX_SWEPT_MARKERS`), and each file whose marker is older than `UPLOAD_TTL_H`
//! deleted with its marker. Which ones is `crate::files::pending`'s decision, and the sweep's
//! clock is the trigger's `scheduledTime`. One log line a sweep (`upload_sweep`).

use js_sys::Array;
use worker::Env;

use crate::files::pending::{expired_keys, MAX_SWEPT_MARKERS, PENDING_ROOT};
use crate::handlers::files::{bucket_of, js_delete_keys, js_list_markers};
use crate::platform::log;
use crate::platform::promise::settled;
use crate::platform::settings;

/// R2's most keys a list call gives: the sweep's page.
const LIST_PAGE: usize = 1_000;

/// Sweeps the bucket at `now_ms` (milliseconds since the epoch). Nothing without a bucket or
/// with settings that cannot be used (a request says why); a failure of the bucket is a line.
pub(crate) async fn sweep_uploads(env: &Env, now_ms: u64) {
    let config = settings::load(env);
    let (Ok(config), Some(bucket)) = (config.as_ref(), bucket_of(env)) else {
        return;
    };
    let ttl_hours = config.files.upload_ttl_hours;
    let mut cursor = String::new();
    let (mut read, mut deleted) = (0usize, 0usize);
    loop {
        let page = match settled(&js_list_markers(&bucket, PENDING_ROOT, &cursor)).await {
            Ok(page) => Array::from(&page),
            Err(err) => return failed("list", &err),
        };
        let lines = page.get(0).as_string().unwrap_or_default();
        read += lines.lines().count();
        let keys = expired_keys(&lines, now_ms, ttl_hours);
        if !keys.is_empty() {
            if let Err(err) = settled(&js_delete_keys(&bucket, &keys.join("\n"))).await {
                return failed("delete", &err);
            }
            deleted += keys.len() / 2;
        }
        cursor = page.get(1).as_string().unwrap_or_default();
        if cursor.is_empty() || read + LIST_PAGE > MAX_SWEPT_MARKERS {
            break;
        }
    }
    let more = if cursor.is_empty() {
        ""
    } else {
        "; more are left to the next sweep"
    };
    let detail = format!(
        "{deleted} upload(s) older than {ttl_hours} h deleted of {read} waiting for a message{more}"
    );
    log::info("upload_sweep", None, &detail);
}

/// A failed call of the bucket's: its line.
fn failed(what: &str, err: &wasm_bindgen::JsValue) {
    let message = err.as_string().unwrap_or_default();
    log::error(
        "upload_sweep",
        None,
        &format!("the bucket's {what} failed: {message}"),
    );
}
