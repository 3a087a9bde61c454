//! How an assistant message grows from the turn events its agent sends: the snapshot a
//! SessionAgent keeps so that `init` can hand a client the turn in flight.
//!
//! The rules mirror what the translator streams, so a replay of the snapshot followed by the
//! live events rebuilds the message the first client saw:
//! * a text (reasoning) delta appends to the last part when that is a text (reasoning) part,
//!   else starts a new one;
//! * a tool update changes its call's part in place (first update: a new part at the end), and
//!   never moves a call back from `completed` or `error`;
//! * a question is a new part; its answer is set on it;
//! * a data part (protocol 6) is a new part, or replaces the data of the part of its name and id;
//!   a transient one is not kept; a source is a new part, and so is each `message.metadata`;
//! * the finalize closes the message: `finalText` when no text streamed, an `error` part for a
//!   failure, then the `finish` part.

use crate::frames::finalize;
use crate::session::{Message, Part, Role, ToolCallPart};
use crate::v2::ToolUpdate;
use crate::v2::{parse_frame, read_raw_model, read_raw_usage, DataFields, Frame, Question};

/// A session's [`Message`] as its agent keeps it, growing from turn events.
pub trait Record {
    /// An empty assistant message for turn `turn_id`.
    fn assistant(turn_id: &str) -> Self;
    /// Applies one turn event. Events of another turn, and frames that are not turn events,
    /// change nothing. Returns whether the message finished.
    fn apply(&mut self, frame: &Frame) -> bool;
    /// Records `answer` on the pending question `question_id`. False when no such question
    /// waits (unknown, or already answered).
    fn answer(&mut self, question_id: &str, answer: serde_json::Value) -> bool;
}

impl Record for Message {
    fn assistant(turn_id: &str) -> Self {
        Message {
            key: None,
            parent: None,
            siblings: Vec::new(),
            id: turn_id.to_owned(),
            role: Role::Assistant,
            parts: Vec::new(),
            created_at: None,
            completed_at: None,
        }
    }

    fn apply(&mut self, frame: &Frame) -> bool {
        let ours = |turn: &str| turn == self.id;
        match frame {
            Frame::TextDelta(d) if ours(&d.turn_id) => append(self, false, &d.delta),
            Frame::ReasoningDelta(d) if ours(&d.turn_id) => append(self, true, &d.delta),
            Frame::Chunk(c) => append(self, false, &c.content),
            Frame::ToolUpdate(u) if ours(&u.turn_id) => tool(self, u),
            Frame::Question(q) => self.parts.push(Part::Question(q.clone())),
            Frame::Data(d) if ours(&d.turn_id) => data(self, &d.part),
            Frame::Source(s) if ours(&s.turn_id) => self.parts.push(Part::Source(s.part.clone())),
            Frame::Metadata(m) if ours(&m.turn_id) => self.parts.push(Part::Metadata {
                metadata: m.part.clone(),
            }),
            Frame::Finalize(fin) if ours(&fin.turn_id) => {
                for part in &mut self.parts {
                    if let Part::Text { streaming, .. } = part {
                        *streaming = None;
                    }
                }
                let has_text = self.parts.iter().any(|p| matches!(p, Part::Text { .. }));
                if let (Some(text), false) = (&fin.final_text, has_text) {
                    self.parts.push(Part::Text {
                        text: text.clone(),
                        streaming: None,
                    });
                }
                if let Some(message) = fin.error_text() {
                    self.parts.push(Part::Error {
                        message: Some(message.into()),
                    });
                }
                self.parts.push(Part::Finish {
                    reason: fin.reason,
                    usage: read_raw_usage(fin.usage.as_deref()),
                    model: read_raw_model(fin.model.as_deref()),
                });
                return true;
            }
            _ => {}
        }
        false
    }

    fn answer(&mut self, question_id: &str, answer: serde_json::Value) -> bool {
        for part in &mut self.parts {
            if let Part::Question(Question {
                question_id: id,
                answer: slot @ None,
                ..
            }) = part
            {
                if id == question_id {
                    *slot = Some(answer);
                    return true;
                }
            }
        }
        false
    }
}

/// Ends `message` as a `message.finalize` with reason `error` and `text` would: its text parts
/// closed, an `error` part, the `finish` part. For a turn nobody can run on: one that `/drop`
/// broke, one that a restart of the object cut off.
pub fn end_failed(message: &mut Message, text: &str) {
    let end = finalize(&message.id, "error", None, Some(text));
    if let Ok(frame) = parse_frame(&end.to_string()) {
        message.apply(&frame);
    }
}

/// A text (reasoning) delta: onto the last part when that is a text (reasoning) part, else a new one.
fn append(message: &mut Message, reasoning: bool, delta: &str) {
    if delta.is_empty() {
        return;
    }
    let parts = &mut message.parts;
    match parts.last_mut() {
        Some(Part::Text { text, .. }) if !reasoning => text.push_str(delta),
        Some(Part::Reasoning { text }) if reasoning => text.push_str(delta),
        _ if reasoning => parts.push(Part::Reasoning {
            text: delta.to_owned(),
        }),
        _ => parts.push(Part::Text {
            text: delta.to_owned(),
            streaming: Some(true),
        }),
    }
}

/// A data part (protocol 6): a transient one is not kept; one with the name and id of a kept one
/// replaces its data in place; any other is a new part at the end.
fn data(message: &mut Message, part: &DataFields) {
    if part.transient {
        return;
    }
    let earlier = part.id.as_ref().and_then(|id| {
        message.parts.iter_mut().find_map(|p| match p {
            Part::Data(kept) if kept.name == part.name && kept.id.as_ref() == Some(id) => {
                Some(kept)
            }
            _ => None,
        })
    });
    match earlier {
        Some(kept) => kept.data = part.data.clone(),
        None => message.parts.push(Part::Data(part.clone())),
    }
}

/// A tool update: its call's part changed in place (a new part at its first update), never
/// moved back from `completed` or `error`.
fn tool(message: &mut Message, update: &ToolUpdate) {
    let parts = &mut message.parts;
    let existing = parts.iter_mut().find_map(|p| match p {
        Part::ToolCall(call) if call.call_id == update.call_id => Some(call),
        _ => None,
    });
    let Some(call) = existing else {
        parts.push(Part::ToolCall(ToolCallPart {
            call_id: update.call_id.clone(),
            tool_name: update.tool_name.clone(),
            status: update.status,
            args: update.args.clone(),
            result: update.result.clone(),
            error: update.error.clone(),
        }));
        return;
    };
    if !call.status.is_open() {
        return;
    }
    call.status = update.status;
    if update.args.is_some() {
        call.args = update.args.clone();
    }
    if update.result.is_some() {
        call.result = update.result.clone();
    }
    if update.error.is_some() {
        call.error = update.error.clone();
    }
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
