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
}
