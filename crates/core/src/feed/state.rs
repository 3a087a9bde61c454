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
#[derive(Debug, Clone, Default)]
pub struct SessionState {
    /// The ids of the messages `GET …/messages` lists, oldest first: the finished messages and
    /// the user message of the turn in flight (the history leaves out only the turn itself).
    pub ids: Vec<String>,
    /// The `ref` of each message of `ids` (protocol 5; `None` from an older agent): where a turn
    /// that follows one of them attaches. Not part of what the client is told, nor of the name.
    pub refs: Vec<Option<String>>,
    /// The turn in flight, if any.
    pub turn: Option<TurnInFlight>,
}

/// Two states are the same for a client when it holds the same messages and follows the same
/// turn: the refs are the feed's own bookkeeping.
impl PartialEq for SessionState {
    fn eq(&self, other: &Self) -> bool {
        self.ids == other.ids && self.turn == other.turn
    }
}

impl Eq for SessionState {}

impl SessionState {
    /// The session as `init` shows it.
    pub fn of(init: &Init) -> Self {
        let in_flight = init.in_flight();
        let mut state = SessionState {
            turn: in_flight.map(turn_of),
            ..SessionState::default()
        };
        let in_flight = in_flight.map(|t| t.id.as_str());
        for message in init.messages.iter().filter(|m| is_listed(m, in_flight)) {
            state.push(message);
        }
        state
    }

    /// Adds `message` at the end of the conversation.
    pub fn push(&mut self, message: &Message) {
        self.ids.push(message.id.clone());
        self.refs.push(message.key.clone());
    }

    /// Adds the finished reply `turn_id`, whose ref is its id (protocol 5).
    pub fn push_reply(&mut self, turn_id: &str) {
        self.ids.push(turn_id.to_owned());
        self.refs.push(Some(turn_id.to_owned()));
    }

    /// Keeps the first `len` messages.
    pub fn truncate(&mut self, len: usize) {
        self.ids.truncate(len);
        self.refs.truncate(len);
    }

    /// How many messages of the conversation a message that follows `parent` comes after (`None`
    /// for the root: 0): `None` when the feed does not hold `parent`.
    pub fn after(&self, parent: Option<&str>) -> Option<usize> {
        let Some(parent) = parent else {
            return Some(0);
        };
        self.refs
            .iter()
            .rposition(|key| key.as_deref() == Some(parent))
            .map(|at| at + 1)
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
