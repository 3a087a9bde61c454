//! The bounds a client's request and an agent's frame share, in one home: how deep JSON may nest,
//! how long an id, a `context`, a file's media type and name, and a label may be. A leaf: the
//! request (what a client sends) and V2 (what an agent sends) both read them, and neither reads
//! the other for them.

mod depth;

pub use depth::{nesting_depth, MAX_JSON_DEPTH};

/// The longest id accepted, in bytes of UTF-8 (docs/endpoint.md, docs/agent-protocol.md: "1 to
/// 256 bytes"). The AI SDK's `generateId` makes ids of 16 characters, a UUID is 36: 256 leaves
/// room for any prefixed scheme of the AI SDK's `generateId` option, and keeps the 1,000 ids of a
/// chat at the message limit within 256 KB of a `prompt`, before JSON's escapes.
pub const MAX_ID_BYTES: usize = 256;

/// The largest `context` accepted, in bytes of JSON: 16 KiB, many times what a page says about
/// itself (its path, the product shown, the visitor's plan), and small beside the prompt it rides
/// in; a larger one is a client sending what belongs in a message or a tool.
pub const MAX_CONTEXT_BYTES: usize = 16 * 1024;

/// The longest `mediaType`, in bytes: RFC 6838 section 4.2 bounds a type name and a subtype name
/// to 127 characters each, so `type/subtype` is at most 127 + 1 + 127.
pub const MAX_MEDIA_TYPE_BYTES: usize = 255;

/// The longest `filename`, in bytes of UTF-8: the most a file's name may have on the common
/// filesystems (ext4, XFS, APFS: 255 bytes; NTFS: 255 UTF-16 units).
pub const MAX_FILENAME_BYTES: usize = 255;

/// Longest label kept, in characters. Seed 000 allows "at most a tool name"; 64 covers
/// every tool name in practice and keeps a leaked argument from riding along.
pub const MAX_LABEL_CHARS: usize = 64;
