//! An owned stream of one WebSocket's events, for tasks that outlive the handler that opened it.
//!
//! `worker::WebSocket::events()` borrows the socket, so a task cannot hold both; and its
//! listeners must be registered before `accept()`, which the handler calls before it answers.
//! [`SocketEvents::listen`] registers them and hands back a value the task can own. Dropping it
//! removes the listeners.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::Stream;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// WebSocket close code for a normal closure (RFC 6455, section 7.4.1).
pub const NORMAL_CLOSURE: u16 = 1000;
/// WebSocket close code for "the server hit an unexpected condition" (RFC 6455, 7.4.1).
pub const INTERNAL_ERROR: u16 = 1011;

/// Closes `socket` with 1000 "done": the request is through with the agent. An error means the
/// agent closed it first, and there is nothing left to do.
pub fn close_done(socket: &worker::WebSocket) {
    let _ = socket.close(Some(NORMAL_CLOSURE), Some("done"));
}

/// Closes `socket` with 1011 and `why` (a few words, for the agent's log): the adapter could not
/// go on with the exchange. An error means the socket is closed already.
pub fn close_failed(socket: &worker::WebSocket, why: &str) {
    let _ = socket.close(Some(INTERNAL_ERROR), Some(why));
}

/// One event of the socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SocketEvent {
    /// A text message.
    Text(String),
    /// A binary message (the protocol ignores them).
    Binary,
    /// The peer closed the socket (or the runtime did).
    Closed { code: u16, reason: String },
    /// The socket failed; no more events follow.
    Failed,
}

type Listener<E> = Closure<dyn FnMut(E)>;

/// The events of one socket, in arrival order.
pub struct SocketEvents {
    socket: web_sys::WebSocket,
    rx: UnboundedReceiver<SocketEvent>,
    on_message: Listener<web_sys::MessageEvent>,
    on_close: Listener<web_sys::CloseEvent>,
    on_error: Listener<web_sys::Event>,
}

impl SocketEvents {
    /// Starts listening. Call it before `accept()` so that no early message is lost.
    pub fn listen(socket: &worker::WebSocket) -> Result<Self, JsValue> {
        let socket: web_sys::WebSocket = socket.as_ref().clone();
        let (tx, rx) = unbounded();
        let on_message = listener(&tx, |event: web_sys::MessageEvent| {
            match event.data().as_string() {
                Some(text) => SocketEvent::Text(text),
                None => SocketEvent::Binary,
            }
        });
        let on_close = listener(&tx, |event: web_sys::CloseEvent| SocketEvent::Closed {
            code: event.code(),
            reason: event.reason(),
        });
        let on_error = listener(&tx, |_: web_sys::Event| SocketEvent::Failed);
        let events = SocketEvents {
            socket,
            rx,
            on_message,
            on_close,
            on_error,
        };
        events.register("message", events.on_message.as_ref())?;
        events.register("close", events.on_close.as_ref())?;
        events.register("error", events.on_error.as_ref())?;
        Ok(events)
    }

    /// Stops listening and returns the events received and not yet read, in order: for a new
    /// owner that registers its own listeners in the same call, so that no event is lost.
    pub fn into_backlog(mut self) -> Vec<SocketEvent> {
        let mut backlog = Vec::new();
        while let Ok(event) = self.rx.try_recv() {
            backlog.push(event);
        }
        backlog
    }

    fn register(&self, kind: &str, callback: &JsValue) -> Result<(), JsValue> {
        self.socket
            .add_event_listener_with_callback(kind, callback.unchecked_ref())
    }

    fn unregister(&self, kind: &str, callback: &JsValue) {
        // Failing to remove a listener from a socket that is going away changes nothing.
        let _ = self
            .socket
            .remove_event_listener_with_callback(kind, callback.unchecked_ref());
    }
}

fn listener<E: wasm_bindgen::convert::FromWasmAbi + 'static>(
    tx: &UnboundedSender<SocketEvent>,
    map: fn(E) -> SocketEvent,
) -> Listener<E> {
    let tx = tx.clone();
    Closure::new(move |event: E| {
        // The receiver is gone only when the task stopped listening: nothing left to tell.
        let _ = tx.unbounded_send(map(event));
    })
}

impl Stream for SocketEvents {
    type Item = SocketEvent;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<SocketEvent>> {
        Pin::new(&mut self.rx).poll_next(cx)
    }
}

impl Drop for SocketEvents {
    fn drop(&mut self) {
        self.unregister("message", self.on_message.as_ref());
        self.unregister("close", self.on_close.as_ref());
        self.unregister("error", self.on_error.as_ref());
    }
}
