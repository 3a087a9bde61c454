// The pump's JavaScript side (crates/adapter/src/pump/wiring.js), in Node with stand-ins for the socket,
// the body's writer and the request's signal: the frames of one turn of the event loop come in
// one call, joined by U+001E; other events hand over the frames before them; a frame holding
// U+001E is reported, not split; nothing is delivered after stop(), and `done` settles then (not before);
// a tick the pump called quiet is counted, not delivered, and the count goes with the next delivery.
import { test } from "node:test";
import assert from "node:assert/strict";
import { wire, write, close, openBody, TICK, SOCKET_CLOSED, CLIENT_SIGNAL, CLIENT_STREAM, BINARY_FRAME, UNSPLITTABLE_FRAME } from "../../crates/adapter/src/pump/wiring.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(t, { tickMs = 60_000, quiet = () => 0, withRequest = true } = {}) {
  const socket = new EventTarget();
  const signal = new AbortController();
  let endBody;
  const writer = {
    closed: new Promise((resolve) => (endBody = resolve)),
    chunks: [],
    write(chunk) {
      this.chunks.push(chunk);
      return Promise.reject(new Error("the client left"));
    },
    close() {
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
      return quiet();
    },
    (kind, code, absorbed) => {
      got.push(["event", kind, code]);
      if (absorbed) got.push(["absorbed", absorbed]);
      return quiet();
    },
  );
  t.after(stop);
  const message = (data) => socket.dispatchEvent(new MessageEvent("message", { data }));
  return { socket, signal, writer, endBody, got, stop, done, message };
}

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
