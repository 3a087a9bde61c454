//! One adapter connection to the demo agent: reads its frames, runs the turns they ask for.
//!
//! A single task per socket waits for whichever comes first, the next frame from the adapter or
//! the next step of the running turn, so an `abort` stops a turn between any two of its frames.
//! When the socket closes the task ends, and with it the turn: nothing is sent after that.

use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use std::time::Duration;

use futures::future::poll_fn;
use futures::{Future, StreamExt};
use serde_json::Value;
use worker::{console_warn, Delay, WebSocket};

use super::script::{self, Action, Script};
use super::Agent;
use crate::edge::socket::{SocketEvent, SocketEvents};

/// An accepted socket from an adapter.
pub(crate) struct Connection {
    pub(crate) socket: WebSocket,
    pub(crate) events: SocketEvents,
    pub(crate) agent: Rc<Agent>,
    pub(crate) id: u32,
    pub(crate) session_id: String,
}

enum Wake {
    Frame(Option<SocketEvent>),
    Step,
}

/// What the adapter asked, as far as the demo cares.
enum Incoming {
    Prompt {
        content: String,
        request_id: Option<String>,
    },
    Abort {
        request_id: Option<String>,
    },
    Other,
}

fn parse(text: &str) -> Incoming {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        return Incoming::Other;
    };
    let field = |name: &str| frame.get(name).and_then(Value::as_str).map(str::to_owned);
    match frame.get("type").and_then(Value::as_str) {
        Some("prompt") => Incoming::Prompt {
            content: field("content").unwrap_or_default(),
            request_id: field("requestId"),
        },
        Some("abort") => Incoming::Abort {
            request_id: field("requestId"),
        },
        _ => Incoming::Other,
    }
}

/// A random turn id: the AI SDK client uses it as the assistant message's id, so it must not
/// repeat when the object restarts.
fn new_turn_id() -> String {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        bytes = worker::Date::now().as_millis().to_le_bytes();
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("msg_{hex}")
}

fn timer(ms: u64) -> Pin<Box<Delay>> {
    Box::pin(Delay::from(Duration::from_millis(ms)))
}

impl Connection {
    /// Serves the connection until the adapter closes it or a turn closes it.
    pub(crate) async fn serve(mut self) {
        if !self.send(&script::init_frame(&self.session_id)) {
            return;
        }
        let mut turn: Option<Script> = None;
        let mut next_step: Option<Pin<Box<Delay>>> = None;
        loop {
            let events = &mut self.events;
            let wake = poll_fn(|cx| {
                if let Poll::Ready(event) = events.poll_next_unpin(cx) {
                    return Poll::Ready(Wake::Frame(event));
                }
                if let Some(step) = next_step.as_mut() {
                    if step.as_mut().poll(cx).is_ready() {
                        return Poll::Ready(Wake::Step);
                    }
                }
                Poll::Pending
            })
            .await;
            match wake {
                Wake::Frame(Some(SocketEvent::Text(text))) => {
                    if let Err(err) = self.agent.logs.received(self.id, &text).await {
                        console_warn!("demo agent: could not log a frame: {err}");
                    }
                    match parse(&text) {
                        Incoming::Prompt { .. } if turn.is_some() => {
                            if !self.send(&script::busy_frame()) {
                                return;
                            }
                        }
                        Incoming::Prompt {
                            content,
                            request_id,
                        } => {
                            let mut script =
                                script::for_prompt(&content, &new_turn_id(), request_id.as_deref());
                            next_step = script.next_wait().map(timer);
                            turn = Some(script);
                        }
                        Incoming::Abort { request_id } => {
                            let Some(running) = &turn else { continue };
                            if request_id.is_some() && request_id != running.request_id {
                                continue;
                            }
                            for frame in running.cancel() {
                                if !self.send(&frame) {
                                    return;
                                }
                            }
                            turn = None;
                            next_step = None;
                        }
                        Incoming::Other => {}
                    }
                }
                Wake::Frame(Some(SocketEvent::Binary)) => {}
                Wake::Frame(Some(SocketEvent::Closed { .. } | SocketEvent::Failed) | None) => {
                    // The adapter is gone: the turn stops here.
                    return;
                }
                Wake::Step => {
                    let Some(running) = turn.as_mut() else {
                        next_step = None;
                        continue;
                    };
                    if !self.run_due_steps(running) {
                        return;
                    }
                    next_step = running.next_wait().map(timer);
                    if next_step.is_none() && !running.hangs {
                        turn = None;
                    }
                }
            }
        }
    }

    /// Runs the step whose time came and every step after it that waits for nothing, at most
    /// [`script::SEND_BATCH`] of them: a longer run goes on after a 0 ms timer, so the event
    /// loop (and an `abort`) gets a turn between batches. Returns false when the connection
    /// ended.
    fn run_due_steps(&self, script: &mut Script) -> bool {
        let mut ran = 0;
        while let Some(wait_ms) = script.next_wait() {
            if ran > 0 && (wait_ms > 0 || ran >= script::SEND_BATCH) {
                return true;
            }
            ran += 1;
            let Some(step) = script.pop() else {
                return true;
            };
            match step.action {
                Action::Send(frame) => {
                    if !self.send(&frame) {
                        return false;
                    }
                }
                Action::SendUnlogged(frame) => {
                    if self.socket.send_with_str(&frame).is_err() {
                        return false;
                    }
                }
                Action::Stamp(i) => {
                    let turn = script.turn_id.as_deref().unwrap_or_default();
                    let frame = script::stamp_frame(turn, i, js_sys::Date::now());
                    if self.socket.send_with_str(&frame).is_err() {
                        return false;
                    }
                }
                Action::Close { code, reason } => {
                    let _ = self.socket.close(Some(code), Some(reason));
                    return false;
                }
            }
        }
        true
    }

    /// Sends and logs one frame; false when the socket is closed.
    fn send(&self, frame: &str) -> bool {
        match self.socket.send_with_str(frame) {
            Ok(()) => {
                self.agent.logs.sent(self.id, frame);
                true
            }
            Err(_) => false,
        }
    }
}
