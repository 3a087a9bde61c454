//! A message's files at the edge, I/O only (the rules are `crate::files::inline`'s,
//! `crate::request::FilesAt`'s and `crate::files::signed`'s): on the way in ([`keep_files`]),
//! each `data:` URL file of a chat POST's last message is kept in the `FILES` bucket under its
//! content's hash and goes to the agent as its signed URL, never its bytes, and each file URL of
//! this worker must name a file the session holds; on the way out ([`sign_again`]), the history's
//! file URLs are signed afresh, so that a URL stored an hour ago still opens. Only with the bucket
//! and `FILES_SECRET`; without them a message's files go to the agent as they came.

use js_sys::Promise;
use wasm_bindgen::JsValue;

use crate::context::RouteContext;
use crate::failure::Failure;
use crate::files::inline::{content_id, inline_file, not_held};
use crate::files::pending::{marker_key, marker_prefix};
use crate::files::signed::{file_of_url, signed_message, signed_url};
use crate::files::{object_key, session_prefix, FileId};
use crate::handlers::files::{
    bucket, fault, js_delete_under, js_digest_of, js_drop_marker, js_head_file, js_keep_file,
    js_sign_all,
};
use crate::platform::clock::now_ms;
use crate::platform::promise::settled;
use crate::refusal::Refusal;
use crate::request::FilesAt;
use crate::session::{Message, Part};
use crate::v2::Attachment;

/// Keeps `files` (the last message's) in `bucket`, each `data:` URL replaced by the file's signed
/// URL; refuses the request when one cannot be kept, or names a file the session does not hold.
pub(crate) async fn keep_files(
    cx: &RouteContext<'_>,
    (bucket, secret): (&JsValue, &[u8]),
    at: &FilesAt<'_>,
    files: &mut [Attachment],
) -> Result<(), Failure> {
    let settings = &cx.config.files;
    for file in files.iter_mut() {
        if let Some(inline) = inline_file(file, settings)? {
            let digest = call(cx, "digest", js_digest_of(&inline.bytes)).await?;
            let id = digest
                .as_string()
                .as_deref()
                .and_then(content_id)
                .ok_or_else(Refusal::internal)?;
            let expires_at = now_ms() / 1000 + settings.url_ttl_secs;
            let kept = js_keep_file(
                bucket,
                &object_key(at.session, &id),
                &inline.bytes,
                &inline.media_type,
                file.filename.as_deref().unwrap_or_default(),
                secret,
                &signed_message(at.session, &id, expires_at),
            );
            let mac = call(cx, "put", kept).await?.as_string().unwrap_or_default();
            file.url = signed_url(at.origin, at.session, &id, expires_at, &mac);
            file.media_type = inline.media_type;
            file.size = Some(inline.bytes.len() as u64);
        } else if let Some(Ok(id)) = at.names(&file.url) {
            file.size = Some(held(cx, bucket, secret, at.session, &id).await?);
        }
    }
    Ok(())
}

/// The length of the session's file `id`, in bytes; `400 invalid_attachment` when the session
/// does not hold it.
async fn held(
    cx: &RouteContext<'_>,
    bucket: &JsValue,
    secret: &[u8],
    session: &str,
    id: &FileId,
) -> Result<u64, Failure> {
    let head = js_head_file(bucket, &object_key(session, id), secret, "", "");
    let found = call(cx, "head", head).await?;
    if found.is_null() {
        return Err(not_held().into());
    }
    // A message names it: an upload is no longer waiting for one (`crate::files::pending`).
    let marker = marker_key(session, id);
    call(cx, "marker", js_drop_marker(bucket, &marker)).await?;
    // `[size, contentType, filename]` (files.js `headFile`).
    let size = js_sys::Reflect::get_u32(&found, 0)
        .ok()
        .and_then(|size| size.as_f64())
        .ok_or_else(Refusal::internal)?;
    Ok(size as u64)
}

/// A runtime call's value, or its failure logged and answered `500 internal_error`.
async fn call(cx: &RouteContext<'_>, what: &str, promise: Promise) -> Result<JsValue, Failure> {
    settled(&promise).await.map_err(|err| fault(cx, what, &err))
}

/// Signs again, for `origin` (this request's), every URL of `messages` (a history page of
/// `session`) that names a file of the session: one call for the page's files, none when it has
/// none.
pub(crate) async fn sign_again(
    cx: &RouteContext<'_>,
    secret: &[u8],
    origin: &str,
    session: &str,
    messages: &mut [Message],
) -> Result<(), Failure> {
    let mut files: Vec<(&mut Attachment, FileId)> = messages
        .iter_mut()
        .flat_map(|message| message.parts.iter_mut())
        .filter_map(|part| match part {
            Part::File(file) => file_of_url(&file.url, session).map(|id| (file, id)),
            _ => None,
        })
        .collect();
    if files.is_empty() {
        return Ok(());
    }
    let expires_at = now_ms() / 1000 + cx.config.files.url_ttl_secs;
    let signed: Vec<String> = files
        .iter()
        .map(|(_, id)| signed_message(session, id, expires_at))
        .collect();
    let macs = call(cx, "sign", js_sign_all(secret, &signed.join("\n\n"))).await?;
    let macs = macs.as_string().unwrap_or_default();
    for ((file, id), mac) in files.iter_mut().zip(macs.split('\n')) {
        file.url = signed_url(origin, session, id, expires_at, mac);
    }
    Ok(())
}

/// Deletes every file of `session` from the bucket (a deleted session's: docs/files.md), and its
/// uploads' markers; nothing without a bucket. Answers how many files were deleted.
pub(crate) async fn delete_session_files(
    cx: &RouteContext<'_>,
    session: &str,
) -> Result<u64, Failure> {
    let Some((bucket, _)) = bucket(cx) else {
        return Ok(0);
    };
    delete_files_of(&bucket, session)
        .await
        .map_err(|err| fault(cx, "delete", &err))
}

/// Deletes every file of `session` from `bucket`, and their markers: how many files; the
/// bucket's failure as it came.
pub(crate) async fn delete_files_of(bucket: &JsValue, session: &str) -> Result<u64, JsValue> {
    let deleted = settled(&js_delete_under(bucket, &session_prefix(session))).await?;
    settled(&js_delete_under(bucket, &marker_prefix(session))).await?;
    Ok(deleted.as_f64().unwrap_or(0.0) as u64)
}
