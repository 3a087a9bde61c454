//! The worker's routes and the checks on a request's path and headers, before any body is read.

/// The path of a request's URL as `Request.url` gives it (`scheme://host[:port]/path?query`):
/// from the first `/` after the host up to a `?` or `#`; `/` when there is none. Serialized
/// URLs of the `http(s)` schemes always have a path, and a `?` or `#` inside it is
/// percent-encoded, so this needs no URL parser.
pub fn path_of_url(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |at| at + 3);
    let rest = &url[after_scheme..];
    // The host ends at the first `/`, `?` or `#`; only a `/` starts a path.
    let Some(start) = rest
        .find(['/', '?', '#'])
        .filter(|&at| rest[at..].starts_with('/'))
    else {
        return "/";
    };
    let path = &rest[start..];
    &path[..path.find(['?', '#']).unwrap_or(path.len())]
}

/// Longest session id (the `:id` of the route): 128 characters, enough for a UUID with a
/// prefix, short enough to log and to name a Durable Object.
pub const MAX_SESSION_ID_LEN: usize = 128;

/// What a path asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route<'a> {
    /// `/api/sessions`: the caller's conversations, a page at a time (`crate::conversations`).
    Sessions,
    /// `/api/sessions/:id`: one of them, renamed (`PATCH`) or deleted (`DELETE`).
    Session { session: &'a str },
    /// `/api/sessions/:id/chat`: the AI SDK endpoint (a prompt, or an answer).
    Chat { session: &'a str },
    /// `/api/sessions/:id/chat/stop`: stops the turn in flight, from any client.
    Stop { session: &'a str },
    /// `/api/sessions/:id/chat/:chatId/stream`: where `DefaultChatTransport.reconnectToStream`
    /// resumes; `chat` is the client's chat id and selects nothing (the session has one turn
    /// in flight at most).
    Resume { session: &'a str, chat: &'a str },
    /// `/api/sessions/:id/messages`: the session's finished messages as `UIMessage`s.
    Messages { session: &'a str },
    /// `/api/sessions/:id/events`: the session feed (SSE), which tells a client of every turn of
    /// the session as it happens (`crate::feed`).
    Events { session: &'a str },
    /// `/api/sessions/:id/files`: an upload to the session's files (`crate::files`).
    Files { session: &'a str },
    /// `/api/sessions/:id/files/:fileId`: one of the session's files.
    File { session: &'a str, file: &'a str },
    /// `/demo/sessions/:id/received` (what the demo agent received), `…/sent` (what it sent)
    /// and `…/connections` (the headers of each adapter connection): the demo agent's logs.
    DemoLog { session: &'a str, log: &'static str },
    /// `/`: the playground page (the chat panel, with the demo agent or the agent bound).
    Playground,
    /// Anything else.
    NotFound,
}

impl<'a> Route<'a> {
    /// Matches a URL path (without query). The routes are exactly the paths `docs/endpoint.md`
    /// names, starting with one `/`: `//api/…` is no route, as a worker that mounts the adapter
    /// and guards its own paths by prefix (`/api/`) sees it (README, "Mount it in your own
    /// worker"). (An empty session id, `/api/sessions//chat`, still routes, to its precise 400.)
    pub fn match_path(path: &'a str) -> Self {
        let Some(rest) = path.strip_prefix('/') else {
            return Route::NotFound;
        };
        let segments: Vec<&str> = rest.split('/').collect();
        match segments.as_slice() {
            [""] => Route::Playground,
            ["api", "sessions"] => Route::Sessions,
            ["api", "sessions", session] => Route::Session { session },
            ["api", "sessions", session, "chat"] => Route::Chat { session },
            ["api", "sessions", session, "chat", "stop"] => Route::Stop { session },
            ["api", "sessions", session, "chat", chat, "stream"] if !chat.is_empty() => {
                Route::Resume { session, chat }
            }
            ["api", "sessions", session, "messages"] => Route::Messages { session },
            ["api", "sessions", session, "events"] => Route::Events { session },
            ["api", "sessions", session, "files"] => Route::Files { session },
            ["api", "sessions", session, "files", file] if !file.is_empty() => {
                Route::File { session, file }
            }
            ["demo", "sessions", session, log] => match *log {
                "received" => Route::DemoLog {
                    session,
                    log: "received",
                },
                "sent" => Route::DemoLog {
                    session,
                    log: "sent",
                },
                "connections" => Route::DemoLog {
                    session,
                    log: "connections",
                },
                _ => Route::NotFound,
            },
            _ => Route::NotFound,
        }
    }

    /// Whether the adapter answers this route: every route but [`Route::NotFound`], the demo
    /// agent's logs only while `demo` (they are on), and the playground while `demo` or
    /// `playground` (`PLAYGROUND = "on"`) is.
    pub fn answered_by(&self, demo: bool, playground: bool) -> bool {
        match self {
            Route::NotFound => false,
            Route::DemoLog { .. } => demo,
            Route::Playground => demo || playground,
            _ => true,
        }
    }

    /// The methods the route answers, for `Allow`.
    pub fn allow(&self) -> &'static str {
        match self {
            Route::Chat { .. } | Route::Stop { .. } | Route::Files { .. } => "POST, OPTIONS",
            Route::Session { .. } => "PATCH, DELETE, OPTIONS",
            Route::Sessions
            | Route::Resume { .. }
            | Route::Messages { .. }
            | Route::Events { .. }
            | Route::File { .. } => "GET, OPTIONS",
            Route::DemoLog { .. } | Route::Playground => "GET",
            Route::NotFound => "",
        }
    }

    /// The session the route names.
    pub fn session(&self) -> Option<&'a str> {
        match self {
            Route::Chat { session }
            | Route::Session { session }
            | Route::Stop { session }
            | Route::Resume { session, .. }
            | Route::Messages { session }
            | Route::Events { session }
            | Route::Files { session }
            | Route::File { session, .. }
            | Route::DemoLog { session, .. } => Some(session),
            Route::Sessions | Route::Playground | Route::NotFound => None,
        }
    }
}

/// 1 to [`MAX_SESSION_ID_LEN`] characters of `[A-Za-z0-9._:-]`.
pub fn valid_session_id(id: &str) -> bool {
    (1..=MAX_SESSION_ID_LEN).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

/// `application/json` or any `application/*+json`, parameters (`; charset=utf-8`) allowed.
pub fn is_json_content_type(content_type: Option<&str>) -> bool {
    let Some(value) = content_type else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

#[cfg(test)]
#[path = "routes_tests.rs"]
mod tests;
