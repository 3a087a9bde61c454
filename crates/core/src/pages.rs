//! The history by pages (`GET /api/sessions/:id/messages`, docs/endpoint.md, "The history"): the
//! request's query (`limit`, `before`, `leaf`), where its page comes from (the agent's `init` for
//! the newest page of the current branch; a `history` frame for any other, protocol 5), what the
//! agent's answer means, and the `x-history-before` header that names the next, older page.
//!
//! An agent older than protocol 5 keeps no tree: its history is its `init`, whole, as before
//! pages; a branch or an older page asked of it is a `409 agent_cannot_branch`.

use crate::refusal::Refusal;
use crate::session::{is_ref, parse_history, HistoryPage, Init, Message};
use crate::tree::MAX_PAGE_MESSAGES;
use crate::v2::{frame_type, parse_frame, Frame, HISTORY};

/// A page's size when the request names none: 100 messages, a long conversation's last screens
/// and half of what a page may hold ([`MAX_PAGE_MESSAGES`]), so the first page of any session
/// comes in one small answer.
pub const DEFAULT_PAGE_MESSAGES: usize = 100;

/// The response header that names the next, older page: the value to send as `?before=`. Absent
/// when the branch has no older message.
pub const OLDER_HEADER: &str = "x-history-before";

/// Which messages a history request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wanted {
    /// The newest page of the current branch (what a reload shows).
    Current,
    /// The newest page of the branch through this message (`?leaf=`), to its newest descendant.
    Leaf(String),
    /// The page before this message on its branch (`?before=`).
    Before(String),
}

/// A history request's query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryQuery {
    pub wanted: Wanted,
    /// Most messages of the page, 1 to [`MAX_PAGE_MESSAGES`].
    pub limit: usize,
}

/// The `name=value` pairs of `url`'s query (before any `#`), as written (a pair without `=` has an
/// empty value): what a list's or a page's query reads.
pub(crate) fn query_pairs(url: &str) -> impl Iterator<Item = (&str, &str)> {
    url.split('#')
        .next()
        .and_then(|u| u.split_once('?'))
        .map_or("", |(_, q)| q)
        .split('&')
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
}

/// A query's `limit`: a number from 1 to `max`, else `400 invalid_query` naming the bound.
pub(crate) fn read_limit(raw: &str, max: usize) -> Result<usize, Refusal> {
    raw.parse::<usize>()
        .ok()
        .filter(|n| (1..=max).contains(n))
        .ok_or_else(|| Refusal::invalid_limit(max))
}

impl HistoryQuery {
    /// Reads the query of `url` (the request's URL): `limit` (1 to 200, default 100), and at most
    /// one of `before` and `leaf`, each a message's `ref`. Other parameters (`trace`) are not its
    /// business. A value it cannot read is a `400 invalid_query` that says which.
    pub fn from_url(url: &str) -> Result<HistoryQuery, Refusal> {
        let mut out = HistoryQuery {
            wanted: Wanted::Current,
            limit: DEFAULT_PAGE_MESSAGES,
        };
        for (name, raw) in query_pairs(url) {
            match name {
                "limit" => out.limit = read_limit(raw, MAX_PAGE_MESSAGES)?,
                "before" | "leaf" => {
                    if out.wanted != Wanted::Current {
                        return Err(Refusal::invalid_ref("before"));
                    }
                    let key = percent_decoded(raw)
                        .filter(|key| is_ref(key))
                        .ok_or_else(|| Refusal::invalid_ref(name))?;
                    out.wanted = if name == "leaf" {
                        Wanted::Leaf(key)
                    } else {
                        Wanted::Before(key)
                    };
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// Whether the page is the agent's `init` (the newest page of the current branch), which
    /// every socket gets first: no `history` frame needed.
    pub fn from_init(&self) -> bool {
        self.wanted == Wanted::Current
    }

    /// The `history` frame that asks the agent for this page.
    pub fn frame(&self, request_id: &str) -> String {
        let mut frame = serde_json::json!({"type": HISTORY, "requestId": request_id});
        match &self.wanted {
            Wanted::Current => {}
            Wanted::Leaf(key) => frame["leaf"] = key.as_str().into(),
            Wanted::Before(key) => frame["before"] = key.as_str().into(),
        }
        frame["limit"] = self.limit.into();
        frame.to_string()
    }
}

/// `value` with its `%XX` escapes decoded (a ref is ASCII: an escape of anything else, or a
/// broken one, is none). A client that builds the query with `encodeURIComponent` writes `:` as
/// `%3A`.
fn percent_decoded(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value.get(i + 1..i + 3)?;
            let byte = u8::from_str_radix(hex, 16).ok().filter(u8::is_ascii)?;
            out.push(char::from(byte));
            i += 3;
        } else {
            out.push(char::from(bytes[i]));
            i += 1;
        }
    }
    Some(out)
}

/// The page of an `init` for `query` (the current branch): its newest `limit` messages, and the
/// ref of the message before them when the branch goes on (the next page's `?before=`). An agent
/// older than protocol 5 gives no refs: its whole `init` is the page, with none before it.
pub fn init_page(init: &Init, query: &HistoryQuery) -> (Vec<Message>, Option<String>) {
    let messages = &init.messages;
    if init.protocol < crate::v2::TREE_PROTOCOL as u64 {
        return (messages.clone(), None);
    }
    let from = messages.len().saturating_sub(query.limit);
    let page = HistoryPage {
        request_id: None,
        messages: messages[from..].to_vec(),
        skipped: 0,
    };
    let older = page.older().map(str::to_owned);
    (page.messages, older)
}

/// What a frame on a history request's socket says, once its `history` frame is sent.
#[derive(Debug)]
pub enum Answer {
    /// The page, and the ref before it when older messages exist.
    Page(Vec<Message>, Option<String>),
    /// The agent holds no message with the ref asked for (`not_found`).
    NotFound,
    /// An `error` of another kind, or a `history` frame it cannot read: its words, for the log.
    Failed(String),
}

/// Reads `text`, a frame that came after the `history` frame with `request_id`: the answer, or
/// `None` for a frame to pass over (the socket's `init`, a turn event or status of the session, a
/// `history` answer to another request).
pub fn read_answer(text: &str, request_id: &str) -> Option<Answer> {
    match frame_type(text).ok()?.as_ref() {
        HISTORY => Some(match parse_history(text) {
            Ok(page) if page.request_id.as_deref() == Some(request_id) => {
                let older = page.older().map(str::to_owned);
                Answer::Page(page.messages, older)
            }
            Ok(_) => return None,
            Err(err) => Answer::Failed(format!("a history answer it cannot read: {err}")),
        }),
        "error" => match parse_frame(text) {
            Ok(Frame::Error(error)) if error.code().as_deref() == Some("not_found") => {
                Some(Answer::NotFound)
            }
            Ok(Frame::Error(error)) => Some(Answer::Failed(format!(
                "the agent answered the history request with an error: {}",
                error.text().unwrap_or_default()
            ))),
            _ => Some(Answer::Failed("an error frame it cannot read".into())),
        },
        _ => None,
    }
}

#[cfg(test)]
#[path = "pages_tests.rs"]
mod tests;
