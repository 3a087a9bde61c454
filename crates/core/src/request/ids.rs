//! The ids a body names (each message's `id`, the ids of the branch before the last message,
//! the body's `messageId`): strings of 1 to [`MAX_ID_BYTES`] bytes of UTF-8, counted decoded
//! (`"\u00e9"` is the two bytes of `é`, not the six characters written), and valid Unicode (a
//! lone surrogate escape such as `"\ud800"` is no text an agent can store or compare).

use std::fmt;

use serde_json::value::RawValue;

pub use crate::bounds::MAX_ID_BYTES;

/// Why a value is not an id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdFault {
    NotString,
    /// A string with a lone surrogate escape (`"\ud800"`): not valid Unicode.
    NotUnicode,
    Empty,
    /// A string of this many bytes of UTF-8, over [`MAX_ID_BYTES`].
    TooLong {
        bytes: usize,
    },
}

impl IdFault {
    /// What is wrong, as the end of a sentence that names the field ("`messageId` …").
    pub fn says(&self) -> String {
        self.to_string()
    }
}

/// Written straight into the refusal's sentence (no text made on the way: less of the wasm).
impl fmt::Display for IdFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdFault::NotString => f.write_str("is not a string"),
            IdFault::NotUnicode => {
                f.write_str("is not valid Unicode (it has a lone surrogate escape such as \\ud800)")
            }
            IdFault::Empty => f.write_str("is empty"),
            IdFault::TooLong { bytes } => {
                write!(
                    f,
                    "is {bytes} bytes of UTF-8, over the limit of {MAX_ID_BYTES}"
                )
            }
        }
    }
}

/// The id `raw` (JSON text the body's pass read) holds, decoded, or why it is none.
pub fn read_id(raw: &RawValue) -> Result<String, IdFault> {
    let text = raw.get();
    if !text.starts_with('"') {
        return Err(IdFault::NotString);
    }
    // The text is JSON the body's pass read: a string that does not decode has a lone surrogate.
    let id = serde_json::from_str::<String>(text).map_err(|_| IdFault::NotUnicode)?;
    match id.len() {
        0 => Err(IdFault::Empty),
        bytes if bytes > MAX_ID_BYTES => Err(IdFault::TooLong { bytes }),
        _ => Ok(id),
    }
}

#[cfg(test)]
#[path = "ids_tests.rs"]
mod tests;
