//! An independent checker of UI message streams: the AI SDK's framing, schema and
//! sequencing rules (ai@5.0.0's strict schema, `process-ui-message-stream.ts`), plus
//! this project's promises (one ending, no part or tool left open: a question's tool waits for
//! the user only in a stream that ends with `finish` at it).

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
        "tool-approval-request" => (
            &["type", "approvalId", "toolCallId"],
            &["type", "approvalId", "toolCallId"],
        ),
        "tool-output-denied" => (&["type", "toolCallId"], &["type", "toolCallId"]),
        "error" => (&["type", "errorText"], &["type", "errorText"]),
        // Protocol 6: an agent's sources.
        "source-url" => (
            &["type", "sourceId", "url", "title"],
            &["type", "sourceId", "url"],
        ),
        "source-document" => (
            &["type", "sourceId", "mediaType", "title", "filename"],
            &["type", "sourceId", "mediaType", "title"],
        ),
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
    check_chunks_holding(chunks, &[])
}

/// The client-side tools a question becomes (`crates/core/src/questions.rs`).
const QUESTION_TOOLS: [&str; 2] = ["askUser", "approveToolCall"];

/// [`check_chunks`] for the stream of an answer, which goes on in a message whose tool calls
/// `held` the client already holds (their input shown): they may move on to their output.
pub fn check_chunks_holding(
    chunks: &[Map<String, Value>],
    held: &[&str],
) -> Result<String, String> {
    let mut active: HashMap<&str, &str> = HashMap::new(); // id -> "text" | "reasoning"
    let mut ids_seen: HashSet<String> = HashSet::new();
    // id -> stage; a question's tool (or an approval) "waits" for the user.
    let mut tools: HashMap<String, &str> =
        held.iter().map(|id| (id.to_string(), "input")).collect();
    let mut question_tools: HashSet<String> = HashSet::new();
    let open = |tools: &HashMap<String, &str>| {
        tools
            .iter()
            .find(|(_, s)| **s != "done" && **s != "waits")
            .map(|(id, _)| id.clone())
    };
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
        // A question ends the stream: once one waits, only the closing of the rest follows.
        let closing = [
            "tool-input-available",
            "tool-output-error",
            "finish-step",
            "finish",
        ];
        let answers_it = kind == "tool-output-available" && tools.get(&call) == Some(&"waits");
        if tools.values().any(|s| *s == "waits") && !closing.contains(&kind.as_str()) && !answers_it
        {
            return Err(format!("{kind} after a question"));
        }
        match kind.as_str() {
            "start" if started || i != 0 => return Err(format!("start at {i}")),
            "start" => started = true,
            "start-step" if !started || in_step => return Err(format!("start-step at {i}")),
            "start-step" => in_step = true,
            "finish-step" if !in_step => return Err(format!("finish-step outside a step at {i}")),
            "finish-step" if !active.is_empty() => {
                return Err(format!("finish-step with open parts {active:?}"))
            }
            // An agent's call may run on across steps (an answered question's new step): the
            // SDK updates its part where it is; the ending still closes it.
            "finish-step" => in_step = false,
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
                let flag = |key: &str| chunk.get(key).and_then(Value::as_bool);
                let question = match (flag("providerExecuted"), flag("dynamic")) {
                    (Some(true), Some(true)) => false,
                    (Some(false), Some(false)) => true,
                    _ => {
                        return Err(format!(
                            "{kind} must be providerExecuted and dynamic, or neither"
                        ))
                    }
                };
                let name = chunk.get("toolName").and_then(Value::as_str);
                if question && name.is_some_and(|n| !QUESTION_TOOLS.contains(&n)) {
                    return Err(format!(
                        "{kind}: a client-side tool that is no question: {name:?}"
                    ));
                }
                if kind == "tool-input-start" && question {
                    question_tools.insert(call.clone());
                }
                if question != question_tools.contains(&call) {
                    return Err(format!(
                        "{kind} for tool {call} switches between agent and client tool"
                    ));
                }
                let stage = tools.get(&call).copied();
                let next = match (kind.as_str(), stage) {
                    ("tool-input-start", None) => "started",
                    ("tool-input-available", None | Some("started")) if question => "waits",
                    ("tool-input-available", None | Some("started")) => "input",
                    ("tool-output-available", Some("waits")) if question => "done",
                    ("tool-output-available" | "tool-output-error", Some("input")) => "done",
                    (k, s) => return Err(format!("{k} for tool {call} in stage {s:?}")),
                };
                tools.insert(call, next);
            }
            "tool-approval-request" => {
                if tools.get(&call).copied() != Some("input") || question_tools.contains(&call) {
                    return Err(format!(
                        "approval of tool {call} that is not the agent's with its input"
                    ));
                }
                tools.insert(call, "waits");
            }
            "tool-output-denied" => {
                if tools.get(&call).copied() != Some("input") || !held.contains(&call.as_str()) {
                    return Err(format!(
                        "denial of tool {call} that is not held from an approval"
                    ));
                }
                tools.insert(call, "done");
            }
            "error" if chunks.get(i + 1).map(|c| str_field(c, "type")) != Some("finish") => {
                return Err("error is not followed by finish".into());
            }
            "finish" | "abort" => {
                if let Some(id) = open(&tools) {
                    return Err(format!("{kind} with tool {id} still running"));
                }
                let waiting = tools.values().filter(|s| **s == "waits").count();
                let asked = kind == "finish"
                    && chunks.get(i.wrapping_sub(1)).map(|c| str_field(c, "type")) != Some("error");
                if waiting > 1 || (waiting == 1 && !asked) {
                    return Err(format!("{kind} with {waiting} question(s) waiting"));
                }
                if !active.is_empty() {
                    return Err(format!("{kind} with open parts {active:?}"));
                }
                if in_step {
                    return Err(format!("{kind} inside an open step"));
                }
                ending = Some(kind.clone());
            }
            "source-url" | "source-document" if !in_step || !active.is_empty() => {
                return Err(format!("{kind} outside a step or while {active:?} is open"));
            }
            k if k.starts_with("data-") => {
                // The adapter's status is transient, its question never; an agent's may be either
                // (protocol 6), its flag given only when true.
                let transient = chunk.get("transient") == Some(&Value::Bool(true));
                let given = chunk.contains_key("transient");
                let wrong = match k {
                    "data-status" => !transient,
                    "data-question" => given,
                    _ => given && !transient,
                };
                if wrong {
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
