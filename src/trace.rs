//! Trace modes: how much of the agent's work a client is sent (issue 10, seed 001's trace
//! levels). A POST picks one with `"trace"` in its body; the `TRACE` setting gives the default.
//!
//! | mode | what streams |
//! | --- | --- |
//! | `full` | everything (the default) |
//! | `normal` | everything, but a tool `input` or `output` whose JSON is longer than `MAX_TOOL_JSON_CHARS` is replaced by `{"truncated":true,"preview":"<its first MAX_TOOL_JSON_CHARS characters>","fullLength":<characters>}` |
//! | `minimal` | no tool, reasoning or status chunk: the text, questions and the ending (for mobile clients on thin links) |
//!
//! Every mode keeps the stream valid: `minimal` drops whole parts (start, deltas and end alike),
//! and the ending's metadata still counts every tool the turn ran.

use serde_json::json;
use serde_json::value::RawValue;

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

impl TraceMode {
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

    /// The chunk as this mode streams it, or `None` when the mode leaves it out.
    pub fn apply(&self, chunk: UiChunk) -> Option<UiChunk> {
        match (self.mode, chunk) {
            (
                _,
                chunk @ (UiChunk::ReasoningStart { .. }
                | UiChunk::ReasoningDelta { .. }
                | UiChunk::ReasoningEnd { .. }),
            ) => self.keeps_parts(DeltaKind::Reasoning).then_some(chunk),
            (TraceMode::Full, chunk) => Some(chunk),
            (
                TraceMode::Minimal,
                UiChunk::ToolInputStart { .. }
                | UiChunk::ToolInputAvailable { .. }
                | UiChunk::ToolOutputAvailable { .. }
                | UiChunk::ToolOutputError { .. }
                | UiChunk::DataStatus { .. },
            ) => None,
            (TraceMode::Minimal, chunk) => Some(chunk),
            (
                TraceMode::Normal,
                UiChunk::ToolInputAvailable {
                    tool_call_id,
                    tool_name,
                    input,
                    provider_executed,
                    dynamic,
                },
            ) => Some(UiChunk::ToolInputAvailable {
                tool_call_id,
                tool_name,
                input: self.shorten(input),
                provider_executed,
                dynamic,
            }),
            (
                TraceMode::Normal,
                UiChunk::ToolOutputAvailable {
                    tool_call_id,
                    output,
                    provider_executed,
                    dynamic,
                },
            ) => Some(UiChunk::ToolOutputAvailable {
                tool_call_id,
                output: self.shorten(output),
                provider_executed,
                dynamic,
            }),
            (TraceMode::Normal, chunk) => Some(chunk),
        }
    }

    /// Whether this mode shows tool calls at all (all but `minimal`).
    pub fn shows_tools(&self) -> bool {
        self.mode != TraceMode::Minimal
    }

    /// A tool's `args` or `result` as this mode shows it in a session's history: whole in
    /// `full`, past the limit shortened in `normal`, as [`Trace::apply`] streams it.
    pub fn tool_json(&self, raw: &RawValue) -> serde_json::Value {
        let shown = if self.mode == TraceMode::Normal {
            self.shorten(raw.to_owned())
        } else {
            raw.to_owned()
        };
        serde_json::from_str(shown.get()).unwrap_or(serde_json::Value::Null)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_lowers_a_mode_above_it_and_keeps_one_below() {
        let full = Trace::default().with_mode(Some(TraceMode::Full));
        assert_eq!(full.capped(TraceMode::Normal).mode, TraceMode::Normal);
        assert_eq!(full.capped(TraceMode::Minimal).mode, TraceMode::Minimal);
        let minimal = Trace::default().with_mode(Some(TraceMode::Minimal));
        assert_eq!(minimal.capped(TraceMode::Full).mode, TraceMode::Minimal);
        assert_eq!(minimal.capped(TraceMode::Normal).mode, TraceMode::Minimal);
        assert_eq!(full.capped(TraceMode::Full), full);
    }

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    fn output(json: &str) -> UiChunk {
        UiChunk::ToolOutputAvailable {
            tool_call_id: "c".into(),
            output: raw(json),
            provider_executed: true,
            dynamic: true,
        }
    }

    fn trace(mode: TraceMode, max: usize) -> Trace {
        Trace {
            mode,
            max_tool_json_chars: max,
        }
    }

    #[test]
    fn keeps_parts_says_what_apply_does() {
        for mode in [TraceMode::Full, TraceMode::Normal, TraceMode::Minimal] {
            let t = trace(mode, 10);
            for (kind, chunk) in [
                (
                    DeltaKind::Text,
                    UiChunk::TextDelta {
                        id: "t".into(),
                        delta: "d".into(),
                    },
                ),
                (
                    DeltaKind::Reasoning,
                    UiChunk::ReasoningDelta {
                        id: "r".into(),
                        delta: "d".into(),
                    },
                ),
            ] {
                let applied = t.apply(chunk.clone());
                assert_eq!(t.keeps_parts(kind), applied.is_some(), "{mode:?} {kind:?}");
                if let Some(kept) = applied {
                    assert_eq!(kept.to_json(), chunk.to_json());
                }
            }
        }
    }

    #[test]
    fn normal_shortens_long_tool_json_to_its_preview() {
        let long = r#"{"text":"héllo wörld"}"#; // 22 characters, 24 bytes
        let shortened = trace(TraceMode::Normal, 10).apply(output(long)).unwrap();
        assert_eq!(
            shortened.to_json(),
            r#"{"type":"tool-output-available","toolCallId":"c","output":{"fullLength":22,"preview":"{\"text\":\"h","truncated":true},"providerExecuted":true,"dynamic":true}"#
        );
        // At the limit: kept as it is.
        let exact = trace(TraceMode::Normal, 22).apply(output(long)).unwrap();
        assert_eq!(exact.to_json(), output(long).to_json());
        let input = UiChunk::ToolInputAvailable {
            tool_call_id: "c".into(),
            tool_name: "t".into(),
            input: raw(r#"[1,2,3,4,5]"#),
            provider_executed: true,
            dynamic: true,
        };
        let shortened = trace(TraceMode::Normal, 4).apply(input).unwrap().to_json();
        assert!(
            shortened.contains(r#""input":{"fullLength":11,"preview":"[1,2","truncated":true}"#),
            "{shortened}"
        );
    }

    #[test]
    fn minimal_keeps_text_questions_and_endings_only() {
        let m = trace(TraceMode::Minimal, 10);
        assert!(m.apply(output("1")).is_none());
        assert!(m
            .apply(UiChunk::ReasoningDelta {
                id: "r".into(),
                delta: "x".into()
            })
            .is_none());
        assert!(m
            .apply(UiChunk::TextDelta {
                id: "t".into(),
                delta: "x".into()
            })
            .is_some());
        assert!(m.apply(UiChunk::FinishStep).is_some());
        assert!(m.apply(UiChunk::Abort).is_some());
    }

    #[test]
    fn full_changes_nothing_and_modes_parse() {
        let long = "[".to_owned() + &"1,".repeat(100) + "1]";
        assert_eq!(
            trace(TraceMode::Full, 1)
                .apply(output(&long))
                .unwrap()
                .to_json(),
            output(&long).to_json()
        );
        assert_eq!(TraceMode::parse("normal"), Some(TraceMode::Normal));
        assert_eq!(TraceMode::parse("Full"), None);
        assert_eq!(TraceMode::default(), TraceMode::Full);
    }

    #[test]
    fn a_query_names_the_mode() {
        let from = TraceMode::from_query;
        assert_eq!(
            from("https://w/api/sessions/s/chat/c/stream?trace=minimal"),
            Some(TraceMode::Minimal)
        );
        assert_eq!(
            from("https://w/x?a=1&trace=normal#frag"),
            Some(TraceMode::Normal)
        );
        assert_eq!(
            from("https://w/x?trace=full&trace=minimal"),
            Some(TraceMode::Full)
        );
        for none in [
            "https://w/x",
            "https://w/x?trace=",
            "https://w/x?trace=loud",
            "https://w/x?xtrace=full",
            "https://w/x#?trace=full",
        ] {
            assert_eq!(from(none), None, "{none}");
        }
    }
}
