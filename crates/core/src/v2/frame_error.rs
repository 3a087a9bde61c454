//! A frame that cannot be used ([`FrameError`]: the caller skips and logs it), and the reading
//! that makes one of any serde error. A leaf of `v2`, so that its children name it without
//! reading their parent.

use serde::Deserialize;

/// A frame that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameError(pub String);

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses `text` as `T`, any serde error becoming a [`FrameError`].
pub(crate) fn typed<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, FrameError> {
    serde_json::from_str(text).map_err(|e| FrameError(e.to_string()))
}
