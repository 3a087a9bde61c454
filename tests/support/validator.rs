//! An independent checker of UI message streams: the AI SDK's framing, schema and
//! sequencing rules (ai@5.0.0's strict schema, `process-ui-message-stream.ts`), plus
//! this project's promises (one ending, no part or tool left open).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

/// Keys each emitted chunk type may carry (a subset of ai@5.0.0's strict schema), and
/// which of them are required.
fn schema(kind: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match kind {
        "start" => (&["type", "messageId", "messageMetadata"], &["type"]),
        "finish" => (&["type", "messageMetadata"], &["type"]),
        "message-metadata" => (&["type", "messageMetadata"], &["type", "messageMetadata"]),
        "start-step" | "finish-step" | "abort" => (&["type"], &["type"]),
        "text-start" | "text-end" | "reasoning-start" | "reasoning-end" => {
            (&["type", "id"], &["type", "id"])
        }
        "text-delta" | "reasoning-delta" => (&["type", "id", "delta"], &["type", "id", "delta"]),
        "tool-input-start" => (
            &[
                "type",
                "toolCallId",
                "toolName",
                "providerExecuted",
                "dynamic",
            ],
            &["type", "toolCallId", "toolName"],
        ),
        "tool-input-available" => (
            &[
                "type",
                "toolCallId",
                "toolName",
                "input",
                "providerExecuted",
                "dynamic",
            ],
            &["type", "toolCallId", "toolName", "input"],
        ),
        "tool-output-available" => (
            &[
                "type",
                "toolCallId",
                "output",
                "providerExecuted",
                "dynamic",
            ],
            &["type", "toolCallId", "output"],
        ),
        "tool-output-error" => (
            &[
                "type",
                "toolCallId",
                "errorText",
                "providerExecuted",
                "dynamic",
            ],
            &["type", "toolCallId", "errorText"],
        ),
        "error" => (&["type", "errorText"], &["type", "errorText"]),
        k if k.starts_with("data-") => (&["type", "id", "data", "transient"], &["type", "data"]),
        _ => return None,
    })
}

/// Splits an SSE body into chunk objects, checking the framing.
pub fn parse_sse(body: &str) -> Result<Vec<Map<String, Value>>, String> {
    let Some(body) = body.strip_suffix("data: [DONE]\n\n") else {
        return Err("the body does not end with data: [DONE]".into());
    };
    let mut chunks = Vec::new();
    for event in body.split_terminator("\n\n") {
        if event.starts_with(':') && !event.contains('\n') {
            continue;
        }
        let Some(json) = event.strip_prefix("data: ") else {
            return Err(format!("not a data event: {event:?}"));
        };
        if json.contains('\n') || json.contains('\r') {
            return Err(format!("event spans lines: {json:?}"));
        }
        if json == "[DONE]" {
            return Err("[DONE] before the end".into());
        }
        match serde_json::from_str::<Value>(json) {
            Ok(Value::Object(map)) => chunks.push(map),
            other => return Err(format!("not a JSON object: {json} ({other:?})")),
        }
    }
    if !body.is_empty() && !body.ends_with("\n\n") {
        return Err("the last event is not closed by a blank line".into());
    }
    Ok(chunks)
}

fn check_schema(chunk: &Map<String, Value>) -> Result<String, String> {
    let kind = chunk
        .get("type")
        .and_then(Value::as_str)
        .ok_or("no string type")?;
    let (allowed, required) = schema(kind).ok_or_else(|| format!("unknown chunk type {kind}"))?;
    for key in chunk.keys() {
        if !allowed.contains(&key.as_str()) {
            return Err(format!("{kind} has a key ai@5.0.0 rejects: {key}"));
        }
    }
    for key in required {
        if !chunk.contains_key(*key) {
            return Err(format!("{kind} lacks {key}"));
        }
    }
    for (key, value) in chunk {
        let ok = match key.as_str() {
            "input" | "output" | "data" | "messageMetadata" => true,
            "providerExecuted" | "dynamic" | "transient" => value.is_boolean(),
            _ => value.is_string(),
        };
        if !ok {
            return Err(format!("{kind}.{key} has the wrong type: {value}"));
        }
    }
    Ok(kind.to_owned())
}

fn str_field<'a>(chunk: &'a Map<String, Value>, key: &str) -> &'a str {
    chunk.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// Checks the chunk sequence; returns the ending chunk's type.
pub fn check_chunks(chunks: &[Map<String, Value>]) -> Result<String, String> {
    let mut active: HashMap<&str, &str> = HashMap::new(); // id -> "text" | "reasoning"
    let mut ids_seen: HashSet<String> = HashSet::new();
    let mut tools: HashMap<String, &str> = HashMap::new(); // id -> stage
    let mut started = false;
    let mut in_step = false;
    let mut ending: Option<String> = None;
    for (i, chunk) in chunks.iter().enumerate() {
        let kind = check_schema(chunk)?;
        if let Some(end) = &ending {
            return Err(format!("chunk {i} ({kind}) after the ending {end}"));
        }
        let id = str_field(chunk, "id");
        let call = str_field(chunk, "toolCallId").to_owned();
        match kind.as_str() {
            "start" if started || i != 0 => return Err(format!("start at {i}")),
            "start" => started = true,
            "start-step" if !started || in_step => return Err(format!("start-step at {i}")),
            "start-step" => in_step = true,
            "finish-step" if !in_step => return Err(format!("finish-step outside a step at {i}")),
            "finish-step" if !active.is_empty() => {
                return Err(format!("finish-step with open parts {active:?}"))
            }
            "finish-step" => {
                if let Some((id, _)) = tools.iter().find(|(_, s)| **s != "done") {
                    return Err(format!("finish-step with tool {id} still running"));
                }
                in_step = false;
            }
            "text-start" | "reasoning-start" => {
                if !ids_seen.insert(id.to_owned()) {
                    return Err(format!("part id {id} reused"));
                }
                if !active.is_empty() {
                    return Err(format!("{kind} while {active:?} is open"));
                }
                let family = if kind == "text-start" {
                    "text"
                } else {
                    "reasoning"
                };
                active.insert(id, family);
            }
            "text-delta" | "reasoning-delta" | "text-end" | "reasoning-end" => {
                let family = kind.split('-').next().unwrap_or_default();
                if active.get(id) != Some(&family) {
                    return Err(format!("{kind} for a part that is not open: {id}"));
                }
                if kind.ends_with("-end") {
                    active.remove(id);
                }
            }
            "tool-input-start"
            | "tool-input-available"
            | "tool-output-available"
            | "tool-output-error" => {
                if !active.is_empty() {
                    return Err(format!("{kind} while {active:?} is open"));
                }
                if chunk.get("providerExecuted") != Some(&Value::Bool(true))
                    || chunk.get("dynamic") != Some(&Value::Bool(true))
                {
                    return Err(format!("{kind} must be providerExecuted and dynamic"));
                }
                let stage = tools.get(&call).copied();
                let next = match (kind.as_str(), stage) {
                    ("tool-input-start", None) => "started",
                    ("tool-input-available", None | Some("started")) => "input",
                    ("tool-output-available" | "tool-output-error", Some("input")) => "done",
                    (k, s) => return Err(format!("{k} for tool {call} in stage {s:?}")),
                };
                tools.insert(call, next);
            }
            "error" if chunks.get(i + 1).map(|c| str_field(c, "type")) != Some("finish") => {
                return Err("error is not followed by finish".into());
            }
            "finish" | "abort" => {
                if let Some((id, _)) = tools.iter().find(|(_, s)| **s != "done") {
                    return Err(format!("{kind} with tool {id} still running"));
                }
                if !active.is_empty() {
                    return Err(format!("{kind} with open parts {active:?}"));
                }
                if in_step {
                    return Err(format!("{kind} inside an open step"));
                }
                ending = Some(kind.clone());
            }
            k if k.starts_with("data-") => {
                let transient = chunk.get("transient") == Some(&Value::Bool(true));
                if (k == "data-status") != transient {
                    return Err(format!("{k} has the wrong transient flag"));
                }
            }
            _ => {}
        }
        if !started && kind != "error" && !kind.starts_with("data-") && ending.is_none() {
            return Err(format!("{kind} before start"));
        }
    }
    if started && in_step {
        return Err("the stream ends inside a step".into());
    }
    ending.ok_or_else(|| "no finish or abort".to_owned())
}

/// Parses and checks a whole SSE body; returns its chunks.
pub fn validate(body: &str) -> Result<Vec<Map<String, Value>>, String> {
    let chunks = parse_sse(body)?;
    check_chunks(&chunks)?;
    Ok(chunks)
}

/// The JSON of each chunk, for readable assertions.
pub fn chunk_types(chunks: &[Map<String, Value>]) -> Vec<String> {
    chunks
        .iter()
        .map(|c| str_field(c, "type").to_owned())
        .collect()
}
