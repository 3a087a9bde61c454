//! The one record written per streamed turn (and per refused chat request): who asked, how it
//! was asked, how soon the agent answered, how it ended and what it cost; in its request's log line
//! and as an Analytics Engine data point (docs/operations.md documents both, field by field).
//!
//! Like the request's log line it holds ids, counts, times and outcome words only: never a
//! token, a secret, a prompt or a reply. Its keys are the OpenTelemetry GenAI conventions' where
//! one exists (`gen_ai.conversation.id`, `gen_ai.server.time_to_first_token`,
//! `gen_ai.client.operation.duration`, `gen_ai.usage.*`, `gen_ai.response.model`, `error.type`,
//! `user.id`), in their units (seconds); the rest are the project's own, under `turn.`.

use crate::diagnostic::{clip, MAX_LOGGED_ID_CHARS};
use serde::Serialize;

use crate::json_out;
use crate::translator::{EndCause, StreamOutcome};
use crate::v2::Usage;

/// The value of the record's `event.name`: how a log query picks the records out.
pub const EVENT_NAME: &str = "turn";

/// An Analytics Engine point's index: at most 96 bytes (the platform's limit, "Workers Analytics
/// Engine: limits").
pub const MAX_INDEX_BYTES: usize = 96;

/// The caller as a blob: at most 256 bytes. A JWT's `sub` has no length of its own; 256 keeps
/// every point's blobs far under the platform's 16 KB a point.
pub const MAX_CALLER_BYTES: usize = 256;

/// What started the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// A new user message (the AI SDK's `trigger: "submit-message"`, or no trigger).
    Submit,
    /// The last reply asked again (`"regenerate-message"`).
    Regenerate,
    /// The user's answer to the agent's question: the rest of the turn that asked it.
    Answer,
    /// A resume (`GET …/stream`): the rest of a turn already running.
    Resume,
}

impl Trigger {
    /// The trigger of a chat request whose body gave `trigger`.
    pub fn of_chat(trigger: Option<&str>) -> Trigger {
        match trigger {
            Some("regenerate-message") => Trigger::Regenerate,
            _ => Trigger::Submit,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Trigger::Submit => "submit",
            Trigger::Regenerate => "regenerate",
            Trigger::Answer => "answer",
            Trigger::Resume => "resume",
        }
    }
}

/// What the stream of a turn knew when it ended ([`crate::turn_stream::TurnStream::facts`]),
/// borrowed from it: a record copies no text before it writes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnFacts<'a> {
    pub turn_id: Option<&'a str>,
    /// The protocol the agent's `init` said it keeps (0: none said); `None` when no `init` came.
    pub agent_protocol: Option<u64>,
    /// When (ms since the epoch) the first frame of the turn arrived, and the first text went out.
    pub first_frame_at: Option<u64>,
    pub first_text_at: Option<u64>,
    /// Frames of the turn the stream took (deltas, tool updates, the finalize, …).
    pub events: u64,
    pub chunks: u64,
    pub tool_calls: u64,
    pub tool_errors: u64,
    /// How the stream ended ([`crate::translator::Translator::outcome`]).
    pub ended: Option<StreamOutcome>,
    pub error_code: Option<&'a str>,
    pub usage: Option<Usage>,
    pub model: Option<&'a str>,
}

/// The request around the turn, as the edge knows it (borrowed from its log line's fields).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnRequest<'a> {
    pub request_id: &'a str,
    pub session: &'a str,
    /// The caller as the auth mode names it (a JWT's `sub`); `None` when it names none.
    pub caller: Option<&'a str>,
    /// `None` for a chat request refused before its body was read.
    pub trigger: Option<Trigger>,
    /// When the request arrived, and when the stream ended (ms since the epoch).
    pub started_at: u64,
    pub ended_at: u64,
    /// Response bytes written to the client.
    pub bytes: u64,
}

/// One turn's record, borrowing its texts from the request and the stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnRecord<'a> {
    #[serde(rename = "event.name")]
    pub event_name: &'static str,
    #[serde(rename = "turn.request_id")]
    pub request_id: &'a str,
    #[serde(rename = "turn.id", skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<&'a str>,
    #[serde(rename = "gen_ai.conversation.id")]
    pub session: &'a str,
    #[serde(rename = "user.id", skip_serializing_if = "Option::is_none")]
    pub caller: Option<&'a str>,
    #[serde(rename = "turn.trigger", skip_serializing_if = "Option::is_none")]
    pub trigger: Option<&'static str>,
    #[serde(rename = "turn.outcome")]
    pub outcome: &'static str,
    #[serde(rename = "error.type", skip_serializing_if = "Option::is_none")]
    pub error_type: Option<&'a str>,
    #[serde(
        rename = "turn.agent_protocol",
        skip_serializing_if = "Option::is_none"
    )]
    pub agent_protocol: Option<u64>,
    /// Milliseconds, written as seconds ([`Seconds`]).
    #[serde(
        rename = "turn.time_to_first_frame",
        skip_serializing_if = "Option::is_none"
    )]
    pub time_to_first_frame: Option<Seconds>,
    #[serde(
        rename = "gen_ai.server.time_to_first_token",
        skip_serializing_if = "Option::is_none"
    )]
    pub time_to_first_token: Option<Seconds>,
    #[serde(rename = "gen_ai.client.operation.duration")]
    pub duration: Seconds,
    #[serde(rename = "turn.events")]
    pub events: u64,
    #[serde(rename = "turn.chunks")]
    pub chunks: u64,
    #[serde(rename = "turn.bytes")]
    pub bytes: u64,
    #[serde(rename = "turn.tool_calls")]
    pub tool_calls: u64,
    #[serde(rename = "turn.tool_errors")]
    pub tool_errors: u64,
    #[serde(
        rename = "gen_ai.usage.input_tokens",
        skip_serializing_if = "Option::is_none"
    )]
    pub input_tokens: Option<u64>,
    #[serde(
        rename = "gen_ai.usage.output_tokens",
        skip_serializing_if = "Option::is_none"
    )]
    pub output_tokens: Option<u64>,
    #[serde(
        rename = "gen_ai.response.model",
        skip_serializing_if = "Option::is_none"
    )]
    pub model: Option<&'a str>,
}

/// A duration kept in milliseconds and written in seconds with three decimals (`0.412`), as the
/// GenAI conventions measure time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seconds(pub u64);

impl Seconds {
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    fn write(self, out: &mut Vec<u8>) {
        // By hand, not `format!("{}.{:03}")`: every turn writes three (its formatting machinery
        // was a sixth of the record's instructions).
        json_out::number_field(out, b"", self.0 / 1000);
        let ms = self.0 % 1000;
        out.extend_from_slice(&[b'.', digit(ms / 100), digit(ms / 10 % 10), digit(ms % 10)]);
    }
}

/// The ASCII digit of `n` (0–9).
fn digit(n: u64) -> u8 {
    b'0' + n as u8
}

impl Serialize for Seconds {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.as_f64())
    }
}

impl<'a> TurnRecord<'a> {
    /// The record of a stream that ended: `abort_sent` says whether the adapter sent the agent
    /// its `abort` (a client gone under `abort`), which tells an aborted turn from a detached one.
    pub fn of_stream(
        request: TurnRequest<'a>,
        facts: TurnFacts<'a>,
        abort_sent: bool,
    ) -> TurnRecord<'a> {
        let word = facts.ended.map_or("unknown", StreamOutcome::label);
        let outcome = match facts.ended {
            Some(StreamOutcome::Canceled) => "stopped",
            Some(StreamOutcome::Cut(EndCause::ClientGone)) if abort_sent => "aborted",
            Some(StreamOutcome::Cut(EndCause::ClientGone)) => "detached",
            _ => word,
        };
        let error_type = match facts.ended {
            Some(StreamOutcome::AgentError) => Some(facts.error_code.unwrap_or(word)),
            Some(StreamOutcome::Cut(
                EndCause::Timeout
                | EndCause::SocketClosed
                | EndCause::FrameTooLarge
                | EndCause::SlowClient,
            )) => Some(word),
            _ => None,
        };
        let since = |at: Option<u64>| at.map(|at| Seconds(at.saturating_sub(request.started_at)));
        TurnRecord {
            time_to_first_frame: since(facts.first_frame_at),
            time_to_first_token: since(facts.first_text_at),
            // The agent's turn id, any length it sent: cut to what a log line keeps of an id (its
            // error `code` is bounded where it is read, `MAX_CODE_BYTES`).
            turn_id: facts.turn_id.map(|id| clip(id, MAX_LOGGED_ID_CHARS)),
            agent_protocol: facts.agent_protocol,
            outcome,
            error_type,
            events: facts.events,
            chunks: facts.chunks,
            tool_calls: facts.tool_calls,
            tool_errors: facts.tool_errors,
            input_tokens: facts.usage.and_then(|u| u.input_tokens),
            output_tokens: facts.usage.and_then(|u| u.output_tokens),
            model: facts.model,
            ..TurnRecord::of_request(request)
        }
    }

    /// The record of a chat request refused before any turn: `code` is the refusal's.
    pub fn refused(request: TurnRequest<'a>, code: &'a str) -> TurnRecord<'a> {
        TurnRecord {
            outcome: "refused",
            error_type: Some(code),
            ..TurnRecord::of_request(request)
        }
    }

    fn of_request(request: TurnRequest<'a>) -> TurnRecord<'a> {
        TurnRecord {
            event_name: EVENT_NAME,
            duration: Seconds(request.ended_at.saturating_sub(request.started_at)),
            bytes: request.bytes,
            trigger: request.trigger.map(Trigger::label),
            request_id: request.request_id,
            session: request.session,
            caller: request.caller,
            turn_id: None,
            outcome: "unknown",
            error_type: None,
            agent_protocol: None,
            time_to_first_frame: None,
            time_to_first_token: None,
            events: 0,
            chunks: 0,
            tool_calls: 0,
            tool_errors: 0,
            input_tokens: None,
            output_tokens: None,
            model: None,
        }
    }

    /// The record alone as a JSON object, for the tests: the worker writes its keys in its
    /// request's line ([`crate::request_log::RequestLog::line`]).
    #[cfg(test)]
    pub(crate) fn to_line(&self) -> String {
        json_out::to_string(Self::LINE_CAPACITY, |out| {
            out.push(b'{');
            self.write_keys(out);
            out.push(b'}');
        })
    }

    /// A record's usual length: some 420 bytes of keys, two UUIDs, a session id, the numbers.
    pub(crate) const LINE_CAPACITY: usize = 640;

    /// The record's keys and values, `"event.name":"turn",…` without the braces: written by hand
    /// as serde writes the struct (the tests compare the two), since every turn writes them.
    pub(crate) fn write_keys(&self, out: &mut Vec<u8>) {
        json_out::field(out, br#""event.name":"#, self.event_name);
        json_out::field(out, br#","turn.request_id":"#, self.request_id);
        optional(out, br#","turn.id":"#, self.turn_id);
        json_out::field(out, br#","gen_ai.conversation.id":"#, self.session);
        optional(out, br#","user.id":"#, self.caller);
        optional(out, br#","turn.trigger":"#, self.trigger);
        json_out::field(out, br#","turn.outcome":"#, self.outcome);
        optional(out, br#","error.type":"#, self.error_type);
        if let Some(protocol) = self.agent_protocol {
            json_out::number_field(out, br#","turn.agent_protocol":"#, protocol);
        }
        let times = [
            (
                &br#","turn.time_to_first_frame":"#[..],
                self.time_to_first_frame,
            ),
            (
                br#","gen_ai.server.time_to_first_token":"#,
                self.time_to_first_token,
            ),
            (
                br#","gen_ai.client.operation.duration":"#,
                Some(self.duration),
            ),
        ];
        for (key, time) in times {
            if let Some(time) = time {
                out.extend_from_slice(key);
                time.write(out);
            }
        }
        json_out::number_field(out, br#","turn.events":"#, self.events);
        json_out::number_field(out, br#","turn.chunks":"#, self.chunks);
        json_out::number_field(out, br#","turn.bytes":"#, self.bytes);
        json_out::number_field(out, br#","turn.tool_calls":"#, self.tool_calls);
        json_out::number_field(out, br#","turn.tool_errors":"#, self.tool_errors);
        let tokens = [
            (&br#","gen_ai.usage.input_tokens":"#[..], self.input_tokens),
            (br#","gen_ai.usage.output_tokens":"#, self.output_tokens),
        ];
        for (key, count) in tokens {
            if let Some(count) = count {
                json_out::number_field(out, key, count);
            }
        }
        optional(out, br#","gen_ai.response.model":"#, self.model);
    }

    /// The record as an Analytics Engine data point (docs/operations.md, "The data point"), as
    /// values: what the tests read [`TurnRecord::data_point_json`] against.
    #[cfg(test)]
    pub fn data_point(&self) -> DataPoint {
        DataPoint {
            index: self.index().to_owned(),
            blobs: self.blobs().map(str::to_owned).to_vec(),
            doubles: self.doubles().map(Double::as_f64).to_vec(),
        }
    }

    /// The data point as the JSON text of the object `writeDataPoint` takes, `{"indexes":[…],
    /// "doubles":[…],"blobs":[…]}` (the keys in the order workers-rs' builder sets them): one
    /// value that JavaScript parses in one call, where the builder made a call a value. Each
    /// double is written so that JavaScript reads back exactly [`TurnRecord::data_point`]'s.
    pub fn data_point_json(&self) -> String {
        json_out::to_string(POINT_CAPACITY, |out| {
            json_out::field(out, br#"{"indexes":["#, self.index());
            out.extend_from_slice(br#"],"doubles":"#);
            json_out::array(out, self.doubles(), |out, double| double.write(out));
            out.extend_from_slice(br#","blobs":"#);
            json_out::array(out, self.blobs(), json_out::string);
            out.push(b'}');
        })
    }

    /// The point's index: the caller, else the session, cut to the platform's limit.
    fn index(&self) -> &'a str {
        truncated(self.caller.unwrap_or(self.session), MAX_INDEX_BYTES)
    }

    /// The point's blobs, in [`BLOB_NAMES`]' order.
    fn blobs(&self) -> [&'a str; 8] {
        [
            self.outcome,
            self.error_type.unwrap_or(""),
            self.trigger.unwrap_or(""),
            self.session,
            truncated(self.caller.unwrap_or(""), MAX_CALLER_BYTES),
            self.turn_id.unwrap_or(""),
            self.model.unwrap_or(""),
            self.request_id,
        ]
    }

    /// The point's doubles, in [`DOUBLE_NAMES`]' order.
    fn doubles(&self) -> [Double; 12] {
        let time = |t: Option<Seconds>| t.map_or(Double::MinusOne, Double::Seconds);
        [
            time(self.time_to_first_token),
            time(self.time_to_first_frame),
            Double::Seconds(self.duration),
            Double::Count(self.input_tokens.unwrap_or(0)),
            Double::Count(self.output_tokens.unwrap_or(0)),
            Double::Count(self.events),
            Double::Count(self.chunks),
            Double::Count(self.bytes),
            Double::Count(self.tool_calls),
            Double::Count(self.tool_errors),
            self.agent_protocol.map_or(Double::MinusOne, Double::Count),
            Double::Count(u64::from(
                self.input_tokens.is_some() || self.output_tokens.is_some(),
            )),
        ]
    }
}

/// One double of a data point, as the record holds it.
#[derive(Debug, Clone, Copy)]
enum Double {
    /// A time, in seconds.
    Seconds(Seconds),
    Count(u64),
    /// What stands for an absent time or protocol.
    MinusOne,
}

impl Double {
    /// The value JavaScript reads back from [`Double::write`]'s text (in tests).
    #[cfg(test)]
    fn as_f64(self) -> f64 {
        match self {
            Double::Seconds(seconds) => seconds.as_f64(),
            Double::Count(n) => n as f64,
            Double::MinusOne => -1.0,
        }
    }

    /// The double as JSON text that parses to exactly [`Double::as_f64`]: a count in decimal
    /// (both `as f64` and JavaScript's parse round to the nearest double), seconds as
    /// [`Seconds::write`] writes them (`ms / 1000.0` and the parse of `"s.mmm"` are both the
    /// double nearest the same number).
    fn write(self, out: &mut Vec<u8>) {
        match self {
            Double::Seconds(seconds) => seconds.write(out),
            Double::Count(n) => json_out::number_field(out, b"", n),
            Double::MinusOne => out.extend_from_slice(b"-1"),
        }
    }
}

/// A point's usual JSON length: its keys, two UUIDs, a session id, an outcome, a model's name and
/// twelve numbers; about 300 bytes.
const POINT_CAPACITY: usize = 384;

fn optional(out: &mut Vec<u8>, key: &[u8], value: Option<&str>) {
    if let Some(value) = value {
        json_out::field(out, key, value);
    }
}

/// `text` cut to at most `max` bytes, at a character's boundary.
fn truncated(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// What each blob of a data point holds, in order: the record's key (docs/operations.md).
pub const BLOB_NAMES: [&str; 8] = [
    "turn.outcome",
    "error.type",
    "turn.trigger",
    "gen_ai.conversation.id",
    "user.id",
    "turn.id",
    "gen_ai.response.model",
    "turn.request_id",
];

/// What each double of a data point holds, in order (docs/operations.md).
pub const DOUBLE_NAMES: [&str; 12] = [
    "gen_ai.server.time_to_first_token",
    "turn.time_to_first_frame",
    "gen_ai.client.operation.duration",
    "gen_ai.usage.input_tokens",
    "gen_ai.usage.output_tokens",
    "turn.events",
    "turn.chunks",
    "turn.bytes",
    "turn.tool_calls",
    "turn.tool_errors",
    "turn.agent_protocol",
    "turn.usage_reported",
];

/// An Analytics Engine data point: one index, the blobs and the doubles, in the documented order.
#[cfg(test)]
#[derive(Debug, Clone, PartialEq)]
pub struct DataPoint {
    pub index: String,
    pub blobs: Vec<String>,
    pub doubles: Vec<f64>,
}

#[cfg(test)]
#[path = "turn_record_tests.rs"]
mod tests;
