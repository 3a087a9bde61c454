//! Trace modes: how much of the agent's work a client is sent (`docs/configuration.md`, `TRACE`). A POST
//! picks one with `"trace"` in its body, a resume or a history request with `?trace=`; `TRACE`
//! gives the default and `TRACE_MAX` the most any request gets, whatever it asks.
//!
//! | mode | what streams |
//! | --- | --- |
//! | `full` | everything; a tool `input` or `output` whose JSON is longer than `MAX_TOOL_JSON_CHARS` is replaced by `{"truncated":true,"preview":"<its first MAX_TOOL_JSON_CHARS characters>","fullLength":<characters>}` |
//! | `normal` | the text, reasoning, status and questions, and every tool call by its name and state, without its arguments, result or error text: `input` and `output` are `null`, an `errorText` of the agent's is empty (the adapter's own words for a tool the turn's end cut off are kept) |
//! | `minimal` | no tool, reasoning or status chunk: the text, questions and the ending (for mobile clients on thin links) |
//!
//! `docs/sessions.md` ("Trace modes") is the page that says this to users. Every mode keeps the
//! stream valid: `minimal` drops whole parts (start, deltas and end alike), `normal` keeps every
//! tool chunk and blanks its data, and the ending's metadata still counts every tool the turn ran.

use serde_json::json;
use serde_json::value::RawValue;

use crate::ui::tool_reasons;
use crate::ui::UiChunk;
use crate::v2::DeltaKind;

/// Default `MAX_TOOL_JSON_CHARS`: 16,384 characters, a screenful of JSON many times over, and
/// far below what a large file read or a test run's log sends as a tool result.
pub const DEFAULT_MAX_TOOL_JSON_CHARS: usize = 16_384;

/// How much of the agent's work streams, from least to most (the order `TRACE_MAX` caps by).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum TraceMode {
    Minimal,
    Normal,
    #[default]
    Full,
}

/// The header of a history response (`GET …/messages`) that names `TRACE_MAX`, so that a client
/// offers no mode above it (the chat panel's trace switch).
pub const TRACE_MAX_HEADER: &str = "x-trace-max";

impl TraceMode {
    /// The mode's name on the wire: `"minimal"`, `"normal"` or `"full"`.
    pub fn name(self) -> &'static str {
        match self {
            TraceMode::Minimal => "minimal",
            TraceMode::Normal => "normal",
            TraceMode::Full => "full",
        }
    }

    /// Reads `"minimal"`, `"normal"` or `"full"`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "minimal" => Some(TraceMode::Minimal),
            "normal" => Some(TraceMode::Normal),
            "full" => Some(TraceMode::Full),
            _ => None,
        }
    }
}

impl TraceMode {
    /// The mode a URL's query names (`?trace=minimal`), if any: a plain scan, no URL parser
    /// (the values are three plain words; the edge's URL parser costs ~80 KB of gzipped wasm).
    pub fn from_query(url: &str) -> Option<Self> {
        let before_fragment = url.split('#').next()?;
        let query = before_fragment.split_once('?')?.1;
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix("trace="))
            .and_then(TraceMode::parse)
    }
}

/// A trace mode with its limit: what a stream applies to each chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trace {
    pub mode: TraceMode,
    pub max_tool_json_chars: usize,
}

impl Default for Trace {
    fn default() -> Self {
        Trace {
            mode: TraceMode::Full,
            max_tool_json_chars: DEFAULT_MAX_TOOL_JSON_CHARS,
        }
    }
}

impl Trace {
    /// This trace with `mode` instead of its own, when a request names one.
    pub fn with_mode(self, mode: Option<TraceMode>) -> Self {
        Trace {
            mode: mode.unwrap_or(self.mode),
            ..self
        }
    }

    /// This trace with its mode at most `max` (`TRACE_MAX`): a request cannot ask for more of
    /// the agent's work than the server lets a visitor see.
    pub fn capped(self, max: TraceMode) -> Self {
        Trace {
            mode: self.mode.min(max),
            ..self
        }
    }

    /// Whether this mode streams the parts of `kind` (their start, deltas and end) as they are:
    /// text in every mode, reasoning in all but `minimal`. [`Trace::apply`] follows it.
    pub fn keeps_parts(&self, kind: DeltaKind) -> bool {
        kind == DeltaKind::Text || self.mode != TraceMode::Minimal
    }

    /// The chunk as this mode streams it, or `None` when the mode leaves it out. A tool's data
    /// is changed in place: the chunk is not taken apart and made again.
    pub fn apply(&self, mut chunk: UiChunk) -> Option<UiChunk> {
        if chunk.is_question_tool() {
            // A question is what the user must see, in every mode; its data is the question
            // and the user's own answer (`crate::questions`).
            return Some(chunk);
        }
        match &mut chunk {
            UiChunk::ReasoningStart { .. }
            | UiChunk::ReasoningDelta { .. }
            | UiChunk::ReasoningEnd { .. } => {
                return self.keeps_parts(DeltaKind::Reasoning).then_some(chunk)
            }
            UiChunk::ToolInputStart { .. } | UiChunk::DataStatus { .. } => {
                return self.shows_tools().then_some(chunk)
            }
            UiChunk::ToolInputAvailable { input: data, .. }
            | UiChunk::ToolOutputAvailable { output: data, .. } => {
                if !self.shows_tools() {
                    return None;
                }
                let raw = std::mem::replace(data, null());
                *data = self.tool_data(raw);
            }
            UiChunk::ToolOutputError { error_text, .. } => {
                if !self.shows_tools() {
                    return None;
                }
                *error_text = self.tool_error(std::mem::take(error_text));
            }
            _ => {}
        }
        Some(chunk)
    }

    /// Whether this mode shows tool calls at all (all but `minimal`).
    pub fn shows_tools(&self) -> bool {
        self.mode != TraceMode::Minimal
    }

    /// A tool's `args` or `result` as this mode shows it in a session's history, as
    /// [`Trace::apply`] streams it: past the limit shortened in `full`, `null` in `normal`.
    pub fn tool_json(&self, raw: &RawValue) -> serde_json::Value {
        let shown = self.tool_data(raw.to_owned());
        serde_json::from_str(shown.get()).unwrap_or(serde_json::Value::Null)
    }

    /// A tool's `errorText` as this mode shows it: the agent's words are left out in `normal`
    /// (they are the tool's outcome), the adapter's own reasons for a tool the turn's end cut off
    /// ([`tool_reasons`]) are kept.
    pub fn tool_error(&self, text: String) -> String {
        if self.mode == TraceMode::Normal && !tool_reasons::ALL.contains(&text.as_str()) {
            String::new()
        } else {
            text
        }
    }

    /// A gated tool call's input as an approval question shows it to the user who approves it
    /// ([`crate::questions::APPROVE_TOOL_CALL`]): shortened in `full`, `null` in `normal` and in
    /// `minimal` (a cap of `minimal` keeps at least what `normal` keeps from a visitor).
    pub fn question_tool_input(&self, raw: &RawValue) -> Box<RawValue> {
        match self.mode {
            TraceMode::Full => self.shorten(raw.to_owned()),
            TraceMode::Normal | TraceMode::Minimal => null(),
        }
    }

    /// A tool's input or output JSON as this mode streams it.
    fn tool_data(&self, raw: Box<RawValue>) -> Box<RawValue> {
        match self.mode {
            TraceMode::Normal => null(),
            TraceMode::Full | TraceMode::Minimal => self.shorten(raw),
        }
    }

    /// `raw`, or its truncation when its JSON is longer than the limit.
    fn shorten(&self, raw: Box<RawValue>) -> Box<RawValue> {
        let text = raw.get();
        // Characters, not bytes: a limit a person reads, and a cut that never splits one.
        let Some((cut, _)) = text.char_indices().nth(self.max_tool_json_chars) else {
            return raw;
        };
        let shortened = json!({
            "truncated": true,
            "preview": &text[..cut],
            "fullLength": text.chars().count(),
        });
        serde_json::value::to_raw_value(&shortened).unwrap_or(raw)
    }
}

/// JSON `null`: a tool's data in `normal`.
fn null() -> Box<RawValue> {
    RawValue::NULL.to_owned()
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
