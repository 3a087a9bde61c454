// A lost adapter stops the turn even when nobody says so: the `prompt` carries its disconnect
// policy (`onDisconnect`), and for `abort` the agent treats its socket closing before the turn
// ends as an abort (docs/agent-protocol.md, "Disconnect policy"). These tests end the adapter's
// side of a running turn abruptly, with no `abort` frame (the TCP connection cut, as when the
// adapter's isolate is evicted or crashes), and watch the agent: the turn must stop under
// `abort` and run on under `detach` or without a policy; a turn waiting on a question is not
// stopped by the socket closing, and the answering socket owns the rest of it.
//
// The socket is opened through check-agent's probe worker, which opens it exactly as the adapter
// does; the chat route's own prompt is checked to carry the policy. Run against the demo agent
// and the reference TypeScript agent (E2E_AGENTS), which both keep the rule.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { startWorker, sessionId, chatBody, postChat, readAll, demoLog, sleep } from "./harness.mjs";
import { Conn } from "../../check-agent/conn.mjs";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");

for (const agent of AGENTS) {
describe(`agent: ${agent}`, () => {
let worker;
before(async () => {
  worker = await startWorker({ probe: true, agent });
});
after(() => worker?.dispose());

/** Opens the agent's socket of `session` through the probe (check-agent's `Conn`); resolves
 * once `init` arrived. */
async function openAgent(session) {
  const conn = await Conn.open(new WebSocket(`${worker.probe.replace("http", "ws")}/sessions/${session}/agent`));
  await waitFor(conn, () => true, "init");
  return conn;
}

/** The first frame of `conn` that `pred` matches, waited for (bounded); throws after `ms`. */
async function waitFor(conn, pred, what, ms = 5000) {
  const found = await conn.waitFor(pred, ms);
  if (!found) throw new Error(`no ${what} within ${ms} ms; got ${conn.frames.map((f) => f.type).join(", ")}`);
  return found;
}

/** The frames the agent sent for `session` (its sent log), parsed. */
async function sent(session) {
  return (await demoLog(worker.base, session, "sent")).map((e) => e.frame);
}

/** Polls the agent's sent log until the turn finalized (bounded); its `message.finalize`. */
async function finalized(session, ms = 8000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const end = (await sent(session)).find((f) => f.type === "message.finalize");
    if (end) return end;
    await sleep(100);
  }
  return null;
}

const isDelta = (f) => f.type === "message.part.text-delta";

/** Starts a `/slow 40 100` turn (~4 s) with `policy` on a socket of its own, waits for three
 * deltas, then cuts the connection with no close frame and no `abort`. */
async function cutMidTurn(session, policy) {
  const conn = await openAgent(session);
  const prompt = { type: "prompt", content: "/slow 40 100", requestId: `req-${session}` };
  if (policy !== undefined) prompt.onDisconnect = policy;
  conn.send(prompt);
  await waitFor(conn, () => conn.frames.filter(isDelta).length >= 3, "third delta");
  const cutAt = Date.now();
  conn.terminate();
  return cutAt;
}

test("onDisconnect abort: the socket cut mid-turn with no abort frame stops the turn", { timeout: 30_000 }, async () => {
  const session = sessionId("lost-abort");
  const cutAt = await cutMidTurn(session, "abort");
  const end = await finalized(session);
  assert.ok(end, "the turn finalized");
  assert.equal(end.reason, "canceled", "the agent stopped the turn as an abort would");
  const received = await demoLog(worker.base, session, "received");
  assert.deepEqual(received.map((e) => e.frame.type), ["prompt"], "no abort frame was sent");
  const frames = await sent(session);
  const deltas = frames.filter(isDelta).length;
  assert.ok(deltas < 40, `the turn stopped early: ${deltas} of 40 deltas`);
  assert.ok(Date.now() - cutAt < 4000, "well before the turn would have ended");
  // The turn is over: a new prompt on a new socket is not `busy`.
  const next = await openAgent(session);
  next.send({ type: "prompt", content: "/slow 1 10", requestId: "after", onDisconnect: "abort" });
  const first = await waitFor(next, (f) => f.type === "message.create" || f.type === "error", "the next turn");
  assert.equal(first.type, "message.create", `the next prompt starts a turn: ${JSON.stringify(first)}`);
  next.close();
});

for (const policy of ["detach", undefined]) {
  test(`onDisconnect ${policy ?? "missing"}: the socket cut mid-turn leaves the turn running`, { timeout: 30_000 }, async () => {
    const session = sessionId(`lost-${policy ?? "none"}`);
    await cutMidTurn(session, policy);
    const end = await finalized(session);
    assert.ok(end, "the turn finalized");
    assert.equal(end.reason, "end_turn", "the turn ran to its end");
    assert.equal((await sent(session)).filter(isDelta).length, 40, "every delta was sent");
  });
}

/** An answer the demo replies to word by word: 60 words at 40 ms, ~2.4 s of deltas. */
const LONG_ANSWER = Array.from({ length: 60 }, (_, i) => `w${i + 1}`).join(" ");

for (const policy of ["abort", "detach"]) {
  test(`a turn waiting on a question is not stopped by its socket closing; an answer's socket (${policy}) owns the rest`, { timeout: 30_000 }, async () => {
    const session = sessionId(`lost-ask-${policy}`);
    const first = await openAgent(session);
    first.send({ type: "prompt", content: "/ask Go on?", requestId: "r-ask", onDisconnect: "abort" });
    const question = await waitFor(first, (f) => f.type === "question", "question");
    // The adapter closes its socket once the question is out: that is no abort.
    first.terminate();
    await sleep(500);
    assert.equal(await finalized(session, 300), null, "the turn still waits for its answer");

    // The answer, then its socket cut after the first word of the reply.
    const second = await openAgent(session);
    second.send({ type: "answer", questionId: question.questionId, answer: LONG_ANSWER, onDisconnect: policy });
    await waitFor(second, isDelta, "the answered turn's first delta");
    second.terminate();
    const end = await finalized(session);
    assert.ok(end, "the turn finalized");
    assert.equal(end.reason, policy === "abort" ? "canceled" : "end_turn");
  });
}

test("the chat route's prompt carries the request's disconnect policy", { timeout: 30_000 }, async () => {
  for (const [extra, policy] of [[{}, "abort"], [{ onDisconnect: "detach" }, "detach"], [{ onDisconnect: "abort" }, "abort"]]) {
    const session = sessionId("policy");
    const res = await postChat(worker.base, session, chatBody("/slow 2 10", extra));
    assert.equal(res.status, 200);
    await readAll(res);
    const received = await demoLog(worker.base, session, "received");
    const prompt = received.find((e) => e.frame.type === "prompt").frame;
    assert.equal(prompt.onDisconnect, policy, JSON.stringify(extra));
  }
});
});
}
