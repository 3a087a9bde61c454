//! Opening the WebSocket to a session's SessionAgent Durable Object.
//!
//! Every way this can fail happens before the first byte of the answer, so each maps to a JSON
//! error with a fitting status (`docs/agent-protocol.md`, "Opening the socket"): the stub throws → 503, the agent answers
//! without a WebSocket or the socket cannot be accepted → 502, no answer in time → 504. The
//! messages say nothing internal; the detail goes to the log.

use std::cell::RefCell;

use js_sys::Promise;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use worker::{Env, WebSocket};

use crate::hydration::INIT_PROMISED;
use crate::refusal::Refusal;

use crate::config::Config;
use crate::platform::promise::settled;
use crate::platform::settings::AGENT_BINDING;
use crate::platform::socket::SocketEvents;

/// How long the agent may take to accept the socket. A Durable Object normally answers in
/// milliseconds; 10 s leaves room for a cold start of the agent's worker and its storage, and
/// stays well inside the time an AI SDK client waits for the response headers.
const CONNECT_TIMEOUT_MS: u64 = 10_000;

/// The `X-Client` header value the agent sees (`docs/agent-protocol.md`).
const CLIENT_NAME: &str = "ai-sdk-adapter";

/// An accepted socket to the agent, with its event stream already listening.
pub(crate) struct AgentSocket {
    pub(crate) socket: WebSocket,
    pub(crate) events: SocketEvents,
    /// Its upgrade's answer said `X-Agent-Protocol` [`INIT_PROMISED`] or later: its `init` is
    /// promised, and one that does not come is a failure (`crate::hydration::Silence`).
    pub(crate) promised_init: bool,
}

/// Why the socket could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UpstreamError {
    /// The binding is missing or the stub threw.
    Unavailable,
    /// The agent answered, but not with a WebSocket.
    NoWebSocket,
    /// The socket came back but could not be accepted.
    SocketFailed,
    /// No answer within [`CONNECT_TIMEOUT_MS`].
    Timeout,
}

impl From<UpstreamError> for Refusal {
    fn from(err: UpstreamError) -> Self {
        match err {
            UpstreamError::Unavailable => Refusal::agent_unavailable(),
            UpstreamError::NoWebSocket => Refusal::agent_refused_socket(),
            UpstreamError::SocketFailed => Refusal::agent_connection_failed(),
            UpstreamError::Timeout => Refusal::agent_timeout(),
        }
    }
}

impl std::fmt::Display for UpstreamError {
    /// What went wrong, for a log line (the client is answered with the refusal).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UpstreamError::Unavailable => "the agent's binding is missing or its stub threw",
            UpstreamError::NoWebSocket => "the agent answered, but not with a WebSocket",
            UpstreamError::SocketFailed => "the agent's WebSocket could not be accepted",
            UpstreamError::Timeout => "the agent did not answer within the connect timeout",
        })
    }
}

fn fail<E: std::fmt::Display>(kind: UpstreamError, what: &str, err: E) -> UpstreamError {
    crate::platform::log::error("agent_socket", None, &format!("{what}: {err}"));
    kind
}

/// Opens and accepts the socket to the agent of `session_id`, listening from before `accept()`
/// on: for a handler that reads from the agent before it answers (an answer's or a resume's
/// `init`).
pub(crate) async fn connect(
    env: &Env,
    config: &Config,
    session_id: &str,
    user_id: Option<&str>,
) -> Result<AgentSocket, UpstreamError> {
    // Opened as for a prompt that needs [`INIT_PROMISED`]: an agent that says an older protocol
    // comes back with its socket all the same, and says so.
    let opened = open(
        env,
        config,
        session_id,
        user_id,
        Accept::Later,
        INIT_PROMISED,
    )
    .await;
    let (socket, promised_init) = match opened {
        Ok(socket) => (socket, true),
        Err(Unopened::Older { socket, .. }) => (socket, false),
        Err(Unopened::Failed(err)) => return Err(err),
    };
    listening(socket, promised_init)
}

/// Opens and accepts the socket to the agent of `session_id`, listening, as [`connect`] does,
/// for a request only an agent of `min_protocol` or later can take (a `forget`); for an older
/// one, the protocol its upgrade's answer said (0 for none), its socket closed.
pub(crate) async fn connect_from(
    env: &Env,
    config: &Config,
    session_id: &str,
    user_id: Option<&str>,
    min_protocol: u32,
) -> Result<Result<AgentSocket, u32>, UpstreamError> {
    let opened = open(
        env,
        config,
        session_id,
        user_id,
        Accept::Later,
        min_protocol,
    )
    .await;
    match opened {
        Ok(socket) => listening(socket, true).map(Ok),
        Err(Unopened::Older { socket, protocol }) => {
            // Accepted to be closed: nothing is sent on it.
            let _ = socket.accept();
            crate::platform::socket::close_done(&socket);
            Ok(Err(protocol))
        }
        Err(Unopened::Failed(err)) => Err(err),
    }
}

/// Accepts `socket`, listening from before `accept()` on; `promised_init` as its upgrade's answer
/// said.
pub(crate) fn listening(
    socket: WebSocket,
    promised_init: bool,
) -> Result<AgentSocket, UpstreamError> {
    let events = SocketEvents::listen(&socket)
        .map_err(|e| fail(UpstreamError::SocketFailed, "listen", format!("{e:?}")))?;
    socket
        .accept()
        .map_err(|e| fail(UpstreamError::SocketFailed, "accept", e))?;
    Ok(AgentSocket {
        socket,
        events,
        promised_init,
    })
}

/// The socket of a prompt, as its agent answered the upgrade.
pub(crate) enum Opened {
    /// Accepted, with no listener: the agent says `min_protocol` or later.
    Ready(WebSocket),
    /// The agent says an older protocol (`protocol`; 0 for none): its socket, neither accepted nor
    /// closed, for the handler to decide on ([`listening`], or `close`).
    Older { socket: WebSocket, protocol: u32 },
}

/// Opens and accepts the socket to the agent of `session_id`, with no listener: for a handler
/// that starts its stream's pump in the same call (a prompt). The pump's listeners are then the
/// first, and nothing is missed: workerd delivers each message as a task of its own, never inside
/// the one running, so none can arrive before the handler returns. `min_protocol` (0: any) is the
/// protocol the prompt needs the agent to keep to be sent at once: an agent that says an older one
/// on its upgrade's answer comes back [`Opened::Older`], before anything is sent.
pub(crate) async fn connect_for_stream(
    env: &Env,
    config: &Config,
    session_id: &str,
    user_id: Option<&str>,
    min_protocol: u32,
) -> Result<Opened, UpstreamError> {
    match open(env, config, session_id, user_id, Accept::Now, min_protocol).await {
        Ok(socket) => Ok(Opened::Ready(socket)),
        Err(Unopened::Older { socket, protocol }) => Ok(Opened::Older { socket, protocol }),
        Err(Unopened::Failed(err)) => Err(err),
    }
}

/// Why [`open`] gave no socket ready for its caller.
enum Unopened {
    Failed(UpstreamError),
    /// The agent says an older protocol than the opening wanted: its socket, as it came.
    Older {
        socket: WebSocket,
        protocol: u32,
    },
}

/// Whether `openAgent` accepts the socket itself (one call fewer), or leaves it to the caller,
/// who listens first.
#[derive(Clone, Copy)]
enum Accept {
    Now,
    Later,
}

/// The agent's socket, upgraded (and accepted, with [`Accept::Now`]). The steps run in
/// `upstream.js`, one call into JavaScript whose promise resolves to the socket itself, so that
/// an opening reads nothing more across the boundary; this decides what each failure means.
async fn open(
    env: &Env,
    config: &Config,
    session_id: &str,
    user_id: Option<&str>,
    accept: Accept,
    min_protocol: u32,
) -> Result<WebSocket, Unopened> {
    let opened = OPENING.with(|opening| {
        js_open_agent(
            env,
            &opening.binding,
            &opening.url(&config.agent_path),
            session_id,
            &opening.client,
            user_id,
            CONNECT_TIMEOUT_MS as f64,
            matches!(accept, Accept::Now),
            min_protocol,
        )
    });
    match settled(&opened).await {
        Ok(socket) => Ok(WebSocket::from(
            socket.unchecked_into::<web_sys::WebSocket>(),
        )),
        Err(failure) => {
            let failure: OpenFailure = failure.unchecked_into();
            if failure.kind() == Some(OLDER_PROTOCOL) {
                if let Some(socket) = failure.socket() {
                    return Err(Unopened::Older {
                        socket: WebSocket::from(socket),
                        protocol: failure.protocol().unwrap_or(0),
                    });
                }
            }
            Err(Unopened::Failed(failure_of(failure)))
        }
    }
}

/// The strings every opening passes that do not change while the isolate lives, made into
/// JavaScript strings once: a `&str` argument is copied out of WebAssembly memory and decoded on
/// every call.
struct Opening {
    binding: JsValue,
    client: JsValue,
    /// The agent's URL and the `AGENT_PATH` it was made for (the settings are read once per
    /// isolate, so it is made once).
    url: RefCell<Option<(String, JsValue)>>,
}

impl Opening {
    fn new() -> Self {
        Opening {
            binding: JsValue::from_str(AGENT_BINDING),
            client: JsValue::from_str(CLIENT_NAME),
            url: RefCell::new(None),
        }
    }

    /// The URL of the agent's socket for `agent_path`. The host is never resolved: a stub's
    /// fetch goes to the object whatever the URL says.
    fn url(&self, agent_path: &str) -> JsValue {
        let mut url = self.url.borrow_mut();
        match url.as_ref() {
            Some((path, made)) if path == agent_path => made.clone(),
            _ => {
                let made = JsValue::from_str(&format!("https://session-agent{agent_path}"));
                *url = Some((agent_path.to_owned(), made.clone()));
                made
            }
        }
    }
}

thread_local! {
    static OPENING: Opening = Opening::new();
}

/// What a rejection of `openAgent` means: the step that failed, logged with the runtime's words.
/// A rejection without a kind is none of `openAgent`'s (a broken runtime) and reads as a failed
/// fetch.
fn failure_of(failure: OpenFailure) -> UpstreamError {
    use UpstreamError::*;
    // What the runtime said; never a reason to fail again (a detail that is not a string reads
    // as the value it is).
    let detail = || {
        let detail = failure.detail();
        detail.as_string().unwrap_or_else(|| format!("{detail:?}"))
    };
    match failure.kind() {
        Some(NO_BINDING) => fail(Unavailable, "binding", detail()),
        Some(STUB_FAILED) => fail(Unavailable, "stub", detail()),
        Some(FETCH_FAILED) => fail(Unavailable, "fetch", detail()),
        Some(TIMED_OUT) => fail(Timeout, "connect", detail()),
        Some(NOT_UPGRADED) => fail(NoWebSocket, "upgrade", detail()),
        // A header value the runtime refuses (a caller's id it will not send, say).
        Some(REQUEST_FAILED) => fail(SocketFailed, "request", detail()),
        Some(ACCEPT_FAILED) => fail(SocketFailed, "accept", detail()),
        // Read by `open` before this: one without its socket is none of `openAgent`'s.
        Some(OLDER_PROTOCOL) => fail(SocketFailed, "older protocol", detail()),
        Some(unknown) => fail(SocketFailed, "unknown outcome", unknown),
        None => fail(
            Unavailable,
            "fetch",
            format!("{:?}", JsValue::from(failure)),
        ),
    }
}

// The failure kinds of `upstream.js`'s `openAgent`, its constants of the same names
// (tests/js/worker/wire_constants.test.mjs fails when the two disagree).
const NO_BINDING: u32 = 1;
const STUB_FAILED: u32 = 2;
const REQUEST_FAILED: u32 = 3;
const FETCH_FAILED: u32 = 4;
const TIMED_OUT: u32 = 5;
const NOT_UPGRADED: u32 = 6;
const ACCEPT_FAILED: u32 = 7;
const OLDER_PROTOCOL: u32 = 8;

#[wasm_bindgen(module = "/src/agent/upstream.js")]
extern "C" {
    /// What `openAgent` rejects with: `{ kind, detail }`.
    type OpenFailure;

    #[wasm_bindgen(js_name = openAgent)]
    #[allow(clippy::too_many_arguments)]
    fn js_open_agent(
        env: &JsValue,
        binding: &JsValue,
        url: &JsValue,
        session_id: &str,
        client: &JsValue,
        user_id: Option<&str>,
        timeout_ms: f64,
        accept: bool,
        min_protocol: u32,
    ) -> Promise;

    /// The step that failed; `None` when the rejection is none of `openAgent`'s.
    #[wasm_bindgen(method, getter)]
    fn kind(this: &OpenFailure) -> Option<u32>;

    #[wasm_bindgen(method, getter)]
    fn detail(this: &OpenFailure) -> JsValue;

    /// OLDER_PROTOCOL's: the protocol the agent said (0 for none).
    #[wasm_bindgen(method, getter)]
    fn protocol(this: &OpenFailure) -> Option<u32>;

    /// OLDER_PROTOCOL's: the agent's socket, neither accepted nor closed.
    #[wasm_bindgen(method, getter)]
    fn socket(this: &OpenFailure) -> Option<web_sys::WebSocket>;
}
