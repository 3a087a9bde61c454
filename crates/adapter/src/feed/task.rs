//! One session feed while it runs (`GET /api/sessions/:id/events`; what it tells is the core's
//! `feed`): its socket to the agent, read again at a turn it cannot place, its body, its
//! keep-alive, its place in the isolate ([`super::place`]) and its end.
//!
//! One task per feed, which sleeps between wake-ups: a frame of the agent, the feed's one timer
//! (its keep-alive, [`KEEP_ALIVE_MS`], and the check of its socket, `crate::liveness`, which
//! shares a keep-alive's wake-up at the default periods), the client's going away
//! ([`gone.js`](gone.js)). An idle feed costs the worker nothing but its keep-alive, which is also
//! how a client's going is found out (workerd learns it only when it writes), and its socket's
//! ping. A client that does not read makes the feed fall behind (`backlog`): nothing more is
//! written until it has read, then one `sync`. The task ends
//! when the client goes, when the agent's socket closes or stops answering (the client comes back
//! with its `Last-Event-ID`), or when the worker would refuse its caller's token (its `exp`, with
//! the clock skew allowed), and its log line is written then. Should the instance be lost, the
//! watchdog (`crate::watchdog`) ends the body in this task's place.

use futures::future::FutureExt;
use futures::{select_biased, StreamExt};
use js_sys::Promise;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use worker::{Delay, Env};

use super::backlog::{Admit, Backlog};
use super::place::Slot;
use super::{Feed, FeedEnd, Step, HEARTBEAT, KEEP_ALIVE_MS, UNREAD_KEEP_ALIVES};
use crate::agent::hydrate::{read_init, Hydration};
use crate::agent::upstream::{self, AgentSocket};
use crate::exchange::Exchange;
use crate::liveness::{Check, Liveness};
use crate::platform::clock::now_ms;
use crate::platform::log;
use crate::platform::settings;
use crate::platform::socket::{close_done, SocketEvent};
use crate::pump::client::ClientStream;
use crate::request_log::Disposition;
use crate::v2::PING;
use crate::watchdog;

/// How early a wake-up may come and still do what is due then, in ms: the keep-alive's time
/// counts from the last write, the socket's check from the last frame, which come within
/// milliseconds of each other at a turn's end (its `finalize`, then `complete`); 1 s lets the two
/// share one wake-up. Far inside both periods at their defaults; for the check, never more than a
/// quarter of its period (a test's short one), so that a pong always has most of a period.
const WAKE_SLACK_MS: u64 = 1_000;

#[wasm_bindgen(module = "/src/feed/gone.js")]
extern "C" {
    #[wasm_bindgen(js_name = clientGone)]
    fn client_gone(
        writer: &web_sys::WritableStreamDefaultWriter,
        request: &web_sys::Request,
    ) -> Promise;
}

/// Everything one open feed owns.
pub(crate) struct LiveFeed {
    pub(crate) env: Env,
    pub(crate) session_id: String,
    /// The caller, as the agent's sockets name it (`X-User-Id`).
    pub(crate) user_id: Option<String>,
    /// When the caller's credentials end (ms since the epoch): the feed ends then.
    pub(crate) expires_at_ms: Option<u64>,
    pub(crate) agent: AgentSocket,
    pub(crate) feed: Feed,
    pub(crate) client: ClientStream,
    /// The client's request, whose `signal` fires when the client goes away.
    pub(crate) request: web_sys::Request,
    pub(crate) slot: Slot,
    pub(crate) exchange: Exchange,
    /// Something was written since the keep-alive's timer was set: it starts again.
    pub(crate) wrote: bool,
    /// When the next keep-alive is due (ms since the epoch): a period after the last write.
    pub(crate) keep_alive_at: u64,
    /// The agent's socket's liveness, in ms since the epoch, and its period (`LIVENESS_PING_MS`).
    pub(crate) liveness: Liveness,
    pub(crate) ping_ms: u64,
    /// Whether the client fell behind ([`Backlog`]).
    pub(crate) backlog: Backlog,
}

/// What woke the task.
enum Wake {
    Agent(Option<SocketEvent>),
    KeepAlive,
    ClientGone,
}

impl LiveFeed {
    /// Runs the feed until it ends; the promise settles then (the request waits for it).
    pub(crate) fn start(self: Box<Self>) -> Promise {
        future_to_promise(async move {
            self.run().await;
            Ok(JsValue::UNDEFINED)
        })
    }

    async fn run(mut self) {
        let mut gone = JsFuture::from(client_gone(self.client.writer(), &self.request)).fuse();
        watchdog::watch(self.client.writer(), &self.agent.socket, self.ping_ms);
        let mut keep_alive = self.timer().fuse();
        let end = loop {
            if self.expired() {
                break FeedEnd::Expired;
            }
            let wake = select_biased! {
                _ = gone => Wake::ClientGone,
                event = self.agent.events.next().fuse() => Wake::Agent(event),
                () = keep_alive => Wake::KeepAlive,
            };
            let timer_woke = matches!(wake, Wake::KeepAlive);
            match wake {
                Wake::ClientGone => break FeedEnd::ClientGone,
                Wake::KeepAlive if self.expired() => break FeedEnd::Expired,
                Wake::KeepAlive => {
                    let now = now_ms();
                    if now.saturating_add(WAKE_SLACK_MS) >= self.keep_alive_at {
                        // Due, written or not (a feed behind writes nothing): the next one is a
                        // period on, and the timer never spins.
                        self.keep_alive_at = now.saturating_add(KEEP_ALIVE_MS);
                        self.write(HEARTBEAT);
                        if self.client.check_progress().stalled_out(UNREAD_KEEP_ALIVES) {
                            break FeedEnd::ClientGone;
                        }
                    }
                    if let Some(end) = self.check_socket(now) {
                        break end;
                    }
                }
                Wake::Agent(Some(SocketEvent::Text(text))) => {
                    self.liveness.heard(text.as_bytes(), now_ms());
                    if Liveness::is_pong(text.as_bytes()) {
                        continue;
                    }
                    if let Some(end) = self.on_frame(&text).await {
                        break end;
                    }
                }
                Wake::Agent(Some(SocketEvent::Binary)) => {}
                Wake::Agent(Some(SocketEvent::Closed { .. } | SocketEvent::Failed) | None) => {
                    break FeedEnd::AgentGone;
                }
            }
            // A client that fell behind and has read since: the session as it is now.
            if self.backlog.is_behind() && self.backlog.caught_up(self.client.queued_bytes()) {
                let sync = self.feed.sync();
                self.write(&sync);
                let dropped = self.backlog.dropped();
                let detail = format!("{dropped} writes dropped in all; a sync sent");
                log::info("feed_caught_up", Some(self.exchange.request_id()), &detail);
            }
            // The keep-alive counts from the last write, not from the agent's last frame: a turn
            // whose deltas the feed does not tell leaves its client with nothing for minutes. A
            // feed behind writes no keep-alive, and its timer still runs: it checks the backlog.
            if std::mem::take(&mut self.wrote) {
                self.keep_alive_at = now_ms().saturating_add(KEEP_ALIVE_MS);
                keep_alive = self.timer().fuse();
            } else if timer_woke {
                keep_alive = self.timer().fuse();
            }
        };
        self.finish(end);
    }

    /// The feed's one timer: the keep-alive's, the socket's check or the credentials' end,
    /// whichever comes first.
    fn timer(&self) -> Delay {
        let due = self.keep_alive_at.min(self.liveness.next_at());
        let due = self.expires_at_ms.map_or(due, |at| due.min(at));
        let wait = due.saturating_sub(now_ms());
        Delay::from(std::time::Duration::from_millis(wait))
    }

    /// The socket's check (`crate::liveness`) at `now`, or a little before it is due (counted as
    /// at its due time, so the checks keep their period): a ping, or `Some` when the socket is
    /// dead.
    fn check_socket(&mut self, now: u64) -> Option<FeedEnd> {
        let slack = WAKE_SLACK_MS.min(self.ping_ms / 4);
        if !self.liveness.due(now.saturating_add(slack)) {
            return None;
        }
        match self.liveness.check(now.max(self.liveness.next_at())) {
            Check::Quiet => None,
            Check::Ping => {
                // A send that fails finds a closed socket, whose close event comes next.
                let _ = self.agent.socket.send_with_str(PING);
                None
            }
            Check::Dead => {
                let why = "the agent's socket answered no ping for a whole period: ending the feed";
                log::warn("agent_silent", Some(self.exchange.request_id()), why);
                Some(FeedEnd::AgentGone)
            }
        }
    }

    fn expired(&self) -> bool {
        self.expires_at_ms.is_some_and(|at| now_ms() >= at)
    }

    /// One frame of the agent; `Some` when the feed ends over it.
    async fn on_frame(&mut self, text: &str) -> Option<FeedEnd> {
        match self.feed.on_frame(text) {
            Ok(Step::Nothing) => None,
            Ok(Step::Write(bytes)) => {
                self.write(&bytes);
                None
            }
            Ok(Step::Rehydrate { turn_id }) => self.rehydrate(&turn_id).await,
            Ok(Step::Deleted(bytes)) => {
                self.write_last(&bytes);
                Some(FeedEnd::Deleted)
            }
            Err(err) => {
                self.exchange.log.skipped_frames += 1;
                log::warn(
                    "skipped",
                    Some(self.exchange.request_id()),
                    &err.to_string(),
                );
                None
            }
        }
    }

    /// Reads the session again on a new socket (a turn the feed has not seen: its user message is
    /// in the `init`), tells the client what changed, and goes on on the new socket: its events
    /// continue its `init` exactly (R-init-continuity), so what the old one queued meanwhile is
    /// dropped with it.
    async fn rehydrate(&mut self, turn_id: &str) -> Option<FeedEnd> {
        let settings = settings::load(&self.env);
        let config = settings.as_ref().as_ref().ok()?;
        let user_id = self.user_id.as_deref();
        let Ok(mut agent) = upstream::connect(&self.env, config, &self.session_id, user_id).await
        else {
            return Some(FeedEnd::AgentGone);
        };
        let request_id = self.exchange.request_id().to_owned();
        let Hydration::Init(init) = read_init(&mut agent.events, &request_id).await else {
            close_done(&agent.socket);
            return Some(FeedEnd::AgentGone);
        };
        let bytes = self.feed.rehydrated(&init, turn_id);
        self.write(&bytes);
        let old = std::mem::replace(&mut self.agent, agent);
        close_done(&old.socket);
        self.liveness = Liveness::new(self.ping_ms, now_ms());
        watchdog::watch(self.client.writer(), &self.agent.socket, self.ping_ms);
        None
    }

    /// Writes `bytes` to the client, counted in the log line; drops them when the client is
    /// behind ([`Backlog::admit`]: its queued bytes would pass the bound).
    fn write(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let queued = self.client.queued_bytes();
        let was_behind = self.backlog.is_behind();
        if self.backlog.admit(queued, bytes.len()) == Admit::Drop {
            if !was_behind {
                let detail = format!("{queued} bytes wait for the client: nothing more is written until it has read them, then one sync");
                log::warn("feed_behind", Some(self.exchange.request_id()), &detail);
            }
            return;
        }
        self.put(bytes);
    }

    /// Writes the feed's last event (`deleted`), behind or not: a client that reads again must
    /// learn that the session is gone, not reconnect to an empty one; it is a few bytes past the
    /// backlog's bound, and the feed ends after it.
    fn write_last(&mut self, bytes: &[u8]) {
        self.put(bytes);
    }

    /// `bytes` written to the client, counted in the log line.
    fn put(&mut self, bytes: &[u8]) {
        self.client.write(bytes, None);
        self.wrote = true;
        self.exchange.log.chunks += 1;
        self.exchange.log.bytes += bytes.len() as u64;
    }

    /// Closes the agent's socket and the body, gives the feed's place back, and writes its line.
    fn finish(self, end: FeedEnd) {
        let LiveFeed {
            agent,
            client,
            slot,
            mut exchange,
            ..
        } = self;
        close_done(&agent.socket);
        watchdog::unwatch(client.writer());
        client.finish();
        drop(slot);
        exchange.log.answered(Disposition::Feed(end));
        exchange.finish(None);
    }
}
