//! Every refusal the adapter answers a request with, in one catalogue: its status and `code`
//! ([`CATALOGUE`], which `docs/endpoint.md`'s errors table is checked against), its message, and
//! the headers that go with it (`WWW-Authenticate`, `Retry-After`, `Allow`).
//!
//! A handler returns `Err(Refusal)` (or an error that becomes one, each beside its own type:
//! `AuthError`, `RequestError`, `RateLimited`); the edge writes it as the JSON body of
//! [`crate::error_body`], and the request's log line takes its status and outcome from it.

use std::borrow::Cow;

/// A refusal's HTTP status and its stable machine-readable `code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Code {
    pub status: u16,
    pub code: &'static str,
}

impl Code {
    /// The status and the code, as one value to compare (in tests).
    #[cfg(test)]
    pub const fn pair(self) -> (u16, &'static str) {
        (self.status, self.code)
    }
}

/// The catalogue: each code a constant, and [`CATALOGUE`] listing them all, in the order of
/// `docs/endpoint.md`'s table.
macro_rules! catalogue {
    ($($(#[$doc:meta])* $name:ident = $status:literal $code:literal;)*) => {
        $($(#[$doc])* pub const $name: Code = Code { status: $status, code: $code };)*
        /// Every code the adapter answers with.
        pub const CATALOGUE: &[Code] = &[$($name),*];
    };
}

catalogue! {
    /// The session id is not 1–128 characters of `[A-Za-z0-9._:-]`.
    INVALID_SESSION_ID = 400 "invalid_session_id";
    INVALID_JSON = 400 "invalid_json";
    /// The body could not be read to its end (the connection failed while it came in).
    BODY_UNREADABLE = 400 "body_unreadable";
    INVALID_BODY = 400 "invalid_body";
    INVALID_FIELD = 400 "invalid_field";
    MISSING_MESSAGES = 400 "missing_messages";
    NO_MESSAGES = 400 "no_messages";
    INVALID_MESSAGE = 400 "invalid_message";
    INVALID_ATTACHMENT = 400 "invalid_attachment";
    /// A history request's query that cannot be read (`limit`, `before`, `leaf`).
    INVALID_QUERY = 400 "invalid_query";
    /// An upload's `filename` that is no file name (`crate::files::name`).
    INVALID_FILENAME = 400 "invalid_filename";
    /// A file of no bytes: a message's `data:` URL that holds nothing.
    EMPTY_FILE = 400 "empty_file";
    /// A file whose bytes are not the type it says (a PNG's `mediaType` on a JPEG's bytes, text
    /// that is not UTF-8), or a `data:` URL whose own type is not its part's `mediaType`.
    FILE_TYPE_MISMATCH = 400 "file_type_mismatch";
    /// A rename's `title` that is not 1 to 200 characters once trimmed (`crate::conversations`).
    INVALID_TITLE = 400 "invalid_title";
    UNAUTHORIZED = 401 "unauthorized";
    INVALID_TOKEN = 401 "invalid_token";
    TOKEN_EXPIRED = 401 "token_expired";
    TOKEN_NOT_YET_VALID = 401 "token_not_yet_valid";
    FORBIDDEN = 403 "forbidden";
    /// A file's URL whose signature is not the worker's (`crate::files::signed`).
    INVALID_SIGNATURE = 403 "invalid_signature";
    /// A file's signed URL past its expiry.
    URL_EXPIRED = 403 "url_expired";
    /// A list route's caller whose credentials name no list: a JWT without `sub`, or no
    /// `X-Conversations-Key` where no credential names a user (`crate::conversations::owner`).
    NO_USER = 403 "no_user";
    NOT_FOUND = 404 "not_found";
    /// A history request's `before` or `leaf` names a message the agent does not hold.
    MESSAGE_NOT_FOUND = 404 "message_not_found";
    /// The demo agent's own answer while it is off (its Durable Object, asked directly).
    DEMO_AGENT_OFF = 404 "demo_agent_off";
    /// No file of this session has this id.
    FILE_NOT_FOUND = 404 "file_not_found";
    /// A rename or a delete of a session the caller's list does not hold: one nobody made, or
    /// another user's, answered the same.
    SESSION_NOT_FOUND = 404 "session_not_found";
    METHOD_NOT_ALLOWED = 405 "method_not_allowed";
    QUESTION_NOT_PENDING = 409 "question_not_pending";
    /// A regenerate or an edit, to an agent that cannot take messages back (protocol 3 or
    /// older: its upgrade's answer says no `X-Agent-Protocol: 4`).
    AGENT_CANNOT_TAKE_BACK = 409 "agent_cannot_take_back";
    /// A prompt that an agent of protocol 4 would answer by deleting a message the client does
    /// not show (a stale device's send, a fork): refused, nothing sent (`crate::protocol4`).
    STALE_CONVERSATION = 409 "stale_conversation";
    /// A branch or an older page of the history (`?leaf=`, `?before=`) asked of an agent that
    /// keeps none (its upgrade's answer says no `X-Agent-Protocol: 5`).
    AGENT_CANNOT_BRANCH = 409 "agent_cannot_branch";
    /// A delete of a session whose agent cannot forget it (its upgrade's answer says no
    /// `X-Agent-Protocol: 7`): nothing is removed.
    AGENT_CANNOT_FORGET = 409 "agent_cannot_forget";
    BODY_TOO_LARGE = 413 "body_too_large";
    /// A chat POST whose last message (with the body's other fields) is over
    /// `MAX_MESSAGE_BYTES`: what the worker holds of a body at once.
    MESSAGE_TOO_LARGE = 413 "message_too_large";
    TOO_MANY_MESSAGES = 413 "too_many_messages";
    PROMPT_TOO_LONG = 413 "prompt_too_long";
    /// An upload over `MAX_FILE_BYTES`: declared, or counted as it came in.
    FILE_TOO_LARGE = 413 "file_too_large";
    UNSUPPORTED_MEDIA_TYPE = 415 "unsupported_media_type";
    /// An upload whose `Content-Type` is not on the `FILE_TYPES` list.
    FILE_TYPE_NOT_ALLOWED = 415 "file_type_not_allowed";
    /// A `Range` that starts past a file's end.
    RANGE_NOT_SATISFIABLE = 416 "range_not_satisfiable";
    LAST_MESSAGE_NOT_FROM_USER = 422 "last_message_not_from_user";
    EMPTY_MESSAGE = 422 "empty_message";
    RATE_LIMITED = 429 "rate_limited";
    /// A session feed past `MAX_SESSION_FEEDS` open for its session, or past `MAX_USER_FEEDS`
    /// open for its caller, in one isolate.
    TOO_MANY_FEEDS = 429 "too_many_feeds";
    MISCONFIGURED = 500 "misconfigured";
    INTERNAL_ERROR = 500 "internal_error";
    /// The files routes of a worker with no `FILES` bucket or no `FILES_SECRET`: closed.
    FILES_NOT_CONFIGURED = 501 "files_not_configured";
    /// The list routes of a worker with no `SESSION_INDEX` binding: closed.
    INDEX_NOT_CONFIGURED = 501 "index_not_configured";
    AGENT_BAD_RESPONSE = 502 "agent_bad_response";
    AGENT_CONNECTION_FAILED = 502 "agent_connection_failed";
    AGENT_UNAVAILABLE = 503 "agent_unavailable";
    /// The agent accepted the socket but did not say what the session holds: slow past the
    /// wait for its `init`, closed (restarting), or unreadable. `Retry-After`.
    AGENT_NOT_READY = 503 "agent_not_ready";
    AUTH_UNAVAILABLE = 503 "auth_unavailable";
    /// A session feed past `MAX_FEEDS` open in one isolate.
    FEEDS_FULL = 503 "feeds_full";
    AGENT_TIMEOUT = 504 "agent_timeout";
}

/// The `Retry-After` of `agent_not_ready`: 5 s, one wait for an `init`
/// (`INIT_WAIT_MS` in the adapter): a Durable Object that restarts is back well within it, and
/// a client that comes back sooner would meet the same wait.
pub const AGENT_RETRY_AFTER_S: u64 = 5;

/// Why the agent was not ready (`agent_not_ready`), as its message says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotReady {
    /// No `init` within the wait, from an agent that promised one.
    Slow,
    /// The socket closed before the agent said anything usable.
    Closed,
    /// Its `init` could not be read.
    Malformed,
}

/// The `Retry-After` of a feed refused at a cap: 10 s, two of the feed's keep-alive periods
/// (`KEEP_ALIVE_MS` in `crate::feed`), within which a feed whose client went away is found out
/// and its place freed (its `GONE_WITHIN_MS`, which the feed's tests hold equal to this: the feed
/// imports these refusals, so the number is written here, not read from there).
pub const FEED_RETRY_AFTER_S: u64 = 10;

/// The message of a `404 not_found`.
pub const NOT_FOUND_MESSAGE: &str = "There is nothing at this path.";

/// A refused request: what it is answered with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub kind: Code,
    /// One sentence for the person reading the error; never an internal detail (a 5xx gets the
    /// request id added where it is written).
    pub message: Cow<'static, str>,
    /// Headers the answer carries besides its body's.
    pub headers: Vec<(&'static str, String)>,
}

impl Refusal {
    /// A refusal of the catalogue. Only the core makes one (each of the edge's has a named
    /// constructor here), so that every message an edge answers with is in this crate.
    pub(crate) fn new(kind: Code, message: impl Into<Cow<'static, str>>) -> Self {
        Refusal {
            kind,
            message: message.into(),
            headers: Vec::new(),
        }
    }

    pub fn with_header(mut self, name: &'static str, value: String) -> Self {
        self.headers.push((name, value));
        self
    }

    pub fn not_found() -> Self {
        Refusal::new(NOT_FOUND, NOT_FOUND_MESSAGE)
    }

    /// A known path asked with another method: `Allow` says which it answers.
    pub fn method_not_allowed(allow: &'static str) -> Self {
        Refusal::new(
            METHOD_NOT_ALLOWED,
            format!("This path only answers {allow}."),
        )
        .with_header("allow", allow.to_owned())
    }

    /// A setting that does not parse, or a binding of the wrong kind (the detail is logged).
    pub fn misconfigured() -> Self {
        Refusal::new(MISCONFIGURED, "The service is misconfigured.")
    }

    /// A fault of the worker or the runtime (the detail is logged).
    pub fn internal() -> Self {
        Refusal::new(INTERNAL_ERROR, "Something went wrong on our side.")
    }

    pub fn invalid_session_id() -> Self {
        Refusal::new(
            INVALID_SESSION_ID,
            "The session id must be 1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'.",
        )
    }

    pub fn unsupported_media_type() -> Self {
        Refusal::new(
            UNSUPPORTED_MEDIA_TYPE,
            "The request body must be JSON (Content-Type: application/json).",
        )
    }

    /// A chat request whose `X-Questions` header names no kind of question part: a header, not
    /// the body, is what is wrong.
    pub fn invalid_questions_header() -> Self {
        Refusal::new(
            INVALID_FIELD,
            format!(
                "The X-Questions header must be {}.",
                crate::questions::QuestionParts::NAMES
            ),
        )
    }

    /// A regenerate or an edit that the session's agent cannot make (protocol 3 or older).
    pub fn agent_cannot_take_back() -> Self {
        Refusal::new(
            AGENT_CANNOT_TAKE_BACK,
            "The agent of this session cannot take messages back, so it cannot regenerate a reply or edit a message: send a new message instead.",
        )
    }

    /// A history request's `limit` that is not a whole number from 1 to `max`.
    pub fn invalid_limit(max: usize) -> Self {
        Refusal::new(
            INVALID_QUERY,
            format!("`limit` must be a whole number from 1 to {max}."),
        )
    }

    /// A history request's `before` or `leaf` (`name`) that is no message's `ref`, or both.
    pub fn invalid_ref(name: &str) -> Self {
        Refusal::new(
            INVALID_QUERY,
            format!("`{name}` must be a message's `ref` (its metadata's), and only one of `before` and `leaf` may be given."),
        )
    }

    /// A history request for a message the agent does not hold.
    pub fn message_not_found() -> Self {
        Refusal::new(
            MESSAGE_NOT_FOUND,
            "This session has no message with that `ref`.",
        )
    }

    /// A prompt an agent of protocol 4 would answer by deleting what the client does not show.
    pub fn stale_conversation() -> Self {
        Refusal::new(
            STALE_CONVERSATION,
            "This conversation has changed since this page showed it (another tab or device added to it), and its agent would delete what you have not seen: reload it, then send again. Nothing was sent.",
        )
    }

    /// A branch or an older page of the history, asked of an agent of protocol 4 or older.
    pub fn agent_cannot_branch() -> Self {
        Refusal::new(
            AGENT_CANNOT_BRANCH,
            "The agent of this session keeps no branches or older pages (it speaks an agent protocol before 5): ask for the history without `leaf` or `before`.",
        )
    }

    /// An answer to a question the agent's `init` shows no turn waiting on.
    pub fn question_not_pending() -> Self {
        Refusal::new(
            QUESTION_NOT_PENDING,
            "The agent is not waiting for an answer to this question.",
        )
    }

    /// A `history` frame the agent answered with something else than its page (protocol 5).
    pub fn history_unanswered() -> Self {
        Refusal::new(
            AGENT_BAD_RESPONSE,
            "The agent did not answer the request for this page of the history.",
        )
    }

    /// A delete of a session whose agent keeps an older protocol than 7: it cannot be asked to
    /// forget, so nothing is removed.
    pub fn agent_cannot_forget() -> Self {
        Refusal::new(
            AGENT_CANNOT_FORGET,
            "The agent of this session cannot forget it (it speaks an agent protocol before 7): nothing was deleted.",
        )
    }

    /// A `forget` the agent answered with an error or something it cannot read: the session may
    /// still be kept, and nothing else was removed.
    pub fn forget_unanswered() -> Self {
        Refusal::new(
            AGENT_BAD_RESPONSE,
            "The agent did not confirm that it forgot this session: nothing else was deleted; try again.",
        )
    }

    /// A `forget` the agent did not answer in time.
    pub fn forget_timeout() -> Self {
        Refusal::new(
            AGENT_TIMEOUT,
            "The agent did not confirm in time that it forgot this session: nothing else was deleted; try again.",
        )
    }

    /// A `history` frame the agent did not answer in time.
    pub fn history_timeout() -> Self {
        Refusal::new(
            AGENT_TIMEOUT,
            "The agent did not send this page of the history in time.",
        )
    }

    /// A prompt to an agent of protocol 4 that sent no `init` to check it against: it might
    /// delete what the client does not show, so nothing is sent.
    pub fn older_agent_unchecked() -> Self {
        Refusal::new(
            AGENT_BAD_RESPONSE,
            "The agent did not say what this conversation holds, so nothing was sent: it could have deleted messages this page does not show.",
        )
    }

    /// An answer whose turn the agent never named: no `init`, nor any turn event.
    pub fn answer_turn_unknown() -> Self {
        Refusal::new(
            AGENT_BAD_RESPONSE,
            "The agent did not say which turn waits for this answer.",
        )
    }

    /// A session feed past the session's cap (`MAX_SESSION_FEEDS`): the client closes one of
    /// its others, or tries again after `Retry-After` seconds.
    pub fn too_many_feeds(max: usize) -> Self {
        Refusal::new(
            TOO_MANY_FEEDS,
            format!("This session has {max} feeds open already, the most it may have."),
        )
        .with_header("retry-after", FEED_RETRY_AFTER_S.to_string())
    }

    /// A live list past its list's cap (`conversations::live::MAX_LIST_FEEDS`, counted by the
    /// list's object): the same code as a session feed's, and the same remedy.
    pub fn too_many_list_feeds(max: usize) -> Self {
        Refusal::new(
            TOO_MANY_FEEDS,
            format!("Your list of conversations has {max} live feeds open already, the most it may have."),
        )
        .with_header("retry-after", FEED_RETRY_AFTER_S.to_string())
    }

    /// A session feed past its caller's cap (`MAX_USER_FEEDS`): the same code as the session's
    /// cap, and the same remedy.
    pub fn too_many_caller_feeds(max: usize) -> Self {
        Refusal::new(
            TOO_MANY_FEEDS,
            format!("You have {max} feeds open already, the most one caller may have."),
        )
        .with_header("retry-after", FEED_RETRY_AFTER_S.to_string())
    }

    /// A session feed past the isolate's cap (`MAX_FEEDS`).
    pub fn feeds_full() -> Self {
        Refusal::new(
            FEEDS_FULL,
            "The service holds as many feeds (session feeds and live lists) as it can: try again later.",
        )
        .with_header("retry-after", FEED_RETRY_AFTER_S.to_string())
    }

    /// The response stream could not be made (a fault of the runtime).
    pub fn stream_not_created() -> Self {
        Refusal::new(INTERNAL_ERROR, "The response stream could not be created.")
    }

    /// The agent answered the upgrade, but not with a WebSocket.
    pub fn agent_refused_socket() -> Self {
        Refusal::new(
            AGENT_BAD_RESPONSE,
            "The agent did not accept the connection.",
        )
    }

    /// The agent's WebSocket came back but could not be accepted.
    pub fn agent_connection_failed() -> Self {
        Refusal::new(
            AGENT_CONNECTION_FAILED,
            "The connection to the agent failed.",
        )
    }

    /// No answer from the agent within the connect timeout.
    pub fn agent_timeout() -> Self {
        Refusal::new(AGENT_TIMEOUT, "The agent did not answer in time.")
    }

    /// The agent accepted the socket but did not say what the session holds
    /// ([`AGENT_NOT_READY`]): the message says how, and that trying again may serve.
    pub fn agent_not_ready(why: NotReady) -> Self {
        let message = match why {
            NotReady::Slow => "The agent did not say what this conversation holds in time. Try again in a moment.",
            NotReady::Closed => "The agent closed the connection before it said what this conversation holds (it may be restarting). Try again in a moment.",
            NotReady::Malformed => "The agent's account of this conversation could not be read. Try again in a moment.",
        };
        Refusal::new(AGENT_NOT_READY, message)
            .with_header("retry-after", AGENT_RETRY_AFTER_S.to_string())
    }

    pub fn agent_unavailable() -> Self {
        Refusal::new(
            AGENT_UNAVAILABLE,
            "The agent is unavailable right now. Try again.",
        )
    }
}

#[cfg(test)]
#[path = "refusal_tests.rs"]
mod tests;
