// The pump's JavaScript side (crates/adapter/src/pump/wiring.js), in Node with stand-ins for the socket,
// the body's writer and the request's signal: the frames of one turn of the event loop come in
// one call, joined by U+001E; other events hand over the frames before them; a frame holding
// U+001E is reported, not split; nothing is delivered after stop(), and `done` settles then (not before);
// a tick the pump called quiet is counted, not delivered, and the count goes with the next delivery;
// a lost receiver (a callback that throws, or an instance workers-rs marked lost) is never called
// again, and the body gets the crash ending the receiver last handed over (or, before it handed
// over any, the one every stream shares until its turn opens), then closes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { wire, write, close, openBody, ageCrashEnding, TICK, SOCKET_CLOSED, CLIENT_SIGNAL, CLIENT_STREAM, BINARY_FRAME, UNSPLITTABLE_FRAME } from "../../../crates/adapter/src/pump/wiring.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(t, { tickMs = 60_000, quiet = () => 0, withRequest = true, receive = () => {}, unopenedEnding } = {}) {
  const socket = new EventTarget();
  socket.closes = [];
  socket.close = (code, reason) => socket.closes.push([code, reason]);
  const signal = new AbortController();
  let endBody;
  const writer = {
    closed: new Promise((resolve) => (endBody = resolve)),
    chunks: [],
    closes: 0,
    write(chunk) {
      this.chunks.push(chunk);
      return Promise.reject(new Error("the client left"));
    },
    close() {
      this.closes += 1;
      return Promise.reject(new Error("the client left"));
    },
  };
  const got = [];
  const [stop, done] = wire(
    socket,
    writer,
    withRequest ? { signal: signal.signal } : null, // the request: the wiring reads its `signal`
    tickMs,
    (bytes, absorbed) => {
      got.push(["frames", utf8.decode(bytes)]);
      if (absorbed) got.push(["absorbed", absorbed]);
      receive();
      return quiet();
    },
    (kind, code, absorbed) => {
      got.push(["event", kind, code]);
      if (absorbed) got.push(["absorbed", absorbed]);
      receive();
      return quiet();
    },
    unopenedEnding,
  );
  t.after(stop);
  const message = (data) => socket.dispatchEvent(new MessageEvent("message", { data }));
  return { socket, signal, writer, endBody, got, stop, done, message };
}

const bytesOf = (text) => new TextEncoder().encode(text);
/** A crash ending as the pump makes one: `durationMs` is the turn's time when it was made. */
const crashEnding = (durationMs) =>
  `data: {"type":"error","errorText":"the stream stopped on an internal error"}\n\n` +
  `data: {"type":"finish","messageMetadata":{"turnId":"t1","durationMs":${durationMs},"toolCalls":0,"toolErrors":0}}\n\ndata: [DONE]\n\n`;

/** A seeded generator (mulberry32): the same cases on every run, a failing one reproducible. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A tool's raw input as an agent may send it: nested, with the finish's own key and type among its keys and strings. */
function toolInput(next, depth = 0) {
  const pick = (list) => list[Math.floor(next() * list.length)];
  const keys = ["durationMs", "type", "data", "cmd", "messageMetadata", "turnId"];
  const value = () =>
    depth < 3 && next() < 0.3
      ? toolInput(next, depth + 1)
      : pick([Math.floor(next() * 1e6), "finish", 'data: {"type":"finish","messageMetadata":{"durationMs":7}}', '"durationMs":12', null, [1, "durationMs"]]);
  return Object.fromEntries(Array.from({ length: 1 + Math.floor(next() * 4) }, () => [pick(keys), value()]));
}

test("a crash ending's age changes its finish's durationMs only, whatever a pending tool's input holds (500 seeded cases)", () => {
  const next = random(57);
  const ending = (inputs, durationMs) =>
    inputs.map((input, i) => `data: ${JSON.stringify({ type: "tool-input-available", toolCallId: `c${i}`, toolName: "t", input })}\n\n`).join("") +
    crashEnding(durationMs);
  for (let n = 0; n < 500; n++) {
    const inputs = Array.from({ length: Math.floor(next() * 3) }, () => toolInput(next));
    const durationMs = Math.floor(next() * 100_000);
    const since = 1 + Math.floor(next() * 10_000);
    assert.equal(ageCrashEnding(ending(inputs, durationMs), since), ending(inputs, durationMs + since), JSON.stringify(inputs));
  }
  // The shape that went wrong: a pending tool called with `{"durationMs":500}`.
  const pending = ending([{ durationMs: 500 }], 40);
  assert.equal(ageCrashEnding(pending, 250), ending([{ durationMs: 500 }], 290));
  // Nothing to age: no finish, or a finish without the key, is left as it is.
  assert.equal(ageCrashEnding("data: [DONE]\n\n", 5), "data: [DONE]\n\n");
  assert.equal(ageCrashEnding('data: {"type":"finish"}\n\n', 5), 'data: {"type":"finish"}\n\n');
});

test("frames of one event-loop turn come in one call, joined by U+001E", async (t) => {
  const { got, message, stop } = setup(t);
  message('{"a":1}');
  message('{"b":2}');
  message('{"c":3}');
  assert.deepEqual(got, [], "nothing is delivered before the turn ends");
  await tick();
  assert.deepEqual(got, [["frames", '{"a":1}\u001e{"b":2}\u001e{"c":3}']]);
  message('{"d":4}');
  await tick();
  assert.deepEqual(got.at(-1), ["frames", '{"d":4}'], "a lone frame is handed over as is");
  stop();
});

test("frames go over as UTF-8 bytes, any text intact", async (t) => {
  const { got, message } = setup(t);
  const frames = ['{"delta":"café ☕ 𝄞"}', '{"delta":"日本語"}'];
  for (const frame of frames) message(frame);
  await tick();
  assert.deepEqual(got, [["frames", frames.join("\u001e")]]);
});

test("a close hands over the frames before it, then itself, in order", async (t) => {
  const { got, message, socket, stop } = setup(t);
  message('{"a":1}');
  socket.dispatchEvent(Object.assign(new Event("close"), { code: 1011 }));
  assert.deepEqual(got, [
    ["frames", '{"a":1}'],
    ["event", SOCKET_CLOSED, 1011],
  ]);
  await tick();
  assert.equal(got.length, 2, "the frames are not handed over twice");
  stop();
});

test("binary frames and frames holding U+001E are reported, never split", async (t) => {
  const { got, message, stop } = setup(t);
  message('{"a":1}');
  message('{"x":1}\u001e{"type":"message.part.text-delta"}');
  message(new ArrayBuffer(4));
  await tick();
  assert.deepEqual(got, [
    ["frames", '{"a":1}'],
    ["event", UNSPLITTABLE_FRAME, 0],
    ["event", BINARY_FRAME, 0],
  ]);
  stop();
});

test("the signal and the body's end are a client gone; ticks tick", async (t) => {
  const { got, signal, endBody, stop } = setup(t, { tickMs: 5 });
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.ok(got.some(([, kind]) => kind === TICK), "the clock ticks");
  signal.abort();
  endBody();
  await tick();
  const kinds = got.map(([, kind]) => kind).filter((kind) => kind !== TICK);
  assert.deepEqual(kinds, [CLIENT_SIGNAL, CLIENT_STREAM]);
  stop();
});

test("without a request (null) there is no signal to follow; frames and the body's end still come", async (t) => {
  const { got, message, signal, endBody, stop } = setup(t, { withRequest: false });
  message('{"n":1}');
  await tick();
  signal.abort();
  await tick();
  endBody();
  await tick();
  stop();
  assert.deepEqual(got, [["frames", '{"n":1}'], ["event", CLIENT_STREAM, 0]]);
});

test("after stop() nothing is delivered: no frame, tick, close, signal or body end", async (t) => {
  const { got, message, socket, signal, endBody, stop } = setup(t, { tickMs: 5 });
  message('{"a":1}');
  stop();
  message('{"b":2}');
  socket.dispatchEvent(Object.assign(new Event("close"), { code: 1000 }));
  signal.abort();
  endBody();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(got, []);
});

test("write copies the bytes (the view is reused) and swallows a failed write", async (t) => {
  const { writer, stop } = setup(t);
  const memory = new Uint8Array([1, 2, 3]);
  write(writer, memory);
  memory[0] = 9;
  assert.deepEqual([...writer.chunks[0]], [1, 2, 3]);
  close(writer);
  // A rejection left unhandled would fail this test run.
  await tick();
  stop();
});

test("done settles when the wiring is stopped, not before", async (t) => {
  const { done, stop, message } = setup(t, { tickMs: 5 });
  let settled = false;
  done.then(() => (settled = true));
  message('{"a":1}');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(settled, false);
  stop();
  await done;
  assert.equal(settled, true);
});

test("openBody answers with the init's status and headers and the request id, and streams what the writer writes", async () => {
  const init = { status: 200, headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" } };
  const [writer, response, desiredSize] = openBody(init, "req-1");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  assert.equal(response.headers.get("x-vercel-ai-ui-message-stream"), "v1");
  assert.equal(response.headers.get("x-request-id"), "req-1");
  // The writable side's default strategy: one chunk of room before anything is written.
  assert.equal(desiredSize, 1);
  write(writer, new TextEncoder().encode("data: [DONE]\n\n"));
  close(writer);
  assert.equal(await response.text(), "data: [DONE]\n\n");
  // Each call is a body of its own, with its own id; the init is only read.
  const [, other] = openBody(init, "req-2");
  assert.notEqual(other, response);
  assert.equal(other.headers.get("x-request-id"), "req-2");
  assert.equal(init.headers["x-request-id"], undefined);
  assert.equal(init.headers["content-type"], "text/event-stream");
});

test("a quiet tick is counted, not delivered; its count goes with the next delivery", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  let answer = 1;
  const { got, message, stop } = setup(t, { tickMs: 100, quiet: () => answer });
  message('{"a":1}');
  t.mock.timers.tick(0);
  assert.deepEqual(got, [["frames", '{"a":1}']]);
  t.mock.timers.tick(100);
  assert.deepEqual(got, [["frames", '{"a":1}']], "the quiet tick is not delivered");
  message('{"b":2}');
  t.mock.timers.tick(0);
  assert.deepEqual(got.slice(1), [["frames", '{"b":2}'], ["absorbed", 1]], "it goes with the next delivery");
  answer = 0;
  message('{"c":3}');
  t.mock.timers.tick(0);
  t.mock.timers.tick(100);
  assert.deepEqual(got.slice(3), [["frames", '{"c":3}'], ["event", TICK, 0]], "a tick after a loud answer is delivered");
  stop();
});

test("only the first tick after a delivery is absorbed; the next one is delivered with the count", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  const { got, message, stop } = setup(t, { tickMs: 100, quiet: () => 1 });
  message('{"a":1}');
  t.mock.timers.tick(0);
  t.mock.timers.tick(100);
  t.mock.timers.tick(100);
  assert.deepEqual(got, [["frames", '{"a":1}'], ["event", TICK, 0], ["absorbed", 1]]);
  // That delivery answered quiet again: the tick after it is absorbed, not delivered.
  t.mock.timers.tick(100);
  stop();
  assert.equal(got.length, 3, "nothing is delivered after stop()");
});

test("a tick with frames still waiting is delivered after them, never absorbed before them", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
  // Set before the wiring's clock, so it runs first when both come due: the frame then waits
  // for its 0 ms timer while the tick comes due.
  let late;
  setTimeout(() => late(), 100);
  const { got, message, socket, stop } = setup(t, { tickMs: 100, quiet: () => 1 });
  late = () => message('{"b":2}');
  message('{"a":1}');
  t.mock.timers.tick(0);
  t.mock.timers.tick(100);
  assert.deepEqual(got, [["frames", '{"a":1}'], ["frames", '{"b":2}'], ["event", TICK, 0]]);
  socket.dispatchEvent(Object.assign(new Event("close"), { code: 1000 }));
  assert.deepEqual(got.at(-1), ["event", SOCKET_CLOSED, 1000]);
  stop();
});

test("a callback that throws is lost: the last crash ending goes out, its durationMs grown, then the body and the socket close", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"], now: 1_000 });
  const logged = t.mock.method(console, "error", () => {});
  let trap = false;
  const { got, writer, socket, message, done } = setup(t, {
    tickMs: 100,
    unopenedEnding: bytesOf("data: [DONE]\n\n"),
    receive: () => {
      if (trap) throw new WebAssembly.RuntimeError("unreachable");
    },
  });
  // The receiver's own, handed over with a write, replaces the shared one; its view is reused:
  // the wiring keeps copies.
  const later = bytesOf(crashEnding(40));
  write(writer, bytesOf("data: {\"type\":\"text-start\",\"id\":\"text-1\"}\n\n"), later);
  later.fill(0);
  t.mock.timers.tick(250);
  trap = true;
  message('{"a":1}');
  t.mock.timers.tick(0);
  assert.deepEqual(got, [["event", TICK, 0], ["event", TICK, 0], ["frames", '{"a":1}']], "the ticks, then the frame that trapped");
  assert.deepEqual(
    writer.chunks.map((chunk) => utf8.decode(chunk)),
    ["data: {\"type\":\"text-start\",\"id\":\"text-1\"}\n\n", crashEnding(290)],
    "the last ending, 250 ms older",
  );
  assert.equal(writer.closes, 1);
  assert.deepEqual(socket.closes, [[1011, "adapter lost"]]);
  assert.equal(logged.mock.callCount(), 1);
  const line = logged.mock.calls[0].arguments;
  assert.equal(line.length, 1, "one line");
  const { level, event, detail } = JSON.parse(line[0]);
  assert.deepEqual([level, event], ["error", "instance_lost"]);
  assert.match(detail, /RuntimeError: unreachable/, "the trap is logged");
  trap = false;
  message('{"b":2}');
  t.mock.timers.tick(500);
  assert.equal(got.length, 3, "nothing is delivered once lost");
  t.mock.timers.reset();
  await done;
});

test("an instance workers-rs marked lost is not called: its stream ends at the next tick, with the shared ending when it has none of its own", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"] });
  t.mock.method(console, "error", () => {});
  for (const lose of [(state) => (state.criticalError = true), (state) => (state.instanceId += 1)]) {
    const state = { criticalError: false, instanceId: 3 };
    globalThis.__worker_init_state = state;
    t.after(() => delete globalThis.__worker_init_state);
    const { got, writer, message, done } = setup(t, { tickMs: 100, unopenedEnding: bytesOf(crashEnding(0)), quiet: () => 1 });
    message('{"a":1}');
    t.mock.timers.tick(0);
    assert.deepEqual(got, [["frames", '{"a":1}']]);
    lose(state);
    message('{"b":2}');
    t.mock.timers.tick(0);
    assert.deepEqual(got, [["frames", '{"a":1}']], "no frame goes to a lost instance");
    assert.equal(writer.chunks.length, 1, "the ending, at once");
    await done;
  }
  // And with nothing to deliver, a tick (even one the receiver called quiet) sees it. The shared
  // ending came with an earlier wiring: it is kept for every later one.
  const state = { criticalError: false, instanceId: 3 };
  globalThis.__worker_init_state = state;
  const { got, writer, socket, done } = setup(t, { tickMs: 100, quiet: () => 1 });
  state.criticalError = true;
  t.mock.timers.tick(100);
  assert.deepEqual(got, []);
  assert.deepEqual(writer.chunks.map((chunk) => utf8.decode(chunk)), [crashEnding(100)], "a tick later, 100 ms older");
  assert.deepEqual([writer.closes, socket.closes.length], [1, 1]);
  await done;
});

test("a receiver lost after it stopped the wiring only has its body and socket closed; an empty crash ending writes nothing", async (t) => {
  t.mock.method(console, "error", () => {});
  const trap = () => {
    throw new WebAssembly.RuntimeError("unreachable");
  };
  // It wrote its own ending and stopped the wiring, then trapped before closing anything.
  let stopIt;
  const stopped = setup(t, { unopenedEnding: bytesOf(crashEnding(0)), receive: () => (stopIt(), trap()) });
  stopIt = stopped.stop;
  stopped.message('{"a":1}');
  await tick();
  assert.deepEqual(stopped.writer.chunks, [], "no crash ending after the receiver's own ending");
  assert.deepEqual([stopped.writer.closes, stopped.socket.closes.length], [1, 1]);
  // Its ending is written with an empty crash ending (nothing may follow it); then it trapped.
  const ended = setup(t, { receive: trap });
  write(ended.writer, bytesOf("data: [DONE]\n\n"), new Uint8Array(0));
  ended.message('{"a":1}');
  await tick();
  assert.deepEqual(ended.writer.chunks.map((chunk) => utf8.decode(chunk)), ["data: [DONE]\n\n"], "nothing after it");
  assert.deepEqual([ended.writer.closes, ended.socket.closes.length], [1, 1]);
});
