// A live list at the edge (crates/adapter/src/index/follow.js) in Node, with a stand-in for the
// list's object and its socket: the object's events reach the client as `data:` lines and its
// pongs do not; the feed ends, once, when the object answers none of `silentPings` pings in a
// row, when its client goes (the request's signal), when the credentials end, or when the object
// closes; and its place is given back (`onEnd`) exactly once on every path, a refusal and a
// failure to open included.
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { followList } from "../../../crates/adapter/src/index/follow.js";

const KEEP_ALIVE_MS = 10;
const PING_EVERY = 2;
const SILENT_PINGS = 2;
const PING = "ping";
const PONG = "pong";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every object's socket made, closed after each test (a feed left open would keep its timers,
 * and the test's process, alive). */
const sockets = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.emit("close", {});
});

/** The object's socket: what the worker sends it, whether it was closed, and its listeners. */
function objectSocket({ answers }) {
  const listeners = {};
  const socket = {
    sent: [],
    closed: [],
    accept() {},
    addEventListener(type, listener) {
      (listeners[type] ??= []).push(listener);
    },
    send(data) {
      socket.sent.push(data);
      if (answers && data === PING) queueMicrotask(() => socket.emit("message", { data: PONG }));
    },
    close(code, reason) {
      socket.closed.push([code, reason]);
    },
    emit(type, event) {
      for (const listener of listeners[type] ?? []) listener(event);
    },
  };
  sockets.push(socket);
  return socket;
}

/** A namespace whose one object answers `status` with `socket` (or whose fetch fails). */
function namespaceOf(status, socket, { fails = false } = {}) {
  return {
    idFromName: (name) => name,
    get: () => ({
      fetch: async () => {
        if (fails) throw new Error("the object is unreachable");
        return { status, webSocket: status === 101 ? socket : null };
      },
    }),
  };
}

/** Opens a live list; `ends` counts the calls of its `onEnd`. */
async function open({ status = 101, answers = true, fails = false, expiresAtMs = 0, signal } = {}) {
  const socket = objectSocket({ answers });
  const counted = { ends: 0 };
  const request = { signal };
  const answer = followList(namespaceOf(status, socket, { fails }), "owner", "follow", KEEP_ALIVE_MS, PING_EVERY, SILENT_PINGS, PING, PONG, expiresAtMs, request, () => (counted.ends += 1));
  return { socket, counted, answer };
}

/** The body's text until it ends, or what came within `ms` (then `open` is true). */
async function read(response, ms = 2000) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  for (;;) {
    const next = await Promise.race([reader.read(), sleep(Math.max(deadline - Date.now(), 0)).then(() => "late")]);
    if (next === "late") {
      reader.releaseLock();
      return { text, open: true };
    }
    if (next.done) return { text, open: false };
    text += decoder.decode(next.value, { stream: true });
  }
}

test("events go out as data: lines, pongs do not, and an object that answers keeps the feed open", async () => {
  const { socket, counted, answer } = await open();
  const response = await answer;
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  socket.emit("message", { data: '{"type":"deleted","id":"s1"}' });
  const { text, open: stillOpen } = await read(response, KEEP_ALIVE_MS * PING_EVERY * (SILENT_PINGS + 3));
  assert.ok(stillOpen, "still open after more than the silent pings' time");
  assert.ok(text.startsWith(": keep-alive\n\n"), text);
  assert.ok(text.includes('data: {"type":"deleted","id":"s1"}\n\n'), text);
  assert.ok(!text.includes(PONG), "a pong is not the client's");
  assert.ok(socket.sent.filter((data) => data === PING).length >= SILENT_PINGS + 1, "it pinged");
  assert.equal(counted.ends, 0);
  socket.emit("close", {});
  assert.equal(counted.ends, 1, "the object's close ends it");
});

test(`an object that answers none of ${SILENT_PINGS} pings in a row ends the feed, once`, async () => {
  const { socket, counted, answer } = await open({ answers: false });
  const { open: stillOpen } = await read(await answer);
  assert.equal(stillOpen, false, "the body ended");
  assert.equal(socket.sent.filter((data) => data === PING).length, SILENT_PINGS);
  assert.deepEqual(socket.closed, [[1000, "the live list ended"]]);
  await sleep(KEEP_ALIVE_MS * 3);
  assert.equal(counted.ends, 1);
});

test("the client's going (the request's signal) ends the feed, once", async () => {
  const controller = new AbortController();
  const { socket, counted, answer } = await open({ signal: controller.signal });
  const response = await answer;
  controller.abort();
  const { open: stillOpen } = await read(response);
  assert.equal(stillOpen, false);
  assert.deepEqual(socket.closed, [[1000, "the live list ended"]]);
  socket.emit("close", {});
  assert.equal(counted.ends, 1);
});

test("the credentials' end ends the feed", async () => {
  const { counted, answer } = await open({ expiresAtMs: Date.now() + KEEP_ALIVE_MS * 3 });
  const { open: stillOpen } = await read(await answer);
  assert.equal(stillOpen, false);
  assert.equal(counted.ends, 1);
});

test("a refusal at the list's cap is null, and a failure to reach the object a rejection in words: each gives its place back once", async () => {
  const refused = await open({ status: 429 });
  assert.equal(await refused.answer, null);
  assert.equal(refused.counted.ends, 1);
  const failed = await open({ fails: true });
  await assert.rejects(failed.answer, (error) => error === "the object is unreachable");
  assert.equal(failed.counted.ends, 1);
  const wrong = await open({ status: 500 });
  await assert.rejects(wrong.answer, (error) => error === "the index answered 500 to a live list");
  assert.equal(wrong.counted.ends, 1);
});
