//! A `Range` header against a file's size (RFC 9110 section 14): one byte range served as `206`,
//! a range past the end `416`, anything else the whole file (`200`), as the RFC lets a server do
//! with a range it does not read.

use crate::files::digits;

/// What a `GET` of a file answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeAnswer {
    /// `200`, every byte: no `Range`, one in another unit, several ranges (RFC 9110 section
    /// 14.2: a server MAY ignore the header), or one that does not parse.
    Whole,
    /// `206`: `length` bytes from `offset`, which are within the file.
    Part { offset: u64, length: u64 },
    /// `416`: a range whose first byte is past the file's end (or a suffix of 0 bytes).
    Unsatisfiable,
}

impl RangeAnswer {
    /// The answer to `range` (the header's value) for a file of `size` bytes.
    pub fn of(range: Option<&str>, size: u64) -> RangeAnswer {
        let Some((unit, spec)) = range.and_then(|r| r.split_once('=')) else {
            return RangeAnswer::Whole;
        };
        if !unit.trim().eq_ignore_ascii_case("bytes") {
            return RangeAnswer::Whole;
        }
        // Several ranges put a `,` in a position, which is then no number: the whole file.
        let Some((first, last)) = spec.split_once('-') else {
            return RangeAnswer::Whole;
        };
        let (first, last) = (first.trim(), last.trim());
        let (offset, end) = match (digits(first), digits(last)) {
            // `-N`: the last N bytes.
            (None, Some(suffix)) if first.is_empty() => {
                if suffix == 0 || size == 0 {
                    return RangeAnswer::Unsatisfiable;
                }
                (size.saturating_sub(suffix), u64::MAX)
            }
            // `N-`, `N-M`.
            (Some(offset), None) if last.is_empty() => (offset, u64::MAX),
            (Some(offset), Some(end)) if end >= offset => (offset, end),
            _ => return RangeAnswer::Whole,
        };
        if offset >= size {
            return RangeAnswer::Unsatisfiable;
        }
        RangeAnswer::Part {
            offset,
            length: end.min(size - 1) - offset + 1,
        }
    }

    /// The `Content-Range` of a `206` or a `416` for a file of `size` bytes.
    pub fn content_range(self, size: u64) -> Option<String> {
        match self {
            RangeAnswer::Whole => None,
            RangeAnswer::Part { offset, length } => {
                Some(format!("bytes {offset}-{}/{size}", offset + length - 1))
            }
            RangeAnswer::Unsatisfiable => Some(format!("bytes */{size}")),
        }
    }
}

#[cfg(test)]
#[path = "range_tests.rs"]
mod tests;
