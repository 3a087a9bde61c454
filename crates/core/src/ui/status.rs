//! The transient `data-status` chunk: the agent's phase without any of its content
//! (`docs/ui-stream.md`).

use super::chunk::{StatusData, StatusPhase, UiChunk};
pub use crate::bounds::MAX_LABEL_CHARS;

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
#[path = "status_tests.rs"]
mod tests;
