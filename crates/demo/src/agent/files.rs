//! `/files` in the Durable Object: each file's bytes read from the `FILES` bucket (the binding
//! the adapter keeps files in; [`crate::files`] says where and what the reply says).

use worker::Bucket;

use crate::files::{line, source_of, Source};
use crate::v2::Attachment;

/// The reply to `/files` for `files`, a prompt's attachments in `session`: a line each.
pub(crate) async fn describe(
    bucket: Option<&Bucket>,
    session: &str,
    files: &[Attachment],
) -> String {
    if files.is_empty() {
        return "No file came with this message.".into();
    }
    let mut lines = Vec::with_capacity(files.len());
    for file in files {
        let bytes = match (source_of(file, session), bucket) {
            (Source::Inline(bytes), _) => Some(bytes),
            (Source::Bucket(key), Some(bucket)) => read(bucket, &key).await,
            _ => None,
        };
        lines.push(line(file, bytes.as_deref()));
    }
    lines.join("\n")
}

/// The object under `key`, whole; `None` when there is none or it cannot be read.
async fn read(bucket: &Bucket, key: &str) -> Option<Vec<u8>> {
    let object = bucket.get(key).execute().await.ok()??;
    object.body()?.bytes().await.ok()
}
