//! What a turn cost, as the agent reports it on `message.finalize` (protocol 3): `usage` (tokens
//! in and out) and `model`, read leniently: a field of the wrong shape is dropped, never the
//! frame that carries it (docs/agent-protocol.md, `message.finalize`).

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::Value;

/// The largest token count kept: JavaScript's `Number.MAX_SAFE_INTEGER` (2^53 − 1), the largest
/// integer every client reading the `finish` metadata holds exactly.
pub const MAX_TOKENS: u64 = (1 << 53) - 1;

/// The longest `model` kept, in bytes: model ids run to some 60 bytes (`@cf/meta/llama-3.1-8b-
/// instruct-fp8-fast` is 39, provider-prefixed gateway ids under 100); 256 leaves room and bounds
/// what a turn's record and its data point carry (Analytics Engine takes 16 KB of blobs a point).
pub const MAX_MODEL_BYTES: usize = 256;

/// The longest error `code` kept, in bytes: the codes the contract names are single words
/// (`busy`, `question_not_pending`); 64 bounds an agent's own.
pub const MAX_CODE_BYTES: usize = 64;

/// Tokens a turn used, as the agent counted them. Either count may be missing; a usage with
/// neither is none. The names are the AI SDK's (`LanguageModelUsage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
}

/// `usage` as the agent sent it: an object whose `inputTokens` and `outputTokens` are whole
/// numbers from 0 to [`MAX_TOKENS`]; any other value of either is dropped.
pub fn read_usage(value: &Value) -> Option<Usage> {
    let count = |name: &str| {
        value
            .get(name)
            .and_then(Value::as_u64)
            .filter(|&n| n <= MAX_TOKENS)
    };
    let usage = Usage {
        input_tokens: count("inputTokens"),
        output_tokens: count("outputTokens"),
    };
    (usage.input_tokens.is_some() || usage.output_tokens.is_some()).then_some(usage)
}

/// [`read_usage`] of a `usage` its frame kept as the agent wrote it (raw: read once a turn, at
/// its end, where a `Value` field made every frame's parser larger).
pub fn read_raw_usage(raw: Option<&RawValue>) -> Option<Usage> {
    read_usage(&read_raw(raw)?)
}

/// [`read_model`] of a `model` kept raw, as [`read_raw_usage`]'s.
pub fn read_raw_model(raw: Option<&RawValue>) -> Option<String> {
    read_model(&read_raw(raw)?)
}

/// A field kept raw, as a [`Value`]. Raw text is whole JSON: it always parses.
pub fn read_raw(raw: Option<&RawValue>) -> Option<Value> {
    serde_json::from_str(raw?.get()).ok()
}

/// `model` as the agent sent it: a string of 1 to [`MAX_MODEL_BYTES`] bytes.
pub fn read_model(value: &Value) -> Option<String> {
    bounded_word(value, MAX_MODEL_BYTES)
}

/// An error's `code`: a string of 1 to [`MAX_CODE_BYTES`] bytes.
pub fn read_code(value: &Value) -> Option<String> {
    bounded_word(value, MAX_CODE_BYTES)
}

fn bounded_word(value: &Value, max: usize) -> Option<String> {
    value
        .as_str()
        .filter(|s| !s.is_empty() && s.len() <= max)
        .map(str::to_owned)
}

#[cfg(test)]
#[path = "usage_tests.rs"]
mod tests;
