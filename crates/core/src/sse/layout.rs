//! The JSON of a UI chunk written by hand, byte for byte what `serde_json` writes for it.
//!
//! A stream's own work is mostly its few fixed chunks (`start`, the steps, a part's start and
//! end, `finish`) and its deltas. Through serde each is a tagged enum's map, one small write per
//! key, quote and comma; here each is a few copies of its constant bytes and its strings. The
//! field order is the enum's declaration order (`crates/core/src/ui/chunk.rs`), which serde follows; the
//! tests compare every variant with serde's bytes. Every chunk is written here, so `UiChunk`'s
//! derived `Serialize` is the tests' oracle only, and no part of the wasm.

use crate::json_out::{bool_field, field, number_field, raw_field, string as json_string};
use crate::ui::{AppData, FinishMetadata, StartMetadata, StatusData, StatusPhase, UiChunk};
use crate::v2::DeltaKind;

/// Appends `chunk` as JSON.
pub(super) fn write_json(out: &mut Vec<u8>, chunk: &UiChunk) {
    match chunk {
        UiChunk::Start {
            message_id,
            message_metadata,
        } => {
            out.extend_from_slice(br#"{"type":"start""#);
            if let Some(id) = message_id {
                field(out, br#","messageId":"#, id);
            }
            if let Some(meta) = message_metadata {
                start_metadata(out, meta);
            }
        }
        UiChunk::StartStep => out.extend_from_slice(br#"{"type":"start-step""#),
        UiChunk::FinishStep => out.extend_from_slice(br#"{"type":"finish-step""#),
        UiChunk::TextStart { id } => field(out, br#"{"type":"text-start","id":"#, id),
        UiChunk::TextDelta { id, delta } => delta_fields(out, DeltaKind::Text, id, delta),
        UiChunk::TextEnd { id } => field(out, br#"{"type":"text-end","id":"#, id),
        UiChunk::ReasoningStart { id } => field(out, br#"{"type":"reasoning-start","id":"#, id),
        UiChunk::ReasoningDelta { id, delta } => delta_fields(out, DeltaKind::Reasoning, id, delta),
        UiChunk::ReasoningEnd { id } => field(out, br#"{"type":"reasoning-end","id":"#, id),
        UiChunk::ToolInputStart {
            tool_call_id: id,
            tool_name,
            provider_executed: executed,
            dynamic,
        } => tool(out, b"input-start", id, (*executed, *dynamic), |out| {
            field(out, br#","toolName":"#, tool_name);
        }),
        UiChunk::ToolInputAvailable {
            tool_call_id: id,
            tool_name,
            input,
            provider_executed: executed,
            dynamic,
        } => tool(out, b"input-available", id, (*executed, *dynamic), |out| {
            field(out, br#","toolName":"#, tool_name);
            raw_field(out, br#","input":"#, input);
        }),
        UiChunk::ToolOutputAvailable {
            tool_call_id: id,
            output,
            provider_executed: executed,
            dynamic,
        } => tool(out, b"output-available", id, (*executed, *dynamic), |out| {
            raw_field(out, br#","output":"#, output);
        }),
        UiChunk::ToolOutputError {
            tool_call_id: id,
            error_text,
            provider_executed: executed,
            dynamic,
        } => tool(out, b"output-error", id, (*executed, *dynamic), |out| {
            field(out, br#","errorText":"#, error_text);
        }),
        UiChunk::ToolApprovalRequest {
            approval_id,
            tool_call_id,
        } => {
            field(
                out,
                br#"{"type":"tool-approval-request","approvalId":"#,
                approval_id,
            );
            field(out, br#","toolCallId":"#, tool_call_id);
        }
        UiChunk::ToolOutputDenied { tool_call_id } => {
            field(
                out,
                br#"{"type":"tool-output-denied","toolCallId":"#,
                tool_call_id,
            );
        }
        UiChunk::DataStatus { data, transient } => {
            out.extend_from_slice(br#"{"type":"data-status","data":"#);
            status_data(out, data);
            bool_field(out, br#","transient":"#, *transient);
        }
        UiChunk::DataQuestion { id, data } => {
            field(out, br#"{"type":"data-question","id":"#, id);
            out.extend_from_slice(br#","data":"#);
            // Its answer is whatever JSON the agent sent: serde writes the question's data.
            // Writing into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut *out, data);
        }
        UiChunk::Error { error_text } => field(out, br#"{"type":"error","errorText":"#, error_text),
        UiChunk::MessageMetadata { message_metadata } => {
            out.extend_from_slice(br#"{"type":"message-metadata""#);
            finish_metadata(out, message_metadata);
        }
        UiChunk::AgentMetadata { message_metadata } => {
            raw_field(
                out,
                br#"{"type":"message-metadata","messageMetadata":"#,
                message_metadata,
            );
        }
        UiChunk::SourceUrl {
            source_id,
            url,
            title,
        } => {
            field(out, br#"{"type":"source-url","sourceId":"#, source_id);
            field(out, br#","url":"#, url);
            if let Some(title) = title {
                field(out, br#","title":"#, title);
            }
        }
        UiChunk::SourceDocument {
            source_id,
            media_type,
            title,
            filename,
        } => {
            field(out, br#"{"type":"source-document","sourceId":"#, source_id);
            field(out, br#","mediaType":"#, media_type);
            field(out, br#","title":"#, title);
            if let Some(filename) = filename {
                field(out, br#","filename":"#, filename);
            }
        }
        UiChunk::AppData(part) => app_data(out, part),
        UiChunk::Abort => out.extend_from_slice(br#"{"type":"abort""#),
        UiChunk::Finish { message_metadata } => {
            out.extend_from_slice(br#"{"type":"finish""#);
            if let Some(meta) = message_metadata {
                finish_metadata(out, meta);
            }
        }
    }
    out.push(b'}');
}

/// A delta chunk of `kind` without its closing brace.
fn delta_fields(out: &mut Vec<u8>, kind: DeltaKind, id: &str, delta: &str) {
    delta_head(out, kind, id, json_string);
    json_string(out, delta);
}

/// A delta chunk of `kind` up to its delta: its type, its part's `id` (written by `string`) and
/// the delta's key.
pub(super) fn delta_head(
    out: &mut Vec<u8>,
    kind: DeltaKind,
    id: &str,
    string: impl Fn(&mut Vec<u8>, &str),
) {
    out.extend_from_slice(match kind {
        DeltaKind::Text => br#"{"type":"text-delta","id":"#,
        DeltaKind::Reasoning => br#"{"type":"reasoning-delta","id":"#,
    });
    string(out, id);
    out.extend_from_slice(br#","delta":"#);
}

/// A tool chunk, `tool-<kind>`: its call id, the fields `fields` writes, then its two flags
/// (`providerExecuted`, `dynamic`), without the closing brace.
fn tool(
    out: &mut Vec<u8>,
    kind: &[u8],
    call_id: &str,
    (provider_executed, dynamic): (bool, bool),
    fields: impl FnOnce(&mut Vec<u8>),
) {
    out.extend_from_slice(br#"{"type":"tool-"#);
    out.extend_from_slice(kind);
    field(out, br#"","toolCallId":"#, call_id);
    fields(out);
    bool_field(out, br#","providerExecuted":"#, provider_executed);
    bool_field(out, br#","dynamic":"#, dynamic);
}

fn start_metadata(out: &mut Vec<u8>, meta: &StartMetadata) {
    field(out, br#","messageMetadata":{"turnId":"#, &meta.turn_id);
    number_field(out, br#","createdAt":"#, meta.created_at);
    out.push(b'}');
}

fn finish_metadata(out: &mut Vec<u8>, meta: &FinishMetadata) {
    field(out, br#","messageMetadata":{"turnId":"#, &meta.turn_id);
    number_field(out, br#","durationMs":"#, meta.duration_ms);
    number_field(out, br#","toolCalls":"#, meta.tool_calls);
    number_field(out, br#","toolErrors":"#, meta.tool_errors);
    if meta.stopped {
        bool_field(out, br#","stopped":"#, true);
    }
    if let Some(usage) = &meta.usage {
        out.extend_from_slice(br#","usage":{"#);
        let mut key: &[u8] = br#""inputTokens":"#;
        if let Some(tokens) = usage.input_tokens {
            number_field(out, key, tokens);
            key = br#","outputTokens":"#;
        } else {
            key = br#""outputTokens":"#;
        }
        if let Some(tokens) = usage.output_tokens {
            number_field(out, key, tokens);
        }
        out.push(b'}');
    }
    if let Some(model) = &meta.model {
        field(out, br#","model":"#, model);
    }
    out.push(b'}');
}

/// A data part's chunk, without its closing brace: `data-<name>`, its `id`, `data`, `transient`.
fn app_data(out: &mut Vec<u8>, part: &AppData) {
    out.extend_from_slice(br#"{"type":"#);
    json_string(out, &format!("data-{}", part.name));
    if let Some(id) = &part.id {
        field(out, br#","id":"#, id);
    }
    raw_field(out, br#","data":"#, &part.data);
    if part.transient {
        bool_field(out, br#","transient":"#, true);
    }
}

fn status_data(out: &mut Vec<u8>, data: &StatusData) {
    out.extend_from_slice(match data.phase {
        StatusPhase::Thinking => br#"{"phase":"thinking""#,
        StatusPhase::ToolUse => br#"{"phase":"tool_use""#,
        StatusPhase::Compacting => br#"{"phase":"compacting""#,
    });
    if let Some(label) = &data.label {
        field(out, br#","label":"#, label);
    }
    out.push(b'}');
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
