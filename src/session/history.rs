//! The session's finished messages as AI SDK `UIMessage`s: what `GET /api/sessions/:id/messages`
//! answers, so a client that reloads shows the conversation again.
//!
//! Each message keeps its id and role (`user` or `assistant`; others are left out). Parts map as
//! the live stream builds them, so a reloaded message looks like the one that streamed:
//!
//! | snapshot part | `UIMessage` part |
//! | --- | --- |
//! | `text` | `{ type: "text", text, state: "done" }` |
//! | `reasoning` | `{ type: "reasoning", text, state: "done" }` |
//! | `file` (user) | `{ type: "file", mediaType, url, filename? }` |
//! | `tool-call` `completed` | `dynamic-tool` `output-available` (a seed-003 soft error: `output-error`) |
//! | `tool-call` `error` | `dynamic-tool` `output-error` |
//! | `tool-call` still open | `dynamic-tool` `output-error` `Interrupted` (`Canceled` for a canceled turn), as the stream ended it |
//! | `question` | `{ type: "data-question", id: questionId, data: { questionId, text, options?, answer? } }` |
//! | `finish`, `error` | nothing (the live stream sends them as its ending, not as parts) |
//!
//! An assistant message starts with `step-start`, as a streamed one does, and has the `metadata`
//! its stream's `start` and `finish` gave it (and `stopped` for a stopped turn). The turn in flight
//! is left out: the resume stream delivers it whole (ai 5.0.x would append a replay to a copy it
//! already has and show it twice). A message left with no part is left out too: the AI SDK
//! rejects a message without parts.

use serde_json::{json, Map, Value};

use super::when::epoch_ms;
use super::{Init, Message, Part, Role, ToolCallPart};
use crate::trace::Trace;
use crate::translator::{tool_outcome, Ending};
use crate::v2::{DeltaKind, FinishReason};

/// The finished messages of `init`, oldest first, as `UIMessage` JSON values, shown as `trace`
/// shows a stream: no reasoning and no tools in `minimal`, tools without their data in `normal`,
/// long tool JSON shortened in `full`.
pub fn ui_messages(init: &Init, trace: &Trace) -> Vec<Value> {
    let in_flight = init.in_flight().map(|m| m.id.as_str());
    init.messages
        .iter()
        .filter(|m| Some(m.id.as_str()) != in_flight)
        .filter_map(|m| ui_message(m, trace))
        .collect()
}

/// The JSON array `GET …/messages` answers.
pub fn history_json(init: &Init, trace: &Trace) -> String {
    Value::Array(ui_messages(init, trace)).to_string()
}

fn ui_message(message: &Message, trace: &Trace) -> Option<Value> {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Other => return None,
    };
    let reason = message.finish_reason().unwrap_or(FinishReason::EndTurn);
    let mut parts: Vec<Value> = message
        .parts
        .iter()
        .filter_map(|part| ui_part(message.role, part, reason, trace))
        .collect();
    if parts.is_empty() {
        return None;
    }
    if message.role == Role::Assistant {
        parts.insert(0, json!({"type": "step-start"}));
        let metadata = metadata(message, reason);
        return Some(json!({"id": message.id, "role": role, "metadata": metadata, "parts": parts}));
    }
    Some(json!({"id": message.id, "role": role, "parts": parts}))
}

/// An assistant message's `metadata`, as its live stream's `start` and `finish` left it
/// (`src/ui/metadata.rs`): `turnId`, `createdAt` and `durationMs` where the agent recorded its
/// times (`durationMs`: `completedAt` less `createdAt`), the tool calls and how many failed
/// (in every trace mode, as the stream counts them), and `stopped: true` for a turn that was
/// stopped (whose live stream ended with `abort`).
fn metadata(message: &Message, reason: FinishReason) -> Value {
    let created = message.created_at.as_ref().and_then(epoch_ms);
    let completed = message.completed_at.as_ref().and_then(epoch_ms);
    let duration = created
        .zip(completed)
        .and_then(|(start, end)| end.checked_sub(start));
    let (mut calls, mut errors) = (0_u64, 0_u64);
    for part in &message.parts {
        if let Part::ToolCall(call) = part {
            calls += 1;
            let outcome = tool_outcome(call.status, call.result.as_deref(), call.error.as_ref());
            errors += u64::from(!matches!(outcome, Some(Ok(()))));
        }
    }
    let mut meta = Map::new();
    let mut put = |key: &str, value: Option<Value>| {
        if let Some(value) = value {
            meta.insert(key.to_owned(), value);
        }
    };
    put("turnId", Some(Value::from(message.id.as_str())));
    put("createdAt", created.map(Value::from));
    put("durationMs", duration.map(Value::from));
    put("toolCalls", Some(calls.into()));
    put("toolErrors", Some(errors.into()));
    put(
        "stopped",
        (reason == FinishReason::Canceled).then_some(Value::Bool(true)),
    );
    Value::Object(meta)
}

fn ui_part(role: Role, part: &Part, reason: FinishReason, trace: &Trace) -> Option<Value> {
    let assistant = role == Role::Assistant;
    match part {
        Part::Text { text, .. } if !text.is_empty() => {
            Some(json!({"type": "text", "text": text, "state": "done"}))
        }
        Part::Reasoning { text }
            if assistant && !text.is_empty() && trace.keeps_parts(DeltaKind::Reasoning) =>
        {
            Some(json!({"type": "reasoning", "text": text, "state": "done"}))
        }
        Part::File(file) if !assistant => {
            let mut value = json!({"type": "file", "mediaType": file.media_type, "url": file.url});
            if let (Some(name), Some(obj)) = (&file.filename, value.as_object_mut()) {
                obj.insert("filename".into(), name.clone().into());
            }
            Some(value)
        }
        Part::ToolCall(call) if assistant && trace.shows_tools() => {
            Some(tool_part(call, reason, trace))
        }
        Part::Question(question) if assistant => Some(json!({
            "type": "data-question",
            "id": question.question_id,
            "data": question,
        })),
        _ => None,
    }
}

fn tool_part(call: &ToolCallPart, reason: FinishReason, trace: &Trace) -> Value {
    let mut part = Map::new();
    part.insert("type".into(), "dynamic-tool".into());
    part.insert("toolName".into(), call.tool_name.clone().into());
    part.insert("toolCallId".into(), call.call_id.clone().into());
    let input = call
        .args
        .as_deref()
        .map_or_else(|| json!({}), |raw| trace.tool_json(raw));
    let result = call.result.as_deref();
    let outcome = match tool_outcome(call.status, result, call.error.as_ref()) {
        Some(Ok(())) => Ok(result.map_or(Value::Null, |raw| trace.tool_json(raw))),
        Some(Err(text)) => Err(text),
        // Still open in a finished message: it ended as the stream ended it.
        None => Err(Ending::from_reason(reason, None).tool_reason().to_owned()),
    };
    match outcome {
        Ok(output) => {
            part.insert("state".into(), "output-available".into());
            part.insert("input".into(), input);
            part.insert("output".into(), output);
        }
        Err(error_text) => {
            part.insert("state".into(), "output-error".into());
            part.insert("input".into(), input);
            part.insert("errorText".into(), trace.tool_error(error_text).into());
        }
    }
    Value::Object(part)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::parse_init;
    use crate::trace::TraceMode;

    fn history(messages: &str) -> Value {
        let init = parse_init(&format!(r#"{{"type":"init","messages":{messages}}}"#)).unwrap();
        serde_json::from_str(&history_json(&init, &Trace::default())).unwrap()
    }

    #[test]
    fn the_history_is_shown_as_the_trace_mode_shows_a_stream() {
        let messages = r#"[{"id":"t1","role":"assistant","parts":[
            {"type":"reasoning","text":"hm"},
            {"type":"tool-call","callId":"c1","toolName":"ls","status":"completed","args":{"path":"/a/long/path"},"result":"x"},
            {"type":"text","text":"Done."},
            {"type":"finish","reason":"end_turn"}]}]"#;
        let init = parse_init(&format!(r#"{{"type":"init","messages":{messages}}}"#)).unwrap();
        let shown = |mode, max_tool_json_chars| -> Value {
            let trace = Trace {
                mode,
                max_tool_json_chars,
            };
            serde_json::from_str(&history_json(&init, &trace)).unwrap()
        };
        let minimal = shown(TraceMode::Minimal, 100);
        let types: Vec<&str> = minimal[0]["parts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["type"].as_str().unwrap())
            .collect();
        assert_eq!(types, ["step-start", "text"], "no reasoning, no tool");
        let normal = shown(TraceMode::Normal, 100);
        assert_eq!(normal[0]["parts"][2]["toolName"], "ls");
        assert_eq!(normal[0]["parts"][2]["state"], "output-available");
        assert_eq!(normal[0]["parts"][2]["input"], Value::Null, "no arguments");
        assert_eq!(normal[0]["parts"][2]["output"], Value::Null, "no result");
        assert_eq!(normal[0]["parts"][1]["text"], "hm", "reasoning kept");
        let full = shown(TraceMode::Full, 5);
        assert_eq!(
            full[0]["parts"][2]["input"],
            json!({"truncated": true, "preview": "{\"pat", "fullLength": 23})
        );
        assert_eq!(
            full[0]["parts"][2]["output"],
            json!("x"),
            "short JSON whole"
        );
        let full = shown(TraceMode::Full, 100);
        assert_eq!(
            full[0]["parts"][2]["input"],
            json!({"path": "/a/long/path"})
        );
    }

    #[test]
    fn a_conversation_maps_part_by_part() {
        let out = history(
            r#"[
          {"id":"u1","role":"user","parts":[{"type":"text","text":"look"},{"type":"file","mediaType":"image/png","url":"https://x.example/a.png","filename":"a.png"}]},
          {"id":"t1","role":"assistant","parts":[
            {"type":"reasoning","text":"hm"},
            {"type":"tool-call","callId":"c1","toolName":"ls","status":"completed","args":{"p":"/"},"result":["a"]},
            {"type":"tool-call","callId":"c2","toolName":"cat","status":"completed","args":{},"result":{"success":false,"error":{"message":"no file"}}},
            {"type":"tool-call","callId":"c3","toolName":"rm","status":"error","error":"denied"},
            {"type":"question","questionId":"q1","text":"Go?","options":["yes","no"],"answer":"yes"},
            {"type":"text","text":"Done."},
            {"type":"error","message":"ignored"},
            {"type":"finish","reason":"end_turn"}]}
        ]"#,
        );
        let tool = |name: &str, id: &str, state: &str, input: Value, end: (&str, Value)| {
            let mut part = json!({"type": "dynamic-tool", "toolName": name, "toolCallId": id,
                "state": state, "input": input});
            part[end.0] = end.1;
            part
        };
        assert_eq!(
            out,
            json!([
                {"id": "u1", "role": "user", "parts": [
                    {"type": "text", "text": "look", "state": "done"},
                    {"type": "file", "mediaType": "image/png", "url": "https://x.example/a.png", "filename": "a.png"}]},
                {"id": "t1", "role": "assistant",
                 "metadata": {"turnId": "t1", "toolCalls": 3, "toolErrors": 2},
                 "parts": [
                    {"type": "step-start"},
                    {"type": "reasoning", "text": "hm", "state": "done"},
                    tool("ls", "c1", "output-available", json!({"p": "/"}), ("output", json!(["a"]))),
                    tool("cat", "c2", "output-error", json!({}), ("errorText", json!("no file"))),
                    tool("rm", "c3", "output-error", json!({}), ("errorText", json!("denied"))),
                    {"type": "data-question", "id": "q1",
                     "data": {"questionId": "q1", "text": "Go?", "options": ["yes", "no"], "answer": "yes"}},
                    {"type": "text", "text": "Done.", "state": "done"}]}
            ])
        );
    }

    #[test]
    fn a_reply_keeps_how_long_it_worked_and_whether_it_was_stopped() {
        let out = history(
            r#"[
          {"id":"t1","role":"assistant","createdAt":"2026-11-24T10:00:00.000Z","completedAt":"2026-11-24T10:00:12.500Z",
           "parts":[{"type":"text","text":"Done."},{"type":"finish","reason":"end_turn"}]},
          {"id":"t2","role":"assistant","createdAt":1795514500000,"completedAt":1795514503000,
           "parts":[{"type":"text","text":"Wor"},
                    {"type":"tool-call","callId":"c","toolName":"sleep","status":"running"},
                    {"type":"finish","reason":"canceled"}]},
          {"id":"t3","role":"assistant","completedAt":"2026-11-24T10:00:12.500Z",
           "parts":[{"type":"text","text":"No start time."},{"type":"finish","reason":"end_turn"}]}
        ]"#,
        );
        assert_eq!(
            out[0]["metadata"],
            json!({"turnId": "t1", "createdAt": 1_795_514_400_000_u64, "durationMs": 12_500, "toolCalls": 0, "toolErrors": 0})
        );
        assert_eq!(
            out[1]["metadata"],
            json!({"turnId": "t2", "createdAt": 1_795_514_500_000_u64, "durationMs": 3_000, "toolCalls": 1, "toolErrors": 1, "stopped": true})
        );
        assert_eq!(
            out[2]["metadata"],
            json!({"turnId": "t3", "toolCalls": 0, "toolErrors": 0}),
            "no duration without both times"
        );
    }

    #[test]
    fn the_turn_in_flight_and_empty_messages_are_left_out() {
        let out = history(
            r#"[
          {"id":"a0","role":"assistant","parts":[{"type":"finish","reason":"canceled"}]},
          {"id":"s0","role":"system","parts":[{"type":"text","text":"sys"}]},
          {"id":"u1","role":"user","parts":[{"type":"text","text":"go"}]},
          {"id":"t1","role":"assistant","parts":[{"type":"text","text":"wor","streaming":true}]}
        ]"#,
        );
        assert_eq!(
            out,
            json!([{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "go", "state": "done"}]}])
        );
    }

    #[test]
    fn open_tools_of_a_finished_turn_end_as_the_stream_ended_them() {
        for (reason, text) in [("canceled", "Canceled"), ("end_turn", "Interrupted")] {
            let out = history(&format!(
                r#"[{{"id":"t1","role":"assistant","parts":[
                {{"type":"tool-call","callId":"c","toolName":"sleep","status":"running","args":{{"s":9}}}},
                {{"type":"finish","reason":"{reason}"}}]}}]"#
            ));
            assert_eq!(out[0]["parts"][1]["state"], "output-error");
            assert_eq!(out[0]["parts"][1]["errorText"], text);
            assert_eq!(out[0]["parts"][1]["input"], json!({"s": 9}));
        }
    }
}
