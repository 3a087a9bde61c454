// The session feeds' watchdog (crates/adapter/src/watchdog.js) in Node: a feed whose WebAssembly
// instance is lost (workers-rs's `globalThis.__worker_init_state`: `criticalError`, or a new
// `instanceId`) has its body closed and its agent's socket closed with 1011 by its own timer, and
// one line logged; a feed of a live instance is left alone; an unwatched feed is never touched.
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { watchFeed, unwatchFeed } from "../../../crates/adapter/src/watchdog.js";

const PERIOD_MS = 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A body's writer and an agent's socket that record what is done to them. */
function feed() {
  const done = { closedBody: 0, closedSocket: [] };
  const writer = { close: () => ((done.closedBody += 1), Promise.resolve()) };
  const socket = { close: (code, reason) => done.closedSocket.push([code, reason]) };
  return { writer, socket, done };
}

/** Captures console.error's lines while `run` runs. */
async function logged(run) {
  const lines = [];
  const original = console.error;
  console.error = (line) => lines.push(JSON.parse(line));
  try {
    await run();
  } finally {
    console.error = original;
  }
  return lines;
}

afterEach(() => {
  delete globalThis.__worker_init_state;
});

test("a feed of a live instance is left alone", async () => {
  globalThis.__worker_init_state = { instanceId: 1, criticalError: false };
  const { writer, socket, done } = feed();
  watchFeed(writer, socket, PERIOD_MS);
  await sleep(PERIOD_MS * 4);
  unwatchFeed(writer);
  assert.deepEqual(done, { closedBody: 0, closedSocket: [] });
});

for (const [what, lose] of [
  ["trapped (criticalError)", (state) => (state.criticalError = true)],
  ["replaced (a new instanceId)", (state) => (state.instanceId = 2)],
]) {
  test(`a feed whose instance ${what} is ended once, within a period, and logged`, async () => {
    const state = { instanceId: 1, criticalError: false };
    globalThis.__worker_init_state = state;
    const { writer, socket, done } = feed();
    const lines = await logged(async () => {
      watchFeed(writer, socket, PERIOD_MS);
      lose(state);
      await sleep(PERIOD_MS * 4);
    });
    assert.deepEqual(done, { closedBody: 1, closedSocket: [[1011, "adapter lost"]] });
    assert.equal(lines.length, 1);
    assert.equal(lines[0].event, "instance_lost");
    assert.match(lines[0].detail, /session feed/);
  });
}

test("an unwatched feed is never touched, and a feed watched again keeps one timer, on its new socket", async () => {
  const state = { instanceId: 1, criticalError: false };
  globalThis.__worker_init_state = state;
  const gone = feed();
  watchFeed(gone.writer, gone.socket, PERIOD_MS);
  unwatchFeed(gone.writer);
  const moved = feed();
  const newer = feed();
  watchFeed(moved.writer, moved.socket, PERIOD_MS);
  watchFeed(moved.writer, newer.socket, PERIOD_MS);
  await logged(async () => {
    state.criticalError = true;
    await sleep(PERIOD_MS * 4);
  });
  assert.deepEqual(gone.done, { closedBody: 0, closedSocket: [] });
  assert.deepEqual(moved.done.closedBody, 1);
  assert.deepEqual(moved.done.closedSocket, [], "the old socket is the feed's no more");
  assert.deepEqual(newer.done.closedSocket, [[1011, "adapter lost"]]);
});

test("under a workers-rs that keeps no record of its instance, nothing is ended", async () => {
  const { writer, socket, done } = feed();
  watchFeed(writer, socket, PERIOD_MS);
  await sleep(PERIOD_MS * 4);
  unwatchFeed(writer);
  assert.deepEqual(done, { closedBody: 0, closedSocket: [] });
});
