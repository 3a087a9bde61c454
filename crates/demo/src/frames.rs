//! The JSON frames the demo agent sends: the V2 turn events of its scripts, and the session's
//! replies to one socket (`error` frames with a `code`, `docs/agent-protocol.md`).
//!
//! Pure: no `worker::` type, no clock.

use serde_json::{json, Value};

/// The options every demo `question` offers.
pub const QUESTION_OPTIONS: [&str; 2] = ["yes", "no"];

/// Text of the error part recorded on a turn the session ended without a `message.finalize`
/// (only `/drop` does: it breaks the sockets instead).
pub const DROPPED_TEXT: &str = "The demo agent dropped the connection.";

/// Text of the error part recorded on a turn that was running when its object stopped (an
/// eviction, a deploy, a crash): after the restart it is listed finished with it (R-restart).
pub const RESTARTED_TEXT: &str = "The demo agent restarted before this turn finished.";

/// `agentStatus`, with `detail` when given.
pub fn status(status: &str, detail: Option<&str>) -> Value {
    match detail {
        Some(detail) => json!({"type": "agentStatus", "status": status, "detail": detail}),
        None => json!({"type": "agentStatus", "status": status}),
    }
}

/// `message.create`, echoing the prompt's `requestId` when it had one.
pub fn create(turn: &str, request_id: Option<&str>) -> Value {
    match request_id {
        Some(id) => json!({"type": "message.create", "turnId": turn, "requestId": id}),
        None => json!({"type": "message.create", "turnId": turn}),
    }
}

/// `message.part.text-delta`.
pub fn delta(turn: &str, text: &str) -> Value {
    json!({"type": "message.part.text-delta", "turnId": turn, "delta": text})
}

/// `message.finalize` with `reason`, and `finalText` / `error` when given.
pub fn finalize(turn: &str, reason: &str, final_text: Option<&str>, error: Option<&str>) -> Value {
    let mut frame = json!({"type": "message.finalize", "turnId": turn, "reason": reason});
    if let Some(map) = frame.as_object_mut() {
        if let Some(text) = final_text {
            map.insert("finalText".into(), text.into());
        }
        if let Some(error) = error {
            map.insert("error".into(), error.into());
        }
    }
    frame
}

/// `complete`: the agent is idle again.
pub fn complete() -> Value {
    json!({"type": "complete"})
}

/// A `message.part.tool-update` of call `call` (tool `name`) in `status`, with `extra`'s fields
/// (`args`, `result`, `error`).
pub fn tool_update(turn: &str, call: &str, name: &str, status: &str, extra: Value) -> Value {
    let mut frame = json!({"type": "message.part.tool-update", "turnId": turn,
        "callId": call, "toolName": name, "status": status});
    if let (Some(frame), Value::Object(extra)) = (frame.as_object_mut(), extra) {
        frame.extend(extra);
    }
    frame
}

/// `message.part.data` (protocol 6): the data part `name`, with `id` when given, transient when
/// `transient`.
pub fn data_part(turn: &str, name: &str, id: Option<&str>, data: Value, transient: bool) -> Value {
    let mut frame = json!({"type": "message.part.data", "turnId": turn, "name": name});
    if let Some(map) = frame.as_object_mut() {
        if let Some(id) = id {
            map.insert("id".into(), id.into());
        }
        map.insert("data".into(), data);
        if transient {
            map.insert("transient".into(), true.into());
        }
    }
    frame
}

/// `message.part.source` (protocol 6), its fields `source` (`sourceId`, then `url` and `title?`,
/// or `mediaType`, `title` and `filename?`).
pub fn source(turn: &str, source: Value) -> Value {
    let mut frame = json!({"type": "message.part.source", "turnId": turn});
    if let (Some(frame), Value::Object(source)) = (frame.as_object_mut(), source) {
        frame.extend(source);
    }
    frame
}

/// `message.metadata` (protocol 6).
pub fn metadata(turn: &str, metadata: Value) -> Value {
    json!({"type": "message.metadata", "turnId": turn, "metadata": metadata})
}

/// `question` (extension): `text`, with the demo's [`QUESTION_OPTIONS`].
pub fn question(question_id: &str, text: &str) -> Value {
    json!({"type": "question", "questionId": question_id, "text": text,
        "options": QUESTION_OPTIONS})
}

/// The id of the first question of turn `turn`.
pub fn question_id(turn: &str) -> String {
    format!("{turn}-q1")
}

/// The frames that end turn `turn` when it is aborted: each of its open tool calls (`open`: call
/// id and tool name) ended `error` "Canceled" (the contract's R-tool-end), then finalize
/// `canceled`, idle, `complete`.
pub fn cancel_frames(turn: &str, open: &[(String, String)]) -> Vec<String> {
    let canceled = json!({"error": "Canceled"});
    let tools = open
        .iter()
        .map(|(call, name)| tool_update(turn, call, name, "error", canceled.clone()).to_string());
    tools
        .chain([
            finalize(turn, "canceled", None, None).to_string(),
            status("idle", None).to_string(),
            complete().to_string(),
        ])
        .collect()
}

/// Delta `i` (from 1) of a `/stamp` turn, sent at `now_ms` (the agent's `Date.now()`):
/// its text is `{i}@{now_ms} `.
pub fn stamp_frame(turn: &str, i: u64, now_ms: f64) -> String {
    delta(turn, &format!("{i}@{now_ms} ")).to_string()
}

/// The text of delta `i` (from 1) of `/slow` and `/flood`: `w1`, ` w2`, ` w3`, …
pub fn numbered_delta(i: u64) -> String {
    if i == 1 {
        "w1".to_owned()
    } else {
        format!(" w{i}")
    }
}

/// What `/ask` says once answered: `You answered: <answer>.`, the answer being a JSON string's
/// value as is, or any other JSON value's compact text.
pub fn answer_reply(answer: &Value) -> String {
    let answer = match answer {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    format!("You answered: {answer}.")
}

/// A session-level error for one socket: `{"type":"error","code":..,"message":..}`.
fn error_frame(code: &str, message: &str) -> String {
    json!({"type": "error", "code": code, "message": message}).to_string()
}

/// The reply to a `prompt` while a turn is in flight.
pub fn busy_frame() -> String {
    error_frame("busy", "The agent is busy with another turn.")
}

/// The reply to an `answer` to a question that is not pending in the running turn.
pub fn not_pending_frame() -> String {
    error_frame(
        "question_not_pending",
        "There is no pending question with that id.",
    )
}

/// The reply to a prompt when the session's store is full: nothing is stored (docs/agent-protocol.md,
/// "A full store"); `cap` is the most messages it holds.
pub fn session_full_frame(cap: usize) -> String {
    error_frame(
        "session_full",
        &format!(
            "This conversation is full ({} messages): start a new one.",
            thousands(cap)
        ),
    )
}

/// The reply to a `history` frame that names a message the agent never stored.
pub fn not_found_frame(reference: &str) -> String {
    error_frame(
        "not_found",
        &format!("There is no message {reference:?} in this session."),
    )
}

/// The word that the session was forgotten (protocol 7): to every other socket first, then to
/// the asking one once nothing is kept; `request_id`, the `forget`'s.
pub fn forgotten_frame(request_id: &str) -> String {
    json!({"type": "forgotten", "requestId": request_id}).to_string()
}

/// The reply to a `forget` whose deleting failed: something may still be kept, and the adapter
/// must not say the session is gone.
pub fn forget_failed_frame() -> String {
    error_frame(
        "forget_failed",
        "The session could not be forgotten: try again.",
    )
}

/// `n` with a comma between each group of three digits (`10,000`), as the contract writes it.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
#[path = "frames_tests.rs"]
mod tests;
