//! One client socket of the demo agent: reads its frames, logs them, and hands them to the
//! session. The socket's turn is not here: turns belong to the session ([`super::session`]).
//!
//! The task ends when the socket closes or fails, or when the session lets the socket go (it
//! closed it, or could not send to it); the session then takes it out of the broadcast. A
//! turn it prompted runs on, unless its prompt's `onDisconnect` was `abort` (then the turn
//! stops: [`Session::leave`]).

use std::rc::Rc;
use std::task::Poll;

use futures::channel::oneshot;
use futures::future::poll_fn;
use futures::{FutureExt, StreamExt};

use super::session::Session;
use crate::client_frame::{self, ClientFrame};
use crate::platform::log;
use crate::platform::socket::{SocketEvent, SocketEvents};
use crate::v2::PING;

/// An accepted socket, already in the session's broadcast.
pub(crate) struct Connection {
    pub(crate) events: SocketEvents,
    pub(crate) session: Rc<Session>,
    pub(crate) id: u32,
    /// Resolves when the session lets the socket go.
    pub(crate) stopped: oneshot::Receiver<()>,
}

impl Connection {
    /// Serves the socket until it closes or the session lets it go.
    pub(crate) async fn serve(mut self) {
        loop {
            let (events, stopped) = (&mut self.events, &mut self.stopped);
            let event = poll_fn(|cx| {
                if stopped.poll_unpin(cx).is_ready() {
                    return Poll::Ready(None);
                }
                events.poll_next_unpin(cx)
            })
            .await;
            match event {
                Some(SocketEvent::Text(text)) => self.handle(&text).await,
                Some(SocketEvent::Binary) => {}
                Some(SocketEvent::Closed { .. } | SocketEvent::Failed) | None => break,
            }
        }
        self.session.leave(self.id);
    }

    /// Logs one text frame, then acts on it; a frame the agent does not know is ignored. The
    /// adapter's ping is answered at once and not logged: this agent's sockets are not
    /// hibernatable (`accept()`), so the runtime's auto-response, which answers a hibernatable
    /// socket's ping without the object seeing it, does not apply (R-pong).
    async fn handle(&self, text: &str) {
        if text == PING {
            self.session.pong(self.id);
            return;
        }
        if let Err(err) = self.session.logs.received(self.id, text).await {
            log::warn("demo_agent", None, &format!("could not log a frame: {err}"));
        }
        match client_frame::parse(text) {
            ClientFrame::Prompt(prompt) => self.session.prompt(self.id, prompt),
            ClientFrame::Abort { request_id } => self.session.abort(request_id.as_deref()),
            ClientFrame::Answer {
                question_id,
                answer,
                on_disconnect,
            } => self
                .session
                .answer(self.id, &question_id, answer, on_disconnect),
            ClientFrame::History(request) => self.session.history(self.id, &request),
            ClientFrame::Forget { request_id } => self.session.forget(self.id, request_id, text),
            ClientFrame::Other => {}
        }
    }
}
