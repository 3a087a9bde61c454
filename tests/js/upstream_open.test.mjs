// Opening the agent's socket in one call (src/edge/upstream.js), in Node with a stand-in for the
// Durable Object binding: the request the agent receives, and each way the opening can fail,
// reported as the step that failed (never a rejection), with the timeout's timer cleared.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  openAgent,
  OPENED,
  NO_BINDING,
  STUB_FAILED,
  REQUEST_FAILED,
  FETCH_FAILED,
  TIMED_OUT,
  NOT_UPGRADED,
} from "../../src/edge/upstream.js";

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
        fetch(request) {
          seen.requests.push({ id, request });
          return answer(request);
        },
      };
    },
  };
  return { env: { SESSION_AGENT: namespace }, seen };
}

const open = (env, { userId, timeoutMs = 10_000 } = {}) =>
  openAgent(env, "SESSION_AGENT", URL, "s-1", "ai-sdk-adapter", userId, timeoutMs);

test("an upgraded answer gives its socket; the agent saw the session's object and the protocol's headers", async () => {
  const socket = { kind: "socket" };
  const { env, seen } = envWith(async () => ({ status: 101, webSocket: socket }));
  const opened = await open(env, { userId: "user-7" });
  assert.deepEqual(opened, { kind: OPENED, socket, detail: "" });
  assert.deepEqual(seen.names, ["s-1"]);
  const { id, request } = seen.requests[0];
  assert.equal(id.name, "s-1");
  assert.equal(request.url, URL);
  assert.equal(request.method, "GET");
  assert.equal(request.headers.get("upgrade"), "websocket");
  assert.equal(request.headers.get("x-session-id"), "s-1");
  assert.equal(request.headers.get("x-client"), "ai-sdk-adapter");
  assert.equal(request.headers.get("x-agent-protocol"), "1");
  assert.equal(request.headers.get("x-user-id"), "user-7");
});

test("without a caller's id the request has no x-user-id", async () => {
  const { env, seen } = envWith(async () => ({ status: 101, webSocket: {} }));
  assert.equal((await open(env)).kind, OPENED);
  assert.equal(seen.requests[0].request.headers.has("x-user-id"), false);
});

test("a missing binding is reported by name", async () => {
  const opened = await open({});
  assert.equal(opened.kind, NO_BINDING);
  assert.match(opened.detail, /SESSION_AGENT/);
  assert.equal(opened.socket, null);
});

test("a stub that throws is STUB_FAILED, with the runtime's message", async () => {
  const env = {
    SESSION_AGENT: {
      idFromName() {
        throw new Error("bad name");
      },
    },
  };
  const opened = await open(env);
  assert.equal(opened.kind, STUB_FAILED);
  assert.match(opened.detail, /bad name/);
});

test("a header value the runtime refuses is REQUEST_FAILED, and nothing is fetched", async () => {
  const { env, seen } = envWith(async () => ({ status: 101, webSocket: {} }));
  const opened = await open(env, { userId: "line\nbreak" });
  assert.equal(opened.kind, REQUEST_FAILED);
  assert.equal(seen.requests.length, 0);
});

test("a fetch that rejects is FETCH_FAILED; one that throws at once too", async () => {
  const rejects = envWith(() => Promise.reject(new Error("object reset")));
  const opened = await open(rejects.env);
  assert.equal(opened.kind, FETCH_FAILED);
  assert.match(opened.detail, /object reset/);
  const throws = envWith(() => {
    throw new Error("overloaded");
  });
  assert.equal((await open(throws.env)).kind, FETCH_FAILED);
});

test("an answer that is not an upgrade, or has no socket, is NOT_UPGRADED with its status", async () => {
  const notFound = await open(envWith(async () => ({ status: 404, webSocket: null })).env);
  assert.equal(notFound.kind, NOT_UPGRADED);
  assert.match(notFound.detail, /404/);
  const noSocket = await open(envWith(async () => ({ status: 101, webSocket: null })).env);
  assert.equal(noSocket.kind, NOT_UPGRADED);
  const okButPlain = await open(envWith(async () => ({ status: 200, webSocket: {} })).env);
  assert.equal(okButPlain.kind, NOT_UPGRADED);
});

test("no answer in time is TIMED_OUT, and the wait ends at the timeout", async () => {
  const { env } = envWith(() => new Promise(() => {}));
  const started = performance.now();
  const opened = await open(env, { timeoutMs: 30 });
  assert.equal(opened.kind, TIMED_OUT);
  assert.ok(performance.now() - started < 5_000);
});

test("an answer in time clears the timeout's timer: nothing is left to keep the process alive", async () => {
  const { env } = envWith(async () => ({ status: 101, webSocket: {} }));
  const before = new Set(process.getActiveResourcesInfo());
  const count = (list) => list.filter((r) => r === "Timeout").length;
  await open(env, { timeoutMs: 60_000 });
  assert.equal(count(process.getActiveResourcesInfo()), count([...before]));
});
