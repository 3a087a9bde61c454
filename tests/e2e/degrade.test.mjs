// How each session feature degrades with an agent that sends less than the contract asks
// (docs/agent-protocol.md, "The degrade matrix"). The demo agent plays such an agent for session
// ids with the prefix `noinit-` (it sends no `init`) or `noinflight-` (its `init` leaves out the
// turn in flight and says no protocol); the reference TypeScript agent's minimal mode is one
// (no requestId echo, no turn in flight in `init`, errors without `code`). Every stream stays
// valid; where the adapter cannot know from `init`, it forwards (`abort`, `answer`) and the agent
// decides: it never refuses on a guess. A session feed of an agent with no `init` is a 204.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf, demoLog, sleep } from "./harness.mjs";

/** RESUME_WAIT_MS of the second worker. */
const RESUME_WAIT_MS = 1500;

let plain;
let waiting;
let minimal;
before(async () => {
  [plain, waiting, minimal] = await Promise.all([
    startWorker(),
    startWorker({ vars: { RESUME_WAIT_MS: String(RESUME_WAIT_MS) } }),
    startWorker({ agent: "typescript-minimal" }),
  ]);
});
after(async () => {
  await plain?.dispose();
  await waiting?.dispose();
  await minimal?.dispose();
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

  test("the session feed is a 204, no-store, and gives its place back: nothing to follow", { timeout: 30_000 }, async () => {
    const session = sessionId("noinit");
    // MAX_SESSION_FEEDS (8) at once, each waiting for the init that never comes.
    const feeds = await Promise.all(Array.from({ length: 8 }, () => fetch(`${plain.base}/api/sessions/${session}/events`)));
    assert.deepEqual(feeds.map((r) => r.status), Array(8).fill(204));
    assert.equal(feeds[0].headers.get("cache-control"), "no-store");
    assert.equal(await feeds[0].text(), "");
    const lines = plain.logs.filter((l) => l.path === `/api/sessions/${session}/events`);
    assert.deepEqual(lines.map((l) => l.outcome), Array(8).fill("nothing_to_follow"));
    // Each gave its place back: one more is no 429.
    assert.equal((await fetch(`${plain.base}/api/sessions/${session}/events`)).status, 204);
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

/** An answer's POST body: the last message carries a `data-answer` part. */
const answerBody = (questionId, answer) =>
  JSON.stringify({ id: "c", messages: [{ id: "u", role: "user", parts: [{ type: "data-answer", data: { questionId, answer } }] }] });

/** The body `sendAutomaticallyWhen` posts once the `askUser` call `input` of message `id` is answered. */
const toolAnswerBody = (id, toolCallId, input, output) =>
  JSON.stringify({
    id: "c",
    trigger: "submit-message",
    messageId: id,
    messages: [
      { id: "u", role: "user", parts: [{ type: "text", text: "/ask Go on?" }] },
      { id, role: "assistant", parts: [{ type: "step-start" }, { type: "tool-askUser", toolCallId, state: "output-available", input, output }] },
    ],
  });

const SENDS_LESS = [
  ["the demo agent playing one (noinflight-)", () => plain, "noinflight"],
  ["the TypeScript agent's minimal mode", () => minimal, "minimal"],
];

for (const [name, worker, prefix] of SENDS_LESS) {
  describe(`an agent whose init leaves out the turn in flight: ${name}`, { concurrency: true }, () => {
    test("resume is 204 (init is trusted for it); stop forwards the abort: 202, the turn canceled", { timeout: 30_000 }, async () => {
      const session = sessionId(prefix);
      const post = await postChat(worker().base, session, chatBody("/slow 30 100"));
      const reader = post.body.getReader();
      let text = "";
      while (!text.includes('"text-delta"')) text += new TextDecoder().decode((await reader.read()).value);
      const resume = await fetch(`${api(worker(), session)}/c/stream`);
      assert.equal(resume.status, 204);
      const stop = await fetch(`${api(worker(), session)}/stop`, { method: "POST" });
      assert.equal(stop.status, 202);
      assert.deepEqual(await stop.json(), { stopped: true });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      const ending = chunksOf(text).slice(-3);
      assert.deepEqual(ending.map((c) => c.type), ["finish-step", "message-metadata", "abort"], "the POST's stream ends canceled");
      assert.equal(ending[1].messageMetadata.stopped, true, "its metadata says it was stopped");
      await sleep(200);
      const aborts = (await demoLog(worker().base, session, "received")).filter((e) => e.frame.type === "abort");
      assert.deepEqual(aborts.map((e) => e.frame), [{ type: "abort" }]);
    });

    test("an answer goes to the agent, which resumes its turn: the rest streams into the client's message", { timeout: 30_000 }, async () => {
      const session = sessionId(prefix);
      const asked = chunksOf((await readAll(await postChat(worker().base, session, chatBody("/ask Go on?")))).text);
      const question = asked.find((c) => c.type === "tool-input-available" && c.toolName === "askUser");
      assert.ok(question, "the question streamed");
      const id = asked[0].messageId;
      const answered = await postChat(worker().base, session, toolAnswerBody(id, question.toolCallId, question.input, "yes"));
      assert.equal(answered.status, 200);
      const chunks = chunksOf((await readAll(answered)).text);
      assert.equal(chunks[0].type, "start");
      assert.equal(chunks[0].messageId, id, "the same message, though init named no turn");
      assert.equal(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join(""), "You answered: yes.");
      assert.deepEqual(chunks.slice(-2).map((c) => c.type), ["finish-step", "finish"]);
    });

    test("an answer to no pending question is the agent's to refuse: its error ends the stream in-band", { timeout: 30_000 }, async () => {
      const session = sessionId(prefix);
      const refused = await postChat(worker().base, session, answerBody("q-none", "yes"));
      assert.equal(refused.status, 200);
      const chunks = chunksOf((await readAll(refused)).text);
      assert.deepEqual(chunks.map((c) => c.type), ["error", "finish"]);
      assert.match(chunks[0].errorText, /no pending question/);
    });
  });
}

describe("the TypeScript agent's minimal mode: no requestId echo, errors without code", { concurrency: true }, () => {
  test("a turn streams whole without the echo (the first message.create on the default channel)", { timeout: 30_000 }, async () => {
    const session = sessionId("minimal");
    const chunks = chunksOf((await readAll(await postChat(minimal.base, session, chatBody("/slow 5 20")))).text);
    assert.equal(chunks[0].type, "start");
    assert.equal(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join(""), "w1 w2 w3 w4 w5");
    const prompt = (await demoLog(minimal.base, session, "received")).find((e) => e.frame.type === "prompt");
    const create = (await demoLog(minimal.base, session, "sent")).find((e) => e.frame.type === "message.create");
    assert.ok(prompt.frame.requestId, "the adapter sent a requestId");
    assert.equal(create.frame.requestId, undefined, "the agent echoed none");
  });

  test("busy without a code: the stream ends in-band with the agent's text", { timeout: 30_000 }, async () => {
    const session = sessionId("minimal");
    const running = postChat(minimal.base, session, chatBody("/slow 10 100"));
    await sleep(300);
    const chunks = chunksOf((await readAll(await postChat(minimal.base, session, chatBody("hello")))).text);
    assert.deepEqual(chunks.map((c) => c.type), ["error", "finish"]);
    assert.equal(chunks[0].errorText, "The agent is busy with another turn.");
    await readAll(await running);
  });
});

describe("an agent whose init leaves out the turn in flight, with RESUME_WAIT_MS", { concurrency: true }, () => {
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

/** The rows for agents that leave a frame unanswered or list a dead turn, played by broken agents
 * of tests/fixtures/agents/mutants.mjs, with short timeouts. */
describe("agents that answer nothing, or list a turn that died in a restart (broken agents)", { concurrency: true }, () => {
  const TIMEOUT_MS = 1500;
  const vars = { FIRST_EVENT_TIMEOUT_MS: String(TIMEOUT_MS), IDLE_TIMEOUT_MS: String(TIMEOUT_MS) };
  const TIMED_OUT = "the agent did not respond in time";

  test("R-busy: a prompt during a turn that gets no answer ends in-band at FIRST_EVENT_TIMEOUT_MS", { timeout: 30_000 }, async () => {
    const worker = await startWorker({ agent: "typescript", agentVars: { AGENT_FAULT: "no-busy" }, vars });
    try {
      const session = sessionId("nobusy");
      const running = postChat(worker.base, session, chatBody("/slow 30 100"));
      await sleep(300);
      const chunks = chunksOf((await readAll(await postChat(worker.base, session, chatBody("hello")))).text);
      assert.deepEqual(chunks.map((c) => c.type), ["error", "finish"]);
      assert.equal(chunks[0].errorText, TIMED_OUT);
      await readAll(await running);
    } finally {
      await worker.dispose();
    }
  });

  test("R-answer-refused: a stale answer that an agent without protocol leaves unanswered ends in-band at FIRST_EVENT_TIMEOUT_MS", { timeout: 30_000 }, async () => {
    const worker = await startWorker({ agent: "typescript-minimal", agentVars: { AGENT_FAULT: "no-refuse" }, vars });
    try {
      const response = await postChat(worker.base, sessionId("norefuse"), answerBody("q_never_asked", "yes"));
      assert.equal(response.status, 200);
      const chunks = chunksOf((await readAll(response)).text);
      assert.deepEqual(chunks.map((c) => c.type), ["error", "finish"]);
      assert.equal(chunks[0].errorText, TIMED_OUT);
    } finally {
      await worker.dispose();
    }
  });

  test("R-restart: a resume of a dead turn listed in flight replays it, waits IDLE_TIMEOUT_MS, then ends it with an error", { timeout: 30_000 }, async () => {
    const persist = mkdtempSync(path.join(os.tmpdir(), "degrade-restart-"));
    const worker = await startWorker({ agent: "typescript", agentVars: { AGENT_FAULT: "restart-in-flight" }, vars, persist });
    try {
      const session = sessionId("deadturn");
      const { turnId, rest } = await runningTurn(worker, session);
      const cut = rest.catch(() => {}); // the restart cuts this POST's stream
      await worker.restart();
      await cut;
      const resume = await fetch(`${api(worker, session)}/c/stream`);
      assert.equal(resume.status, 200);
      const chunks = chunksOf((await readAll(resume)).text);
      assert.equal(chunks[0].type, "start");
      assert.equal(chunks[0].messageId, turnId, "the dead turn, replayed");
      assert.equal(chunks.at(-2).type, "error");
      assert.equal(chunks.at(-2).errorText, TIMED_OUT);
      assert.equal(chunks.at(-1).type, "finish");
    } finally {
      await worker.dispose();
      rmSync(persist, { recursive: true, force: true });
    }
  });
});
