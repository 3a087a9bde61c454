// The `/deploy [TARGET]` script that the demo agent and the reference TypeScript agent share
// (docs/agent-protocol.md, "Approval questions"), frame by frame on the agent's own socket, opened
// as the adapter opens it (check-agent's probe): the `deploy` call announced `pending` with its
// args, the question naming it; then, answered from a new socket, the call run (`{"approved":
// true}` or the first option, "Approve") or denied (anything else: `Denied`, or `Denied: <reason>`),
// and the turn's end. The waiting question is in `init` with its `toolCallId`, its answer in the
// stored message afterwards; the TypeScript agent's waiting turn outlives a restart of its object
// (a fresh instance on its stored data, as after hibernation). Both agents must send the same
// texts, byte for byte: the shapes below compare parsed frames, ids replaced by placeholders and
// a turn's text deltas joined, so key order and how the text is cut are free; after the answer,
// status lines other than the last `idle`, and the finalize's optional `finalText`, are left
// out (transient or repeated, an agent's own choice).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { startWorker, sessionId } from "./harness.mjs";
import { Conn } from "../../check-agent/conn.mjs";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");
const WAIT_MS = 10_000;

/** A socket to the agent of `session` through `worker`'s probe, open, its first frame (`init`) in. */
async function connect(worker, session) {
  const conn = await Conn.open(new WebSocket(`${worker.probe.replace("http", "ws")}/sessions/${session}/agent`));
  const init = await conn.waitFor(() => true, WAIT_MS);
  assert.equal(init?.type, "init", "init first");
  return { conn, init };
}

/** Prompts `content` and collects the frames up to its question; the socket is closed then, as
 * the adapter closes its socket at a question. */
async function askDeploy(worker, session, content) {
  const { conn } = await connect(worker, session);
  const from = conn.frames.length;
  conn.send({ type: "prompt", content, requestId: "r-deploy", onDisconnect: "abort" });
  const question = await conn.waitFor((f) => f.type === "question" || f.type === "complete", WAIT_MS, from);
  conn.close();
  const got = conn.frames.slice(from).map((f) => f.type + (f.toolName ? ` ${f.toolName}` : ""));
  assert.equal(question?.type, "question", `a question, not only: ${[...new Set(got)].join(", ")}`);
  return { frames: conn.frames.slice(from), question };
}

/** Answers `questionId` with `answer` from a new socket; resolves to that socket's `init` and the
 * frames after the answer, up to `complete`. */
async function answerDeploy(worker, session, questionId, answer) {
  const { conn, init } = await connect(worker, session);
  const from = conn.frames.length;
  conn.send({ type: "answer", questionId, answer, onDisconnect: "abort" });
  const done = await conn.waitFor((f) => f.type === "complete" || f.type === "error", WAIT_MS, from);
  conn.close();
  assert.equal(done?.type, "complete", `the turn ended: ${JSON.stringify(conn.frames.slice(from)).slice(0, 500)}`);
  return { init, frames: conn.frames.slice(from) };
}

/** `frames` with the turn's, the call's and the question's ids as T, C and Q, and each run of
 * text deltas joined into one. */
function shape(frames, { turnId, callId, questionId }) {
  const ids = new Map([[turnId, "T"], [callId, "C"], [questionId, "Q"]]);
  const out = [];
  for (const frame of frames) {
    // A finalize's finalText, and what the turn cost (usage, model: the agents count it each their
    // own way; tests/e2e/turn_records.test.mjs checks it), are not the script's shape; nor is the
    // turn's user message on its create (protocol 5: checked in deployRun).
    const dropped = { "message.finalize": ["finalText", "usage", "model"], "message.create": ["message", "siblings"] }[frame.type] ?? [];
    const kept = Object.entries(frame).filter(([k]) => !dropped.includes(k));
    const f = Object.fromEntries(kept.map(([k, v]) => [k, ids.get(v) ?? v]));
    const last = out.at(-1);
    if (f.type === "message.part.text-delta" && last?.type === f.type) last.delta += f.delta;
    else out.push(f);
  }
  return out;
}

/** The frames after an answer without the status lines before the last `idle`. */
const afterAnswer = (frames) => frames.filter((f, i) => f.type !== "agentStatus" || (f.status === "idle" && i === frames.length - 2));

/** The frames up to the question of `/deploy` to `target`. */
const asked = (target) => [
  { type: "message.create", turnId: "T", requestId: "r-deploy" },
  { type: "agentStatus", status: "tool_calling", detail: "deploy" },
  { type: "message.part.tool-update", turnId: "T", callId: "C", toolName: "deploy", status: "pending", args: { target } },
  { type: "question", questionId: "Q", text: `Deploy to ${target}?`, toolCallId: "C", options: ["Approve", "Deny"] },
];

const ending = [
  { type: "message.finalize", turnId: "T", reason: "end_turn" },
  { type: "agentStatus", status: "idle" },
  { type: "complete" },
];

/** The frames after an approval of `/deploy` to `target`. */
const approved = (target) => [
  { type: "message.part.tool-update", turnId: "T", callId: "C", toolName: "deploy", status: "running", args: { target } },
  { type: "message.part.tool-update", turnId: "T", callId: "C", toolName: "deploy", status: "completed", result: { deployed: target } },
  { type: "message.part.text-delta", turnId: "T", delta: `Deployed to ${target}.` },
  ...ending,
];

/** The frames after a denial of `/deploy` to `target`, the call's error being `error`. */
const denied = (target, error) => [
  { type: "message.part.tool-update", turnId: "T", callId: "C", toolName: "deploy", status: "error", error },
  { type: "message.part.text-delta", turnId: "T", delta: `I did not deploy to ${target}.` },
  ...ending,
];

/** The question part of message `turnId` in `init`. */
const questionPart = (init, turnId) => init.messages.find((m) => m.id === turnId)?.parts.find((p) => p.type === "question");

/** Runs `/deploy` (`prompt`) answered `answer` on a fresh session; checks every frame and the
 * stored question; resolves to the ids. */
async function deployRun(worker, prompt, target, answer, expected) {
  const session = sessionId("deploy");
  const { frames, question } = await askDeploy(worker, session, prompt);
  const ids = { turnId: frames[0].turnId, callId: question.toolCallId, questionId: question.questionId };
  assert.deepEqual(frames[0].message?.parts, [{ type: "text", text: prompt }], "the create carries the turn's user message");
  assert.notEqual(ids.questionId, ids.callId, "the questionId is not the callId");
  assert.deepEqual(shape(frames, ids), asked(target));
  const { init, frames: rest } = await answerDeploy(worker, session, question.questionId, answer);
  const waiting = questionPart(init, ids.turnId);
  assert.deepEqual({ ...waiting, answer: waiting?.answer }, { type: "question", questionId: ids.questionId, text: `Deploy to ${target}?`, toolCallId: ids.callId, options: ["Approve", "Deny"], answer: undefined });
  assert.deepEqual(shape(afterAnswer(rest), ids), expected);
  const { conn, init: later } = await connect(worker, session);
  conn.close();
  assert.deepEqual(questionPart(later, ids.turnId)?.answer, answer, "the stored question keeps its answer");
  return ids;
}

for (const agent of AGENTS) {
  describe(`/deploy on the ${agent} agent`, () => {
    let worker;
    before(async () => {
      worker = await startWorker({ agent, probe: true });
    });
    after(() => worker?.dispose());

    test('{"approved": true}: the call runs and completes', { timeout: 30_000 }, async () => {
      await deployRun(worker, "/deploy staging", "staging", { approved: true }, approved("staging"));
    });

    test('"Approve", the first option: approved too; TARGET defaults to production', { timeout: 30_000 }, async () => {
      await deployRun(worker, "/deploy", "production", "Approve", approved("production"));
    });

    test("denied with a reason: the call ends error with it, never runs", { timeout: 30_000 }, async () => {
      await deployRun(worker, "/deploy staging", "staging", { approved: false, reason: "not on a Friday" }, denied("staging", "Denied: not on a Friday"));
    });

    test('anything else denies: "Deny", an approved that is not true, an empty reason', { timeout: 60_000 }, async () => {
      for (const answer of ["Deny", { approved: "true" }, { approved: false, reason: "" }]) {
        await deployRun(worker, "/deploy", "production", answer, denied("production", "Denied"));
      }
    });
  });
}

if (AGENTS.includes("typescript")) {
  test("typescript: a turn waiting on /deploy's question outlives a restart of its object", { timeout: 60_000 }, async () => {
    const persist = mkdtempSync(path.join(os.tmpdir(), "deploy-restart-"));
    const worker = await startWorker({ agent: "typescript", probe: true, persist });
    try {
      const session = sessionId("deploy-restart");
      const { frames, question } = await askDeploy(worker, session, "/deploy eu-west");
      const ids = { turnId: frames[0].turnId, callId: question.toolCallId, questionId: question.questionId };
      await worker.restart();
      const { frames: rest } = await answerDeploy(worker, session, question.questionId, { approved: false, reason: "later" });
      assert.deepEqual(shape(afterAnswer(rest), ids), denied("eu-west", "Denied: later"));
    } finally {
      await worker.dispose();
      rmSync(persist, { recursive: true, force: true });
    }
  });
}
