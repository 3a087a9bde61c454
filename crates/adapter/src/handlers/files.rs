//! The files routes at the edge, I/O only (every decision is `crate::files`'s):
//!
//! * `POST /api/sessions/:id/files` ([`upload`]): the chat route's guard, then the body streamed
//!   into the `FILES` bucket under the session's key; `201` with the file's `FileUIPart`.
//! * `GET /api/sessions/:id/files/:fileId` ([`serve`]): a signed URL's signature, or else the
//!   chat route's guard; then the file (or the part a `Range` asks for) from the bucket.
//!
//! Without the `FILES` binding or `FILES_SECRET` both answer `501 files_not_configured`.

use js_sys::{Array, Promise, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use worker::Response;

use crate::context::RouteContext;
use crate::failure::Failure;
use crate::files::pending::marker_key;
use crate::files::range::RangeAnswer;
use crate::files::serve::{file_headers, file_not_found, range_not_satisfiable, Cache};
use crate::files::settings::files_not_configured;
use crate::files::signed::{origin_of_url, signed_message, signed_url, Signature};
use crate::files::upload::{
    check_head, empty_file, file_part_json, too_large, Upload, HEAD_BYTES, PART_BYTES,
};
use crate::files::{object_key, FileId, FILE_ID_BYTES};
use crate::guard::admit;
use crate::outcome::Outcome;
use crate::platform::bindings::OptionalBinding;
use crate::platform::clock::now_ms;
use crate::platform::errors::json_response;
use crate::platform::log;
use crate::platform::promise::settled;
use crate::platform::settings::FILES_BINDING;
use crate::refusal::Refusal;
use crate::request_head::Field;
use crate::request_log::Disposition;
use crate::routes::valid_session_id;

#[wasm_bindgen(module = "/src/handlers/files.js")]
extern "C" {
    #[wasm_bindgen(js_name = putFile)]
    #[allow(clippy::too_many_arguments)]
    fn js_put_file(
        bucket: &JsValue,
        key: &str,
        request: &web_sys::Request,
        declared: f64,
        max: f64,
        part_bytes: f64,
        media_type: &str,
        filename: &str,
        head_bytes: f64,
    ) -> Promise;

    #[wasm_bindgen(js_name = finishUpload)]
    fn js_finish_upload(bucket: &JsValue, marker: &str, secret: &[u8], message: &str) -> Promise;

    #[wasm_bindgen(js_name = dropMarker)]
    pub(crate) fn js_drop_marker(bucket: &JsValue, marker: &str) -> Promise;

    #[wasm_bindgen(js_name = listMarkers)]
    pub(crate) fn js_list_markers(bucket: &JsValue, prefix: &str, cursor: &str) -> Promise;

    #[wasm_bindgen(js_name = deleteKeys)]
    pub(crate) fn js_delete_keys(bucket: &JsValue, keys: &str) -> Promise;

    #[wasm_bindgen(js_name = digestOf)]
    pub(crate) fn js_digest_of(bytes: &[u8]) -> Promise;

    #[wasm_bindgen(js_name = keepFile)]
    pub(crate) fn js_keep_file(
        bucket: &JsValue,
        key: &str,
        bytes: &[u8],
        media_type: &str,
        filename: &str,
        secret: &[u8],
        message: &str,
    ) -> Promise;

    #[wasm_bindgen(js_name = deleteUnder)]
    pub(crate) fn js_delete_under(bucket: &JsValue, prefix: &str) -> Promise;

    #[wasm_bindgen(js_name = signAll)]
    pub(crate) fn js_sign_all(secret: &[u8], messages: &str) -> Promise;

    #[wasm_bindgen(js_name = headFile)]
    pub(crate) fn js_head_file(
        bucket: &JsValue,
        key: &str,
        secret: &[u8],
        message: &str,
        mac_hex: &str,
    ) -> Promise;

    #[wasm_bindgen(js_name = fileResponse)]
    fn js_file_response(
        bucket: &JsValue,
        key: &str,
        offset: f64,
        length: f64,
        status: u16,
        headers: &str,
    ) -> Promise;
}

thread_local! {
    /// The bucket, looked up once per isolate when absent.
    static BUCKET: OptionalBinding = const { OptionalBinding::new(FILES_BINDING) };
}

/// The bucket of `env`, when the worker has one (the routes below, and the uploads' sweep).
pub(crate) fn bucket_of(env: &worker::Env) -> Option<JsValue> {
    BUCKET.with(|binding| binding.get(env))
}

/// The bucket and the signing key, when the worker has both (the chat route keeps a message's
/// files with them, and takes this worker's file URLs, only then).
pub(crate) fn bucket<'a>(cx: &RouteContext<'a>) -> Option<(JsValue, &'a [u8])> {
    Some((bucket_of(cx.env)?, cx.config.files.secret.as_deref()?))
}

/// The bucket and the signing key, or `501 files_not_configured` (logged with what is missing).
fn open<'a>(cx: &RouteContext<'a>) -> Result<(JsValue, &'a [u8]), Failure> {
    let bucket = bucket_of(cx.env);
    match (bucket, cx.config.files.secret.as_deref()) {
        (Some(bucket), Some(secret)) => Ok((bucket, secret)),
        (bucket, _) => {
            let missing = if bucket.is_none() {
                "no FILES bucket is bound"
            } else {
                "FILES_SECRET is not set"
            };
            log::error("files", Some(cx.exchange.request_id()), missing);
            Err(files_not_configured().into())
        }
    }
}

/// A runtime call that failed: logged (what failed, and its error, which files.js rejects with
/// as text), and answered `500 internal_error`.
pub(crate) fn fault(cx: &RouteContext<'_>, what: &str, err: &JsValue) -> Failure {
    let message = err.as_string().unwrap_or_default();
    log::error(
        "files",
        Some(cx.exchange.request_id()),
        &format!("{what}: {message}"),
    );
    Refusal::internal().into()
}

/// `POST /api/sessions/:id/files`.
pub(crate) async fn upload(mut cx: RouteContext<'_>, session: &str) -> Result<Response, Failure> {
    let (bucket, secret) = open(&cx)?;
    admit(&mut cx, session).await?;
    let files = &cx.config.files;
    let upload = Upload::check(
        cx.req.head.url(),
        cx.req.header(Field::ContentType),
        cx.req.header(Field::ContentLength),
        &files.types,
        files.max_file_bytes,
    )?;
    let mut random = [0u8; FILE_ID_BYTES];
    if getrandom::fill(&mut random).is_err() {
        return Err(Refusal::internal().into());
    }
    let id = FileId::from_random(random);
    let key = object_key(session, &id);
    // The URL's life runs from the upload's start: its signature is made with the put.
    let expires_at = now_ms() / 1000 + files.url_ttl_secs;
    let put = js_put_file(
        &bucket,
        &key,
        cx.req.raw,
        upload.declared_bytes.map_or(-1.0, |n| n as f64),
        files.max_file_bytes as f64,
        PART_BYTES as f64,
        &upload.media_type,
        upload.filename.as_deref().unwrap_or_default(),
        HEAD_BYTES as f64,
    );
    let stored = match settled(&put).await {
        Ok(stored) => Array::from(&stored),
        Err(err) => return Err(fault(&cx, "put", &err)),
    };
    let size = stored.get(0).as_f64().unwrap_or(-1.0);
    if size < 0.0 {
        return Err(too_large(files.max_file_bytes).into());
    }
    if size == 0.0 {
        return Err(empty_file().into());
    }
    let head = Uint8Array::new(&stored.get(1)).to_vec();
    if let Err(refused) = check_head(&upload, &head, size as u64) {
        // Not kept: an HTML page sent as `image/png` is never served as one.
        if let Err(err) = settled(&js_delete_keys(&bucket, &key)).await {
            return Err(fault(&cx, "delete", &err));
        }
        return Err(refused.into());
    }
    let message = signed_message(session, &id, expires_at);
    let finished = js_finish_upload(&bucket, &marker_key(session, &id), secret, &message);
    let mac = match settled(&finished).await {
        Ok(mac) => mac.as_string().unwrap_or_default(),
        Err(err) => return Err(fault(&cx, "put", &err)),
    };
    let url = signed_url(
        origin_of_url(cx.req.head.url()),
        session,
        &id,
        expires_at,
        &mac,
    );
    cx.exchange.log.answered(Disposition::FileStored);
    Ok(json_response(
        201,
        file_part_json(&upload, &url, size as u64),
    )?)
}

/// `GET /api/sessions/:id/files/:fileId`.
pub(crate) async fn serve(
    mut cx: RouteContext<'_>,
    session: &str,
    file: &str,
) -> Result<Outcome, Failure> {
    let (bucket, secret) = open(&cx)?;
    if !valid_session_id(session) {
        return Err(Refusal::invalid_session_id().into());
    }
    let id = FileId::parse(file).ok_or_else(file_not_found)?;
    let signature = Signature::from_url(cx.req.head.url())?;
    let (message, mac_hex) = match &signature {
        Some(signature) => (
            signed_message(session, &id, signature.expires_at),
            signature.mac_hex,
        ),
        None => {
            admit(&mut cx, session).await?;
            (String::new(), "")
        }
    };
    let key = object_key(session, &id);
    let head = match settled(&js_head_file(&bucket, &key, secret, &message, mac_hex)).await {
        Ok(head) => head,
        Err(err) => return Err(fault(&cx, "head", &err)),
    };
    let cache = match signature {
        Some(signature) => Cache::Signed {
            secs_left: signature.check(head.as_bool() != Some(false), now_ms() / 1000)?,
        },
        None => Cache::Credentials,
    };
    if head.is_null() {
        return Err(file_not_found().into());
    }
    let head = Array::from(&head);
    let size = head.get(0).as_f64().unwrap_or(0.0) as u64;
    let (stored_type, filename) = (head.get(1).as_string(), head.get(2).as_string());
    let range = RangeAnswer::of(cx.req.header(Field::Range), size);
    let (offset, length, status, answered) = match range {
        RangeAnswer::Unsatisfiable => return Err(range_not_satisfiable(size).into()),
        RangeAnswer::Whole => (0.0, -1.0, 200, Disposition::FileServed),
        RangeAnswer::Part { offset, length } => {
            (offset as f64, length as f64, 206, Disposition::FilePart)
        }
    };
    let headers = file_headers(
        stored_type.as_deref(),
        filename.as_deref(),
        cache,
        range,
        size,
    );
    let answer = js_file_response(&bucket, &key, offset, length, status, &headers);
    match settled(&answer).await {
        Ok(response) if response.is_null() => Err(file_not_found().into()),
        Ok(response) => {
            cx.exchange.log.answered(answered);
            Ok(Outcome::Made(response.unchecked_into()))
        }
        Err(err) => Err(fault(&cx, "get", &err)),
    }
}
