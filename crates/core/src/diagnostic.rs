//! The worker's log lines beside a request's own ([`crate::request_log`]): a frame skipped, a
//! socket that failed, the settings read, a fault. Each is one JSON object on one line,
//! `{"level":…,"event":…,"request":…,"detail":…}` (the request's id under `request`, so that a
//! query of request lines, any line with `requestId`, sees none of these), whatever text it
//! carries: a frame's parse
//! error, a header, a runtime's message are escaped as JSON strings, so no agent or client can
//! write a line of its own into the log, and cut to [`MAX_DETAIL_CHARS`], so none can make one
//! of any length (docs/operations.md, "Other lines").

use crate::json_out;

/// The longest `detail` a line carries, in characters; a longer one is cut there and ends with
/// [`CUT_MARK`]. 300 holds a parser's message with the position it names, a URL, or the first
/// words of an agent's text (enough to find it), and keeps a line of the log within a screen's
/// width or two whatever an agent sends.
pub const MAX_DETAIL_CHARS: usize = 300;

/// What ends a `detail` cut to [`MAX_DETAIL_CHARS`].
pub const CUT_MARK: &str = "…";

/// The longest path a request's log line holds, in characters: a route of the worker's is at most
/// `/api/sessions/` + a session id of 128 + `/chat/` + a chat id + `/stream`, under 256; a longer
/// path (a client's, any length its runtime takes) is cut there.
pub const MAX_LOGGED_PATH_CHARS: usize = 256;

/// The longest id a log line holds, in characters: a session id (a valid one is at most 128), a
/// turn id or an error `code` an agent sent, a caller's `sub`. 256 holds any id a system of ours
/// or a client's makes (a UUID is 36, a message id at most 256 bytes); a longer one is cut there.
pub const MAX_LOGGED_ID_CHARS: usize = 256;

/// `text`'s first `max` characters (all of it when it is no longer): what a log line keeps of a
/// value it did not make.
pub fn clip(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        None => text,
        Some((end, _)) => &text[..end],
    }
}

/// How grave a line is: the console method that writes it (`console.log`, `console.warn`,
/// `console.error`), which a log collector keeps as its level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// One line: what happened (`event`, a fixed name: `frame_skipped`, `agent_socket`, …), to which
/// request if to one, and its detail (any text).
#[derive(Debug, Clone, Copy)]
pub struct Diagnostic<'a> {
    pub level: Level,
    pub event: &'static str,
    pub request_id: Option<&'a str>,
    pub detail: &'a str,
}

impl Diagnostic<'_> {
    /// The line: a JSON object, the detail escaped and cut.
    pub fn line(&self) -> String {
        let detail = cut(self.detail);
        let capacity = 40 + self.event.len() + self.request_id.map_or(0, str::len) + detail.len();
        json_out::to_string(capacity, |out| {
            json_out::field(out, br#"{"level":"#, self.level.as_str());
            json_out::field(out, br#","event":"#, self.event);
            if let Some(id) = self.request_id {
                json_out::field(out, br#","request":"#, id);
            }
            if !detail.is_empty() {
                json_out::field(out, br#","detail":"#, &detail);
            }
            out.push(b'}');
        })
    }
}

/// `text`, or its first [`MAX_DETAIL_CHARS`] characters and [`CUT_MARK`].
fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_DETAIL_CHARS) {
        None => text.into(),
        Some((end, _)) => format!("{}{CUT_MARK}", &text[..end]).into(),
    }
}

#[cfg(test)]
#[path = "diagnostic_tests.rs"]
mod tests;
