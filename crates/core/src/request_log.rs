//! The one structured log line written per request: who, what happened, how much, how long;
//! for a request that streams a turn (or a chat request refused), the turn's record too, in the
//! same line.
//!
//! It carries ids, counts and outcomes only: never message content, prompts, tokens or
//! secrets, so logs can be kept and shipped without becoming a copy of the chats.

use serde::Serialize;

use crate::json_out;
use crate::refusal::Code;
use crate::turn_record::TurnRecord;

/// One request's log record, written as a single JSON line when the request is over
/// (for a streamed turn, when the stream ends).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestLog {
    /// The worker's id of the request: also the prompt's `requestId` and the
    /// `x-request-id` response header.
    pub request_id: String,
    pub method: String,
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    pub status: u16,
    /// A stable word for how the request ended: an error code (`invalid_json`,
    /// `agent_unavailable`, …) or, for a stream, `finished` / `agent_error` /
    /// `canceled` / `client_gone` / `connection_lost` / `timeout`.
    pub outcome: String,
    /// UI chunks written to the client.
    pub chunks: u64,
    /// Response body bytes written to the client.
    pub bytes: u64,
    /// Frames from the agent that were skipped (malformed, binary or too large).
    pub skipped_frames: u64,
    pub duration_ms: u64,
}

/// How a request answered at once (not streamed) ended: its status and its log `outcome` as one
/// value, so that the two are never set apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// A CORS preflight: `204`.
    Preflight,
    /// The playground page: `200`.
    Playground,
    /// A resume with nothing to resume: `204`.
    NothingToResume,
    /// A stop with no turn in flight: `200 {"stopped":false}`.
    NotStopped,
    /// A stop that sent the agent its `abort`: `202 {"stopped":true}`.
    Stopped,
    /// The session's history: `200`.
    History,
    /// A session feed of an agent that sends no `init`: `204`.
    NothingToFollow,
    /// A session feed that ended (`200`, its events streamed until then).
    Feed(crate::feed::FeedEnd),
    /// An upload stored (`POST …/files`): `201`.
    FileStored,
    /// A file served whole: `200`.
    FileServed,
    /// A part of a file served (a `Range`): `206`.
    FilePart,
    /// A page of the caller's conversations: `200`.
    Listed,
    /// A conversation renamed: `200`.
    Renamed,
    /// A conversation deleted: `204`.
    Deleted,
    /// One of the demo agent's logs, answered with the object's own status.
    DemoLog(u16),
    /// A refusal: its status, and its `code` as the outcome.
    Refused(Code),
}

impl Disposition {
    /// Every kind with a fixed status (all but the demo's logs and the refusals, whose outcome is
    /// their code): the ones `docs/auth.md` lists, which its test checks.
    #[cfg(test)]
    pub const DOCUMENTED: [Disposition; 13] = [
        Disposition::Preflight,
        Disposition::Playground,
        Disposition::NothingToResume,
        Disposition::NotStopped,
        Disposition::Stopped,
        Disposition::History,
        Disposition::NothingToFollow,
        Disposition::FileStored,
        Disposition::FileServed,
        Disposition::FilePart,
        Disposition::Listed,
        Disposition::Renamed,
        Disposition::Deleted,
    ];

    pub fn status(self) -> u16 {
        match self {
            Disposition::Preflight
            | Disposition::NothingToResume
            | Disposition::NothingToFollow
            | Disposition::Deleted => 204,
            Disposition::Playground
            | Disposition::NotStopped
            | Disposition::History
            | Disposition::Feed(_)
            | Disposition::FileServed
            | Disposition::Listed
            | Disposition::Renamed => 200,
            Disposition::FileStored => 201,
            Disposition::Stopped => 202,
            Disposition::FilePart => 206,
            Disposition::DemoLog(status) => status,
            Disposition::Refused(kind) => kind.status,
        }
    }

    /// The log line's `outcome`.
    pub fn outcome(self) -> &'static str {
        match self {
            Disposition::Preflight => "preflight",
            Disposition::Playground => "playground",
            Disposition::NothingToResume => "nothing_to_resume",
            Disposition::NotStopped => "not_stopped",
            Disposition::Stopped => "stopped",
            Disposition::History => "history",
            Disposition::NothingToFollow => "nothing_to_follow",
            Disposition::Feed(end) => end.outcome(),
            Disposition::FileStored => "file_stored",
            Disposition::FileServed => "file_served",
            Disposition::FilePart => "file_part",
            Disposition::Listed => "sessions_listed",
            Disposition::Renamed => "session_renamed",
            Disposition::Deleted => "session_deleted",
            Disposition::DemoLog(_) => "demo_log",
            Disposition::Refused(kind) => kind.code,
        }
    }
}

impl RequestLog {
    /// Records how the request was answered: its status and outcome, from one value.
    pub fn answered(&mut self, answered: Disposition) {
        self.status = answered.status();
        self.outcome = answered.outcome().to_owned();
    }
}

/// A log line's usual length: about 130 constant bytes, a UUID, a chat route's path and
/// session id, and the numbers.
const LINE_CAPACITY: usize = 320;

impl RequestLog {
    /// The request's line: its keys, then, for a request that streamed a turn or refused a chat
    /// request, the turn's record's (`event.name` and the rest, docs/operations.md). One line,
    /// not two: a `console.log` costs a 100-event turn more than 1% of its instructions
    /// (bench/README.md, "The turn's record in the request's line"). Written by hand, as serde
    /// writes the two structs one after the other (the tests compare them), since every request
    /// writes one.
    pub fn line(&self, turn: Option<&TurnRecord>) -> String {
        let capacity = LINE_CAPACITY + turn.map_or(0, |_| TurnRecord::LINE_CAPACITY);
        json_out::to_string(capacity, |out| {
            json_out::field(out, br#"{"requestId":"#, &self.request_id);
            json_out::field(out, br#","method":"#, &self.method);
            json_out::field(out, br#","path":"#, &self.path);
            if let Some(session) = &self.session {
                json_out::field(out, br#","session":"#, session);
            }
            if let Some(user) = &self.user {
                json_out::field(out, br#","user":"#, user);
            }
            json_out::number_field(out, br#","status":"#, u64::from(self.status));
            json_out::field(out, br#","outcome":"#, &self.outcome);
            json_out::number_field(out, br#","chunks":"#, self.chunks);
            json_out::number_field(out, br#","bytes":"#, self.bytes);
            json_out::number_field(out, br#","skippedFrames":"#, self.skipped_frames);
            json_out::number_field(out, br#","durationMs":"#, self.duration_ms);
            if let Some(turn) = turn {
                out.push(b',');
                turn.write_keys(out);
            }
            out.push(b'}');
        })
    }
}

/// `bytes` (random) as a version 4 UUID, `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`: the version
/// and variant bits set as RFC 9562 (section 5.4) says, every other bit as given. A request's id.
pub fn uuid_v4(mut bytes: [u8; 16]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let mut id = String::with_capacity(36);
    for (i, byte) in bytes.into_iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            id.push('-');
        }
        id.push(char::from(HEX[usize::from(byte >> 4)]));
        id.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    id
}

#[cfg(test)]
pub(crate) use tests::any_request_log;

#[cfg(test)]
#[path = "request_log_tests.rs"]
mod tests;
