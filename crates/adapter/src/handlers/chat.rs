//! `POST /api/sessions/:id/chat`: one AI SDK chat request, streamed from the session's agent.
//!
//! The steps, in order: the session id (400), the caller's credentials (401/403), the
//! `Content-Type` (415) and the body (4xx) — all before the agent is touched; then the agent's
//! socket, the response body, and the frame: a `prompt` with the request id as `requestId` and,
//! from protocol 4, where its message goes in the conversation ([`older_agent`]: to an agent of
//! protocol 4, only once its `init` shows the prompt deletes nothing the client does not show,
//! else 409 `stale_conversation`; a regenerate or an edit only to an agent of protocol 4 or
//! later, else 409 `agent_cannot_take_back`), or,
//! when the request answers the agent's question, an `answer` ([`crate::handlers::chat_reply`]). Failures
//! there are JSON 5xx. Then `200` with the UI stream headers and a body the pump fills as
//! frames arrive: the prompt's turn, or the rest of the answered turn.

use futures::FutureExt;

use crate::agent::hydrate::{read_init, Hydration};
use crate::agent::upstream::{self, Opened, UpstreamError};
use crate::context::RouteContext;
use crate::failure::Failure;
use crate::files::signed::origin_of_url;
use crate::guard::admit;
use crate::handlers::chat_reply::reply_plan;
use crate::handlers::files;
use crate::handlers::message_files::keep_files;
use crate::handlers::streaming::{start, Handoff, Plan};
use crate::inbound::chat_body::read_chat_body;
use crate::outcome::Outcome;
use crate::platform::clock::now_ms;
use crate::platform::socket::close_done;
use crate::protocol4::{self, Intent};
use crate::pump::AbortRule;
use crate::questions::QuestionParts;
use crate::refusal::Refusal;
use crate::request::{parse_chat_request_at, ChatRequest, FilesAt};
use crate::request_head::Field;
use crate::routes::is_json_content_type;
use crate::turn_record::Trigger;
use crate::turn_stream::TurnStream;
use crate::v2::{Prompt, TAKE_BACK_PROTOCOL, TREE_PROTOCOL};

pub(crate) async fn handle(mut cx: RouteContext<'_>, session_id: &str) -> Result<Outcome, Failure> {
    let principal = admit(&mut cx, session_id).await?;
    let (req, config) = (cx.req, cx.config);
    if !is_json_content_type(req.header(Field::ContentType)) {
        return Err(Refusal::unsupported_media_type().into());
    }
    let body = read_chat_body(req, &config.limits).await?;
    // With the bucket, this worker's file URLs are taken and a message's files kept in it.
    let bucket = files::bucket(&cx);
    let at = FilesAt {
        origin: origin_of_url(req.head.url()),
        session: session_id,
    };
    let mut chat = parse_chat_request_at(&body, &config.limits, bucket.as_ref().map(|_| &at))?;
    drop(body);
    if let Some((bucket, secret)) = &bucket {
        keep_files(&cx, (bucket, secret), &at, &mut chat.attachments).await?;
    }
    let trigger = match chat.reply {
        Some(_) => Trigger::Answer,
        None => Trigger::of_chat(chat.trigger.as_deref()),
    };
    if let Some(turn) = cx.exchange.turn.as_mut() {
        turn.trigger = Some(trigger);
    }

    let user_id = principal.user_id.as_deref();
    let on_disconnect = chat.on_disconnect.unwrap_or(config.on_disconnect);
    let trace = config.trace_for(chat.trace);
    let asked = match req.header(Field::Questions).map(QuestionParts::parse) {
        Some(None) => return Err(Refusal::invalid_questions_header().into()),
        asked => asked.flatten(),
    };
    let questions = config.questions_for(asked, trace);
    let (agent, plan) = match &chat.reply {
        None => {
            // A prompt that names its place goes at once to an agent that keeps a tree; an older
            // one may delete what the turn does not follow, or keep only a list.
            let placed = chat.place.message_id.is_some() || chat.place.branch.is_some();
            let wanted = match (placed, chat.takes_back()) {
                (true, _) => TREE_PROTOCOL,
                (false, true) => TAKE_BACK_PROTOCOL,
                (false, false) => 0,
            };
            let opened =
                upstream::connect_for_stream(cx.env, config, session_id, user_id, wanted).await?;
            let request_id = cx.exchange.request_id().to_owned();
            let (handoff, protocol) = match opened {
                Opened::Ready(socket) => (Handoff::Accepted(socket), None),
                // Its own future (boxed): an agent of protocol 5 never runs or compiles its code.
                Opened::Older { socket, protocol } => {
                    let checked = older_agent(socket, protocol, &chat, &request_id);
                    (checked.boxed_local().await?, Some(u64::from(protocol)))
                }
            };
            let frame = Prompt {
                content: &chat.text,
                request_id: &request_id,
                on_disconnect,
                message_id: chat.place.message_id.as_deref(),
                branch: chat.place.branch.as_deref(),
                attachments: &chat.attachments,
                context: chat.context.as_deref(),
            }
            .to_frame();
            let turn = TurnStream::with_clock(Some(&request_id), now_ms)
                .with_questions(questions)
                .with_agent_protocol(protocol);
            let abort = AbortRule::owning(on_disconnect, Some(request_id));
            (handoff, Plan::new(frame, turn, abort))
        }
        // Its own future (boxed), so that a prompt's turn neither runs nor compiles its code.
        Some(reply) => {
            let to = (session_id, user_id);
            reply_plan(&mut cx, to, reply, on_disconnect, questions)
                .boxed_local()
                .await?
        }
    };
    let titles = crate::index::listed::turn(&cx, session_id, &principal, &chat);
    start(cx, agent, plan.with_trace(trace).with_titles(titles))
}

/// The socket of an agent that says protocol `protocol` (older than 5) on its upgrade's answer,
/// for `chat`'s prompt, or the refusal. Protocol 4: its `init` is read first, and the prompt goes
/// only when it would delete nothing the client does not show (`crate::protocol4`; a turn in
/// flight takes nothing back: the agent answers `busy`). Older: a regenerate or an edit is
/// refused, anything else appended.
async fn older_agent(
    socket: worker::WebSocket,
    protocol: u32,
    chat: &ChatRequest,
    request_id: &str,
) -> Result<Handoff, Failure> {
    if protocol < TAKE_BACK_PROTOCOL {
        if chat.takes_back() {
            let _ = socket.accept();
            close_done(&socket);
            return Err(Refusal::agent_cannot_take_back().into());
        }
        socket.accept().map_err(|_| UpstreamError::SocketFailed)?;
        return Ok(Handoff::Accepted(socket));
    }
    let mut agent = upstream::listening(socket, true)?;
    let checked = match read_init(&mut agent.events, request_id).await {
        Hydration::Init(init) if init.in_flight().is_some() => Ok(()),
        Hydration::Init(init) => {
            let stored: Vec<&str> = init.messages.iter().map(|m| m.id.as_str()).collect();
            protocol4::check(&stored, &chat.place, Intent::of(chat))
        }
        // Protocol 4 promised its `init`: one that does not come is a failing agent (a `503`).
        Hydration::Unknown(silence) => Err(silence
            .failure(true)
            .unwrap_or_else(Refusal::older_agent_unchecked)),
        Hydration::TurnEvent { .. } => Err(Refusal::older_agent_unchecked()),
    };
    match checked {
        Ok(()) => Ok(Handoff::Listening(agent)),
        Err(refusal) => {
            close_done(&agent.socket);
            Err(refusal.into())
        }
    }
}
