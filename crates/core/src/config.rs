//! The worker's settings, read from its environment variables and secrets, with defaults.
//!
//! Every setting has a documented default (docs/configuration.md), which an absent setting
//! takes; the default of `AUTH_MODE` is `jwt`, so a worker left without it serves nobody until its
//! keys are set. One rule for every setting: a value that is empty (or only white space) is an
//! error, as is a value that does not parse — never silently replaced, so a typo or a secret
//! that failed to interpolate cannot loosen a limit or open the worker.

use crate::auth::jwt::{JwtRules, DEFAULT_SESSIONS_CLAIM, REGISTERED_CLAIMS};
use crate::auth::AuthMode;
use crate::conversations::retention;
use crate::cors::AllowedOrigins;
use crate::files::pending::DEFAULT_UPLOAD_TTL_HOURS;
use crate::files::settings::{FileSettings, DEFAULT_MAX_FILE_BYTES, DEFAULT_URL_TTL_SECS};
use crate::liveness::{DEFAULT_PING_MS, MAX_PING_MS, MIN_PING_MS};
use crate::questions::{QuestionParts, QuestionView};
use crate::request::{Limits, OnDisconnect};
use crate::request_head::{Field, HeaderSet};
use crate::sse::{MAX_PADDING, MIN_PADDING};
use crate::trace::{Trace, TraceMode, DEFAULT_MAX_TOOL_JSON_CHARS};

/// Default path of the WebSocket request to the Durable Object (`docs/agent-protocol.md`,
/// "Opening the socket").
pub const DEFAULT_AGENT_PATH: &str = "/ws";
/// Default largest frame accepted from the agent, in bytes: 4 MiB leaves room for a
/// 1 MiB text delta or a large tool result while bounding what one frame can cost.
pub const DEFAULT_MAX_FRAME_BYTES: usize = 4 * 1024 * 1024;
/// Default wait for the turn's `message.create` after the prompt, in ms. 30 s covers an
/// agent that has to wake its sandbox first.
pub const DEFAULT_FIRST_EVENT_TIMEOUT_MS: u64 = 30_000;
/// Default longest silence of the agent mid-turn, in ms. Five minutes: a tool such as a
/// build or a test run can work that long without sending anything.
pub const DEFAULT_IDLE_TIMEOUT_MS: u64 = 300_000;

/// Default most bytes queued for one client that reads slower than the agent sends: 8 MiB, a
/// few large tool results, well inside an isolate's 128 MB even with dozens of slow readers.
pub const DEFAULT_MAX_BUFFERED_BYTES: usize = 8 * 1024 * 1024;

/// Default wait of a resume, after an `init` without a turn in flight, for a turn event: none.
/// A SessionAgent's `init` carries the turn in flight (`docs/agent-protocol.md`, `init`), so its
/// absence means there is none, and a page load's resume should not wait.
pub const DEFAULT_RESUME_WAIT_MS: u64 = 0;

/// Default period of the Rate Limiting binding, in seconds: 60, the longer of the two periods
/// the binding offers (10 or 60); `Retry-After` of a 429.
pub const DEFAULT_RATE_LIMIT_PERIOD_S: u64 = 60;

/// Default most session feeds (`GET …/events`) one isolate holds open for one session: 8, a
/// person's tabs and devices with room to spare (a feed per open page of the session).
pub const DEFAULT_MAX_SESSION_FEEDS: usize = 8;

/// Default most session feeds one isolate holds open in all: 1,000. Each holds a socket to its
/// session's agent and a few kilobytes of the isolate's 128 MB (the ids of its conversation),
/// so a thousand stay far inside it.
pub const DEFAULT_MAX_FEEDS: usize = 1_000;

/// Default most session feeds one isolate holds open for one caller (the JWT's `sub`, else the
/// client's address): 16, two sessions' worth of `MAX_SESSION_FEEDS`, a person's tabs and
/// devices on the few sessions he follows at once. With `MAX_FEEDS` at 1,000, 63 callers at
/// their cap are needed to fill an isolate: one never can.
pub const DEFAULT_MAX_USER_FEEDS: usize = 16;

/// Everything the edge shell needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub auth: AuthMode,
    pub origins: AllowedOrigins,
    pub limits: Limits,
    pub max_frame_bytes: usize,
    /// Most bytes waiting for one client; past it the stream ends in-band (`MAX_BUFFERED_BYTES`).
    pub max_buffered_bytes: usize,
    pub first_event_timeout_ms: u64,
    pub idle_timeout_ms: u64,
    pub agent_path: String,
    /// Serve the embedded demo agent and its routes (`DEMO_AGENT = "on"`).
    pub demo_agent: bool,
    /// Serve the playground, `GET /`, for the agent bound as `SESSION_AGENT` (`PLAYGROUND =
    /// "on"`: a local adapter in front of a team's own agent, `npm start -- --agent`). Only
    /// with `AUTH_MODE = "none"`: the page's panel sends no credentials.
    pub playground: bool,
    /// What a client's going away does to its turn, unless its body says (`ON_DISCONNECT`).
    pub on_disconnect: OnDisconnect,
    /// For an agent whose `init` leaves out the turn in flight: how long a resume waits for a
    /// turn event before it answers 204 (`RESUME_WAIT_MS`; 0: it does not wait).
    pub resume_wait_ms: u64,
    /// The most a request's `trace` may ask for (`TRACE_MAX`; default `full`): a site keeps
    /// tool arguments and results from its visitors by setting it to `minimal` or `normal`.
    pub trace_max: TraceMode,
    /// The trace mode of a stream whose request names none (`TRACE`), and the tool JSON limit
    /// of `normal` (`MAX_TOOL_JSON_CHARS`).
    pub trace: Trace,
    /// What the agent's questions become for a request that names nothing (`QUESTIONS`; default
    /// `tools`, which every AI SDK version parses): see [`crate::questions`].
    pub questions: QuestionParts,
    /// The opening padding of every chat and resume stream, in bytes (`STREAM_PADDING`; 0, the
    /// default: none), for phones whose loader holds the first bytes back: [`crate::sse::write_padding`].
    pub stream_padding: usize,
    /// The period of the `RATE_LIMITER` binding's `simple` rule, in seconds
    /// (`RATE_LIMIT_PERIOD_S`: 10 or 60): what a 429's `Retry-After` says.
    pub rate_limit_period_secs: u64,
    /// Most session feeds one isolate holds open for one session (`MAX_SESSION_FEEDS`).
    pub max_session_feeds: usize,
    /// Most session feeds one isolate holds open for one caller (`MAX_USER_FEEDS`): below
    /// `max_feeds`, so that one caller never holds every place.
    pub max_user_feeds: usize,
    /// Most session feeds one isolate holds open in all (`MAX_FEEDS`).
    pub max_feeds: usize,
    /// How often each socket to the agent is pinged, in ms (`LIVENESS_PING_MS`): see
    /// [`crate::liveness`].
    pub liveness_ping_ms: u64,
    /// The files routes' settings (`MAX_FILE_BYTES`, `FILE_TYPES`, `FILE_URL_TTL_S`,
    /// `UPLOAD_TTL_H`, `FILES_SECRET`): [`crate::files::settings`].
    pub files: FileSettings,
    /// Days a session may stay idle before the hourly trigger deletes it (`SESSION_TTL_DAYS`);
    /// `None`: kept until its user deletes it ([`crate::conversations::retention`]).
    pub session_ttl_days: Option<u64>,
}

/// A setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Config {
    /// The headers a request's head is read with under these settings: every one a route may
    /// read, less `Origin` when no origin is allowed (CORS answers nothing to any) and
    /// `Authorization` under `AUTH_MODE = "none"` (no credentials are checked).
    /// `CF-Connecting-IP` is always read: it keys the rate limit and a feed's caller
    /// (`MAX_USER_FEEDS`). A route that starts to read a header must keep it here.
    pub fn headers_read(&self) -> HeaderSet {
        let mut read = HeaderSet::ALL;
        if self.origins.is_none() {
            read = read.without(Field::Origin);
        }
        if self.auth == AuthMode::None {
            read = read.without(Field::Authorization);
        }
        // A JWT's `sub` names the caller's list of conversations; the header, only where no
        // credential names a user (`crate::conversations::owner`).
        if matches!(self.auth, AuthMode::Jwt { .. }) {
            read = read.without(Field::ConversationsKey);
        }
        read
    }

    /// The trace of a stream (or a history) whose request asks for `asked` (its body's `trace`,
    /// or `?trace=`): that mode, else `TRACE`, and never more than `TRACE_MAX`.
    pub fn trace_for(&self, asked: Option<TraceMode>) -> Trace {
        self.trace.with_mode(asked).capped(self.trace_max)
    }

    /// What questions become in a stream (or a history) whose request asks for `asked` (its
    /// `X-Questions` header): that, else `QUESTIONS`; seen through `trace`.
    pub fn questions_for(&self, asked: Option<QuestionParts>, trace: Trace) -> QuestionView {
        QuestionView::new(asked.unwrap_or(self.questions), trace)
    }

    /// Reads the settings through `var`, which returns a variable's or secret's value.
    /// `demo_built`: whether the worker was built with the demo agent (`DEMO_AGENT = "on"` is
    /// an error in a build without it).
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
        demo_built: bool,
    ) -> Result<Self, ConfigError> {
        let var = |name: &str| given(name, var(name));
        let number = |name: &str, default: u64| -> Result<u64, ConfigError> {
            match var(name)? {
                None => Ok(default),
                Some(v) => v
                    .trim()
                    .replace('_', "")
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| ConfigError(format!("{name} must be a positive integer"))),
            }
        };
        let size = |name: &str, default: usize| -> Result<usize, ConfigError> {
            number(name, default as u64).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        let defaults = Limits::default();
        let sessions_claim = match var("JWT_SESSIONS_CLAIM")? {
            None => DEFAULT_SESSIONS_CLAIM.to_owned(),
            Some(name) => {
                let name = name.trim();
                if name.is_empty() || REGISTERED_CLAIMS.contains(&name) {
                    return Err(ConfigError(
                        "JWT_SESSIONS_CLAIM must name a claim other than iss, sub, aud, exp, nbf, iat and jti".into(),
                    ));
                }
                name.to_owned()
            }
        };
        let text = |name: &str| -> Result<Option<String>, ConfigError> {
            Ok(var(name)?.map(|v| v.trim().to_owned()))
        };
        let jwt_rules = JwtRules {
            sessions_claim,
            max_age_secs: match var("JWT_MAX_AGE_S")? {
                None => None,
                Some(_) => Some(number("JWT_MAX_AGE_S", 0)?),
            },
            issuer: text("JWT_ISSUER")?,
            audience: text("JWT_AUDIENCE")?,
        };
        let auth = AuthMode::from_config(
            text("AUTH_MODE")?.as_deref(),
            var("AUTH_SECRET")?.as_deref(),
            text("JWKS_URL")?.as_deref(),
            jwt_rules,
        )
        .map_err(|e| ConfigError(e.0))?;
        let demo_agent =
            match text("DEMO_AGENT")?.as_deref() {
                None | Some("off") => false,
                Some("on") if demo_built => true,
                Some("on") => return Err(ConfigError(
                    "DEMO_AGENT is \"on\" but this build has no demo agent (a production build)"
                        .into(),
                )),
                Some(_) => return Err(ConfigError("DEMO_AGENT must be \"on\" or \"off\"".into())),
            };
        let playground = match text("PLAYGROUND")?.as_deref() {
            None | Some("off") => false,
            Some("on") if !demo_built => return Err(ConfigError(
                "PLAYGROUND is \"on\" but this build has no playground (a production build: npm start -- --agent serves the local one)".into(),
            )),
            Some("on") if auth == AuthMode::None => true,
            Some("on") => {
                return Err(ConfigError(
                    "PLAYGROUND is \"on\" but AUTH_MODE is not \"none\": the playground is for a local adapter, whose page sends no credentials".into(),
                ))
            }
            Some(_) => return Err(ConfigError("PLAYGROUND must be \"on\" or \"off\"".into())),
        };
        let on_disconnect = match text("ON_DISCONNECT")?.as_deref() {
            None => OnDisconnect::default(),
            Some(value) => OnDisconnect::parse(value).ok_or_else(|| {
                ConfigError("ON_DISCONNECT must be \"abort\" or \"detach\"".into())
            })?,
        };
        let trace_max = match text("TRACE_MAX")?.as_deref() {
            None => TraceMode::Full,
            Some(value) => TraceMode::parse(value).ok_or_else(|| {
                ConfigError("TRACE_MAX must be \"minimal\", \"normal\" or \"full\"".into())
            })?,
        };
        // Unset, `TRACE` is the most `TRACE_MAX` allows; set above it, a mistake to name.
        let trace_mode = match text("TRACE")?.as_deref() {
            None => trace_max,
            Some(value) => TraceMode::parse(value).ok_or_else(|| {
                ConfigError("TRACE must be \"minimal\", \"normal\" or \"full\"".into())
            })?,
        };
        if trace_mode > trace_max {
            return Err(ConfigError(
                "TRACE must not show more than TRACE_MAX allows (minimal < normal < full)".into(),
            ));
        }
        let questions = match text("QUESTIONS")?.as_deref() {
            None => QuestionParts::default(),
            Some(value) => QuestionParts::parse(value).ok_or_else(|| {
                ConfigError(format!("QUESTIONS must be {}", QuestionParts::NAMES))
            })?,
        };
        let agent_path = var("AGENT_PATH")?.unwrap_or_else(|| DEFAULT_AGENT_PATH.to_owned());
        if !agent_path.starts_with('/') {
            return Err(ConfigError("AGENT_PATH must start with /".into()));
        }
        let max_feeds = size("MAX_FEEDS", DEFAULT_MAX_FEEDS)?;
        // Below `MAX_FEEDS` by default too, when that is set lower than 17 (an isolate of one
        // place has nothing to share).
        let user_default = DEFAULT_MAX_USER_FEEDS.min(max_feeds - 1).max(1);
        let max_user_feeds = size("MAX_USER_FEEDS", user_default)?;
        if max_user_feeds >= max_feeds && max_feeds > 1 {
            return Err(ConfigError(
                "MAX_USER_FEEDS must be less than MAX_FEEDS (one caller must not hold every place)"
                    .into(),
            ));
        }
        let upload_ttl = number("UPLOAD_TTL_H", DEFAULT_UPLOAD_TTL_HOURS)?;
        let files = FileSettings::new(
            var("FILE_TYPES")?.as_deref(),
            number("FILE_URL_TTL_S", DEFAULT_URL_TTL_SECS)?,
            var("FILES_SECRET")?,
            number("MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES)?,
        )
        .and_then(|files| files.with_upload_ttl(upload_ttl))
        .map_err(|err| ConfigError(err.into()))?;
        Ok(Config {
            auth,
            origins: AllowedOrigins::parse(&var("ALLOWED_ORIGINS")?.unwrap_or_default()),
            limits: Limits {
                max_body_bytes: size("MAX_BODY_BYTES", defaults.max_body_bytes)?,
                max_message_bytes: size("MAX_MESSAGE_BYTES", defaults.max_message_bytes)?,
                max_messages: size("MAX_MESSAGES", defaults.max_messages)?,
                max_prompt_chars: size("MAX_PROMPT_CHARS", defaults.max_prompt_chars)?,
            },
            max_frame_bytes: size("MAX_FRAME_BYTES", DEFAULT_MAX_FRAME_BYTES)?,
            max_buffered_bytes: size("MAX_BUFFERED_BYTES", DEFAULT_MAX_BUFFERED_BYTES)?,
            first_event_timeout_ms: number(
                "FIRST_EVENT_TIMEOUT_MS",
                DEFAULT_FIRST_EVENT_TIMEOUT_MS,
            )?,
            idle_timeout_ms: number("IDLE_TIMEOUT_MS", DEFAULT_IDLE_TIMEOUT_MS)?,
            agent_path,
            demo_agent,
            playground,
            on_disconnect,
            trace_max,
            trace: Trace {
                mode: trace_mode,
                max_tool_json_chars: size("MAX_TOOL_JSON_CHARS", DEFAULT_MAX_TOOL_JSON_CHARS)?,
            },
            questions,
            resume_wait_ms: match text("RESUME_WAIT_MS")?.as_deref() {
                None | Some("0") => DEFAULT_RESUME_WAIT_MS,
                Some(_) => number("RESUME_WAIT_MS", DEFAULT_RESUME_WAIT_MS)?,
            },
            stream_padding: match text("STREAM_PADDING")?.as_deref() {
                None | Some("0") => 0,
                Some(value) => value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (MIN_PADDING..=MAX_PADDING).contains(n))
                    .ok_or_else(|| {
                        ConfigError(format!(
                            "STREAM_PADDING must be 0 or from {MIN_PADDING} to {MAX_PADDING} (bytes)"
                        ))
                    })?,
            },
            rate_limit_period_secs: match number(
                "RATE_LIMIT_PERIOD_S",
                DEFAULT_RATE_LIMIT_PERIOD_S,
            )? {
                period @ (10 | 60) => period,
                _ => {
                    return Err(ConfigError(
                        "RATE_LIMIT_PERIOD_S must be 10 or 60, the binding's period".into(),
                    ))
                }
            },
            max_session_feeds: size("MAX_SESSION_FEEDS", DEFAULT_MAX_SESSION_FEEDS)?,
            max_user_feeds,
            max_feeds,
            liveness_ping_ms: match number("LIVENESS_PING_MS", DEFAULT_PING_MS)? {
                ms @ MIN_PING_MS..=MAX_PING_MS => ms,
                _ => {
                    return Err(ConfigError(format!(
                        "LIVENESS_PING_MS must be from {MIN_PING_MS} to {MAX_PING_MS} (ms)"
                    )))
                }
            },
            files,
            session_ttl_days: retention::ttl_days(var("SESSION_TTL_DAYS")?.as_deref())
                .map_err(ConfigError)?,
        })
    }
}

/// A setting as given: absent, or its value; an empty one (or only white space) is an error,
/// whatever the setting: set means "checked", and an empty value would be a check silently not
/// made, a cap silently lifted or a default silently taken (docs/configuration.md).
fn given(name: &str, value: Option<String>) -> Result<Option<String>, ConfigError> {
    match value {
        Some(v) if v.trim().is_empty() => Err(ConfigError(format!("{name} is set but empty"))),
        v => Ok(v),
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
