//! `GET /api/sessions/:id/events`: the session feed. The guard's checks, as for the history; a
//! place in the isolate (`MAX_SESSION_FEEDS`, `MAX_USER_FEEDS`, `MAX_FEEDS`); the agent's socket and its `init`
//! (`204` from an agent that sends none); then `200` and the feed's events from the state the
//! client last saw (`Last-Event-ID`), kept up by [`crate::feed::task`] until the client goes.

use wasm_bindgen::JsValue;

use crate::agent::hydrate::{read_init, Hydration};
use crate::agent::upstream;
use crate::context::RouteContext;
use crate::exchange::Exchange;
use crate::failure::Failure;
use crate::feed::backlog::Backlog;
use crate::feed::task::LiveFeed;
use crate::feed::{place, slots};
use crate::feed::{Feed, KEEP_ALIVE_MS, RESPONSE_HEADERS};
use crate::guard::admit;
use crate::liveness::Liveness;
use crate::outcome::Outcome;
use crate::platform::clock::now_ms;
use crate::platform::socket::{close_done, close_failed};
use crate::pump::client::{ok_init, ClientStream};
use crate::refusal::Refusal;
use crate::request_head::Field;
use crate::request_log::Disposition;
use crate::sse::KEEP_ALIVE;

/// `GET …/events`.
pub(crate) async fn open(mut cx: RouteContext<'_>, session_id: &str) -> Result<Outcome, Failure> {
    let principal = admit(&mut cx, session_id).await?;
    // Before the agent is touched: a feed past a cap costs it nothing.
    let caller = slots::caller(principal.user_id.as_deref(), cx.req.header(Field::ClientIp));
    let slot = place::reserve(cx.config, session_id, caller)?;
    let user_id = principal.user_id.as_deref();
    let mut agent = upstream::connect(cx.env, cx.config, session_id, user_id).await?;
    let request_id = cx.exchange.request_id().to_owned();
    let init = match read_init(&mut agent.events, &request_id).await {
        Hydration::Init(init) => init,
        // A failing agent (slow, closed, unreadable): `503 agent_not_ready`, and the client
        // tries again. An agent that keeps no `init` gives a feed nothing to tell a client by (no
        // message, no user message at a turn): `204`, which tells a feed's client that nothing
        // is to follow yet. Either way the place is given back.
        other => {
            close_done(&agent.socket);
            drop(slot);
            if let Hydration::Unknown(silence) = other {
                if let Some(refusal) = silence.failure(agent.promised_init) {
                    return Err(refusal.into());
                }
            }
            return Ok(cx.exchange.nothing(Disposition::NothingToFollow)?.into());
        }
    };
    let (feed, opening) = Feed::open(&init, cx.req.header(Field::LastEventId));
    let (mut client, response) = FEED_INIT
        .with(|init| ClientStream::open(init, &request_id))
        .map_err(|_| {
            close_failed(&agent.socket, "no response stream");
            Refusal::stream_not_created()
        })?;
    // A comment first, always: a body nobody ever reads then has bytes waiting, the one sign of
    // a client that left before the headers went out (`crate::feed::task`).
    let mut first = KEEP_ALIVE.to_vec();
    first.extend_from_slice(&opening);
    client.write(&first, None);
    let exchange = &mut *cx.exchange;
    exchange.log.status = 200;
    exchange.log.chunks = 1;
    exchange.log.bytes = first.len() as u64;
    let live = LiveFeed {
        env: cx.env.clone(),
        session_id: session_id.to_owned(),
        user_id: principal.user_id,
        expires_at_ms: principal.expires_at_ms,
        agent,
        feed,
        client,
        request: Clone::clone(cx.req.raw),
        slot,
        exchange: Exchange::handed_off(exchange),
        wrote: false,
        keep_alive_at: now_ms().saturating_add(KEEP_ALIVE_MS),
        liveness: Liveness::new(cx.config.liveness_ping_ms, now_ms()),
        ping_ms: cx.config.liveness_ping_ms,
        backlog: Backlog::default(),
    };
    Ok(Outcome::Feed {
        response,
        live: Box::new(live),
    })
}

thread_local! {
    /// The `ResponseInit` of every feed: `200` and the feed's headers.
    static FEED_INIT: JsValue = ok_init(&RESPONSE_HEADERS);
}
