//! Starting a streamed answer: the response body, the frame that starts the agent's work, the
//! pump task, and the `200` with the UI message stream headers. Shared by the chat POST and the
//! resume GET.

use wasm_bindgen::JsValue;
use worker::WebSocket;

use crate::agent::upstream::{AgentSocket, UpstreamError};
use crate::context::RouteContext;
use crate::exchange::Exchange;
use crate::failure::Failure;
use crate::outcome::Outcome;
use crate::platform::socket::close_failed;
use crate::pump::client::{ok_init, ClientStream};
use crate::pump::titles::Titles;
use crate::pump::{AbortRule, Follow, Pump, PumpLimits};
use crate::refusal::Refusal;
use crate::sse::RESPONSE_HEADERS;
use crate::trace::Trace;
use crate::turn_stream::TurnStream;

/// The agent's socket, as a handler hands it to the stream (not the agent: its socket's state).
pub(crate) enum Handoff {
    /// Listened to since before `accept()`: the pump takes over what was queued and not read.
    Listening(AgentSocket),
    /// Accepted in the running call with no listener: the pump's are the first.
    Accepted(WebSocket),
}

/// How a stream starts, and what it follows.
pub(crate) struct Plan {
    /// The frame that asks the agent for the turn (a `prompt`, an `answer`); none for a resume.
    pub(crate) frame: Option<String>,
    pub(crate) follow: Follow,
}

impl Plan {
    /// A turn that starts with `frame` sent to the agent.
    pub(crate) fn new(frame: String, turn: TurnStream, abort: AbortRule) -> Plan {
        Plan {
            frame: Some(frame),
            follow: Follow {
                turn,
                early_frame: None,
                abort,
                titles: None,
            },
        }
    }

    /// The turn's stream, telling the agent's title to `titles` at its end.
    pub(crate) fn with_titles(mut self, titles: Option<Titles>) -> Plan {
        self.follow.titles = titles;
        self
    }

    /// The turn's stream in trace mode `trace`.
    pub(crate) fn with_trace(mut self, trace: Trace) -> Plan {
        self.follow.turn = self.follow.turn.with_trace(trace);
        self
    }
}

/// Opens the response body, then sends the plan's frame (so that a body that cannot be made
/// starts no turn), then answers `200` with the pump that fills the body. Failures before that
/// are refusals. A stream of a turn makes the turn's record at its end, which its route set up
/// (`Exchange::turn`: the entry for a chat POST, `resume` for a resume).
pub(crate) fn start(cx: RouteContext<'_>, agent: Handoff, plan: Plan) -> Result<Outcome, Failure> {
    let RouteContext {
        req,
        config,
        exchange,
        ..
    } = cx;
    let (socket, events) = match agent {
        Handoff::Listening(AgentSocket { socket, events, .. }) => (socket, Some(events)),
        Handoff::Accepted(socket) => (socket, None),
    };
    let (client, response) = open_body(&socket, exchange.request_id())?;
    if let Some(frame) = plan.frame {
        if socket.send_with_str(frame).is_err() {
            close_failed(&socket, "frame not sent");
            return Err(UpstreamError::SocketFailed.into());
        }
    }
    exchange.log.status = 200;
    let pump = Pump {
        socket,
        events,
        client,
        // The handle, not `Request.clone()` (a call that tees the body).
        request: Clone::clone(req.raw),
        follow: plan.follow,
        limits: PumpLimits::from(config),
        exchange: Exchange::handed_off(exchange),
    };
    Ok(Outcome::Streaming {
        response,
        pump: Box::new(pump),
    })
}

thread_local! {
    /// The `ResponseInit` of every streamed answer: `200` and the UI message stream's headers.
    static STREAM_INIT: JsValue = ok_init(&RESPONSE_HEADERS);
}

/// The response body's writer, and the `200` that streams the body. Made before anything is
/// sent to the agent, so that a failure here starts no turn. On failure the agent's socket is
/// closed and the refusal returned.
fn open_body(
    socket: &WebSocket,
    request_id: &str,
) -> Result<(ClientStream, web_sys::Response), Refusal> {
    STREAM_INIT
        .with(|init| ClientStream::open(init, request_id))
        .map_err(|_| {
            close_failed(socket, "no response stream");
            Refusal::stream_not_created()
        })
}
