// Opening the agent's socket in one call (crates/adapter/src/agent/upstream.js), in Node with a stand-in for the
// Durable Object binding: the request the agent receives, the socket it resolves to (accepted only
// when asked), and each way the opening can fail, rejected as the step that failed, with the
// timeout's timer cleared.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  openAgent,
  isHeaderValue,
  ACCEPT_FAILED,
  NO_BINDING,
  STUB_FAILED,
  REQUEST_FAILED,
  FETCH_FAILED,
  TIMED_OUT,
  NOT_UPGRADED,
  OLDER_PROTOCOL,
  agentProtocol,
} from "../../../crates/adapter/src/agent/upstream.js";

const URL = "https://session-agent/ws";

/** An env whose SESSION_AGENT answers each fetch with `answer(request)`; records the names and requests. */
function envWith(answer) {
  const seen = { names: [], requests: [] };
  const namespace = {
    idFromName(name) {
      seen.names.push(name);
      return { name };
    },
    get(id) {
      return {
        // As the runtime's stub does: the request made from the URL and the init.
        fetch(input, init) {
          const request = new Request(input, init);
          seen.requests.push({ id, request });
          return answer(request);
        },
      };
    },
  };
  return { env: { SESSION_AGENT: namespace }, seen };
}

const open = (env, { userId, timeoutMs = 10_000, accept, minProtocol } = {}) =>
  openAgent(env, "SESSION_AGENT", URL, "s-1", "ai-sdk-adapter", userId, timeoutMs, accept, minProtocol);

/** What `open` rejects with: `{ kind, detail }` (it must reject). */
async function failure(opening) {
  try {
    await opening;
  } catch (failed) {
    // OLDER_PROTOCOL hands the agent's socket back, with the protocol it said.
    const keys = failed.kind === OLDER_PROTOCOL ? ["detail", "kind", "protocol", "socket"] : ["detail", "kind"];
    assert.deepEqual(Object.keys(failed).sort(), keys);
    assert.equal(typeof failed.detail, "string");
    return failed;
  }
  assert.fail("the opening resolved; it was to reject");
}

/** A stand-in socket that counts its accept() calls (and throws from it when `error` is given). */
function socketStub(error) {
  const socket = {
    accepted: 0,
    closed: [],
    accept() {
      socket.accepted += 1;
      if (error) throw error;
    },
    close(code, reason) {
      socket.closed.push([code, reason]);
    },
  };
  return socket;
}

test("an upgraded answer resolves to its socket; the agent saw the session's object and the protocol's headers", async () => {
  const socket = socketStub();
  const { env, seen } = envWith(async () => ({ status: 101, webSocket: socket }));
  const opened = await open(env, { userId: "user-7" });
  assert.equal(opened, socket);
  assert.equal(socket.accepted, 0, "not asked to accept: the caller listens first, then accepts");
  assert.deepEqual(seen.names, ["s-1"]);
  const { id, request } = seen.requests[0];
  assert.equal(id.name, "s-1");
  assert.equal(request.url, URL);
  assert.equal(request.method, "GET");
  assert.equal(request.headers.get("upgrade"), "websocket");
  assert.equal(request.headers.get("x-session-id"), "s-1");
  assert.equal(request.headers.get("x-client"), "ai-sdk-adapter");
  assert.equal(request.headers.get("x-agent-protocol"), "7");
  assert.equal(request.headers.get("x-user-id"), "user-7");
});

test("a request that wants protocol 5 hands an older agent's socket back untouched, with the protocol it said: OLDER_PROTOCOL", async () => {
  for (const [said, protocol] of [[undefined, 0], ["4", 4], ["", 0], ["four", 0], [" 3 ", 3]]) {
    const socket = socketStub();
    const headers = new Headers(said === undefined ? {} : { "x-agent-protocol": said });
    const { env } = envWith(async () => ({ status: 101, webSocket: socket, headers }));
    const failed = await failure(open(env, { minProtocol: 5, accept: true }));
    assert.equal(failed.kind, OLDER_PROTOCOL, `${said}`);
    assert.match(failed.detail, /5 is wanted/);
    assert.equal(failed.protocol, protocol, `${said}`);
    assert.equal(failed.socket, socket, "the socket, for the caller to decide on");
    assert.equal(socket.accepted, 0, "not accepted, though asked: the caller decides");
    assert.deepEqual(socket.closed, []);
  }
  for (const said of ["5", " 5 ", "6"]) {
    const socket = socketStub();
    const { env } = envWith(async () => ({ status: 101, webSocket: socket, headers: new Headers({ "x-agent-protocol": said }) }));
    assert.equal(await open(env, { minProtocol: 5 }), socket, said);
    assert.deepEqual(socket.closed, []);
  }
  // Asked for no protocol, the header is not read at all.
  const socket = socketStub();
  const { env } = envWith(async () => ({ status: 101, webSocket: socket }));
  assert.equal(await open(env), socket);
});

test("an X-Agent-Protocol value is its decimal number, anything else 0", () => {
  assert.deepEqual([null, "", "4", " 12 ", "4.0", "-4", "0x4", "1e3", "9999999999"].map(agentProtocol), [0, 0, 4, 12, 0, 0, 0, 0, 0]);
});

test("asked to accept, it accepts the socket once before resolving", async () => {
  const socket = socketStub();
  const { env } = envWith(async () => ({ status: 101, webSocket: socket }));
  assert.equal(await open(env, { accept: true }), socket);
  assert.equal(socket.accepted, 1);
});

test("an accept() that throws is ACCEPT_FAILED, with the runtime's message", async () => {
  const socket = socketStub(new Error("socket already closed"));
  const { env } = envWith(async () => ({ status: 101, webSocket: socket }));
  const failed = await failure(open(env, { accept: true }));
  assert.equal(failed.kind, ACCEPT_FAILED);
  assert.match(failed.detail, /already closed/);
});

test("without a caller's id the request has no x-user-id", async () => {
  const { env, seen } = envWith(async () => ({ status: 101, webSocket: {} }));
  await open(env);
  assert.equal(seen.requests[0].request.headers.has("x-user-id"), false);
});

test("a missing binding is reported by name", async () => {
  const failed = await failure(open({}));
  assert.equal(failed.kind, NO_BINDING);
  assert.match(failed.detail, /SESSION_AGENT/);
});

test("a stub that throws is STUB_FAILED, with the runtime's message", async () => {
  const env = {
    SESSION_AGENT: {
      idFromName() {
        throw new Error("bad name");
      },
    },
  };
  const failed = await failure(open(env));
  assert.equal(failed.kind, STUB_FAILED);
  assert.match(failed.detail, /bad name/);
});

test("a header value the runtime refuses is REQUEST_FAILED, and nothing is fetched", async () => {
  const { env, seen } = envWith(async () => ({ status: 101, webSocket: {} }));
  const failed = await failure(open(env, { userId: "line\nbreak" }));
  assert.equal(failed.kind, REQUEST_FAILED);
  assert.equal(seen.requests.length, 0);
});

test("a caller's id with a line break inside is REQUEST_FAILED; whitespace around it is dropped, as the runtime drops it", async () => {
  for (const userId of ["a\0b", "a\rb", "user\n7", " a\nb "]) {
    const { env, seen } = envWith(async () => ({ status: 101, webSocket: {} }));
    const failed = await failure(open(env, { userId }));
    assert.equal(failed.kind, REQUEST_FAILED, JSON.stringify(userId));
    assert.equal(seen.requests.length, 0);
  }
  const { env, seen } = envWith(async () => ({ status: 101, webSocket: {} }));
  await open(env, { userId: " \tuser-7\r\n" });
  assert.equal(seen.requests[0].request.headers.get("x-user-id"), "user-7");
});

test("isHeaderValue agrees with the platform's Headers on any Latin-1 text", () => {
  // Latin-1 only: past U+00FF the standard's Headers throws where workerd encodes UTF-8 and
  // warns, and neither refuses by this rule.
  const alphabet = ["\0", "\t", "\n", "\r", " ", "a", "Z", "-", "\u00e9", "\u007f", "\u0001", ":"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  let refused = 0;
  for (let i = 0; i < 2000; i++) {
    let value = "";
    for (let n = next() % 6; n > 0; n--) value += alphabet[next() % alphabet.length];
    let platform = true;
    try {
      new Headers({ "x-user-id": value });
    } catch {
      platform = false;
    }
    if (!platform) refused += 1;
    assert.equal(isHeaderValue(value), platform, JSON.stringify(value));
  }
  assert.ok(refused > 100, "the values tried include refused ones");
});

test("a fetch that rejects is FETCH_FAILED; one that throws at once too", async () => {
  const rejects = envWith(() => Promise.reject(new Error("object reset")));
  const failed = await failure(open(rejects.env));
  assert.equal(failed.kind, FETCH_FAILED);
  assert.match(failed.detail, /object reset/);
  const throws = envWith(() => {
    throw new Error("overloaded");
  });
  assert.equal((await failure(open(throws.env))).kind, FETCH_FAILED);
});

test("an answer that is not an upgrade, or has no socket, is NOT_UPGRADED with its status", async () => {
  const notFound = await failure(open(envWith(async () => ({ status: 404, webSocket: null })).env));
  assert.equal(notFound.kind, NOT_UPGRADED);
  assert.match(notFound.detail, /404/);
  const noSocket = await failure(open(envWith(async () => ({ status: 101, webSocket: null })).env));
  assert.equal(noSocket.kind, NOT_UPGRADED);
  const plainSocket = socketStub();
  const okButPlain = await failure(open(envWith(async () => ({ status: 200, webSocket: plainSocket })).env, { accept: true }));
  assert.equal(okButPlain.kind, NOT_UPGRADED);
  assert.equal(plainSocket.accepted, 0, "a socket that was not upgraded is never accepted");
});

test("no answer in time is TIMED_OUT, and the wait ends at the timeout", async () => {
  const { env } = envWith(() => new Promise(() => {}));
  const started = performance.now();
  const failed = await failure(open(env, { timeoutMs: 30 }));
  assert.equal(failed.kind, TIMED_OUT);
  assert.ok(performance.now() - started < 5_000);
});

test("an answer in time clears the timeout's timer: nothing is left to keep the process alive", async () => {
  const count = (list) => list.filter((r) => r === "Timeout").length;
  const before = count(process.getActiveResourcesInfo());
  await open(envWith(async () => ({ status: 101, webSocket: {} })).env, { timeoutMs: 60_000 });
  assert.equal(count(process.getActiveResourcesInfo()), before);
  // And a failed fetch's too.
  await failure(open(envWith(() => Promise.reject(new Error("reset"))).env, { timeoutMs: 60_000 }));
  assert.equal(count(process.getActiveResourcesInfo()), before);
});
