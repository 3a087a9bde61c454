// Clients that read slowly: one that stops reading after its first bytes and comes back is still
// there and gets the whole turn (a slow link, a backgrounded phone); one that reads slower than
// the agent sends, past MAX_BUFFERED_BYTES, gets an in-band ending and its turn is aborted, so
// the isolate's memory stays bounded.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { startWorker, sessionId, chatBody, demoLog, chunksOf, sleep, until } from "./harness.mjs";

/** A small bound, so that a flood of a few MB overflows it whatever the socket buffers hold. */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** A bound the paused client's queue stays under: the turn below is ~18 MB of SSE, more than
 * the socket buffers between workerd and the client hold, so most of it queues in the worker. */
const ROOMY_BUFFERED_BYTES = 64 * 1024 * 1024;
const PAUSED_TURN_DELTAS = 300_000;
/** Its pace, deltas a second: the turn lasts ~6 s, longer than the pause, so the worker sees the
 * client stalled while the turn is still running. */
const PAUSED_TURN_RATE = 50_000;

let roomy;
let bounded;
before(async () => {
  [roomy, bounded] = await Promise.all([
    startWorker({ vars: { MAX_BUFFERED_BYTES: String(ROOMY_BUFFERED_BYTES) } }),
    startWorker({ vars: { MAX_BUFFERED_BYTES: String(MAX_BUFFERED_BYTES) } }),
  ]);
});
after(async () => {
  await roomy?.dispose();
  await bounded?.dispose();
});

/**
 * POSTs `prompt`, reads the first bytes, then stops reading from the socket (a paused `node:http`
 * response: TCP backpressure reaches the worker, as from a phone whose app went to the
 * background; `fetch` would keep reading into memory) until `resume()` resolves, then reads to
 * the end. Returns { text, requestId }.
 */
function postWithPause(worker, session, prompt, resume) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${worker.base}/api/sessions/${session}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      agent: false,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      let text = "";
      let paused = false;
      res.setEncoding("utf8");
      res.on("data", (piece) => {
        text += piece;
        if (!paused) {
          paused = true;
          res.pause();
          resume().then(() => res.resume(), reject);
        }
      });
      res.on("end", () => resolve({ text, requestId: res.headers["x-request-id"] }));
      res.on("error", reject);
    });
    req.end(chatBody(prompt));
  });
}

const aborts = async (worker, session) =>
  (await demoLog(worker.base, session, "received")).filter((e) => e.frame.type === "abort");

/** Resolves once the agent of `session` received an abort (polled every 100 ms), or fails after
 * `ms`: the worker's queue overflowed while the client did not read, however loaded the machine. */
async function abortReceived(worker, session, ms = 45_000) {
  const deadline = Date.now() + ms;
  while ((await aborts(worker, session)).length === 0) {
    if (Date.now() > deadline) throw new Error(`no abort reached the agent within ${ms / 1000} s of the client's pause`);
    await sleep(100);
  }
}

describe("slow readers", { concurrency: true }, () => {
  test("a client that reads nothing for 5 s after its first bytes, then drains, gets the whole turn", { timeout: 60_000 }, async () => {
    const session = sessionId("pause");
    const count = PAUSED_TURN_DELTAS;
    const { text } = await postWithPause(roomy, session, `/flood ${count} ${PAUSED_TURN_RATE}`, () => sleep(5000));
    const chunks = chunksOf(text);
    assert.equal(chunks.filter((c) => c.type === "text-delta").length, count);
    assert.equal(chunks.at(-1).type, "finish");
    assert.ok(text.endsWith("data: [DONE]\n\n"));
    assert.deepEqual(await aborts(roomy, session), []);
  });

  test(`past MAX_BUFFERED_BYTES=${MAX_BUFFERED_BYTES} the stream ends in-band and the turn is aborted`, { timeout: 60_000 }, async () => {
    const session = sessionId("slow");
    // ~18 MB of turn, more than the socket buffers hold: the worker's queue grows while the client
    // does not read, until it passes the bound and the worker aborts the turn; the client reads on
    // once the agent has that abort.
    const { text, requestId } = await postWithPause(bounded, session, `/flood 400000 ${PAUSED_TURN_RATE}`, () => abortReceived(bounded, session));
    const chunks = chunksOf(text);
    assert.deepEqual(chunks.slice(-3).map(({ messageMetadata, ...c }) => c), [
      { type: "finish-step" },
      { type: "error", errorText: "the client is reading too slowly" },
      { type: "finish" },
    ]);
    assert.ok(chunks.filter((c) => c.type === "text-delta").length < 400_000, "the turn was cut");
    assert.ok(text.endsWith("data: [DONE]\n\n"));
    assert.deepEqual((await aborts(bounded, session)).map((e) => e.frame.requestId), [requestId]);
    await until(() => bounded.logs.some((l) => l.requestId === requestId), "the request's log line");
    assert.equal(bounded.logs.find((l) => l.requestId === requestId).outcome, "slow_client");
  });
});
