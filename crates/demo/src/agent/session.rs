//! One session of the demo agent, shared by all its sockets: who is connected, the turn in
//! flight (at most one; it belongs to the session, not to the socket that prompted it), that
//! turn's message as far as it got, and the stored messages.
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
//! The messages are kept as the session's persona keeps them ([`Store`]): by default every message,
//! as a tree (protocol 5): a prompt's turn attaches where the client's list says, its user message
//! and its reply are stored as it starts (the reply is the newest message: `init` lists the
//! current branch through it), and a regenerate, an edit, a fork or a stale device's send sets
//! the rest aside instead of deleting it. A prompt refused (`busy`, or `session_full`: the store
//! is full) stores nothing. A `history` frame reads any page of any branch.
//!
//! The deltas of `/flood` and `/stamp` are the exception: they are broadcast but not applied
//! (a benchmark sends up to a million of them, and the agent's memory must stay flat), so an
//! `init` sent during such a turn lacks their text. The finished message, stored when the turn
//! finalizes, has it when the finalize carries `finalText` (a `/flood` of up to 100,000).

use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

use futures::channel::{mpsc, oneshot};
use serde_json::Value;
use worker::{Bucket, SqlStorage, Storage, WebSocket};

use super::files::describe;
use super::fresh::{new_id, now};
use super::log::Logs;
use super::store::Store;
use super::turn::{self, TurnSession};
use crate::client_frame::{HistoryRequest, Prompt};
use crate::files::FILES_COMMAND;
use crate::frames;
use crate::persona::Persona;
use crate::platform::clock::now_ms;
use crate::platform::log;
use crate::record::Record;
use crate::script::{self, Script};
use crate::session::{Message, Part};
use crate::tree::MAX_SESSION_MESSAGES;
use crate::v2::{OnDisconnect, PONG};

mod events;

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
    /// What its `message.create` carries besides (protocol 5: its user message, its reply's
    /// siblings), until that frame is sent.
    create_fields: Option<String>,
    /// When its message was last stored while it runs (ms since the epoch).
    saved_at: u64,
    /// Hands answers to the turn's task; dropped with the turn, which stops the task.
    answers: mpsc::UnboundedSender<Value>,
}

/// What all connections of one session share.
pub(crate) struct Session {
    pub(crate) logs: Logs,
    /// The object's database, for the store.
    sql: SqlStorage,
    /// Which agent the session plays, by its id (known at the first socket).
    persona: OnceCell<Persona>,
    /// Its stored messages, kept as its persona keeps them.
    store: OnceCell<Store>,
    peers: RefCell<Vec<Peer>>,
    turn: RefCell<Option<Live>>,
    connections: Cell<u32>,
    turns: Cell<u64>,
    /// The session's id (known at the first socket), and the bucket of its files (`/files`).
    id: OnceCell<String>,
    files: Option<Bucket>,
}

impl Session {
    /// `logs_storage` and `storage` are the same object's storage (`Storage` is not `Clone`).
    pub(crate) fn new(logs_storage: Storage, storage: &Storage, files: Option<Bucket>) -> Self {
        Session {
            logs: Logs::new(logs_storage),
            sql: storage.sql(),
            persona: OnceCell::new(),
            store: OnceCell::new(),
            peers: RefCell::new(Vec::new()),
            turn: RefCell::new(None),
            connections: Cell::new(0),
            turns: Cell::new(0),
            id: OnceCell::new(),
            files,
        }
    }

    /// A new connection's id: 1, 2, … in order of arrival.
    pub(crate) fn next_conn(&self) -> u32 {
        let id = self.connections.get() + 1;
        self.connections.set(id);
        id
    }

    /// The persona the session plays (by its first socket's session id; the default before).
    fn persona(&self) -> Persona {
        self.persona.get().copied().unwrap_or(Persona::Full)
    }

    /// The session's stored messages.
    fn store(&self) -> &Store {
        self.store
            .get_or_init(|| Store::new(self.persona(), self.sql.clone()))
    }

    /// Sends `socket` its `init` (the newest page of the current branch, the turn in flight last
    /// as far as it got) and adds it to the broadcast, in one step. `None` when the socket cannot
    /// be sent to; else what resolves when the session lets the socket go.
    ///
    /// The session id's prefix may make it another agent ([`Persona`]): one that sends no `init`,
    /// one whose `init` leaves out the turn in flight, or one of protocol 4.
    pub(crate) fn join(
        &self,
        conn: u32,
        socket: &WebSocket,
        session_id: &str,
    ) -> Option<oneshot::Receiver<()>> {
        let persona = *self.persona.get_or_init(|| Persona::of(session_id));
        self.id.get_or_init(|| session_id.to_owned());
        if persona.sends_init() {
            let turn = self.turn.borrow();
            let live = turn.as_ref().and_then(|live| live.message.as_ref());
            let frame = self.store().init(persona, session_id, live);
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

    /// Answers the adapter's ping on connection `conn` (R-pong), unlogged, as the runtime's
    /// auto-response would.
    pub(crate) fn pong(&self, conn: u32) {
        let peers = self.peers.borrow();
        if let Some(peer) = peers.iter().find(|peer| peer.conn == conn) {
            // A socket that cannot be sent to is closing: its close event takes it out.
            let _ = peer.socket.send_with_str(PONG);
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

    /// Stores a turn's message that has just finished, with the time it did (`completedAt`).
    fn store_finished(&self, mut message: Message) {
        message.completed_at = Some(now());
        self.store().finish(&message);
    }

    /// A `prompt` on connection `conn`: starts its turn, unless one is in flight (then a `busy`
    /// error, on that socket only) or the store is full (then `session_full`, on that socket
    /// only); a refused prompt stores nothing. A turn of its own (not a replay's) stores what it
    /// adds as it starts ([`Store::begin`]); `/seen` and `/grow` then say what the store made.
    pub(crate) fn prompt(self: &Rc<Self>, conn: u32, prompt: Prompt) {
        if prompt.content.starts_with(FILES_COMMAND) && self.turn.borrow().is_none() {
            // Its files are read first: the turn starts once the reply is known.
            let session = self.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let id = session.id.get().cloned().unwrap_or_default();
                let says = describe(session.files.as_ref(), &id, &prompt.attachments).await;
                session.start(conn, prompt, Some(says));
            });
            return;
        }
        self.start(conn, prompt, None);
    }

    /// Starts `prompt`'s turn ([`Session::prompt`]); `says`, the reply when it is known already.
    fn start(self: &Rc<Self>, conn: u32, prompt: Prompt, says: Option<String>) {
        if self.turn.borrow().is_some() {
            self.reply(conn, &frames::busy_frame());
            return;
        }
        let turn_id = new_id("msg_");
        let request_id = prompt.request_id.as_deref();
        let mut script = match &says {
            Some(says) => Script::reply(says, &prompt.content, &turn_id, request_id),
            None => script::for_prompt(&prompt.content, &turn_id, request_id),
        };
        // The session's first exchange titles it (the caller's list shows the title).
        if self.persona().titles() && self.store().is_empty() {
            script.title_session();
        }
        let mut message = None;
        let mut create_fields = None;
        if script.turn_id.is_some() {
            let begun = match self.store().begin(&prompt, &turn_id) {
                Ok(begun) => begun,
                Err(_) => {
                    self.reply(conn, &frames::session_full_frame(MAX_SESSION_MESSAGES));
                    return;
                }
            };
            if let Some(says) = &begun.says {
                script = Script::reply(says, &prompt.content, &turn_id, request_id);
            }
            message = Some(begun.reply);
            create_fields = begun.create_fields;
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
            create_fields,
            saved_at: now_ms(),
            answers,
        });
        wasm_bindgen_futures::spawn_local(turn::run(self.clone(), seq, script, answers_rx));
    }

    /// A `history` frame on connection `conn` (protocol 5): the page it asks for, or `not_found`,
    /// on that socket only; a session that keeps a list ignores it.
    pub(crate) fn history(&self, conn: u32, request: &HistoryRequest) {
        let frame = {
            let turn = self.turn.borrow();
            let live = turn.as_ref().and_then(|live| live.message.as_ref());
            self.store().history(self.persona(), request, live)
        };
        if let Some(frame) = frame {
            self.reply(conn, &frame);
        }
    }

    /// A `forget` on connection `conn` (protocol 7, R-forget): `forgotten` to every other socket
    /// first (R-forget-notify), the turn in flight ended as an `abort` would end it, the object's
    /// whole storage deleted (the object is the session), and then `forgotten` on `conn`; an
    /// `error` there instead when the deleting failed. `frame` is the `forget` itself, logged
    /// again once the log it was in is gone (a test reads that it came). An older agent the demo
    /// plays ignores it.
    pub(crate) fn forget(self: &Rc<Self>, conn: u32, request_id: String, frame: &str) {
        if !self.persona().forgets() {
            return;
        }
        let notice = frames::forgotten_frame(&request_id);
        let others: Vec<(u32, WebSocket)> = self
            .peers
            .borrow()
            .iter()
            .filter(|peer| peer.conn != conn)
            .map(|peer| (peer.conn, peer.socket.clone()))
            .collect();
        for (other, socket) in others {
            // A socket that cannot be sent to is closing: its close event takes it out.
            if socket.send_with_str(&notice).is_ok() {
                self.logs.sent(other, &notice);
            }
        }
        let seq = self.turn.borrow().as_ref().map(|live| live.seq);
        if let Some(seq) = seq {
            self.stop(seq);
            // A turn that had finalized and was sending its last frames ends here too.
            self.end_turn(seq);
        }
        let session = self.clone();
        let frame = frame.to_owned();
        wasm_bindgen_futures::spawn_local(async move {
            let deleted = session.logs.delete_all().await;
            if let Some(store) = session.store.get() {
                store.forget();
            }
            match deleted {
                Ok(()) => {
                    let _ = session.logs.received(conn, &frame).await;
                    session.reply(conn, &notice);
                }
                Err(err) => {
                    log::warn("demo_agent", None, &format!("could not forget: {err}"));
                    session.reply(conn, &frames::forget_failed_frame());
                }
            }
        });
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
