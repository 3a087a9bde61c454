//! The session feed's events on the wire: one SSE event each, its `id:` the name of the state it
//! brings its client to ([`SessionState::key`]: a dropped feed sends it back as `Last-Event-ID`),
//! its `data:` one JSON object with a `type`:
//!
//! | type | wire example | the client |
//! | --- | --- | --- |
//! | `sync` | `{"type":"sync","messageIds":["u1","msg_a1"],"turn":null}` | holds these messages (else it loads the history); resumes the turn, if one runs (`"turn":{"turnId":"msg_a2","questionId":"q1"}`) |
//! | `turn-start` | `{"type":"turn-start","turnId":"msg_a2","message":{"id":"u2","role":"user","parts":[{"type":"text","text":"Hi"}]},"branch":["u1","msg_a1"]}` | keeps the messages of `branch`, adds `message`, and resumes the turn's stream; `message` is `null` when its JSON is over 16 KiB (a file's data: `super::MAX_MESSAGE_BYTES`) or the agent's `init` has none: the client reads the history page |
//! | `turn-waiting` | `{"type":"turn-waiting","turnId":"msg_a2","questionId":"q1"}` | the turn asks the user (its stream showed the question, and ended) |
//! | `turn-continue` | `{"type":"turn-continue","turnId":"msg_a2"}` | the question was answered (here or elsewhere): the turn goes on; resume it |
//! | `turn-end` | `{"type":"turn-end","turnId":"msg_a2","reason":"end_turn"}` | the turn ended (`end_turn`, `error` or `canceled`) |
//! | `deleted` | `{"type":"deleted"}` | the session was deleted (protocol 7): it shows that, holds no message, and does not reconnect |

use serde::Serialize;
use serde_json::Value;

use super::state::SessionState;
use crate::v2::FinishReason;

/// A feed event, before its `id:`.
#[derive(Debug, Clone, PartialEq)]
pub enum FeedEvent {
    /// The session as it is now.
    Sync(SessionState),
    /// A turn started: its user message (`None` when the agent's `init` has none before it, or
    /// its JSON is over [`super::MAX_MESSAGE_BYTES`]) and the ids of the messages the turn follows.
    TurnStart {
        turn_id: String,
        message: Option<Value>,
        branch: Vec<String>,
    },
    /// The turn waits on the question `question_id`.
    TurnWaiting {
        turn_id: String,
        question_id: String,
    },
    /// The question was answered; the turn goes on.
    TurnContinue { turn_id: String },
    /// The turn ended.
    TurnEnd {
        turn_id: String,
        reason: FinishReason,
    },
    /// The session was deleted; the feed ends.
    Deleted,
}

impl FeedEvent {
    /// The event's JSON text: its `type` first, then its fields in the order of the table above.
    pub fn to_json(&self) -> String {
        let wire = match self {
            FeedEvent::Sync(state) => Wire::Sync {
                message_ids: &state.ids,
                turn: state.turn.as_ref().map(|turn| TurnView {
                    turn_id: &turn.turn_id,
                    question_id: turn.question_id.as_deref(),
                }),
            },
            FeedEvent::TurnStart {
                turn_id,
                message,
                branch,
            } => Wire::TurnStart {
                turn_id,
                message: message.as_ref(),
                branch,
            },
            FeedEvent::TurnWaiting {
                turn_id,
                question_id,
            } => Wire::TurnWaiting {
                turn_id,
                question_id,
            },
            FeedEvent::TurnContinue { turn_id } => Wire::TurnContinue { turn_id },
            FeedEvent::TurnEnd { turn_id, reason } => Wire::TurnEnd {
                turn_id,
                reason: reason_name(*reason),
            },
            FeedEvent::Deleted => Wire::Deleted,
        };
        // Strings, arrays and a `Value` only: serializing them does not fail.
        serde_json::to_string(&wire).unwrap_or_default()
    }

    /// Appends the event as SSE: `id: <key>`, then `data: <json>`. JSON escapes every control
    /// character and a key is hex, so neither line can end the event early.
    pub fn write(&self, out: &mut Vec<u8>, key: &str) {
        out.extend_from_slice(b"id: ");
        out.extend_from_slice(key.as_bytes());
        out.extend_from_slice(b"\ndata: ");
        out.extend_from_slice(self.to_json().as_bytes());
        out.extend_from_slice(b"\n\n");
    }
}

/// An event as it is written (borrowed from the [`FeedEvent`]).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Wire<'a> {
    #[serde(rename_all = "camelCase")]
    Sync {
        message_ids: &'a [String],
        turn: Option<TurnView<'a>>,
    },
    #[serde(rename_all = "camelCase")]
    TurnStart {
        turn_id: &'a str,
        message: Option<&'a Value>,
        branch: &'a [String],
    },
    #[serde(rename_all = "camelCase")]
    TurnWaiting {
        turn_id: &'a str,
        question_id: &'a str,
    },
    #[serde(rename_all = "camelCase")]
    TurnContinue {
        turn_id: &'a str,
    },
    #[serde(rename_all = "camelCase")]
    TurnEnd {
        turn_id: &'a str,
        reason: &'static str,
    },
    Deleted,
}

/// The turn in flight in a `sync`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TurnView<'a> {
    turn_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    question_id: Option<&'a str>,
}

/// A reason as the protocol names it; one the agent left unknown reads as `end_turn`, as the
/// stream reads it.
fn reason_name(reason: FinishReason) -> &'static str {
    match reason {
        FinishReason::Error => "error",
        FinishReason::Canceled => "canceled",
        FinishReason::EndTurn | FinishReason::Unknown => "end_turn",
    }
}
