//! The one structured log line written per request: who, what happened, how much, how long.
//!
//! It carries ids, counts and outcomes only: never message content, prompts, tokens or
//! secrets, so logs can be kept and shipped without becoming a copy of the chats.

use serde::Serialize;

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

impl RequestLog {
    /// The record as one line of JSON.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            log.to_line(),
            r#"{"requestId":"r","method":"POST","path":"/api/sessions/s/chat","session":"s","status":200,"outcome":"finished","chunks":7,"bytes":420,"skippedFrames":1,"durationMs":35}"#
        );
    }
}
