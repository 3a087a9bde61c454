//! Protocol 6's turn events beyond text, reasoning and tools: an app's data parts
//! (`message.part.data`), sources (`message.part.source`) and message metadata
//! (`message.metadata`), read and bounded (docs/agent-protocol.md, "Data, sources and metadata").
//!
//! Each is read into the shape the UI stream and the history use. One that breaks a bound is a
//! [`FrameError`]: the stream skips and logs it as any frame of a known type with fields of the
//! wrong shape, and a snapshot leaves the part out. The same checks serve the stored parts of
//! `init` ([`parse_data_part`], [`parse_source_part`], [`parse_metadata_part`]), so history and
//! stream agree.

mod parts;
mod read;

pub use parts::{
    merge_metadata, read_metadata, DataFields, Source, TurnPart, MAX_DATA_NAME_CHARS,
    MAX_EXTRA_BYTES, MAX_PART_ID_BYTES, RESERVED_DATA_NAMES, RESERVED_METADATA_KEYS,
};
pub use read::{
    parse_data, parse_data_part, parse_metadata, parse_metadata_part, parse_source,
    parse_source_part,
};

#[cfg(test)]
#[path = "extras_tests.rs"]
mod tests;
