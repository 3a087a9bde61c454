//! The session feed (`GET /api/sessions/:id/events`) at the edge, under the core's name: what a
//! feed tells its client is the core's (`session_agent_core::feed`, re-exported here, so one name
//! holds the feed's rules and its running); the task that runs one feed is [`task`], its place in
//! the isolate [`place`], and the route that opens it `crate::handlers::feed`.

pub(crate) mod place;
pub(crate) mod task;

pub(crate) use session_agent_core::feed::{
    backlog, slots, Feed, FeedEnd, Step, HEARTBEAT, KEEP_ALIVE_MS, RESPONSE_HEADERS,
    UNREAD_KEEP_ALIVES,
};
