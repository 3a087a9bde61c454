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
pub enum Answered {
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
    /// One of the demo agent's logs, answered with the object's own status.
    DemoLog(u16),
    /// A refusal: its status, and its `code` as the outcome.
    Refused(Code),
}

impl Answered {
    /// Every kind with a fixed status (all but the demo's logs and the refusals, whose outcome is
    /// their code): the ones `docs/auth.md` lists.
    pub const DOCUMENTED: [Answered; 6] = [
        Answered::Preflight,
        Answered::Playground,
        Answered::NothingToResume,
        Answered::NotStopped,
        Answered::Stopped,
        Answered::History,
    ];

    pub fn status(self) -> u16 {
        match self {
            Answered::Preflight | Answered::NothingToResume => 204,
            Answered::Playground | Answered::NotStopped | Answered::History => 200,
            Answered::Stopped => 202,
            Answered::DemoLog(status) => status,
            Answered::Refused(kind) => kind.status,
        }
    }

    /// The log line's `outcome`.
    pub fn outcome(self) -> &'static str {
        match self {
            Answered::Preflight => "preflight",
            Answered::Playground => "playground",
            Answered::NothingToResume => "nothing_to_resume",
            Answered::NotStopped => "not_stopped",
            Answered::Stopped => "stopped",
            Answered::History => "history",
            Answered::DemoLog(_) => "demo_log",
            Answered::Refused(kind) => kind.code,
        }
    }
}

impl RequestLog {
    /// Records how the request was answered: its status and outcome, from one value.
    pub fn answered(&mut self, answered: Answered) {
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
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn an_answer_sets_status_and_outcome_together_and_the_docs_name_each() {
        let mut log = RequestLog::default();
        log.answered(Answered::Stopped);
        assert_eq!((log.status, log.outcome.as_str()), (202, "stopped"));
        log.answered(Answered::DemoLog(404));
        assert_eq!((log.status, log.outcome.as_str()), (404, "demo_log"));
        let page = include_str!("../../../docs/auth.md");
        for answered in Answered::DOCUMENTED {
            let word = format!("`{}`", answered.outcome());
            assert!(page.contains(&word), "docs/auth.md names {word}");
        }
    }

    #[test]
    fn request_ids_are_version_4_uuids() {
        assert_eq!(uuid_v4([0; 16]), "00000000-0000-4000-8000-000000000000");
        assert_eq!(uuid_v4([0xff; 16]), "ffffffff-ffff-4fff-bfff-ffffffffffff");
        let bytes = [
            0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0x0f, 0xed, 0xcb, 0xa9, 0x87, 0x65,
            0x43, 0x21,
        ];
        assert_eq!(uuid_v4(bytes), "12345678-9abc-4ef0-8fed-cba987654321");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1000))]

        #[test]
        fn the_line_is_what_serde_writes(log in any_request_log()) {
            prop_assert_eq!(log.line(None), serde_json::to_string(&log).unwrap());
        }
    }

    /// Any request's log: texts of every kind, each optional field present or not, any numbers.
    pub(crate) fn any_request_log() -> impl Strategy<Value = RequestLog> {
        let texts = prop::collection::vec(crate::json_out::any_text(), 6);
        (texts, any::<(bool, bool, u16)>(), any::<[u64; 4]>()).prop_map(
            |(t, (session, user, status), n)| RequestLog {
                request_id: t[0].clone(),
                method: t[1].clone(),
                path: t[2].clone(),
                session: session.then(|| t[3].clone()),
                user: user.then(|| t[4].clone()),
                status,
                outcome: t[5].clone(),
                chunks: n[0],
                bytes: n[1],
                skipped_frames: n[2],
                duration_ms: n[3],
            },
        )
    }

    #[test]
    fn one_line_of_json_without_absent_fields() {
        let log = RequestLog {
            request_id: "r".into(),
            method: "POST".into(),
            path: "/api/sessions/s/chat".into(),
            session: Some("s".into()),
            user: None,
            status: 200,
            outcome: "finished".into(),
            chunks: 7,
            bytes: 420,
            skipped_frames: 1,
            duration_ms: 35,
        };
        assert_eq!(
            log.line(None),
            r#"{"requestId":"r","method":"POST","path":"/api/sessions/s/chat","session":"s","status":200,"outcome":"finished","chunks":7,"bytes":420,"skippedFrames":1,"durationMs":35}"#
        );
    }
}
