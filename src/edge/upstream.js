// Opening the WebSocket to a session's agent in one call into JavaScript: the stub, the upgrade
// request, the fetch and its timeout. Done from Rust, the same steps are about fifteen calls
// across the WebAssembly boundary and two futures per stream (`node bench/profile.mjs rust
// streams`); here they are one call and one promise. What each failure means is decided in
// src/edge/upstream.rs: this returns the step that failed, with the runtime's message.
//
// The outcome kinds are numbers shared with src/edge/upstream.rs.

export const OPENED = 0;
export const NO_BINDING = 1;
export const STUB_FAILED = 2;
export const REQUEST_FAILED = 3;
export const FETCH_FAILED = 4;
export const TIMED_OUT = 5;
export const NOT_UPGRADED = 6;

/** The status of a successful WebSocket upgrade (RFC 6455, section 4.2.2). */
const SWITCHING_PROTOCOLS = 101;

/** The agent protocol this adapter speaks (docs/agent-protocol.md, "Versions"). */
const AGENT_PROTOCOL = "1";

/**
 * Opens the socket to the agent of `sessionId` behind the Durable Object binding `binding`;
 * resolves (never rejects) to `{ kind, socket, detail }`: `socket` is the upgraded socket, not
 * yet accepted, when `kind` is OPENED; `detail` says what failed otherwise.
 *
 * The request carries the headers of docs/agent-protocol.md ("Opening the socket"): the upgrade,
 * the session, the client's name, the protocol and, when there is one, the caller's id.
 * `timeoutMs` bounds the wait for the answer.
 */
export async function openAgent(env, binding, url, sessionId, client, userId, timeoutMs) {
  const namespace = env[binding];
  if (namespace === undefined) return failed(NO_BINDING, `no binding ${binding}`);
  let stub;
  let request;
  try {
    stub = namespace.get(namespace.idFromName(sessionId));
  } catch (err) {
    return failed(STUB_FAILED, err);
  }
  try {
    const headers = new Headers({
      upgrade: "websocket",
      "x-session-id": sessionId,
      "x-client": client,
      "x-agent-protocol": AGENT_PROTOCOL,
    });
    if (userId !== undefined) headers.set("x-user-id", userId);
    request = new Request(url, { headers });
  } catch (err) {
    return failed(REQUEST_FAILED, err);
  }
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs, TIMED_OUT)));
  try {
    const answer = await Promise.race([stub.fetch(request), timeout]);
    if (answer === TIMED_OUT) return failed(TIMED_OUT, "no answer in time");
    const socket = answer.webSocket;
    if (answer.status !== SWITCHING_PROTOCOLS || !socket) return failed(NOT_UPGRADED, `status ${answer.status}`);
    return { kind: OPENED, socket, detail: "" };
  } catch (err) {
    return failed(FETCH_FAILED, err);
  } finally {
    clearTimeout(timer);
  }
}

function failed(kind, detail) {
  return { kind, socket: null, detail: String(detail) };
}
