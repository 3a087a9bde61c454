// A socket to the agent that stops answering, with no close frame, is found (docs/agent-protocol.md,
// R-pong, "What the adapter enforces"): the failing fixture agent's `frozen-` sockets answer the
// adapter's pings, and a prompt's first frames, for FROZEN_AFTER_MS, then nothing, and never close
// (tests/fixtures/agents/failing.js). A feed on one ends (its client reconnects), a turn on one
// ends in-band with "connection to the agent was lost", each within two ping periods of the
// socket's last frame; a `deaf-` socket, an agent written before R-pong that never answers a ping,
// is never taken for dead. The ping period is set short (LIVENESS_PING_MS) to keep the test fast.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, readAll, sleep } from "./harness.mjs";
import { openFeed } from "./feed.mjs";
import { parseSse, checkSequence } from "../sdk/sse.mjs";

/** The ping period the worker runs with here. */
const PING_MS = 500;
/** FROZEN_AFTER_MS of tests/fixtures/agents/failing.js. */
const FROZEN_AFTER_MS = 1_500;
/** The bound: two periods after the last frame, which came before the freeze. */
const BOUND_MS = FROZEN_AFTER_MS + 2 * PING_MS;
/** The margin on it: timers and a shared machine (the bound is what is checked, not speed). */
const MARGIN_MS = 2_500;
/** `errorText` of a turn whose socket was lost (CONNECTION_LOST in crates/core/src/translator/ending.rs). */
const CONNECTION_LOST = "connection to the agent was lost";

let worker;
before(async () => {
  worker = await startWorker({ agent: "failing", vars: { LIVENESS_PING_MS: String(PING_MS) } });
});
after(() => worker?.dispose());

/** Waits for `feed` to end, up to `ms`; whether it did. */
async function ended(feed, ms) {
  const deadline = Date.now() + ms;
  while (!feed.ended && Date.now() < deadline) await sleep(20);
  return feed.ended;
}

test("a feed whose socket stops answering ends within the bound, and its client can come back", async () => {
  const session = sessionId("frozen");
  const opened = Date.now();
  const feed = await openFeed(worker.base, session);
  assert.equal(feed.status, 200);
  await feed.until((e) => e.type === "sync", "sync");
  // Alive while the socket answers: pings answered are no reason to end.
  await sleep(FROZEN_AFTER_MS - 300 - (Date.now() - opened));
  assert.equal(feed.ended, false, "the feed ended while its socket still answered");
  assert.ok(await ended(feed, BOUND_MS + MARGIN_MS - (Date.now() - opened)), `the feed was still open ${BOUND_MS + MARGIN_MS} ms after it opened`);
  assert.equal(feed.error, undefined, "the body ended cleanly");
  const line = worker.diagnostics.find((l) => l.event === "agent_silent");
  assert.ok(line, `no agent_silent line: ${JSON.stringify(worker.diagnostics.slice(-5))}`);
  // The client comes back (follow-session.js reconnects on the end): a new feed, a new socket.
  const again = await openFeed(worker.base, session, { lastEventId: feed.lastId });
  assert.equal(again.status, 200);
  again.close();
});

test("a turn whose socket stops answering ends in-band with the lost connection's error, within the bound", async () => {
  const sent = Date.now();
  const response = await postChat(worker.base, sessionId("frozen"), chatBody("hello"), {
    signal: AbortSignal.timeout(BOUND_MS + MARGIN_MS),
  });
  assert.equal(response.status, 200);
  let text;
  try {
    ({ text } = await readAll(response));
  } catch (error) {
    assert.fail(`the turn's stream did not end within ${BOUND_MS + MARGIN_MS} ms (${error.name})`);
  }
  const took = Date.now() - sent;
  assert.ok(took >= FROZEN_AFTER_MS, `ended after ${took} ms, before the socket froze`);
  const { chunks, problems } = parseSse(text);
  assert.deepEqual(problems, [], text);
  assert.deepEqual(checkSequence(chunks), [], text);
  assert.deepEqual(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta), ["Working"]);
  assert.equal(chunks.find((c) => c.type === "error")?.errorText, CONNECTION_LOST, text);
  assert.equal(chunks.at(-1).type, "finish", text);
  const record = worker.logs.find((l) => l.outcome === "connection_lost");
  assert.ok(record, `no request line with outcome connection_lost: ${JSON.stringify(worker.logs.slice(-3))}`);
});

test("an agent that never answers a ping (written before R-pong) is never taken for dead", async () => {
  const feed = await openFeed(worker.base, sessionId("deaf"));
  assert.equal(feed.status, 200);
  await feed.until((e) => e.type === "sync", "sync");
  await sleep(BOUND_MS + MARGIN_MS);
  assert.equal(feed.ended, false, "a feed on an agent that keeps no R-pong ended");
  feed.close();
});
