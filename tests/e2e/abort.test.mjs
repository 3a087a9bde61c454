// A client that goes away mid-turn: the worker forwards exactly one `abort` with the prompt's
// requestId to the agent within 1 s, and the agent stops sending.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, demoLog, sleep } from "./harness.mjs";

let worker;
before(async () => {
  worker = await startWorker();
});
after(() => worker?.dispose());

/** How soon the abort must reach the agent after its client went: within a second, before the
 * model spends much on an answer nobody reads. */
const ABORT_WITHIN_MS = 1000;

/**
 * POSTs `prompt`, reads until `marker` arrives, then aborts the request. Returns the session and
 * the time (Date.now()) of the abort.
 */
async function abortAfter(prompt, marker) {
  const session = sessionId("abort");
  const controller = new AbortController();
  const response = await postChat(worker.base, session, chatBody(prompt), { signal: controller.signal });
  assert.equal(response.status, 200);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!text.includes(marker)) {
    const { done, value } = await reader.read();
    assert.ok(!done, `the stream ended before ${marker}`);
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  return { session, abortedAt: Date.now() };
}

/** Polls the agent's received log until it holds an abort; returns the log and when it did. */
async function waitForAbort(session, abortedAt) {
  for (;;) {
    const received = await demoLog(worker.base, session, "received");
    if (received.some((e) => e.frame.type === "abort")) return { received, seenAt: Date.now() };
    if (Date.now() - abortedAt > ABORT_WITHIN_MS) return { received, seenAt: null };
    await sleep(25);
  }
}

function assertOneAbortOfThePrompt(received) {
  const prompts = received.filter((e) => e.frame.type === "prompt");
  const aborts = received.filter((e) => e.frame.type === "abort");
  assert.equal(prompts.length, 1);
  assert.equal(aborts.length, 1, `aborts: ${JSON.stringify(aborts)}`);
  assert.match(prompts[0].frame.requestId, /^[0-9a-f-]{36}$/);
  assert.equal(aborts[0].frame.requestId, prompts[0].frame.requestId);
  return aborts[0];
}

/** The agent honoured the abort: its turn ended with finalize `canceled`, then `complete`. */
function assertCanceled(sent) {
  const frames = sent.map((e) => e.frame);
  const finalizes = frames.filter((f) => f.type === "message.finalize");
  assert.deepEqual(finalizes.map((f) => f.reason), ["canceled"]);
  assert.equal(frames.at(-1).type, "complete");
  assert.ok(frames.indexOf(finalizes[0]) < frames.length - 1);
}

describe("abort on client disconnect", { concurrency: true }, () => {
  test("mid-/slow: one abort with the prompt's requestId within 1 s; the agent stops", { timeout: 30_000 }, async (t) => {
    // 100 deltas 100 ms apart: ~10 s of turn left when the client leaves after the first.
    const { session, abortedAt } = await abortAfter("/slow 100 100", '"type":"text-delta"');
    const { seenAt } = await waitForAbort(session, abortedAt);
    assert.ok(seenAt !== null, `no abort reached the agent within ${ABORT_WITHIN_MS} ms`);
    t.diagnostic(`the abort was in the agent's log ${seenAt - abortedAt} ms after the client left`);

    // Long enough for several more deltas, had the agent gone on.
    await sleep(600);
    const received = await demoLog(worker.base, session, "received");
    const abort = assertOneAbortOfThePrompt(received);
    const sent = await demoLog(worker.base, session, "sent");
    const deltas = sent.filter((e) => e.frame.type === "message.part.text-delta");
    assert.ok(deltas.length < 20, `${deltas.length} deltas sent: the turn ran on`);
    assert.ok(deltas.every((d) => d.at <= abort.at), "a delta was sent after the abort arrived");
    assertCanceled(sent);
  });

  test("while the agent is silent (/hang): keep-alives let the abort through within 1 s", { timeout: 30_000 }, async (t) => {
    const { session, abortedAt } = await abortAfter("/hang", '"type":"start-step"');
    const { received, seenAt } = await waitForAbort(session, abortedAt);
    assert.ok(seenAt !== null, `no abort reached the agent within ${ABORT_WITHIN_MS} ms`);
    t.diagnostic(`the abort was in the agent's log ${seenAt - abortedAt} ms after the client left`);
    assertOneAbortOfThePrompt(received);
    await sleep(600);
    assertOneAbortOfThePrompt(await demoLog(worker.base, session, "received"));
    assertCanceled(await demoLog(worker.base, session, "sent"));
  });
});
