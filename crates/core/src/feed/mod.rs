//! The session feed, `GET /api/sessions/:id/events`: what a client that holds it open learns of
//! its session as it happens, so that every tab and device on the session shows one conversation
//! (docs/sessions.md, "Live in every tab and device"). The rules are here; the edge
//! (`crates/adapter/src/feed/`, and the route in `crates/adapter/src/handlers/feed.rs`) keeps the agent's socket, the keep-alive and the body.
//!
//! A feed is one more socket of the session: the agent sends it every turn event, `question` and
//! `complete` (R-broadcast). An agent of protocol 5 says in a turn's `message.create` what was
//! asked and where the turn attaches (its user message, with its `parent`): the feed tells its
//! client the turn's start from that alone. From an older agent, or when the feed does not hold
//! the message the turn follows, it reads the session again (a new socket, its `init`: the user
//! message and what the turn cut, continued exactly by the events after it, R-init-continuity).
//! The turn's own stream is not in the feed: a client resumes it (`GET …/chat/:chatId/stream`),
//! as after a reload.
//!
//! Every event names the state it brings the client to ([`SessionState::key`]); a feed opened
//! with the name of the state the session is in sends nothing until the next change (no repeat),
//! else it opens with a `sync` of the session as it is (no gap).

pub mod backlog;
pub mod event;
pub mod slots;
pub mod state;

use serde_json::Value;

use crate::history::{is_listed, user_message};
use crate::session::{parse_message, Init, Message, Role};
use crate::v2::{read_frame, Frame, FrameError, FrameRead};
pub use event::FeedEvent;
pub use state::{SessionState, TurnInFlight};

/// The feed's response headers: an event stream, never stored (it tells of a visitor's
/// conversation, which must not outlive a logout in a cache), never buffered by a proxy, its type
/// not sniffed (an iOS loader holds back the first ~512 bytes of a `text/*` body it sniffs:
/// `crate::sse::RESPONSE_HEADERS`). Not the UI message stream's marker: a feed is no chat stream.
pub const RESPONSE_HEADERS: [(&str, &str); 4] = [
    ("content-type", "text/event-stream"),
    ("cache-control", "no-cache, no-store"),
    ("x-accel-buffering", "no"),
    ("x-content-type-options", "nosniff"),
];

/// How many keep-alives in a row a body nobody ever read may wait before its client counts as
/// gone: 2 (10 s, [`GONE_WITHIN_MS`]). A client that left before the response's headers went out
/// leaves this sign only (`crates/adapter/src/pump/client.rs`); once they went out, workerd takes
/// the opening comment from the body at once, whatever the client's link, so a body still unread
/// after two keep-alives has nobody behind it.
pub const UNREAD_KEEP_ALIVES: u32 = 2;

/// How often an idle feed writes a keep-alive comment ([`HEARTBEAT`]): after 5 s without a write. It
/// is the feed's only timer, so an idle feed costs the worker one wake-up and 3 bytes in 5 s,
/// nothing between (bench/README.md, "Idle feeds"). The period is set by the client's going, not
/// by proxies (whose shortest idle limit, 60 s, any period under it keeps): workerd sees a client
/// that reset its connection (RST) at once, but one that closed it (FIN, as a closed tab does)
/// only when it next writes to it (tried in workerd 1.20260730: `request.signal` and the body's
/// writer say nothing before). The keep-alive is that write, so a feed whose client left is found
/// out and its place freed within [`GONE_WITHIN_MS`]: 5 s keeps it to seconds (a reload finds its
/// place) for 12 wake-ups a minute, each a few microseconds of the isolate.
pub const KEEP_ALIVE_MS: u64 = 5_000;

/// The keep-alive comment: the shortest an SSE parser skips (a line that starts with `:`), since
/// an idle feed writes it every [`KEEP_ALIVE_MS`]. The body's first bytes are the longer
/// `: keep-alive` of every stream (`crate::sse::KEEP_ALIVE`).
pub const HEARTBEAT: &[u8] = b":\n\n";

/// How soon a feed whose client went away (FIN or RST) gives its place back, at most: two
/// keep-alives, 10 s. An RST is seen at once; after a FIN the next write goes out and the
/// client's system answers it with an RST (seen within a keep-alive, tried in workerd), or, at
/// worst, the write after that fails. A body never read ([`UNREAD_KEEP_ALIVES`]) is given up
/// within the same two.
pub const GONE_WITHIN_MS: u64 = 2 * KEEP_ALIVE_MS;

/// Why a feed ended: its log line's `outcome`. A client reconnects after any of them with its
/// `Last-Event-ID`, and misses nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedEnd {
    /// The client went away (its body cancelled, a write failed, or the request's signal).
    ClientGone,
    /// The agent's socket closed or failed, or the session could not be read again.
    AgentGone,
    /// The caller's credentials expired (a JWT's `exp`): a new token opens a new feed.
    Expired,
    /// The session was deleted (the agent's `forgotten`, protocol 7): the client was told
    /// (`deleted`), and has nothing to come back to.
    Deleted,
}

impl FeedEnd {
    /// Every way a feed ends (the ones `docs/auth.md` lists, which its test checks).
    pub const ALL: [FeedEnd; 4] = [
        FeedEnd::ClientGone,
        FeedEnd::AgentGone,
        FeedEnd::Expired,
        FeedEnd::Deleted,
    ];

    /// The log line's `outcome`.
    pub fn outcome(self) -> &'static str {
        match self {
            FeedEnd::ClientGone => "feed_client_gone",
            FeedEnd::AgentGone => "feed_agent_gone",
            FeedEnd::Expired => "feed_expired",
            FeedEnd::Deleted => "feed_deleted",
        }
    }
}

/// What a frame on the feed's socket asks of the edge.
#[derive(Debug, PartialEq)]
pub enum Step {
    /// Nothing to tell (a delta of the turn the client follows, a status, another socket's
    /// `error`).
    Nothing,
    /// These events, for the client.
    Write(Vec<u8>),
    /// A turn the feed has not seen (`turn_id`), or a sign that it missed something: read the
    /// session again on a new socket and hand its `init` to [`Feed::rehydrated`].
    Rehydrate { turn_id: String },
    /// The session was deleted: write these bytes (the `deleted` event), then end the feed
    /// ([`FeedEnd::Deleted`]).
    Deleted(Vec<u8>),
}

/// One feed's view of its session: the state its client was last told.
#[derive(Debug)]
pub struct Feed {
    state: SessionState,
}

impl Feed {
    /// A feed on the session `init` shows, for a client that last saw the state named
    /// `last_event_id`: the feed, and the bytes it opens with (a `sync`, or nothing when the
    /// client is up to date). (An agent that sends no `init` gets no feed: the edge answers 204.)
    pub fn open(init: &Init, last_event_id: Option<&str>) -> (Feed, Vec<u8>) {
        let state = SessionState::of(init);
        let mut out = Vec::new();
        let key = state.key();
        if last_event_id.map(str::trim) != Some(key.as_str()) {
            FeedEvent::Sync(state.clone()).write(&mut out, &key);
        }
        (Feed { state }, out)
    }

    /// The state the client was last told.
    pub fn state(&self) -> &SessionState {
        &self.state
    }

    /// A `sync` of the state the feed holds now: what a client that fell behind
    /// ([`backlog::Backlog`]) is sent once it reads again, in place of every event it missed.
    pub fn sync(&self) -> Vec<u8> {
        written(vec![self.named(FeedEvent::Sync(self.state.clone()))])
    }

    /// One text frame from the agent. An error is a frame the feed cannot read: skipped (the
    /// edge logs it), never the end of the feed.
    pub fn on_frame(&mut self, text: &str) -> Result<Step, FrameError> {
        let frame = match read_frame(text)? {
            // A delta: the fast read, which borrows its turn id.
            FrameRead::Plain(delta) => return Ok(self.turn_event(delta.turn_id)),
            FrameRead::Parsed(frame) => frame,
        };
        Ok(match frame {
            // Protocol 5: the turn's user message and its place, when the feed follows no turn.
            Frame::MessageCreate(create) if self.state.turn.is_none() => match create.message {
                Some(message) if !self.told(&create.turn_id) => {
                    self.created(&create.turn_id, message.get())
                }
                _ => self.turn_event(&create.turn_id),
            },
            Frame::Finalize(finalize) => match &self.state.turn {
                Some(turn) if turn.turn_id == finalize.turn_id => {
                    self.state.turn = None;
                    self.state.push_reply(&finalize.turn_id);
                    self.events(FeedEvent::TurnEnd {
                        turn_id: finalize.turn_id,
                        reason: finalize.reason,
                    })
                }
                _ => self.turn_event(&finalize.turn_id),
            },
            Frame::Question(question) => match &mut self.state.turn {
                Some(turn) if turn.question_id.as_ref() != Some(&question.question_id) => {
                    turn.question_id = Some(question.question_id.clone());
                    let turn_id = turn.turn_id.clone();
                    self.events(FeedEvent::TurnWaiting {
                        turn_id,
                        question_id: question.question_id,
                    })
                }
                _ => Step::Nothing,
            },
            // Protocol 7: the session is gone. The client is told, named by the state of a
            // session with nothing in it (a feed opened on the new, empty session repeats
            // nothing).
            Frame::Forgotten { .. } => {
                self.state = SessionState::default();
                Step::Deleted(written(vec![self.named(FeedEvent::Deleted)]))
            }
            // The agent is idle, and the feed thinks a turn runs: it missed its end.
            Frame::Complete => match &self.state.turn {
                Some(turn) => Step::Rehydrate {
                    turn_id: turn.turn_id.clone(),
                },
                None => Step::Nothing,
            },
            frame => match frame.turn_id() {
                Some(turn_id) => self.turn_event(turn_id),
                None => Step::Nothing,
            },
        })
    }

    /// Whether the client was told that turn `turn_id` ended.
    fn told(&self, turn_id: &str) -> bool {
        self.state.ids.iter().any(|id| id == turn_id)
    }

    /// Turn `turn_id` started, with `message` (its user message, as `message.create` carries it:
    /// protocol 5): the client keeps the messages the turn follows and adds the user message.
    /// A message the feed cannot read, or one that follows a message the feed does not hold (a
    /// branch older than its `init` showed), sends it to the session's `init` instead.
    fn created(&mut self, turn_id: &str, message: &str) -> Step {
        let rehydrate = || Step::Rehydrate {
            turn_id: turn_id.to_owned(),
        };
        let Ok(user) = parse_message(message) else {
            return rehydrate();
        };
        let Some(at) = user
            .parent
            .as_ref()
            .and_then(|p| self.state.after(p.as_deref()))
        else {
            return rehydrate();
        };
        self.state.truncate(at);
        let branch = self.state.ids.clone();
        let listed = user.role == Role::User && is_listed(&user, None);
        if listed {
            self.state.push(&user);
        }
        self.state.turn = Some(TurnInFlight {
            turn_id: turn_id.to_owned(),
            question_id: None,
        });
        self.events(FeedEvent::TurnStart {
            turn_id: turn_id.to_owned(),
            message: listed.then(|| carried(&user, message.len())).flatten(),
            branch,
        })
    }

    /// A turn event of `turn_id` that is not its turn's end.
    fn turn_event(&mut self, turn_id: &str) -> Step {
        match &mut self.state.turn {
            Some(turn) if turn.turn_id == turn_id => match turn.question_id.take() {
                // The first event after a question: it was answered.
                Some(_) => {
                    let turn_id = turn_id.to_owned();
                    self.events(FeedEvent::TurnContinue { turn_id })
                }
                None => Step::Nothing,
            },
            // A late event of a turn that ended (the client was told).
            _ if self.state.ids.iter().any(|id| id == turn_id) => Step::Nothing,
            _ => Step::Rehydrate {
                turn_id: turn_id.to_owned(),
            },
        }
    }

    /// The session read again (`init`, from a new socket) after [`Step::Rehydrate`] for `heard`:
    /// the events that bring the client from what it was told to what `init` shows. The turn the
    /// client followed ended: `turn-end`. A turn started (`heard`, or the one in flight now):
    /// `turn-start` with its user message, then `turn-waiting` or `turn-end` where it is already
    /// there. Anything else that differs: a `sync`.
    pub fn rehydrated(&mut self, init: &Init, heard: &str) -> Vec<u8> {
        let now = SessionState::of(init);
        let mut events = Vec::new();
        let now_turn = now.turn.as_ref().map(|t| t.turn_id.as_str());
        if let Some(old) = self.state.turn.take() {
            match finished(init, &old.turn_id) {
                Some(message) if now_turn != Some(old.turn_id.as_str()) => {
                    self.state.push(message);
                    events.push(self.named(end_of(message)));
                }
                _ => self.state.turn = Some(old),
            }
        }
        let heard_ended = finished(init, heard).is_some() && !self.told(heard);
        let started = now_turn.or(heard_ended.then_some(heard));
        let known = self.state.turn.as_ref().map(|t| t.turn_id.as_str());
        if let Some(turn_id) = started.filter(|id| Some(*id) != known) {
            self.start(init, turn_id, &now, &mut events);
        }
        if self.state != now {
            self.state = now.clone();
            events.push(self.named(FeedEvent::Sync(now)));
        }
        written(events)
    }

    /// The events of turn `turn_id`'s start, as `init` shows it, and what already followed it.
    fn start(
        &mut self,
        init: &Init,
        turn_id: &str,
        now: &SessionState,
        out: &mut Vec<(FeedEvent, String)>,
    ) {
        let Some(at) = init.messages.iter().position(|m| m.id == turn_id) else {
            return;
        };
        let in_flight = now.turn.as_ref().map(|t| t.turn_id.as_str());
        let before = &init.messages[..at];
        let user = before
            .last()
            .filter(|m| m.role == Role::User && is_listed(m, in_flight));
        let branch_end = before.len() - usize::from(user.is_some());
        self.state.truncate(0);
        for message in before[..branch_end]
            .iter()
            .filter(|m| is_listed(m, in_flight))
        {
            self.state.push(message);
        }
        let branch = self.state.ids.clone();
        if let Some(user) = user {
            self.state.push(user);
        }
        self.state.turn = Some(TurnInFlight {
            turn_id: turn_id.to_owned(),
            question_id: None,
        });
        out.push(self.named(FeedEvent::TurnStart {
            turn_id: turn_id.to_owned(),
            message: user.and_then(|user| carried(user, 0)),
            branch,
        }));
        let message = &init.messages[at];
        if message.is_finished() {
            self.state.turn = None;
            self.state.push(message);
            out.push(self.named(end_of(message)));
        } else if let Some(question) = message.pending_question() {
            self.state.turn = Some(state::turn_of(message));
            out.push(self.named(FeedEvent::TurnWaiting {
                turn_id: turn_id.to_owned(),
                question_id: question.question_id.clone(),
            }));
        }
    }

    /// `event`, which already moved [`Feed::state`], named by the state it led to.
    fn named(&self, event: FeedEvent) -> (FeedEvent, String) {
        (event, self.state.key())
    }

    /// One event that already moved [`Feed::state`], written.
    fn events(&self, event: FeedEvent) -> Step {
        Step::Write(written(vec![self.named(event)]))
    }
}

/// The most bytes of a user message's JSON that a `turn-start` carries: 16 KiB. A typed prompt
/// fits whole (a page of text is 3 KB); a message with a file's data (an image, a PDF: megabytes)
/// does not, and goes as `null`: its client reads it from the history page, as it does for a
/// turn whose message the feed does not have. Every feed of a session writes its own copy, and
/// a feed whose client stopped reading keeps it: the cap keeps a turn-start small whatever the
/// turn carries (issue 66: 1.9 MB images grew workerd by 43 MB a turn with 8 stalled feeds).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// The user message `user` as a `turn-start` carries it: the history's form, unless its JSON is
/// over [`MAX_MESSAGE_BYTES`] (`raw_len`: the length of the frame's text of it, which, when
/// already over, spares building a copy of a large message only to drop it).
fn carried(user: &Message, raw_len: usize) -> Option<Value> {
    if raw_len > MAX_MESSAGE_BYTES {
        return None;
    }
    let message = user_message(user)?;
    let len = serde_json::to_string(&message).map_or(usize::MAX, |json| json.len());
    (len <= MAX_MESSAGE_BYTES).then_some(message)
}

/// Named events as SSE.
fn written(events: Vec<(FeedEvent, String)>) -> Vec<u8> {
    let mut out = Vec::new();
    for (event, key) in &events {
        event.write(&mut out, key);
    }
    out
}

/// The finished assistant message `turn_id` of `init`, if it is one.
fn finished<'a>(init: &'a Init, turn_id: &str) -> Option<&'a Message> {
    init.messages
        .iter()
        .find(|m| m.id == turn_id && m.role == Role::Assistant && m.is_finished())
}

/// The `turn-end` of the finished message `message`.
fn end_of(message: &Message) -> FeedEvent {
    FeedEvent::TurnEnd {
        turn_id: message.id.clone(),
        reason: message
            .finish_reason()
            .unwrap_or(crate::v2::FinishReason::EndTurn),
    }
}

#[cfg(test)]
#[path = "feed_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "feed_tree_tests.rs"]
mod tree_tests;
