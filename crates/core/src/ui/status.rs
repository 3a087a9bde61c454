//! The transient `data-status` chunk: the agent's phase without any of its content
//! (`docs/ui-stream.md`).

use super::chunk::{StatusData, StatusPhase, UiChunk};

/// Longest label kept, in characters. Seed 000 allows "at most a tool name"; 64 covers
/// every tool name in practice and keeps a leaked argument from riding along.
pub const MAX_LABEL_CHARS: usize = 64;

/// Maps a V2 `agentStatus` to its `data-status` chunk, or `None` for phases the client
/// need not see (`idle`, `streaming`, `error`, unknown ones).
///
/// The label is the `detail` only when the phase is tool use and the detail is one
/// token of `[A-Za-z0-9_.:-]`, at most [`MAX_LABEL_CHARS`] long: a tool name. Free text,
/// arguments or results never reach the client.
pub fn status_chunk(status: &str, detail: Option<&str>) -> Option<UiChunk> {
    let phase = match status {
        "thinking" => StatusPhase::Thinking,
        "tool_calling" => StatusPhase::ToolUse,
        "compacting" => StatusPhase::Compacting,
        _ => return None,
    };
    let label = detail
        .filter(|_| phase == StatusPhase::ToolUse)
        .filter(|d| is_tool_name(d))
        .map(str::to_owned);
    Some(UiChunk::DataStatus {
        data: StatusData { phase, label },
        transient: true,
    })
}

fn is_tool_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_LABEL_CHARS
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(status: &str, detail: Option<&str>) -> Option<String> {
        status_chunk(status, detail).map(|c| c.to_json())
    }

    #[test]
    fn phases_map_and_others_drop() {
        assert_eq!(
            json("thinking", None).as_deref(),
            Some(r#"{"type":"data-status","data":{"phase":"thinking"},"transient":true}"#)
        );
        assert_eq!(
            json("compacting", Some("x")).as_deref(),
            Some(r#"{"type":"data-status","data":{"phase":"compacting"},"transient":true}"#)
        );
        for other in ["idle", "streaming", "error", "", "THINKING"] {
            assert_eq!(json(other, None), None, "{other}");
        }
    }

    #[test]
    fn label_is_at_most_a_tool_name() {
        assert_eq!(
            json("tool_calling", Some("fs.read_file")).as_deref(),
            Some(
                r#"{"type":"data-status","data":{"phase":"tool_use","label":"fs.read_file"},"transient":true}"#
            )
        );
        let long = "a".repeat(MAX_LABEL_CHARS + 1);
        for leaky in ["rm -rf /", "read {\"path\":1}", "", "név", long.as_str()] {
            assert_eq!(
                json("tool_calling", Some(leaky)).as_deref(),
                Some(r#"{"type":"data-status","data":{"phase":"tool_use"},"transient":true}"#),
                "{leaky}"
            );
        }
        assert!(is_tool_name(&"a".repeat(MAX_LABEL_CHARS)));
        // Thinking never carries a label, even a token-shaped one.
        assert_eq!(
            json("thinking", Some("planning")).as_deref(),
            Some(r#"{"type":"data-status","data":{"phase":"thinking"},"transient":true}"#)
        );
    }
}
