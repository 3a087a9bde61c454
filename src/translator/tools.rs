//! Tool calls: each V2 tool update becomes the UI chunks its state change needs, no more.
//!
//! A tool's UI life is `tool-input-start` → `tool-input-available` → one of
//! `tool-output-available` / `tool-output-error`. Agents may skip states (a fast tool
//! shows up `completed`), repeat them, or send `args` late, so every update moves the
//! call forward to where it says it is, synthesising the chunks it skipped, and an
//! update that moves nothing emits nothing. A call never goes backwards.

use std::collections::hash_map::{Entry, HashMap};

use serde_json::{Map, Value};

use crate::ui::UiChunk;
use crate::v2::{error_text, ToolStatus, ToolUpdate};

/// The text a failed tool shows when the agent gave none (seed 003's default).
pub const DEFAULT_FAILURE: &str = "Operation failed";
/// The text of a tool in `error` whose update carries no error text.
pub const DEFAULT_TOOL_ERROR: &str = "Tool failed";

/// How far a tool call got on the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    InputStarted,
    InputAvailable,
    Done,
}

#[derive(Debug)]
struct Call {
    name: String,
    args: Option<Value>,
    stage: Stage,
    /// Order of first appearance, so the end closes calls in the order they opened.
    seq: u64,
}

/// The tool calls of one turn.
#[derive(Debug, Default)]
pub struct Tools {
    calls: HashMap<String, Call>,
    seen: u64,
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
        let call = match self.calls.entry(call_id.clone()) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => {
                out.push(input_start(&call_id, &tool_name));
                self.seen += 1;
                entry.insert(Call {
                    name: tool_name,
                    args: None,
                    stage: Stage::InputStarted,
                    seq: self.seen,
                })
            }
        };
        if args.is_some() {
            call.args = args;
        }
        if call.stage == Stage::Done {
            return;
        }
        let wants_input = match status {
            ToolStatus::Pending => false,
            ToolStatus::Running => call.args.is_some(),
            ToolStatus::Completed | ToolStatus::Error => true,
        };
        if wants_input && call.stage < Stage::InputAvailable {
            call.stage = Stage::InputAvailable;
            out.push(input_available(&call_id, call));
        }
        let outcome = match status {
            ToolStatus::Pending | ToolStatus::Running => return,
            ToolStatus::Completed => match result.as_ref().and_then(failure_text) {
                Some(text) => Err(text),
                None => Ok(result.unwrap_or(Value::Null)),
            },
            ToolStatus::Error => Err(error
                .as_ref()
                .and_then(error_text)
                .or_else(|| result.as_ref().and_then(failure_text))
                .unwrap_or_else(|| DEFAULT_TOOL_ERROR.to_owned())),
        };
        call.stage = Stage::Done;
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

    /// Whether [`Tools::apply`] would emit anything for this update.
    pub fn would_emit(&self, update: &ToolUpdate) -> bool {
        let Some(call) = self.calls.get(&update.call_id) else {
            return true;
        };
        match (call.stage, update.status) {
            (Stage::Done, _) => false,
            (_, ToolStatus::Completed | ToolStatus::Error) => true,
            (Stage::InputStarted, ToolStatus::Running) => {
                update.args.is_some() || call.args.is_some()
            }
            _ => false,
        }
    }

    /// Ends every call still open with `tool-output-error` carrying `reason`, in the
    /// order the calls first appeared, so no tool is ever left running. A call that
    /// never got its input first gets `tool-input-available`, as any skipped state does.
    pub fn close_all(&mut self, reason: &str, out: &mut Vec<UiChunk>) {
        let mut open: Vec<(&String, &mut Call)> = self
            .calls
            .iter_mut()
            .filter(|(_, call)| call.stage != Stage::Done)
            .collect();
        open.sort_by_key(|(_, call)| call.seq);
        for (id, call) in open {
            if call.stage == Stage::InputStarted {
                out.push(input_available(id, call));
            }
            call.stage = Stage::Done;
            out.push(output_error(id.clone(), reason.to_owned()));
        }
    }
}

fn input_available(call_id: &str, call: &Call) -> UiChunk {
    UiChunk::ToolInputAvailable {
        tool_call_id: call_id.to_owned(),
        tool_name: call.name.clone(),
        input: call
            .args
            .clone()
            .unwrap_or_else(|| Value::Object(Map::new())),
        provider_executed: true,
        dynamic: true,
    }
}

fn input_start(call_id: &str, name: &str) -> UiChunk {
    UiChunk::ToolInputStart {
        tool_call_id: call_id.to_owned(),
        tool_name: name.to_owned(),
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

/// The failure a `completed` tool's result reports, per seed 003's three shapes:
/// `{ success: false, error: { message } }`, `{ error: true, message }`, `{ error: "…" }`.
pub fn failure_text(result: &Value) -> Option<String> {
    let obj = result.as_object()?;
    let text_or_default = |v: Option<&Value>| {
        v.and_then(error_text)
            .unwrap_or_else(|| DEFAULT_FAILURE.to_owned())
    };
    if obj.get("success") == Some(&Value::Bool(false)) {
        return Some(text_or_default(obj.get("error")));
    }
    match obj.get("error") {
        Some(Value::Bool(true)) => Some(text_or_default(obj.get("message"))),
        Some(Value::String(s)) => Some(if s.trim().is_empty() {
            DEFAULT_FAILURE.to_owned()
        } else {
            s.clone()
        }),
        _ => None,
    }
}

#[cfg(test)]
#[path = "tools_tests.rs"]
mod tests;
