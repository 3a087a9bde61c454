//! A file attached to a prompt: the V2 shape the adapter sends and an `init` gives back.

use serde::{Deserialize, Serialize};

/// A file sent with a prompt (and a `file` part of a user message in `init`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    pub media_type: String,
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    /// The file's length in bytes, when the adapter knows it: a file it keeps in its bucket (a
    /// `data:` URL it stored, or an upload it found there). Protocol 6; never sent to a client (a
    /// `FileUIPart` has no such field: `crate::history` writes a file part's fields one by one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}
