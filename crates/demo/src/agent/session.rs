//! One session of the demo agent, shared by all its sockets: who is connected, the turn in
//! flight (at most one; it belongs to the session, not to the socket that prompted it), that
//! turn's message as far as it got, and the stored history.
//!
//! Every turn event is broadcast to every socket ([`Session::broadcast`]) and applied to the
//! turn's message in the same step; a new socket gets its `init`, built from the history and
//! that message, in the step that adds it to the broadcast ([`Session::join`]). So the events
//! after a socket's `init` continue exactly where its snapshot stops.
//!
//! A turn is owned by the socket of its prompt when that prompt's `onDisconnect` is `abort`:
//! that socket closing before the turn ends stops the turn as an `abort` would. A question
//! hands the turn back to the session (the adapter closes its socket once the question is out,
//! and the turn must wait for the answer); an answer whose `onDisconnect` is `abort` makes the
//! answering socket the owner.
//!
//! A prompt may take messages back (protocol 4: a regenerate, an edit, a fork): the stored rows
//! after the point its turn attaches are deleted before the turn starts ([`Session::take_back`]),
//! and never while a turn is in flight (that prompt gets `busy`).
//!
//! The deltas of `/flood` and `/stamp` are the exception: they are broadcast but not applied
//! (a benchmark sends up to a million of them, and the agent's memory must stay flat), so an
//! `init` sent during such a turn lacks their text. The finished message, stored when the turn
//! finalizes, has it when the finalize carries `finalText` (a `/flood` of up to 100,000).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use futures::channel::{mpsc, oneshot};
use serde_json::Value;
use worker::{Storage, WebSocket};

use super::history_store::History;
use super::log::Logs;
use super::turn::{self, TurnSession};
use crate::client_frame::Prompt;
use crate::frames;
use crate::platform::clock::now_ms;
use crate::platform::log;
use crate::record::Record;
use crate::rows::{init_frame, user_message, MAX_INIT_MESSAGES};
use crate::script::{self, Script};
use crate::session::{Message, Part};
use crate::v2::{parse_frame, OnDisconnect};
use crate::{branch, seen};

/// Session id prefix for which the agent sends no `init` (an agent that does not hydrate).
pub(crate) const NO_INIT_PREFIX: &str = "noinit-";
/// Session id prefix for which the agent's `init` leaves out the turn in flight.
pub(crate) const NO_IN_FLIGHT_PREFIX: &str = "noinflight-";

/// A socket in the broadcast.
struct Peer {
    conn: u32,
    socket: WebSocket,
    /// Dropped when the session lets the socket go: its connection task stops reading then.
    _stop: oneshot::Sender<()>,
}

/// The turn in flight.
struct Live {
    /// Which turn of this object it is, so that a turn's task never acts on a later turn.
    seq: u64,
    /// Its id; `None` for a replay, which has no turn of its own.
    turn_id: Option<String>,
    /// The `requestId` of its prompt.
    request_id: Option<String>,
    /// The connection of its prompt: the sent log files the turn's frames under it.
    conn: u32,
    /// The connection whose closing stops the turn (its prompt's or answer's `onDisconnect`
    /// was `abort`); `None` while nobody owns it (detached, or waiting for an answer).
    owner: Option<u32>,
    /// Its assistant message so far; `None` for a replay, and once the message finished (it is
    /// in the history then, while the turn sends its last frames).
    message: Option<Message>,
    /// Hands answers to the turn's task; dropped with the turn, which stops the task.
    answers: mpsc::UnboundedSender<Value>,
}

/// What all connections of one session share.
pub(crate) struct Session {
    pub(crate) logs: Logs,
    history: History,
    peers: RefCell<Vec<Peer>>,
    turn: RefCell<Option<Live>>,
    connections: Cell<u32>,
    turns: Cell<u64>,
}

/// A random id `{prefix}{16 hex digits}`. The AI SDK client uses a turn id as the assistant
/// message's id, so ids must not repeat when the object restarts.
fn new_id(prefix: &str) -> String {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        bytes = now_ms().to_le_bytes();
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}{hex}")
}

/// Now, as a message's `createdAt` (an ISO 8601 string, as JavaScript's `Date` writes it).
fn now() -> Value {
    Value::String(js_sys::Date::new_0().to_iso_string().into())
}

impl Session {
    /// `logs_storage` and `storage` are the same object's storage (`Storage` is not `Clone`).
    pub(crate) fn new(logs_storage: Storage, storage: &Storage) -> Self {
        Session {
            logs: Logs::new(logs_storage),
            history: History::new(storage),
            peers: RefCell::new(Vec::new()),
            turn: RefCell::new(None),
            connections: Cell::new(0),
            turns: Cell::new(0),
        }
    }

    /// A new connection's id: 1, 2, … in order of arrival.
    pub(crate) fn next_conn(&self) -> u32 {
        let id = self.connections.get() + 1;
        self.connections.set(id);
        id
    }

    /// Sends `socket` its `init` (the newest history, then the turn in flight as far as it got)
    /// and adds it to the broadcast, in one step. `None` when the socket cannot be sent to;
    /// else what resolves when the session lets the socket go.
    ///
    /// Two session id prefixes make it an agent that sends less, for the tests of how the
    /// adapter degrades: [`NO_INIT_PREFIX`] sends no `init`, [`NO_IN_FLIGHT_PREFIX`] leaves the
    /// turn in flight out of it.
    pub(crate) fn join(
        &self,
        conn: u32,
        socket: &WebSocket,
        session_id: &str,
    ) -> Option<oneshot::Receiver<()>> {
        if !session_id.starts_with(NO_INIT_PREFIX) {
            let turn = self.turn.borrow();
            let in_flight = turn
                .as_ref()
                .and_then(|live| live.message.as_ref())
                .filter(|_| !session_id.starts_with(NO_IN_FLIGHT_PREFIX));
            let rows = self.recent_rows(MAX_INIT_MESSAGES - usize::from(in_flight.is_some()));
            let lists_in_flight = !session_id.starts_with(NO_IN_FLIGHT_PREFIX);
            let frame = init_frame(session_id, &rows, in_flight, lists_in_flight);
            drop(turn);
            socket.send_with_str(&frame).ok()?;
            self.logs.sent(conn, &frame);
        }
        let (stop, stopped) = oneshot::channel();
        self.peers.borrow_mut().push(Peer {
            conn,
            socket: socket.clone(),
            _stop: stop,
        });
        Some(stopped)
    }

    /// Takes connection `conn` out of the broadcast (its socket closed, or the session let it
    /// go). When `conn` owns the turn in flight, the turn stops as an `abort` would stop it.
    pub(crate) fn leave(&self, conn: u32) {
        self.peers.borrow_mut().retain(|peer| peer.conn != conn);
        let owned = self
            .turn
            .borrow()
            .as_ref()
            .filter(|live| live.owner == Some(conn))
            .map(|live| live.seq);
        if let Some(seq) = owned {
            self.stop(seq);
        }
    }

    /// Sends `frame` to connection `conn` only, and logs it there.
    fn reply(&self, conn: u32, frame: &str) {
        let mut peers = self.peers.borrow_mut();
        let Some(i) = peers.iter().position(|peer| peer.conn == conn) else {
            return;
        };
        if peers[i].socket.send_with_str(frame).is_ok() {
            drop(peers);
            self.logs.sent(conn, frame);
        } else {
            peers.remove(i);
        }
    }

    /// Takes back the stored messages that the prompt's turn does not follow: the message the
    /// prompt replaces and all after it, or all after the newest message of its branch
    /// ([`branch::kept`]). A storage that cannot be read takes nothing back (the turn is
    /// appended).
    fn take_back(&self, prompt: &Prompt) {
        let ids = match self.history.ids() {
            Ok(ids) => ids,
            Err(err) => {
                log::warn(
                    "demo_agent",
                    None,
                    &format!("could not read the history's ids: {err}"),
                );
                return;
            }
        };
        let stored: Vec<&str> = ids.iter().map(|(_, id)| id.as_str()).collect();
        let keep = branch::kept(
            &stored,
            prompt.message_id.as_deref(),
            prompt.branch.as_deref(),
        );
        if let Some((seq, _)) = ids.get(keep) {
            if let Err(err) = self.history.take_back(*seq) {
                log::warn(
                    "demo_agent",
                    None,
                    &format!("could not take messages back: {err}"),
                );
            }
        }
    }

    /// The newest stored rows, at most `max`, oldest first (none when storage fails).
    fn recent_rows(&self, max: usize) -> Vec<String> {
        self.history.recent(max).unwrap_or_else(|err| {
            log::warn(
                "demo_agent",
                None,
                &format!("could not read the history: {err}"),
            );
            Vec::new()
        })
    }

    fn store(&self, message: &Message) {
        if let Err(err) = self.history.append(message) {
            // The id is the client's (protocol 4): the line escapes and cuts it.
            let why = format!("could not store message {}: {err}", message.id);
            log::warn("demo_agent", None, &why);
        }
    }

    /// Stores a turn's message that has just finished, with the time it did (`completedAt`).
    fn store_finished(&self, mut message: Message) {
        message.completed_at = Some(now());
        self.store(&message);
    }

    /// A `prompt` on connection `conn`: starts its turn, unless one is in flight (then a `busy`
    /// error, on that socket only, and nothing taken back). The messages the turn does not follow
    /// are taken back ([`Session::take_back`]) and the user message is stored at once, under the
    /// client's id when the prompt gives one (not a replay's, which has no turn).
    pub(crate) fn prompt(self: &Rc<Self>, conn: u32, prompt: Prompt) {
        if self.turn.borrow().is_some() {
            self.reply(conn, &frames::busy_frame());
            return;
        }
        let turn_id = new_id("msg_");
        let request_id = prompt.request_id.as_deref();
        let mut script = script::for_prompt(&prompt.content, &turn_id, request_id);
        let message = script.turn_id.as_deref().map(|id| {
            let mut message = Message::assistant(id);
            message.created_at = Some(now());
            message
        });
        if message.is_some() {
            self.take_back(&prompt);
            let id = prompt.message_id.clone().unwrap_or_else(|| new_id("user_"));
            self.store(&user_message(
                id,
                &prompt.content,
                &prompt.attachments,
                Some(now()),
            ));
            if seen::is_seen(&prompt.content) {
                let seen = seen::model_input(&self.recent_rows(MAX_INIT_MESSAGES));
                script = Script::reply(&seen, &prompt.content, &turn_id, request_id);
            }
        }
        let seq = self.turns.get() + 1;
        self.turns.set(seq);
        let (answers, answers_rx) = mpsc::unbounded();
        *self.turn.borrow_mut() = Some(Live {
            seq,
            turn_id: script.turn_id.clone(),
            request_id: prompt.request_id,
            conn,
            owner: (prompt.on_disconnect == Some(OnDisconnect::Abort)).then_some(conn),
            message,
            answers,
        });
        wasm_bindgen_futures::spawn_local(turn::run(self.clone(), seq, script, answers_rx));
    }

    /// An `abort`: without `request_id`, of whatever turn is in flight; with one, only of the
    /// turn its prompt started. The turn ends with the cancel frames (a replay, with none). A
    /// turn that already finalized is left to send its last frames.
    pub(crate) fn abort(&self, request_id: Option<&str>) {
        let seq = {
            let turn = self.turn.borrow();
            let Some(live) = turn.as_ref() else {
                return;
            };
            if request_id.is_some() && request_id != live.request_id.as_deref() {
                return;
            }
            live.seq
        };
        self.stop(seq);
    }

    /// Stops turn `seq` with its cancel frames (a replay, with none), unless it already
    /// finalized or is no longer in flight.
    fn stop(&self, seq: u64) {
        let (turn_id, open) = {
            let turn = self.turn.borrow();
            let Some(live) = turn.as_ref().filter(|live| live.seq == seq) else {
                return;
            };
            if live.turn_id.is_some() && live.message.is_none() {
                return;
            }
            let open = live.message.as_ref().map(open_calls).unwrap_or_default();
            (live.turn_id.clone(), open)
        };
        if let Some(turn_id) = turn_id {
            for frame in frames::cancel_frames(&turn_id, &open) {
                self.broadcast(seq, &frame, true);
            }
        }
        self.end_turn(seq);
    }

    /// An `answer` on connection `conn`: recorded on the turn's message and handed to its task
    /// when `question_id` is pending there (the answering socket owns the turn from then on
    /// when `on_disconnect` is `abort`); else a `question_not_pending` error, on that socket
    /// only.
    pub(crate) fn answer(
        &self,
        conn: u32,
        question_id: &str,
        answer: Value,
        on_disconnect: Option<OnDisconnect>,
    ) {
        let resumed = match self.turn.borrow_mut().as_mut() {
            Some(Live {
                message: Some(message),
                answers,
                owner,
                ..
            }) => {
                let resumed = message.answer(question_id, answer.clone())
                    && answers.unbounded_send(answer).is_ok();
                if resumed && on_disconnect == Some(OnDisconnect::Abort) {
                    *owner = Some(conn);
                }
                resumed
            }
            _ => false,
        };
        if !resumed {
            self.reply(conn, &frames::not_pending_frame());
        }
    }
}

impl TurnSession for Session {
    /// Turn `seq` waits for an answer: nobody owns it until one comes.
    fn awaiting_answer(&self, seq: u64) {
        if let Some(live) = self.turn.borrow_mut().as_mut().filter(|l| l.seq == seq) {
            live.owner = None;
        }
    }

    /// Sends turn `seq`'s `frame` to every socket; a socket that fails is let go. When
    /// `logged`, the frame is first applied to the turn's message (a message it finishes is
    /// stored) and logged once, under the prompt's connection. False, and nothing sent, when
    /// `seq` is no longer the turn in flight.
    fn broadcast(&self, seq: u64, frame: &str, logged: bool) -> bool {
        let (conn, finished) = {
            let mut turn = self.turn.borrow_mut();
            let Some(live) = turn.as_mut().filter(|live| live.seq == seq) else {
                return false;
            };
            let mut finished = None;
            if let (true, Some(message)) = (logged, live.message.as_mut()) {
                if parse_frame(frame).is_ok_and(|parsed| message.apply(&parsed)) {
                    finished = live.message.take();
                }
            }
            (live.conn, finished)
        };
        if let Some(message) = finished {
            self.store_finished(message);
        }
        if logged {
            self.logs.sent(conn, frame);
        }
        self.peers
            .borrow_mut()
            .retain(|peer| peer.socket.send_with_str(frame).is_ok());
        true
    }

    /// Closes the socket of turn `seq`'s prompt (a replay's end), if it is still connected.
    fn close_prompter(&self, seq: u64, code: u16, reason: &str) {
        let turn = self.turn.borrow();
        let Some(conn) = turn.as_ref().filter(|l| l.seq == seq).map(|l| l.conn) else {
            return;
        };
        drop(turn);
        self.peers.borrow_mut().retain(|peer| {
            if peer.conn != conn {
                return true;
            }
            // A socket that is already closing is let go all the same.
            let _ = peer.socket.close(Some(code), Some(reason));
            false
        });
    }

    /// Closes every socket of the session (`/drop`), if turn `seq` is still in flight.
    fn close_all(&self, seq: u64, code: u16, reason: &str) {
        if self.turn.borrow().as_ref().is_none_or(|l| l.seq != seq) {
            return;
        }
        let peers = std::mem::take(&mut *self.peers.borrow_mut());
        for peer in peers {
            let _ = peer.socket.close(Some(code), Some(reason));
        }
    }

    /// Ends turn `seq`, if it is still in flight: a message it left unfinished (only `/drop`
    /// does) is finished as failed and stored. Its task stops.
    fn end_turn(&self, seq: u64) {
        let live = {
            let mut turn = self.turn.borrow_mut();
            match turn.as_ref() {
                Some(live) if live.seq == seq => turn.take(),
                _ => None,
            }
        };
        let Some(mut message) = live.and_then(|live| live.message) else {
            return;
        };
        let end = frames::finalize(&message.id, "error", None, Some(frames::DROPPED_TEXT));
        if let Ok(frame) = parse_frame(&end.to_string()) {
            message.apply(&frame);
        }
        self.store_finished(message);
    }
}

/// The calls of `message` still `pending` or `running`: call id and tool name.
fn open_calls(message: &Message) -> Vec<(String, String)> {
    let open = |part: &Part| match part {
        Part::ToolCall(call) if call.status.is_open() => {
            Some((call.call_id.clone(), call.tool_name.clone()))
        }
        _ => None,
    };
    message.parts.iter().filter_map(open).collect()
}
