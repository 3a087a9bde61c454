//! Protocol 6's shapes beyond text, reasoning and tools, and their bounds: a data part's fields, a
//! source, message metadata (its reserved keys, and how two objects merge), each checked into the
//! shape the UI stream and the history use ([`super::read`] reads them from a frame or a part).

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::bounds::{nesting_depth, MAX_CONTEXT_BYTES, MAX_ID_BYTES, MAX_JSON_DEPTH};
use crate::bounds::{MAX_FILENAME_BYTES, MAX_LABEL_CHARS, MAX_MEDIA_TYPE_BYTES};
use crate::v2::frame_error::FrameError;

/// The longest data part name, in characters: the `data-status` label's bound (a tool-name token,
/// [`MAX_LABEL_CHARS`]), since a name is a token of the same kind (`data-<name>`).
pub const MAX_DATA_NAME_CHARS: usize = MAX_LABEL_CHARS;

/// The longest id (a data part's `id`, a source's `sourceId`), in bytes: a message id's bound
/// ([`MAX_ID_BYTES`]).
pub const MAX_PART_ID_BYTES: usize = MAX_ID_BYTES;

/// The largest text of a source (its `url`, its `title`) and the largest metadata object, in
/// bytes of JSON: a prompt's `context` bound ([`MAX_CONTEXT_BYTES`], 16 KiB), the largest free
/// JSON the adapter carries between the page and the agent; metadata rides on every history
/// listing of its message, so it stays small.
pub const MAX_EXTRA_BYTES: usize = MAX_CONTEXT_BYTES;

/// Data part names the adapter writes itself: the agent's status (`data-status`), its question
/// (`data-question`) and the user's answer (`data-answer`, read from the client's messages).
pub const RESERVED_DATA_NAMES: [&str; 3] = ["status", "question", "answer"];

/// The keys of `messageMetadata` the adapter writes itself (`crate::ui::metadata`, the history's
/// `ref` and `siblings`): an agent's metadata may name none of them, so neither side clobbers
/// the other when the client merges them.
pub const RESERVED_METADATA_KEYS: [&str; 11] = [
    "turnId",
    "createdAt",
    "durationMs",
    "toolCalls",
    "toolErrors",
    "stopped",
    "usage",
    "model",
    "error",
    "ref",
    "siblings",
];

/// A data part's fields, in `message.part.data` (with `turnId`) and in a stored `data` part
/// (without `transient`: a transient one is never stored). Read by [`parse_data`] and
/// [`parse_data_part`].
#[derive(Debug, Clone, Serialize)]
pub struct DataFields {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Any JSON, kept as the agent wrote it.
    pub data: Box<RawValue>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub transient: bool,
}

impl DataFields {
    /// The part, when it keeps the bounds: a name of 1 to [`MAX_DATA_NAME_CHARS`] characters of
    /// `[A-Za-z0-9_.:-]`, none of [`RESERVED_DATA_NAMES`]; an `id` of 1 to
    /// [`MAX_PART_ID_BYTES`] bytes; `data` nested at most [`MAX_JSON_DEPTH`] levels.
    pub fn checked(self) -> Result<Self, FrameError> {
        let name_ok = !self.name.is_empty()
            && self.name.chars().count() <= MAX_DATA_NAME_CHARS
            && self
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'));
        if !name_ok {
            return Err(fault(
                "a data part's name is not 1 to 64 of [A-Za-z0-9_.:-]",
            ));
        }
        if RESERVED_DATA_NAMES.contains(&self.name.as_str()) {
            return Err(fault("a data part's name is one the adapter writes"));
        }
        check_id(self.id.as_deref(), "a data part's id")?;
        if nesting_depth(self.data.get()) > MAX_JSON_DEPTH {
            return Err(fault("a data part's data nests deeper than 64 levels"));
        }
        Ok(self)
    }
}

/// A source: a web page (`url`, `title?`) or a document (`mediaType`, `title`, `filename?`), in
/// `message.part.source` (with `turnId`) and in a stored `source` part. Read by
/// [`parse_source`] and [`parse_source_part`], through [`Source::checked`], which keeps only the
/// fields of its kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    pub source_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
}

impl Source {
    /// The source, when it keeps the bounds: a `sourceId` of 1 to [`MAX_PART_ID_BYTES`] bytes;
    /// with `url` (an `http:` or `https:` URL of at most [`MAX_EXTRA_BYTES`]), a web page, its
    /// `mediaType` and `filename` dropped; else a document, with a `mediaType` (1 to 255 bytes)
    /// and a `title`; a `title` of at most [`MAX_EXTRA_BYTES`], a `filename` of at most 255.
    pub fn checked(mut self) -> Result<Self, FrameError> {
        check_id(Some(&self.source_id), "a source's sourceId")?;
        check_text(self.title.as_deref(), MAX_EXTRA_BYTES, "a source's title")?;
        match &self.url {
            Some(url) => {
                let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
                let web = lower.starts_with("https://") || lower.starts_with("http://");
                if !web || url.len() > MAX_EXTRA_BYTES {
                    return Err(fault(
                        "a source's url is not an http(s) URL of at most 16 KiB",
                    ));
                }
                self.media_type = None;
                self.filename = None;
            }
            None => {
                let media_type = self.media_type.as_deref().unwrap_or_default();
                if media_type.is_empty() || media_type.len() > MAX_MEDIA_TYPE_BYTES {
                    return Err(fault("a source has neither a url nor a mediaType"));
                }
                if self.title.is_none() {
                    return Err(fault("a document source has no title"));
                }
                check_text(self.filename.as_deref(), MAX_FILENAME_BYTES, "a filename")?;
            }
        }
        Ok(self)
    }
}

/// An agent's message metadata, as its JSON text, when it keeps the bounds: a JSON object of at
/// most [`MAX_EXTRA_BYTES`], nested at most [`MAX_JSON_DEPTH`] levels, naming none of
/// [`RESERVED_METADATA_KEYS`] at its top.
pub fn read_metadata(raw: &RawValue) -> Result<Map<String, Value>, FrameError> {
    let text = raw.get();
    if text.len() > MAX_EXTRA_BYTES || nesting_depth(text) > MAX_JSON_DEPTH {
        return Err(fault(
            "metadata is over 16 KiB or nests deeper than 64 levels",
        ));
    }
    let Ok(Value::Object(map)) = serde_json::from_str(text) else {
        return Err(fault("metadata is not a JSON object"));
    };
    if let Some(key) = RESERVED_METADATA_KEYS
        .iter()
        .find(|key| map.contains_key(**key))
    {
        return Err(FrameError(format!(
            "metadata names {key:?}, a key the adapter writes"
        )));
    }
    Ok(map)
}

/// `over` merged into `base` as the AI SDK merges message metadata (`mergeObjects`): a key whose
/// values are objects on both sides is merged the same way, any other value replaces.
pub fn merge_metadata(base: &mut Map<String, Value>, over: &Map<String, Value>) {
    for (key, value) in over {
        match (base.get_mut(key), value) {
            (Some(Value::Object(inner)), Value::Object(value)) => merge_metadata(inner, value),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

/// A turn event of protocol 6: its turn, and what it carries.
#[derive(Debug, Clone)]
pub struct TurnPart<T> {
    pub turn_id: String,
    pub part: T,
}

fn check_id(id: Option<&str>, what: &str) -> Result<(), FrameError> {
    match id {
        Some(id) if id.is_empty() || id.len() > MAX_PART_ID_BYTES => {
            Err(FrameError(format!("{what} is not 1 to 256 bytes")))
        }
        _ => Ok(()),
    }
}

fn check_text(text: Option<&str>, max: usize, what: &str) -> Result<(), FrameError> {
    match text {
        Some(text) if text.len() > max => Err(FrameError(format!("{what} is over {max} bytes"))),
        _ => Ok(()),
    }
}

pub(super) fn fault(what: &str) -> FrameError {
    FrameError(what.to_owned())
}
