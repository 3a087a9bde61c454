// check-agent, the conformance checker for anyone's agent: it passes on the demo agent and the
// reference TypeScript agent; on the TypeScript agent's minimal mode it fails exactly the SHOULDs
// that mode leaves out; without the question prompts it skips the question rules, saying why; and
// it bites on broken agents, each with the right line (one that never sends message.finalize,
// one that sends deltas under another turnId, one that never answers an abort), and on broken
// approval questions with exactly the one rule they break (a denied call run anyway, a
// toolCallId naming no call, a questionId that is the callId, one questionId for every question).
// The checks run through check-agent's probe worker; the command line runs once on the
// TypeScript agent's own wrangler.toml (wrangler dev) and once on a URL with a token.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import WebSocket from "ws";
import { startWorker, root } from "./harness.mjs";
import { checkAgent } from "../../check-agent/check.mjs";

const run = promisify(execFile);
/** The demo agent's and the TypeScript agent's commands: a turn of a few seconds, a question, a
 * tool call that waits for the user's approval. */
const PROMPTS = { short: "hello", long: "/slow 40 100", ask: "/ask Go on?", approve: "/deploy" };

/** Checks `agent` (with `agentVars`) through the probe; resolves to { byId, mustFailed }. */
async function check(agent, agentVars = {}, prompts = PROMPTS) {
  const worker = await startWorker({ agent, agentVars, probe: true });
  try {
    const { results, mustFailed } = await checkAgent({
      connect: (session) => new WebSocket(`${worker.probe.replace("http", "ws")}/sessions/${session}/agent`),
      prompts,
    });
    return { byId: Object.fromEntries(results.map((r) => [r.id, r])), mustFailed, results };
  } finally {
    await worker.dispose();
  }
}

const failed = (results) => results.filter((r) => r.status === "fail").map((r) => r.id).sort();

describe("check-agent", { concurrency: false }, () => {
  for (const agent of ["demo", "typescript"]) {
    test(`the ${agent} agent passes every rule`, { timeout: 120_000 }, async () => {
      const { results, mustFailed } = await check(agent);
      assert.deepEqual(results.filter((r) => r.status !== "pass").map((r) => `${r.id}: ${r.status} ${r.arrived ?? ""}`), []);
      assert.equal(mustFailed, false);
    });
  }

  test("the minimal mode keeps every MUST and fails exactly the SHOULDs it leaves out", { timeout: 120_000 }, async () => {
    const { results, mustFailed, byId } = await check("typescript-minimal");
    assert.equal(mustFailed, false);
    assert.deepEqual(failed(results), ["R-answer-refused", "R-echo", "R-error-code", "R-init-in-flight", "R-protocol"]);
    assert.equal(byId["R-init-continuity"].status, "skip", "no turn in flight in init: nothing to continue");
    assert.match(byId["R-init-in-flight"].impact, /resume of a running turn answers 204/);
  });

  test("without --ask-prompt and --approve-prompt the question rules are skipped, saying why", { timeout: 120_000 }, async () => {
    const { byId, mustFailed } = await check("typescript", {}, { short: PROMPTS.short, long: PROMPTS.long });
    assert.equal(mustFailed, false);
    assert.deepEqual(["R-answer", "R-approval", "R-question-id"].map((id) => `${id}: ${byId[id].status} ${byId[id].arrived}`), [
      "R-answer: skip no --ask-prompt given",
      "R-approval: skip no --approve-prompt given",
      "R-question-id: skip no --ask-prompt or --approve-prompt given",
    ]);
  });

  const BROKEN = [
    ["no-finalize", "R-finalize", /0 message\.finalize/],
    ["other-turn", "R-turn-id", /turn event\(s\) with another turnId/],
    ["ignore-abort", "R-abort", /finalize "end_turn"/],
  ];
  for (const [fault, rule, arrived] of BROKEN) {
    test(`an agent that breaks ${rule} (${fault}) fails it, with what arrived and what a client sees`, { timeout: 120_000 }, async () => {
      const { byId, mustFailed } = await check("typescript", { AGENT_FAULT: fault });
      assert.equal(mustFailed, true);
      assert.equal(byId[rule].status, "fail");
      assert.match(byId[rule].arrived, arrived);
      assert.ok(byId[rule].impact.length > 20, "says what a chat client sees");
      for (const other of ["R-open", "R-json", "R-turn", "R-tolerant"]) assert.equal(byId[other].status, "pass", other);
    });
  }

  /** Approval questions broken one way each: exactly one rule fails, with what a client sees. */
  const BROKEN_QUESTIONS = [
    ["run-denied", "R-approval", /after the denial, call call_\w+ went "running"/, /pressed Deny sees the tool run anyway/],
    ["question-no-call", "R-approval", /toolCallId "call_nobody" names no call announced before the question \(the turn's calls: call_\w+\)/, /no approve \/ deny on the tool's card/],
    ["question-id-is-call", "R-question-id", /questionId "call_\w+" is also the callId of a tool call of its turn/, /share one id/],
    ["reused-question-id", "R-question-id", /questionId "q_again" asked twice in one session/, /share one id/],
  ];
  for (const [fault, rule, arrived, impact] of BROKEN_QUESTIONS) {
    test(`an agent that breaks ${rule} (${fault}) fails exactly it, with what arrived and what a client sees`, { timeout: 120_000 }, async () => {
      const { byId, mustFailed, results } = await check("typescript", { AGENT_FAULT: fault });
      assert.equal(mustFailed, true);
      assert.deepEqual(failed(results), [rule]);
      assert.match(byId[rule].arrived, arrived);
      assert.match(byId[rule].impact, impact);
    });
  }
});

describe("check-agent's command line", { concurrency: false }, () => {
  const cli = path.join(root, "check-agent/cli.mjs");
  const args = ["--prompt", PROMPTS.short, "--long-prompt", PROMPTS.long, "--ask-prompt", PROMPTS.ask, "--approve-prompt", PROMPTS.approve];
  const runCli = async (extra) => {
    try {
      const { stdout } = await run(process.execPath, [cli, ...extra, ...args], { timeout: 150_000, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
      return { code: 0, stdout };
    } catch (err) {
      return { code: err.code, stdout: `${err.stdout}${err.stderr}` };
    }
  };

  test("--config: starts the TypeScript agent's worker with wrangler dev and passes it (exit 0)", { timeout: 180_000 }, async () => {
    const { code, stdout } = await runCli(["--config", path.join(root, "agents/typescript/wrangler.toml")]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /SessionAgent of worker session-agent, started locally/);
    assert.match(stdout, /^MUST   pass  R-finalize/m);
    assert.match(stdout, /^SHOULD pass  R-close-abort/m);
    assert.match(stdout, /^MUST   pass  R-approval/m);
    assert.match(stdout, /^24 passed, 0 failed, 0 skipped$/m);
  });

  describe("--url with a token: the agent's own route", () => {
    let worker;
    before(async () => {
      worker = await startWorker({ agent: "typescript", agentVars: { AGENT_TOKEN: "check-token-123", AGENT_FAULT: "ignore-abort" } });
    });
    after(() => worker?.dispose());

    test("a MUST failure exits 1 with its lines; a wrong token exits 2", { timeout: 120_000 }, async () => {
      const url = `${worker.agentOrigin.replace("http", "ws")}/sessions/{session}/ws`;
      const broken = await runCli(["--url", url, "--token", "check-token-123"]);
      assert.equal(broken.code, 1, broken.stdout);
      assert.match(broken.stdout, /^MUST   fail  R-abort/m);
      assert.match(broken.stdout, /a chat client: stop does nothing/);
      const refused = await runCli(["--url", url, "--token", "wrong"]);
      assert.equal(refused.code, 2, refused.stdout);
      assert.match(refused.stdout, /^MUST   fail  R-open/m);
      assert.match(refused.stdout, /401/);
    });
  });
});
