//! The task that runs one turn's script for the session: each step when it is due, its frames
//! broadcast to every socket of the session; at a question, a wait (no timer) for the answer.
//!
//! The task belongs to the session, not to a socket: it runs on when the socket that prompted
//! it closes, and stops at the script's end, or when the session ends the turn (an `abort`),
//! which drops the sender of its answers.

use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use std::time::Duration;

use futures::channel::mpsc::UnboundedReceiver;
use futures::future::poll_fn;
use futures::{Future, StreamExt};
use serde_json::Value;
use worker::Delay;

use crate::frames::stamp_frame;
use crate::script::{Script, SEND_BATCH};
use crate::step::Action;

/// What a turn's task needs of its session ([`super::session::Session`]): each call is about
/// turn `seq`, and does nothing (`broadcast`: returns false) once that turn is no longer in
/// flight.
pub(crate) trait TurnSession {
    /// Sends `frame` to every socket; when `logged`, applies it to the turn's message and logs it.
    fn broadcast(&self, seq: u64, frame: &str, logged: bool) -> bool;
    /// Closes the socket of the turn's prompt.
    fn close_prompter(&self, seq: u64, code: u16, reason: &str);
    /// Closes every socket of the session.
    fn close_all(&self, seq: u64, code: u16, reason: &str);
    /// The turn waits for an answer.
    fn awaiting_answer(&self, seq: u64);
    /// Ends the turn.
    fn end_turn(&self, seq: u64);
}

enum Wake {
    /// An answer, or `None`: the session ended the turn.
    Answer(Option<Value>),
    /// The next step is due.
    Step,
}

/// Where a batch of steps stopped.
enum Batch {
    /// At a step that is not due yet, or after [`SEND_BATCH`] steps, or at the script's end.
    Yield,
    /// At a question: nothing runs until it is answered.
    Await,
    /// The turn ended (a close, or the session ended it).
    Ended,
}

fn timer(ms: u64) -> Pin<Box<Delay>> {
    Box::pin(Delay::from(Duration::from_millis(ms)))
}

/// Runs turn `seq` of `session` to its end. `answers` brings the answers to its questions.
pub(crate) async fn run(
    session: Rc<impl TurnSession>,
    seq: u64,
    mut script: Script,
    mut answers: UnboundedReceiver<Value>,
) {
    let mut next_step = script.next_wait().map(timer);
    let mut waiting = false;
    loop {
        let wake = poll_fn(|cx| {
            if let Poll::Ready(answer) = answers.poll_next_unpin(cx) {
                return Poll::Ready(Wake::Answer(answer));
            }
            match next_step.as_mut().map(|step| step.as_mut().poll(cx)) {
                Some(Poll::Ready(())) => Poll::Ready(Wake::Step),
                _ => Poll::Pending,
            }
        })
        .await;
        match wake {
            Wake::Answer(None) => return,
            Wake::Answer(Some(answer)) => {
                if !waiting {
                    continue;
                }
                waiting = false;
                script.answered(&answer);
            }
            Wake::Step => match run_due_steps(&*session, seq, &mut script) {
                Batch::Yield => {}
                Batch::Await => {
                    session.awaiting_answer(seq);
                    waiting = true;
                    next_step = None;
                    continue;
                }
                Batch::Ended => return,
            },
        }
        next_step = script.next_wait().map(timer);
        if next_step.is_none() && !script.hangs {
            session.end_turn(seq);
            return;
        }
    }
}

/// Runs the step whose time came and every step after it that waits for nothing, at most
/// [`SEND_BATCH`] of them: a longer run goes on after a 0 ms timer, so the event loop (and an
/// `abort`) gets a turn between batches.
fn run_due_steps(session: &impl TurnSession, seq: u64, script: &mut Script) -> Batch {
    let mut ran = 0;
    while let Some(wait_ms) = script.next_wait() {
        if ran > 0 && (wait_ms > 0 || ran >= SEND_BATCH) {
            return Batch::Yield;
        }
        ran += 1;
        let Some(step) = script.pop() else {
            break;
        };
        let sent = match step.action {
            Action::Send(frame) => session.broadcast(seq, &frame, true),
            Action::SendUnlogged(frame) => session.broadcast(seq, &frame, false),
            Action::Stamp(i) => {
                let turn = script.turn_id.as_deref().unwrap_or_default();
                let frame = stamp_frame(turn, i, js_sys::Date::now());
                session.broadcast(seq, &frame, false)
            }
            Action::Close { code, reason } => {
                session.close_prompter(seq, code, reason);
                session.end_turn(seq);
                return Batch::Ended;
            }
            Action::Drop { code, reason } => {
                session.close_all(seq, code, reason);
                session.end_turn(seq);
                return Batch::Ended;
            }
            Action::AwaitAnswer => return Batch::Await,
            // On purpose, and only here: the demo's `/panic` checks that a panic is seen.
            Action::Panic => panic!("demo agent: /panic asked for a panic"),
        };
        if !sent {
            return Batch::Ended;
        }
    }
    Batch::Yield
}
