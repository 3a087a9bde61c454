//! What a feed's client knows of its session, as one value: the conversation's message ids and
//! the turn in flight (waiting on a question or not), and its short name, the SSE `id:` of the
//! event that brought the client to it, with which a dropped feed comes back (`Last-Event-ID`).

use crate::history::is_listed;
use crate::session::{Init, Message};

/// The turn in flight, as a feed's client follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnInFlight {
    /// The turn's id (the assistant message's).
    pub turn_id: String,
    /// The question it waits on, if it asked one that has no answer yet.
    pub question_id: Option<String>,
}

/// A session as its feed tells it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionState {
    /// The ids of the messages `GET …/messages` lists, oldest first: the finished messages and
    /// the user message of the turn in flight (the history leaves out only the turn itself).
    pub ids: Vec<String>,
    /// The turn in flight, if any.
    pub turn: Option<TurnInFlight>,
}

impl SessionState {
    /// The session as `init` shows it.
    pub fn of(init: &Init) -> Self {
        let in_flight = init.in_flight();
        SessionState {
            ids: init
                .messages
                .iter()
                .filter(|m| is_listed(m, in_flight.map(|t| t.id.as_str())))
                .map(|m| m.id.clone())
                .collect(),
            turn: in_flight.map(turn_of),
        }
    }

    /// The state's name: 16 hex digits of a 64-bit FNV-1a hash of the ids and the turn, each
    /// ended by a byte no JSON string of an id holds unescaped (`0x00`; `0x01` before the turn).
    /// Two states a client could tell apart have different names (a collision is a 1 in 2^64
    /// chance per pair); the same state, read from any `init`, has the same name.
    pub fn key(&self) -> String {
        let mut hash = Fnv::new();
        for id in &self.ids {
            hash.write(id.as_bytes());
            hash.write(&[0]);
        }
        if let Some(turn) = &self.turn {
            hash.write(&[1]);
            hash.write(turn.turn_id.as_bytes());
            hash.write(&[0]);
            if let Some(question) = &turn.question_id {
                hash.write(question.as_bytes());
            }
        }
        format!("{:016x}", hash.0)
    }
}

/// The turn in flight that `message` (an assistant message with no `finish`) is.
pub(crate) fn turn_of(message: &Message) -> TurnInFlight {
    TurnInFlight {
        turn_id: message.id.clone(),
        question_id: message.pending_question().map(|q| q.question_id.clone()),
    }
}

/// FNV-1a, 64 bits (the offset basis and prime of the FNV specification, draft-eastlake-fnv):
/// a few lines, no table, and no dependency for a name that needs no secrecy.
struct Fnv(u64);

impl Fnv {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Self {
        Fnv(Self::OFFSET_BASIS)
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
