// A crashed agent instance leaves no feed silent (docs/agent-protocol.md, "What the adapter
// enforces"; crates/adapter/src/watchdog.rs). In the `demo` environment the demo agent runs in the
// worker's own WebAssembly instance: its `/panic now` loses the instance, and with it the Rust
// task of every session feed of the isolate. The feeds' watchdog, in JavaScript, ends their bodies
// within a ping period (LIVENESS_PING_MS, set short here); a client that reconnects then follows
// a later turn of its session. The worker is its own: a panic loses its instance.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, readAll, sleep } from "./harness.mjs";
import { openFeed } from "./feed.mjs";

/** The ping period the worker runs with here: the watchdog checks the instance as often. */
const PING_MS = 1_000;
/** The bound on a feed's end after the panic (a period), with a margin for timers and a shared
 * machine. */
const BOUND_MS = PING_MS + 4_000;

let worker;
before(async () => {
  worker = await startWorker({ vars: { LIVENESS_PING_MS: String(PING_MS) } });
});
after(() => worker?.dispose());

/** Waits for `feed` to end, up to `ms`; whether it did. */
async function ended(feed, ms) {
  const deadline = Date.now() + ms;
  while (!feed.ended && Date.now() < deadline) await sleep(20);
  return feed.ended;
}

test("after /panic now, the isolate's other feeds end within a period, and a reconnecting client sees a later turn", { timeout: 60_000 }, async () => {
  const sessions = [sessionId("calm"), sessionId("calm")];
  const feeds = await Promise.all(sessions.map((session) => openFeed(worker.base, session)));
  for (const feed of feeds) {
    assert.equal(feed.status, 200);
    await feed.until((e) => e.type === "sync", "sync");
  }

  const panic = await postChat(worker.base, sessionId("panic"), chatBody("/panic now"), { signal: AbortSignal.timeout(10_000) });
  await readAll(panic);
  const panicked = Date.now();
  for (const [i, feed] of feeds.entries()) {
    assert.ok(await ended(feed, BOUND_MS - (Date.now() - panicked)), `feed ${i} was still open ${BOUND_MS} ms after the panic`);
  }
  assert.ok(worker.diagnostics.some((l) => l.event === "instance_lost" && /session feed/.test(l.detail)), `the watchdog's line: ${JSON.stringify(worker.diagnostics.slice(-5))}`);

  // The client reconnects (follow-session.js does on the end), and follows the next turn.
  const [session] = sessions;
  const again = await openFeed(worker.base, session, { lastEventId: feeds[0].lastId });
  assert.equal(again.status, 200);
  const turn = await readAll(await postChat(worker.base, session, chatBody("/slow 2 10")));
  assert.match(turn.text, /"type":"finish"/);
  await again.until((e) => e.type === "turn-start", "the later turn's start");
  await again.until((e) => e.type === "turn-end", "the later turn's end");
  again.close();
});
