//! The routes around a chat that the agent's `init` answers: resume, stop and history.
//!
//! * `GET /api/sessions/:id/chat/:chatId/stream` ([`resume`]): the turn in flight as a full
//!   replay from `start`, then live to its end; `204` when no turn is in flight. Closing it
//!   never stops the turn.
//! * `POST /api/sessions/:id/chat/stop` ([`stop`]): one `abort` (no `requestId`) for the turn
//!   in flight: `202 {"stopped":true}`, or `200 {"stopped":false}` when none is in flight.
//! * `GET /api/sessions/:id/messages` ([`messages`]): the finished messages as `UIMessage`s, a
//!   page at a time (`crate::pages`): the newest page of the current branch from the `init`, any
//!   other page (`?leaf=`, `?before=`) by a `history` frame to an agent of protocol 5.
//!
//! Each opens its own socket to the agent, reads `init` (see [`crate::agent::hydrate`] for an agent
//! that sends none) and closes the socket when it is done: the adapter keeps no state.

use worker::{Response, WebSocket};

use crate::agent::hydrate::{next_turn_event, read_history, read_init, Hydration};
use crate::agent::upstream::{self, AgentSocket, UpstreamError};
use crate::context::RouteContext;
use crate::exchange::{Exchange, TurnOf};
use crate::failure::Failure;
use crate::files::signed::origin_of_url;
use crate::guard::admit;
use crate::handlers::files;
use crate::handlers::message_files::sign_again;
use crate::handlers::streaming::{start, Handoff, Plan};
use crate::history::history_json;
use crate::inbound::incoming::RequestIn;
use crate::outcome::Outcome;
use crate::pages::{init_page, HistoryQuery, OLDER_HEADER};
use crate::platform::clock::now_ms;
use crate::platform::errors::json_response;
use crate::platform::socket::{close_done, close_failed};
use crate::pump::{AbortRule, Follow};
use crate::questions::QuestionParts;
use crate::refusal::Refusal;
use crate::request_head::Field;
use crate::request_log::Disposition;
use crate::session::Message;
use crate::trace::{TraceMode, TRACE_MAX_HEADER};
use crate::turn_log;
use crate::turn_record::Trigger;
use crate::turn_stream::TurnStream;
use crate::v2::{abort_frame, TREE_PROTOCOL};
use futures::FutureExt;

/// The agent's socket and what it said first, for a request that passed the guard; else the
/// refusal: a failing agent's (slow, closed, unreadable: `503 agent_not_ready`), never an empty
/// answer. What comes back as `Hydration::Unknown` is an agent that keeps no `init`.
async fn open(
    cx: &mut RouteContext<'_>,
    session_id: &str,
) -> Result<(AgentSocket, Hydration), Failure> {
    let principal = admit(cx, session_id).await?;
    let user_id = principal.user_id.as_deref();
    let mut agent = upstream::connect(cx.env, cx.config, session_id, user_id).await?;
    let hydration = read_init(&mut agent.events, cx.exchange.request_id()).await;
    if let Hydration::Unknown(silence) = &hydration {
        if let Some(refusal) = silence.failure(agent.promised_init) {
            close_done(&agent.socket);
            return Err(refusal.into());
        }
    }
    Ok((agent, hydration))
}

/// `GET …/chat/:chatId/stream`.
pub(crate) async fn resume(mut cx: RouteContext<'_>, session_id: &str) -> Result<Outcome, Failure> {
    let (mut agent, hydration) = open(&mut cx, session_id).await?;
    let (req, config, exchange) = (cx.req, cx.config, &mut *cx.exchange);
    let trace = config.trace_for(query_trace(req));
    let questions = config.questions_for(query_questions(req), trace);
    let protocol = match &hydration {
        Hydration::Init(init) => Some(init.protocol),
        _ => None,
    };
    let (turn, early_frame) = match hydration {
        Hydration::Init(init) => match init.in_flight() {
            Some(message) => (TurnStream::resume(message, now_ms, questions), None),
            None if config.resume_wait_ms > 0 => {
                // An agent whose `init` may leave out the turn in flight: a turn event within
                // the wait shows one runs, and the stream follows it from now on.
                let request_id = exchange.request_id().to_owned();
                let wait = config.resume_wait_ms;
                match next_turn_event(&mut agent.events, &request_id, wait).await {
                    Some((frame, turn_id)) => (
                        TurnStream::continuing(&turn_id, turn_id.clone(), now_ms),
                        Some(frame),
                    ),
                    None => return nothing_to_resume(&agent.socket, exchange),
                }
            }
            None => return nothing_to_resume(&agent.socket, exchange),
        },
        // An agent without `init`: the turn from now on, as a message of its own.
        Hydration::TurnEvent { frame, turn_id } => (
            TurnStream::continuing(&turn_id, turn_id.clone(), now_ms),
            Some(frame),
        ),
        Hydration::Unknown(_) => return nothing_to_resume(&agent.socket, exchange),
    };
    let turn = turn.with_agent_protocol(protocol);
    // A resume that streams is a turn's: its line holds the turn's record, made at its end or at
    // a refusal from here on.
    exchange.turn = Some(TurnOf {
        trigger: Some(Trigger::Resume),
        dataset: turn_log::dataset(cx.env),
    });
    let plan = Plan {
        frame: None,
        follow: Follow {
            turn: turn.with_questions(questions).with_trace(trace),
            early_frame,
            abort: AbortRule::never(),
            // A resume's caller may not be the list's owner; the turn's own stream tells it.
            titles: None,
        },
    };
    start(cx, Handoff::Listening(agent), plan)
}

/// The resume's trace mode: `?trace=minimal|normal|full` (the GET has no body; a client sets it
/// with the transport's `prepareReconnectToStreamRequest`), else the `TRACE` setting. An unknown
/// value is ignored: a resume never fails on a cosmetic choice. The query is scanned as text:
/// `Request::url` would parse it with the `url` crate, whose IDNA tables cost ~80 KB of gzipped
/// wasm, for three plain words.
fn query_trace(req: &RequestIn<'_>) -> Option<TraceMode> {
    TraceMode::from_query(req.head.url())
}

/// The questions a resume or a history request asks for by its `X-Questions` header; an unknown
/// value is ignored (the setting applies), as `?trace=` is: a GET never fails on it.
fn query_questions(req: &RequestIn<'_>) -> Option<QuestionParts> {
    req.header(Field::Questions).and_then(QuestionParts::parse)
}

/// `204`: what `DefaultChatTransport.reconnectToStream` reads as "nothing to resume".
fn nothing_to_resume(socket: &WebSocket, exchange: &mut Exchange) -> Result<Outcome, Failure> {
    close_done(socket);
    Ok(exchange.nothing(Disposition::NothingToResume)?.into())
}

/// `POST …/chat/stop`.
pub(crate) async fn stop(mut cx: RouteContext<'_>, session_id: &str) -> Result<Response, Failure> {
    let (AgentSocket { socket, .. }, hydration) = open(&mut cx, session_id).await?;
    let exchange = cx.exchange;
    if !hydration.may_have_turn_in_flight() {
        close_done(&socket);
        exchange.log.answered(Disposition::NotStopped);
        return Ok(json_response(200, r#"{"stopped":false}"#.into())?);
    }
    if socket.send_with_str(abort_frame(None)).is_err() {
        close_failed(&socket, "abort not sent");
        return Err(UpstreamError::SocketFailed.into());
    }
    // The abort is queued before the close frame, so the agent reads it first.
    close_done(&socket);
    exchange.log.answered(Disposition::Stopped);
    Ok(json_response(202, r#"{"stopped":true}"#.into())?)
}

/// `GET …/messages`: the query read before the agent is touched (a `400 invalid_query`).
pub(crate) async fn messages(
    mut cx: RouteContext<'_>,
    session_id: &str,
) -> Result<Response, Failure> {
    let query = HistoryQuery::from_url(cx.req.head.url())?;
    let (mut agent, hydration) = open(&mut cx, session_id).await?;
    let (req, config) = (cx.req, cx.config);
    let (mut page, older) = match hydration {
        Hydration::Init(init) if query.from_init() => {
            close_done(&agent.socket);
            init_page(&init, &query)
        }
        // Its own future (boxed): only a request for another page runs its code.
        Hydration::Init(init) if init.protocol >= u64::from(TREE_PROTOCOL) => {
            let request_id = cx.exchange.request_id().to_owned();
            let page = other_page(&mut agent, &query, &request_id)
                .boxed_local()
                .await;
            close_done(&agent.socket);
            page?
        }
        // An agent that keeps no tree (protocol 4 or older, or no `init`) has one page.
        _ if !query.from_init() => {
            close_done(&agent.socket);
            return Err(Refusal::agent_cannot_branch().into());
        }
        Hydration::Init(init) => {
            close_done(&agent.socket);
            (init.messages, None)
        }
        // An agent without `init` keeps no history the adapter can read.
        Hydration::TurnEvent { .. } | Hydration::Unknown(_) => {
            close_done(&agent.socket);
            (Vec::new(), None)
        }
    };
    // As a stream of this request would show it: `?trace=`, within `TRACE_MAX`, and its
    // questions as its `X-Questions` asks.
    let trace = config.trace_for(query_trace(req));
    let questions = config.questions_for(query_questions(req), trace);
    if let Some((_, secret)) = files::bucket(&cx) {
        let origin = origin_of_url(cx.req.head.url());
        sign_again(&cx, secret, origin, session_id, &mut page).await?;
    }
    let body = history_json(&page, &trace, &questions);
    cx.exchange.log.answered(Disposition::History);
    let mut response = json_response(200, body)?;
    let headers = response.headers_mut();
    // The most this worker shows, whatever a request asks: a client's trace switch offers no more.
    headers.set(TRACE_MAX_HEADER, config.trace_max.name())?;
    if let Some(older) = &older {
        headers.set(OLDER_HEADER, older)?;
    }
    Ok(response)
}

/// A page other than the `init`'s, asked of an agent of protocol 5 by a `history` frame.
async fn other_page(
    agent: &mut AgentSocket,
    query: &HistoryQuery,
    request_id: &str,
) -> Result<(Vec<Message>, Option<String>), Refusal> {
    if agent.socket.send_with_str(query.frame(request_id)).is_err() {
        return Err(UpstreamError::SocketFailed.into());
    }
    read_history(&mut agent.events, request_id).await
}
