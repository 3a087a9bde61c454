//! The pump of one chat POST: agent frames in, SSE bytes out, as each message arrives.
//!
//! It runs after the handler answered `200`, until exactly one of these happens:
//! * the turn ends (its finalize or `complete`): close the socket with 1000, close the body;
//! * the agent's socket closes or fails: end the stream in-band (the translator's ending for a
//!   lost socket), close the body;
//! * the client goes away: send one `abort` with the prompt's `requestId`, close the socket
//!   with 1000, close the body.
//!
//! While the agent is silent it writes SSE comments, so that workerd, which notices a vanished
//! client only when it writes to it, notices in time (see [`KEEP_ALIVE_INTERVAL_MS`]).

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;
use std::time::Duration;

use futures::future::poll_fn;
use futures::StreamExt;
use worker::{console_log, console_warn, Delay, WebSocket};

use super::client::{ClientStream, Gone};
use super::socket::{SocketEvent, SocketEvents};
use crate::sse::KEEP_ALIVE;
use crate::turn_stream::{EndCause, FrameOutcome, TurnStream};
use crate::v2::abort_frame;

/// How long the agent may stay silent before the pump writes a keep-alive comment.
///
/// workerd notices a vanished client only on a write, and the first write after a disconnect may
/// still succeed (it lands in the socket buffer); the next one fails. Two intervals (500 ms),
/// plus the trip of the `abort` to the agent, stay inside the 1 s in which the issue wants an
/// abort forwarded. Idle cost: 60,000 / 250 = 240 comments of 14 bytes (`: keep-alive\n\n`),
/// that is 3,360 bytes per idle minute (plus HTTP/1.1 chunk framing, about 5 bytes a chunk).
/// Far below any proxy's idle limit (Cloudflare's is 100 s), so no proxy cuts the stream.
pub(crate) const KEEP_ALIVE_INTERVAL_MS: u64 = 250;

/// WebSocket close code for a normal closure (RFC 6455, section 7.4.1).
const NORMAL_CLOSURE: u16 = 1000;

/// Everything one POST's pump owns.
pub(crate) struct Pump {
    pub(crate) socket: WebSocket,
    pub(crate) events: SocketEvents,
    pub(crate) client: ClientStream,
    pub(crate) turn: TurnStream,
    pub(crate) request_id: String,
}

enum Wake {
    Gone(Gone),
    Socket(Option<SocketEvent>),
    Idle,
}

fn keep_alive_timer() -> Pin<Box<Delay>> {
    Box::pin(Delay::from(Duration::from_millis(KEEP_ALIVE_INTERVAL_MS)))
}

impl Pump {
    /// Runs until the turn ends, the agent's socket closes, or the client leaves.
    pub(crate) async fn run(self) {
        let Pump {
            socket,
            mut events,
            mut client,
            mut turn,
            request_id,
        } = self;
        let mut out = Vec::new();
        let mut idle = keep_alive_timer();
        loop {
            let wake = poll_fn(|cx| {
                // The client first: once it is gone nothing else matters.
                if let Poll::Ready(how) = client.poll_gone(cx) {
                    return Poll::Ready(Wake::Gone(how));
                }
                if let Poll::Ready(event) = events.poll_next_unpin(cx) {
                    return Poll::Ready(Wake::Socket(event));
                }
                if idle.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Wake::Idle);
                }
                Poll::Pending
            })
            .await;
            out.clear();
            match wake {
                Wake::Gone(how) => {
                    // Exactly one abort: the pump stops right after it.
                    match socket.send_with_str(abort_frame(&request_id)) {
                        Ok(()) => {
                            console_log!("client gone ({how:?}): abort sent for {request_id}")
                        }
                        Err(err) => console_warn!("client gone ({how:?}): abort not sent: {err}"),
                    }
                    break;
                }
                Wake::Idle => {
                    client.write(KEEP_ALIVE);
                    idle = keep_alive_timer();
                }
                Wake::Socket(Some(SocketEvent::Text(text))) => {
                    if let FrameOutcome::Malformed(why) = turn.push_frame(&text, &mut out) {
                        console_warn!("skipped a frame from the agent: {why}");
                    }
                    if !out.is_empty() {
                        client.write(&out);
                        idle = keep_alive_timer();
                    }
                    if turn.is_done() {
                        break;
                    }
                }
                Wake::Socket(Some(SocketEvent::Binary)) => {}
                Wake::Socket(Some(SocketEvent::Closed { .. } | SocketEvent::Failed) | None) => {
                    turn.end(EndCause::SocketClosed, &mut out);
                    client.write(&out);
                    break;
                }
            }
        }
        // Every ending: close the socket normally (after the agent closed it, this completes
        // the closing handshake; an error means it is already done), then close the body.
        let _ = socket.close(Some(NORMAL_CLOSURE), Some("done"));
        client.finish();
    }
}
