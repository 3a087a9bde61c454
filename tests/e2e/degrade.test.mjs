// How each session feature degrades with an agent that sends less than the protocol asks
// (README, "An agent that sends less"). The demo agent plays such an agent for session ids with
// the prefix `noinit-` (it sends no `init`) or `noinflight-` (its `init` leaves out the turn in
// flight).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf, demoLog, sleep } from "./harness.mjs";

/** RESUME_WAIT_MS of the second worker. */
const RESUME_WAIT_MS = 1500;

let plain;
let waiting;
before(async () => {
  [plain, waiting] = await Promise.all([
    startWorker(),
    startWorker({ vars: { RESUME_WAIT_MS: String(RESUME_WAIT_MS) } }),
  ]);
});
after(async () => {
  await plain?.dispose();
  await waiting?.dispose();
});

const api = (worker, session) => `${worker.base}/api/sessions/${session}/chat`;

/** Starts a `/slow 30 100` turn and waits until its first delta streamed; returns the POST's
 * response promise of the rest and the turn id. */
async function runningTurn(worker, session) {
  const post = await postChat(worker.base, session, chatBody("/slow 30 100"));
  const reader = post.body.getReader();
  let text = "";
  while (!text.includes('"text-delta"')) text += new TextDecoder().decode((await reader.read()).value);
  const turnId = JSON.parse(text.match(/data: (\{"type":"start".*?\})\n/)[1]).messageId;
  const rest = (async () => {
    while (!(await reader.read()).done);
  })();
  return { turnId, rest };
}

/** A resumed stream: a valid one from `start` with the turn id, live to `finish`. */
function assertFromNowOn(text, turnId) {
  const chunks = chunksOf(text);
  assert.equal(chunks[0].type, "start");
  assert.equal(chunks[0].messageId, turnId);
  const deltas = chunks.filter((c) => c.type === "text-delta").map((c) => c.delta);
  assert.ok(deltas.length > 0, "live deltas");
  assert.ok(!deltas.join("").startsWith("w1 "), "earlier parts are missing: it streams from now on");
  assert.deepEqual(chunks.slice(-2).map((c) => c.type), ["finish-step", "finish"]);
  assert.ok(text.endsWith("data: [DONE]\n\n"));
}

describe("an agent that sends no init", { concurrency: true }, () => {
  test("resume streams the turn from now on; stop sends the abort; history is []", { timeout: 30_000 }, async () => {
    const session = sessionId("noinit");
    const { turnId, rest } = await runningTurn(plain, session);
    const resume = await fetch(`${api(plain, session)}/c/stream`);
    assert.equal(resume.status, 200);
    assertFromNowOn((await readAll(resume)).text, turnId);
    await rest;

    const history = await fetch(`${plain.base}/api/sessions/${session}/messages`);
    assert.deepEqual(await history.json(), []);

    const second = await runningTurn(plain, session);
    const stop = await fetch(`${api(plain, session)}/stop`, { method: "POST" });
    assert.equal(stop.status, 202);
    assert.deepEqual(await stop.json(), { stopped: true });
    await second.rest;
    await sleep(200);
    const aborts = (await demoLog(plain.base, session, "received")).filter((e) => e.frame.type === "abort");
    assert.deepEqual(aborts.map((e) => e.frame), [{ type: "abort" }]);
  });

  test("idle: resume is a 204 and an answer a 502 once the wait for init is over", { timeout: 30_000 }, async () => {
    const session = sessionId("noinit");
    const [resume, answer] = await Promise.all([
      fetch(`${api(plain, session)}/c/stream`),
      postChat(plain.base, session, JSON.stringify({
        messages: [{ role: "user", parts: [{ type: "data-answer", data: { questionId: "q", answer: 1 } }] }],
      })),
    ]);
    assert.equal(resume.status, 204);
    assert.equal(answer.status, 502);
    assert.equal((await answer.json()).error.code, "agent_bad_response");
  });
});

describe("an agent whose init leaves out the turn in flight", { concurrency: true }, () => {
  test("by default init is trusted: resume 204, stop {stopped:false}", { timeout: 30_000 }, async () => {
    const session = sessionId("noinflight");
    const { rest } = await runningTurn(plain, session);
    const resume = await fetch(`${api(plain, session)}/c/stream`);
    assert.equal(resume.status, 204);
    const stop = await fetch(`${api(plain, session)}/stop`, { method: "POST" });
    assert.deepEqual(await stop.json(), { stopped: false });
    await rest;
  });

  test(`with RESUME_WAIT_MS=${RESUME_WAIT_MS}: resume streams the turn from now on; idle waits, then 204`, { timeout: 30_000 }, async () => {
    const session = sessionId("noinflight");
    const { turnId, rest } = await runningTurn(waiting, session);
    const resume = await fetch(`${api(waiting, session)}/c/stream`);
    assert.equal(resume.status, 200);
    assertFromNowOn((await readAll(resume)).text, turnId);
    await rest;

    const startedAt = Date.now();
    const idle = await fetch(`${api(waiting, session)}/c/stream`);
    assert.equal(idle.status, 204);
    assert.ok(Date.now() - startedAt >= RESUME_WAIT_MS - 50, "it waited for a turn event first");
  });
});
