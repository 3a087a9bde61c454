//! AI SDK UI message stream chunks: the JSON objects a `useChat` client reads.
//!
//! The chunk set and field names mirror `uiMessageChunkSchema` of the AI SDK
//! (`packages/ai/src/ui-message-stream/ui-message-chunks.ts`). Only fields that the
//! very first ai@5 release (5.0.0, strict schemas that reject unknown keys) knows are
//! ever emitted, and an absent optional field is omitted, never `null`.
//! docs/ui-stream.md has the wire example of every chunk.

mod chunk;
mod metadata;
mod status;
pub mod tool_reasons;

pub use chunk::{AppData, QuestionData, StatusData, StatusPhase, UiChunk};
pub use metadata::{FinishMetadata, StartMetadata};
pub use status::{status_chunk, MAX_LABEL_CHARS};
