// Opening the WebSocket to a session's agent in one call into JavaScript: the stub, the upgrade
// request, the fetch and its timeout, and, when asked, accepting the socket. Done from Rust, the
// same steps are about fifteen calls across the WebAssembly boundary and two futures per stream
// (`node bench/profile.mjs rust streams`); here they are one call and one promise, which resolves
// to the socket itself, so that the common outcome needs no call to be read. What each failure
// means is decided in crates/adapter/src/agent/upstream.rs: this rejects with the step that failed and the
// runtime's message.
//
// The failure kinds are numbers shared with crates/adapter/src/agent/upstream.rs, under the same names there
// (tests/js/worker/wire_constants.test.mjs holds the two copies equal).

export const NO_BINDING = 1;
export const STUB_FAILED = 2;
export const REQUEST_FAILED = 3;
export const FETCH_FAILED = 4;
export const TIMED_OUT = 5;
export const NOT_UPGRADED = 6;
export const ACCEPT_FAILED = 7;
export const OLDER_PROTOCOL = 8;

/** The status of a successful WebSocket upgrade (RFC 6455, section 4.2.2). */
const SWITCHING_PROTOCOLS = 101;

/** The agent protocol this adapter speaks (docs/agent-protocol.md, "Versions"). */
const AGENT_PROTOCOL = "7";

/** The header in which the agent says its protocol, on the upgrade's answer (from protocol 4). */
const PROTOCOL_HEADER = "x-agent-protocol";

/**
 * Opens the socket to the agent of `sessionId` behind the Durable Object binding `binding`;
 * resolves to the upgraded socket, accepted when `accept` is true (else the caller accepts it,
 * after listening); rejects with `{ kind, detail }` when a step fails: `kind` says which (one of
 * the constants above), `detail` what the runtime said.
 *
 * The request carries the headers of docs/agent-protocol.md ("Opening the socket"): the upgrade,
 * the session, the client's name, the protocol and, when there is one, the caller's id.
 * `timeoutMs` bounds the wait for the answer. `minProtocol`, when above 0, is the protocol the
 * request needs the agent to keep to be sent its frame at once (5: a prompt that names its place
 * in the conversation): an agent whose answer says an older one in `X-Agent-Protocol`, or none,
 * rejects the opening with OLDER_PROTOCOL, the protocol it said (`protocol`, 0 for none) and its
 * socket (`socket`), neither accepted nor closed: the caller decides what an older agent gets
 * (crates/adapter/src/handlers/chat.rs) and accepts or closes it.
 */
export async function openAgent(env, binding, url, sessionId, client, userId, timeoutMs, accept = false, minProtocol = 0) {
  const namespace = env[binding];
  if (namespace === undefined) throw failure(NO_BINDING, `no binding ${binding}`);
  let stub;
  try {
    stub = namespace.get(namespace.idFromName(sessionId));
  } catch (err) {
    throw failure(STUB_FAILED, err);
  }
  // The fetch makes the request from the URL and a plain object of headers: a `Request` made
  // here first would be a constructor call more, and a `Headers` one more again. Of the values,
  // only the caller's id can be one the runtime refuses (the route checked the session id; the
  // rest are constants), so it is checked here, by the rule the runtime applies.
  const headers = {
    upgrade: "websocket",
    "x-session-id": sessionId,
    "x-client": client,
    "x-agent-protocol": AGENT_PROTOCOL,
  };
  if (userId !== undefined) {
    if (!isHeaderValue(userId)) throw failure(REQUEST_FAILED, "the caller's id is not a valid header value");
    headers["x-user-id"] = userId;
  }
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs, TIMED_OUT)));
  let answer;
  try {
    answer = await Promise.race([stub.fetch(url, { headers }), timeout]);
  } catch (err) {
    throw failure(FETCH_FAILED, err);
  } finally {
    clearTimeout(timer);
  }
  if (answer === TIMED_OUT) throw failure(TIMED_OUT, "no answer in time");
  const socket = answer.webSocket;
  if (answer.status !== SWITCHING_PROTOCOLS || !socket) throw failure(NOT_UPGRADED, `status ${answer.status}`);
  if (minProtocol > 0) {
    const said = answer.headers.get(PROTOCOL_HEADER);
    const protocol = agentProtocol(said);
    if (!(protocol >= minProtocol)) {
      const older = failure(OLDER_PROTOCOL, `the agent says protocol ${said ?? "(none)"}, ${minProtocol} is wanted`);
      older.protocol = protocol;
      older.socket = socket;
      throw older;
    }
  }
  if (accept) {
    try {
      socket.accept();
    } catch (err) {
      throw failure(ACCEPT_FAILED, err);
    }
  }
  return socket;
}

/** The protocol an `X-Agent-Protocol` value says: its decimal number, or 0 for anything else. */
export function agentProtocol(value) {
  return value !== null && /^[0-9]{1,9}$/.test(value.trim()) ? Number(value.trim()) : 0;
}

/** HTTP whitespace at either end of a value, which a header drops (Fetch standard, "normalize"). */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** What a header value may not hold once normalized (Fetch standard: NUL, CR, LF). */
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

/** Whether `value` can be a header's value: the runtime's `Headers` refuses it otherwise. */
export function isHeaderValue(value) {
  return !FORBIDDEN_IN_VALUE.test(value.replace(EDGE_WHITESPACE, ""));
}

/** What `openAgent` rejects with. */
function failure(kind, detail) {
  return { kind, detail: String(detail) };
}
