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
//! | `question` (`QUESTIONS = "data"`) | `{ type: "data-question", id: questionId, data: { questionId, text, options?, answer? } }` |
//! | `question` (`tools`, `approvals`) | `tool-askUser`, or for a question that gates a call `tool-approveToolCall` (`tools`) or the call's own part with its `approval` (`approvals`: `output-denied` when denied): as the stream showed it, with the answer as its output |
//! | `data` (protocol 6) | `{ type: "data-<name>", id?, data }`; a later one of the same name and id replaces the earlier one's `data`, in its place |
//! | `source` (protocol 6) | `{ type: "source-url", sourceId, url, title? }` or `{ type: "source-document", sourceId, mediaType, title, filename? }` |
//! | `metadata` (protocol 6) | merged, in order, into the message's `metadata` (below) |
//! | `finish`, `error` | nothing (the live stream sends them as its ending, not as parts) |
//!
//! An assistant message starts with `step-start`, as a streamed one does, and has the `metadata`
//! its stream's `start` and `finish` gave it (and `stopped` for a stopped turn, `error` with the
//! agent's words for a failed one). From an agent of protocol 5 every message's `metadata` also
//! says where it is in the session's tree: its `ref`, and its `siblings` when it has some. The turn in flight is left out: the resume stream delivers it
//! whole (ai 5.0.x would append a replay to a copy it already has and show it twice). A user
//! message left with no part is left out too: the AI SDK rejects a message without parts. A
//! finished assistant message is kept even with nothing but its `step-start`, as its client holds
//! it: a reply that failed before it said anything is still the reply to its message (a
//! regenerate of it replaces it), and the conversation's ids stay the client's.

use serde_json::{json, Map, Value};

use crate::questions::{
    approve_input, approves, ask_input, client_call_id, QuestionParts, QuestionView,
    APPROVE_TOOL_CALL, ASK_USER,
};
use crate::session::when::epoch_ms;
use crate::session::{in_flight, Message, Part, Role, ToolCallPart};
use crate::trace::Trace;
use crate::translator::{tool_outcome, Ending, AGENT_ERROR};
use crate::v2::{error_text, merge_metadata, DeltaKind, FinishReason, Question, Source};

/// The finished messages of `messages` (an `init`'s, or a page's), oldest first, as `UIMessage`
/// JSON values, shown as `trace` shows a stream: no reasoning and no tools in `minimal`, tools
/// without their data in `normal`, long tool JSON shortened in `full`; questions as `questions`
/// shows them.
pub fn ui_messages(messages: &[Message], trace: &Trace, questions: &QuestionView) -> Vec<Value> {
    let in_flight = in_flight(messages).map(|m| m.id.as_str());
    messages
        .iter()
        .filter(|m| is_listed(m, in_flight))
        .filter_map(|m| ui_message(m, trace, questions))
        .collect()
}

/// Whether the history lists `message` (`in_flight`: the id of the turn in flight, which it
/// leaves out): every finished assistant message, and every user message with a part it shows
/// (text that is not empty, a file). The session feed names the conversation by these ids.
pub fn is_listed(message: &Message, in_flight: Option<&str>) -> bool {
    if Some(message.id.as_str()) == in_flight {
        return false;
    }
    match message.role {
        Role::Assistant => true,
        Role::User => message.parts.iter().any(|part| match part {
            Part::Text { text, .. } => !text.is_empty(),
            Part::File(_) => true,
            _ => false,
        }),
        Role::Other => false,
    }
}

/// A user message as the history shows it (its text and files: no trace mode or question
/// setting changes them), for the session feed's `turn-start`; `None` for another role or a
/// message the history leaves out.
pub fn user_message(message: &Message) -> Option<Value> {
    if message.role != Role::User {
        return None;
    }
    let view = QuestionView::new(QuestionParts::default(), Trace::default());
    ui_message(message, &Trace::default(), &view)
}

/// The JSON array `GET …/messages` answers for a page of `messages`.
pub fn history_json(messages: &[Message], trace: &Trace, questions: &QuestionView) -> String {
    Value::Array(ui_messages(messages, trace, questions)).to_string()
}

/// One message as the history shows it: its parts, with what they need to know of the rest.
struct Shown<'a> {
    message: &'a Message,
    reason: FinishReason,
    trace: &'a Trace,
    questions: QuestionParts,
}

impl Shown<'_> {
    /// The tool call `call_id` of the message.
    fn call(&self, call_id: &str) -> Option<&ToolCallPart> {
        self.message.parts.iter().find_map(|part| match part {
            Part::ToolCall(call) if call.call_id == call_id => Some(call),
            _ => None,
        })
    }

    /// The question that gates the call `call_id`, where approvals show on the call's part.
    fn approval_of(&self, call_id: &str) -> Option<&Question> {
        if self.questions != QuestionParts::Approvals {
            return None;
        }
        self.message.parts.iter().find_map(|part| match part {
            Part::Question(q) if q.tool_call_id.as_deref() == Some(call_id) => Some(q),
            _ => None,
        })
    }

    /// Whether a question of the message before `question` stands for a client-side call
    /// `call_id` (an agent that asked twice under one id).
    fn question_call(&self, call_id: &str, question: &Question) -> bool {
        self.message
            .parts
            .iter()
            .map_while(|part| match part {
                Part::Question(q) if std::ptr::eq(q, question) => None,
                Part::Question(q) => Some(q.question_id == call_id),
                _ => Some(false),
            })
            .any(|earlier| earlier)
    }

    /// Whether the call `call_id`'s approval was denied (a denied call is no failure).
    fn denied(&self, call_id: &str) -> bool {
        self.approval_of(call_id)
            .and_then(|q| Some(!approves(q.answer.as_ref()?, q.options.as_ref())))
            .unwrap_or(false)
    }
}

fn ui_message(message: &Message, trace: &Trace, questions: &QuestionView) -> Option<Value> {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Other => return None,
    };
    let shown = Shown {
        message,
        reason: message.finish_reason().unwrap_or(FinishReason::EndTurn),
        trace,
        questions: questions.parts(),
    };
    let mut parts: Vec<Value> = Vec::new();
    for part in &message.parts {
        let Some(value) = ui_part(&shown, part) else {
            continue;
        };
        let kind = value
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        // An answered question's call: the answer's stream opened a new step, as a resume's
        // replay does (the SDK's `lastAssistantMessageIsComplete…` helpers look only after it).
        let answered_call =
            matches!(part, Part::Question(q) if q.answer.is_some()) && kind.starts_with("tool-");
        if matches!(part, Part::Data(_)) && replaced_data(&mut parts, &value) {
            continue;
        }
        parts.push(value);
        if answered_call {
            parts.push(json!({"type": "step-start"}));
        }
    }
    if parts.is_empty() && message.role != Role::Assistant {
        return None;
    }
    let mut metadata = match message.role {
        Role::Assistant => {
            parts.insert(0, json!({"type": "step-start"}));
            metadata(&shown)
        }
        _ => Map::new(),
    };
    place_in_tree(message, &mut metadata);
    if metadata.is_empty() {
        return Some(json!({"id": message.id, "role": role, "parts": parts}));
    }
    Some(json!({"id": message.id, "role": role, "metadata": metadata, "parts": parts}))
}

/// Where a message of an agent of protocol 5 is in the session's tree, in its `metadata`: its
/// `ref` (what `?leaf=` and `?before=` name), and, when it has siblings (the edits of a user
/// message, the retries of a reply), `siblings`: its place among them from 0, their count, and
/// each one's ref, oldest first (a client shows "‹ index+1/count ›" and asks `?leaf=` a sibling's
/// ref to show that branch). Nothing from an older agent.
fn place_in_tree(message: &Message, metadata: &mut Map<String, Value>) {
    let Some(key) = &message.key else {
        return;
    };
    metadata.insert("ref".into(), key.as_str().into());
    if let Some(index) = message.siblings.iter().position(|sibling| sibling == key) {
        let siblings = json!({
            "index": index,
            "count": message.siblings.len(),
            "refs": message.siblings,
        });
        metadata.insert("siblings".into(), siblings);
    }
}

/// An assistant message's `metadata`, as its live stream's `start` and `finish` left it
/// (`crates/core/src/ui/metadata.rs`): `turnId`, `createdAt` and `durationMs` where the agent recorded its
/// times (`durationMs`: `completedAt` less `createdAt`), the tool calls and how many failed
/// (in every trace mode, as the stream counts them), `stopped: true` for a turn that was
/// stopped (whose live stream ended with `abort`), and the `usage` and `model` its finish part
/// kept of the `message.finalize` (protocol 3), as the live `finish` gave them.
fn metadata(shown: &Shown<'_>) -> Map<String, Value> {
    let (message, reason) = (shown.message, shown.reason);
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
            let denied = shown.denied(&call.call_id);
            errors += u64::from(!matches!(outcome, Some(Ok(()))) && !denied);
        }
    }
    // The agent's own metadata first (protocol 6), merged in order as the client merged each
    // `message-metadata`; the adapter's keys are none of its keys.
    let mut meta = Map::new();
    for part in &message.parts {
        if let Part::Metadata { metadata } = part {
            if let Ok(Value::Object(map)) = serde_json::from_str(metadata.get()) {
                merge_metadata(&mut meta, &map);
            }
        }
    }
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
    // What the failed turn's stream said in its `error` chunk: the agent's words.
    let failed = (reason == FinishReason::Error).then(|| {
        let error = message.parts.iter().find_map(|part| match part {
            Part::Error { message } => message.as_ref(),
            _ => None,
        });
        error
            .and_then(error_text)
            .unwrap_or_else(|| AGENT_ERROR.to_owned())
    });
    put("error", failed.map(Value::from));
    if let Some(Part::Finish { usage, model, .. }) = message.parts.iter().rfind(is_finish) {
        put("usage", usage.and_then(|u| serde_json::to_value(u).ok()));
        put("model", model.as_deref().map(Value::from));
    }
    meta
}

fn is_finish(part: &&Part) -> bool {
    matches!(part, Part::Finish { .. })
}

fn ui_part(shown: &Shown<'_>, part: &Part) -> Option<Value> {
    let assistant = shown.message.role == Role::Assistant;
    let trace = shown.trace;
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
        Part::ToolCall(call) if assistant && trace.shows_tools() => Some(tool_part(shown, call)),
        Part::Data(data) if assistant => {
            let mut value = Map::new();
            value.insert("type".into(), format!("data-{}", data.name).into());
            if let Some(id) = &data.id {
                value.insert("id".into(), id.as_str().into());
            }
            let data = serde_json::from_str(data.data.get()).unwrap_or(Value::Null);
            value.insert("data".into(), data);
            Some(Value::Object(value))
        }
        Part::Source(source) if assistant => Some(source_part(source)),
        Part::Question(question) if assistant => question_part(shown, question),
        _ => None,
    }
}

/// A question as the stream showed it (`crate::translator`'s `asking`), with its answer.
fn question_part(shown: &Shown<'_>, question: &Question) -> Option<Value> {
    if shown.questions == QuestionParts::Data {
        return Some(json!({
            "type": "data-question",
            "id": question.question_id,
            "data": question,
        }));
    }
    let gated = question
        .tool_call_id
        .as_deref()
        .and_then(|id| shown.call(id));
    let (tool, input) = match gated {
        // On the gated call's own part (its `approval`).
        Some(_) if shown.questions == QuestionParts::Approvals => return None,
        Some(call) => {
            let empty = serde_json::value::RawValue::from_string("{}".into()).ok()?;
            let args = call.args.as_deref().unwrap_or(&empty);
            let shown_input = shown.trace.question_tool_input(args);
            let input = approve_input(question, &call.tool_name, &shown_input);
            (APPROVE_TOOL_CALL, input)
        }
        None => (ASK_USER, ask_input(question)),
    };
    let taken = |id: &str| shown.call(id).is_some() || shown.question_call(id, question);
    let mut part = Map::new();
    part.insert("type".into(), format!("tool-{tool}").into());
    part.insert(
        "toolCallId".into(),
        client_call_id(&question.question_id, taken).into(),
    );
    let input: Value = serde_json::from_str(input.get()).unwrap_or(Value::Null);
    part.insert("input".into(), input);
    match &question.answer {
        Some(answer) => {
            part.insert("state".into(), "output-available".into());
            part.insert("output".into(), answer.clone());
        }
        // Unanswered in a finished turn: it ended as the turn's open tools did.
        None => {
            part.insert("state".into(), "output-error".into());
            let reason = Ending::from_reason(shown.reason, None).tool_reason();
            part.insert("errorText".into(), reason.into());
        }
    }
    Some(Value::Object(part))
}

/// Whether `value`, a data part with an `id`, replaces the data of an earlier part of `parts` of
/// the same type and id, as the client does with a data chunk that comes again.
fn replaced_data(parts: &mut [Value], value: &Value) -> bool {
    let key = |part: &Value| (part.get("type").cloned(), part.get("id").cloned());
    let (kind, id) = key(value);
    if id.is_none() {
        return false;
    }
    let Some(earlier) = parts
        .iter_mut()
        .find(|part| key(part) == (kind.clone(), id.clone()))
    else {
        return false;
    };
    if let (Some(slot), Some(data)) = (earlier.get_mut("data"), value.get("data")) {
        *slot = data.clone();
    }
    true
}

/// A source as the stream's `source-url` or `source-document` chunk made it (the client's part
/// of the same fields).
fn source_part(source: &Source) -> Value {
    let mut part = Map::new();
    let mut put = |key: &str, value: &Option<String>| {
        if let Some(value) = value {
            part.insert(key.to_owned(), value.as_str().into());
        }
    };
    match &source.url {
        Some(_) => {
            put("type", &Some("source-url".to_owned()));
            put("sourceId", &Some(source.source_id.clone()));
            put("url", &source.url);
            put("title", &source.title);
        }
        None => {
            put("type", &Some("source-document".to_owned()));
            put("sourceId", &Some(source.source_id.clone()));
            put("mediaType", &source.media_type);
            put("title", &source.title);
            put("filename", &source.filename);
        }
    }
    Value::Object(part)
}

fn tool_part(shown: &Shown<'_>, call: &ToolCallPart) -> Value {
    let (reason, trace) = (shown.reason, shown.trace);
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
    let approval = shown.approval_of(&call.call_id).and_then(|question| {
        let answer = question.answer.as_ref()?;
        let approved = approves(answer, question.options.as_ref());
        let mut approval = Map::new();
        approval.insert("id".into(), question.question_id.clone().into());
        approval.insert("approved".into(), approved.into());
        if let Some(reason) = answer.get("reason").and_then(Value::as_str) {
            approval.insert("reason".into(), reason.into());
        }
        Some((approved, Value::Object(approval)))
    });
    part.insert("input".into(), input);
    let granted = match approval {
        // Denied, it never ran: whatever the agent recorded, the part ends denied.
        Some((false, approval)) => {
            part.insert("state".into(), "output-denied".into());
            part.insert("approval".into(), approval);
            return Value::Object(part);
        }
        Some((true, approval)) => Some(approval),
        None => None,
    };
    match outcome {
        Ok(output) => {
            part.insert("state".into(), "output-available".into());
            part.insert("output".into(), output);
        }
        Err(error_text) => {
            part.insert("state".into(), "output-error".into());
            part.insert("errorText".into(), trace.tool_error(error_text).into());
        }
    }
    if let Some(approval) = granted {
        part.insert("approval".into(), approval);
    }
    Value::Object(part)
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
