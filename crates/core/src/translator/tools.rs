//! Tool calls: each V2 tool update becomes the UI chunks its state change needs, no more.
//!
//! A tool's UI life is `tool-input-start` → `tool-input-available` → one of
//! `tool-output-available` / `tool-output-error`. Agents may skip states (a fast tool
//! shows up `completed`), repeat them, or send `args` late, so every update moves the
//! call forward to where it says it is, synthesising the chunks it skipped, and an
//! update that moves nothing emits nothing. A call never goes backwards.
//!
//! `args` and `result` travel as the agent wrote them (raw JSON, never rebuilt as a tree).

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasher;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::ui::UiChunk;
use crate::v2::{error_text, ToolStatus, ToolUpdate};

/// The text a failed tool shows when the agent gave none.
pub const DEFAULT_FAILURE: &str = "Operation failed";
/// The text of a tool in `error` whose update carries no error text.
pub const DEFAULT_TOOL_ERROR: &str = "Tool failed";

/// A tool call that has not reached its output yet.
#[derive(Debug, Clone)]
struct Call {
    name: String,
    /// The latest `args` (once they became the call's input, that input: an approval question
    /// shows it to the user who approves the call).
    args: Option<Box<RawValue>>,
    /// Whether `tool-input-available` went out.
    has_input: bool,
    /// Order of first appearance, so the end closes calls in the order they opened.
    seq: u64,
}

/// The tool calls of one turn.
///
/// Open calls keep their name and pending args; a finished call keeps only a 64-bit hash
/// of its id (to ignore its repeats), so a turn with many tools holds little memory.
#[derive(Debug, Default, Clone)]
pub struct Tools {
    open: HashMap<String, Call>,
    finished: HashSet<u64>,
    hasher: RandomState,
    seen: u64,
    failed: u64,
}

impl Tools {
    /// Applies one update, emitting the chunks that move the call to its new state.
    /// Callers close the open text part first when [`Tools::would_emit`] says so.
    pub fn apply(&mut self, update: ToolUpdate, out: &mut Vec<UiChunk>) {
        let ToolUpdate {
            call_id,
            tool_name,
            status,
            args,
            result,
            error,
            ..
        } = update;
        let id_hash = self.hasher.hash_one(&call_id);
        if self.finished.contains(&id_hash) {
            return;
        }
        if !self.open.contains_key(&call_id) {
            out.push(UiChunk::ToolInputStart {
                tool_call_id: call_id.clone(),
                tool_name: tool_name.clone(),
                provider_executed: true,
                dynamic: true,
            });
            self.seen += 1;
            let call = Call {
                name: tool_name,
                args: None,
                has_input: false,
                seq: self.seen,
            };
            self.open.insert(call_id.clone(), call);
        }
        let Some(call) = self.open.get_mut(&call_id) else {
            return;
        };
        if args.is_some() && !call.has_input {
            call.args = args;
        }
        let wants_input = match status {
            ToolStatus::Pending => false,
            ToolStatus::Running => call.args.is_some(),
            ToolStatus::Completed | ToolStatus::Error => true,
        };
        if wants_input && !call.has_input {
            out.push(input_available(&call_id, call));
        }
        let outcome = match outcome(status, result.as_deref(), error.as_ref()) {
            None => return,
            Some(Ok(())) => Ok(result.map_or_else(null, one_line)),
            Some(Err(text)) => Err(text),
        };
        self.open.remove(&call_id);
        self.finished.insert(id_hash);
        self.failed += u64::from(outcome.is_err());
        out.push(match outcome {
            Ok(output) => UiChunk::ToolOutputAvailable {
                tool_call_id: call_id,
                output,
                provider_executed: true,
                dynamic: true,
            },
            Err(error_text) => output_error(call_id, error_text),
        });
    }

    /// Whether the call `call_id` was shown in this stream (open or ended).
    pub fn knows(&self, call_id: &str) -> bool {
        self.open.contains_key(call_id) || self.finished.contains(&self.hasher.hash_one(call_id))
    }

    /// Keeps `call_id` from any later call of this stream: a question's client-side call has it
    /// (it counts as no tool of the agent's).
    pub fn reserve(&mut self, call_id: &str) {
        self.finished.insert(self.hasher.hash_one(call_id));
    }

    /// The name and input so far of the open call `call_id`.
    pub fn open_call(&self, call_id: &str) -> Option<(&str, Option<&RawValue>)> {
        let call = self.open.get(call_id)?;
        Some((&call.name, call.args.as_deref()))
    }

    /// Asks the user to approve the open call `call_id` (its input first, when it is still
    /// missing): `tool-approval-request`. The call leaves this stream, which ends at the question:
    /// the stream of the answer takes it on ([`Tools::resume_call`]). False when no such call is
    /// open.
    pub fn request_approval(
        &mut self,
        call_id: &str,
        approval_id: &str,
        out: &mut Vec<UiChunk>,
    ) -> bool {
        let Some(mut call) = self.open.remove(call_id) else {
            return false;
        };
        if !call.has_input {
            out.push(input_available(call_id, &mut call));
        }
        self.finished.insert(self.hasher.hash_one(call_id));
        out.push(UiChunk::ToolApprovalRequest {
            approval_id: approval_id.to_owned(),
            tool_call_id: call_id.to_owned(),
        });
        true
    }

    /// Takes on a call that the client already holds from an earlier stream of the same message
    /// (the turn before its question): an open call moves on from its input, an ended one is
    /// never shown again. `failed` counts an ended call that failed.
    pub fn resume_call(&mut self, call_id: &str, name: &str, open: bool, failed: bool) {
        self.seen += 1;
        if !open {
            self.finished.insert(self.hasher.hash_one(call_id));
            self.failed += u64::from(failed);
            return;
        }
        let call = Call {
            name: name.to_owned(),
            args: None,
            has_input: true,
            seq: self.seen,
        };
        self.open.insert(call_id.to_owned(), call);
    }

    /// Ends the open call `call_id` as the user denied it: `tool-output-denied`. Nothing when no
    /// such call is open.
    pub fn deny(&mut self, call_id: &str, out: &mut Vec<UiChunk>) {
        if self.open.remove(call_id).is_some() {
            self.finished.insert(self.hasher.hash_one(call_id));
            out.push(UiChunk::ToolOutputDenied {
                tool_call_id: call_id.to_owned(),
            });
        }
    }

    /// How many tool calls were shown, and how many of them ended in `tool-output-error`.
    pub fn counts(&self) -> (u64, u64) {
        (self.seen, self.failed)
    }

    /// Whether [`Tools::apply`] would emit anything for this update.
    pub fn would_emit(&self, update: &ToolUpdate) -> bool {
        if self
            .finished
            .contains(&self.hasher.hash_one(&update.call_id))
        {
            return false;
        }
        let Some(call) = self.open.get(&update.call_id) else {
            return true;
        };
        match update.status {
            ToolStatus::Completed | ToolStatus::Error => true,
            ToolStatus::Running => {
                !call.has_input && (update.args.is_some() || call.args.is_some())
            }
            ToolStatus::Pending => false,
        }
    }

    /// Ends every call still open with `tool-output-error` carrying `reason`, in the
    /// order the calls first appeared, so no tool is ever left running. A call that
    /// never got its input first gets `tool-input-available`, as any skipped state does.
    pub fn close_all(&mut self, reason: &str, out: &mut Vec<UiChunk>) {
        let mut open: Vec<(String, Call)> = self.open.drain().collect();
        // Unstable is enough (no two calls share a `seq`), and smaller in the wasm than the
        // stable sort, which nothing else uses.
        open.sort_unstable_by_key(|(_, call)| call.seq);
        for (id, mut call) in open {
            if !call.has_input {
                out.push(input_available(&id, &mut call));
            }
            self.finished.insert(self.hasher.hash_one(&id));
            self.failed += 1;
            out.push(output_error(id, reason.to_owned()));
        }
    }
}

/// `tool-input-available` with the call's args (or `{}`), which the call keeps as its input.
fn input_available(call_id: &str, call: &mut Call) -> UiChunk {
    call.has_input = true;
    let input = call.args.take().map_or_else(empty_object, one_line);
    call.args = Some(input.clone());
    UiChunk::ToolInputAvailable {
        tool_call_id: call_id.to_owned(),
        tool_name: call.name.clone(),
        input,
        provider_executed: true,
        dynamic: true,
    }
}

fn output_error(tool_call_id: String, error_text: String) -> UiChunk {
    UiChunk::ToolOutputError {
        tool_call_id,
        error_text,
        provider_executed: true,
        dynamic: true,
    }
}

fn null() -> Box<RawValue> {
    RawValue::NULL.to_owned()
}

fn empty_object() -> Box<RawValue> {
    RawValue::from_string("{}".to_owned()).unwrap_or_else(|_| null())
}

/// The agent's JSON as it wrote it, unless it spans lines (pretty-printed): then compacted,
/// since a line break would end the SSE event it travels in.
pub(crate) fn one_line(raw: Box<RawValue>) -> Box<RawValue> {
    if !raw.get().contains(['\n', '\r']) {
        return raw;
    }
    serde_json::from_str::<Value>(raw.get())
        .ok()
        .and_then(|value| serde_json::value::to_raw_value(&value).ok())
        .unwrap_or(raw)
}

/// How a call in `status` ended (`docs/agent-protocol.md`, `tool-update`): `None` while it is open; `Some(Ok(()))` when its
/// `result` is its output; `Some(Err(text))` when it failed: an `error` status, or a `completed`
/// one whose result reports a failure. The stream and the history both read it so.
pub fn outcome(
    status: ToolStatus,
    result: Option<&RawValue>,
    error: Option<&Value>,
) -> Option<Result<(), String>> {
    match status {
        ToolStatus::Pending | ToolStatus::Running => None,
        ToolStatus::Completed => Some(result.and_then(failure_text).map_or(Ok(()), Err)),
        ToolStatus::Error => Some(Err(tool_error_text(error, result))),
    }
}

/// The text of a tool in `error`: its `error` (a string or `{ message }`), else the failure its
/// result reports, else [`DEFAULT_TOOL_ERROR`].
pub fn tool_error_text(error: Option<&Value>, result: Option<&RawValue>) -> String {
    error
        .and_then(error_text)
        .or_else(|| result.and_then(failure_text))
        .unwrap_or_else(|| DEFAULT_TOOL_ERROR.to_owned())
}

/// The fields of a result that can report failure; everything else is skipped unread.
#[derive(Deserialize)]
struct FailureProbe {
    #[serde(default)]
    success: Option<Value>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default)]
    message: Option<Value>,
}

/// The failure a `completed` tool's result reports, in the contract's three shapes
/// (`docs/agent-protocol.md`, `tool-update`):
/// `{ success: false, error: { message } }`, `{ error: true, message }`, `{ error: "…" }`.
pub fn failure_text(result: &RawValue) -> Option<String> {
    if !result.get().trim_start().starts_with('{') {
        return None;
    }
    let probe: FailureProbe = serde_json::from_str(result.get()).ok()?;
    let text_or_default = |v: Option<&Value>| {
        v.and_then(error_text)
            .unwrap_or_else(|| DEFAULT_FAILURE.to_owned())
    };
    if probe.success == Some(Value::Bool(false)) {
        return Some(text_or_default(probe.error.as_ref()));
    }
    match probe.error {
        Some(Value::Bool(true)) => Some(text_or_default(probe.message.as_ref())),
        Some(Value::String(s)) => Some(if s.trim().is_empty() {
            DEFAULT_FAILURE.to_owned()
        } else {
            s
        }),
        _ => None,
    }
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
