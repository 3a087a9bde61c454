// check-agent, the conformance checker for anyone's agent (docs/check-agent.md): it passes the
// demo agent and the reference TypeScript agent on every rule; on the TypeScript agent's minimal
// mode it fails exactly the SHOULDs that mode leaves out and exits 0; a run that cannot drive a
// MUST (no question or extras prompt, turns too fast to abort) exits 3 and says what to give. The command
// line runs on the TypeScript agent's own wrangler.toml (wrangler dev, restarted mid-run), and on a
// URL with a token: right, wrong, and nobody there. Every broken agent, caught as exactly its
// rule: tests/e2e/check_agent_mutants.test.mjs.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { startWorker, root } from "./harness.mjs";
import { RULES } from "../../check-agent/rules.mjs";
import { AT_ONCE, PROMPTS, check, failed, unpassed } from "./check_agent.mjs";

const run = promisify(execFile);

describe("check-agent", { concurrency: AT_ONCE }, () => {
  for (const agent of ["demo", "typescript"]) {
    test(`the ${agent} agent passes every rule, mid-tool joins and a restart included (exit 0)`, { timeout: 120_000 }, async () => {
      // The demo agent's plain reply is a demo, seconds long: its short turn is `/slow`'s.
      const prompts = agent === "demo" ? { ...PROMPTS, short: "/slow 3 5" } : PROMPTS;
      const { results, exitCode, byId } = await check(agent, {}, prompts);
      // Both keep protocol 7: no rule is n/a, but the demo's R-title (a MAY): it titles a session
      // from a docs search, its plain reply, which its short prompt is not (tests/e2e/conversations
      // .test.mjs follows its titles into the list); the TypeScript agent's is judged.
      const titled = agent === "demo" ? results.filter((r) => r.id !== "R-title") : results;
      assert.deepEqual(unpassed(titled), []);
      if (agent === "demo") assert.equal(byId["R-title"].status, "n/a");
      assert.deepEqual(results.flatMap((r) => r.notes), [], "nothing left undriven");
      assert.equal(exitCode, 0);
    });
  }

  test("the minimal mode keeps every MUST, fails exactly the SHOULDs it leaves out, and exits 0", { timeout: 120_000 }, async () => {
    const { results, exitCode, byId } = await check("typescript-minimal");
    assert.deepEqual(failed(results), ["R-echo", "R-error-code", "R-init-in-flight", "R-protocol"]);
    assert.equal(byId["R-init-continuity"].status, "n/a", "no turn in flight in init: nothing to continue");
    assert.match(byId["R-init-in-flight"].impact, /resume of a running turn answers 204/);
    assert.equal(exitCode, 0);
  });

  test("without question or extras prompts the run is incomplete (exit 3), saying what to give; --no-questions and --no-extras make them n/a", { timeout: 120_000 }, async () => {
    const bare = { short: PROMPTS.short, long: PROMPTS.long };
    const { byId, exitCode } = await check("typescript", {}, bare);
    assert.equal(exitCode, 3);
    assert.deepEqual(["R-answer", "R-approval", "R-question-id"].map((id) => `${id}: ${byId[id].status} ${byId[id].give}`), [
      "R-answer: skip --ask-prompt (or --no-questions if your agent never asks)",
      "R-approval: skip --approve-prompt (or --no-approvals if your agent gates no tool call)",
      "R-question-id: skip --ask-prompt (or --no-questions if your agent never asks)",
    ]);
    assert.equal(`${byId["R-extras"].status} ${byId["R-extras"].give}`, "skip --extras-prompt (or --no-extras if your agent sends none)");
    const declared = await check("typescript", {}, bare, { questions: false, extras: false });
    assert.equal(declared.exitCode, 0, unpassed(declared.results).join("\n"));
    assert.deepEqual(["R-answer", "R-approval", "R-question-id", "R-extras"].map((id) => declared.byId[id].status), ["n/a", "n/a", "n/a", "n/a"]);
  });

  test("turns too fast to abort are not green: exit 3, asking for a longer --long-prompt", { timeout: 120_000 }, async () => {
    const { byId, exitCode, results } = await check("typescript", {}, { ...PROMPTS, long: PROMPTS.short });
    assert.deepEqual(failed(results), [], unpassed(results).join("\n"));
    assert.equal(exitCode, 3, unpassed(results).join("\n"));
    assert.equal(byId["R-abort-other"].status, "skip");
    assert.match(byId["R-abort-other"].give, /--long-prompt/);
  });
});

describe("check-agent's command line", { concurrency: false }, () => {
  const cli = path.join(root, "check-agent/cli.mjs");
  const args = ["--prompt", PROMPTS.short, "--long-prompt", PROMPTS.long, "--ask-prompt", PROMPTS.ask, "--approve-prompt", PROMPTS.approve, "--seen-prompt", PROMPTS.seen, "--extras-prompt", PROMPTS.extras];
  const runCli = async (extra) => {
    try {
      const { stdout } = await run(process.execPath, [cli, ...extra, ...args], { timeout: 150_000, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
      return { code: 0, stdout };
    } catch (err) {
      return { code: err.code, stdout: `${err.stdout}${err.stderr}` };
    }
  };

  test("--config: the TypeScript agent's worker under wrangler dev, restarted mid-run, passes (exit 0); --json says the same", { timeout: 200_000 }, async () => {
    const config = path.join(root, "agents/typescript/wrangler.toml");
    const { code, stdout } = await runCli(["--config", config]);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /SessionAgent of worker session-agent, started locally/);
    assert.match(stdout, /^SHOULD pass  R-restart/m);
    assert.match(stdout, /^MUST   pass  R-detach/m);
    // Every rule of the contract, each passed.
    assert.match(stdout, new RegExp(`^${RULES.length} passed, 0 failed, 0 skipped, 0 not applicable$`, "m"));
    const json = await runCli(["--config", config, "--json"]);
    assert.equal(json.code, 0, json.stdout);
    const report = JSON.parse(json.stdout);
    assert.equal(report.exitCode, 0);
    assert.deepEqual(report.summary, { passed: RULES.length, failed: 0, skipped: 0, notApplicable: 0 });
    assert.deepEqual(report.rules.map((r) => r.id), RULES.map((r) => r.id));
  });

  describe("--url with a token: the agent's own route", () => {
    let worker;
    before(async () => {
      worker = await startWorker({ agent: "typescript", agentVars: { AGENT_TOKEN: "check-token-123", AGENT_FAULT: "ignore-abort" } });
    });
    after(() => worker?.dispose());

    test("a MUST failure exits 1 with its lines; a refused upgrade is R-open's failure (exit 1), not 'unreachable'", { timeout: 120_000 }, async () => {
      const url = `${worker.agentOrigin.replace("http", "ws")}/sessions/{session}/ws`;
      const broken = await runCli(["--url", url, "--token", "check-token-123"]);
      assert.equal(broken.code, 1, broken.stdout);
      assert.match(broken.stdout, /^MUST   fail  R-abort/m);
      assert.match(broken.stdout, /a chat client: stop does nothing/);
      assert.match(broken.stdout, /^SHOULD skip  R-restart +.*\n +not checked: .*give --config/m);
      const refused = await runCli(["--url", url, "--token", "wrong"]);
      assert.equal(refused.code, 1, refused.stdout);
      assert.match(refused.stdout, /^MUST   fail  R-open/m);
      assert.match(refused.stdout, /arrived: +the upgrade was refused: 401 \(is the token right\? --token\)/);
    });
  });

  test("nobody at the URL: exit 2, 'cannot reach the agent'", { timeout: 30_000 }, async () => {
    const port = await new Promise((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
    });
    const { code, stdout } = await runCli(["--url", `ws://127.0.0.1:${port}/sessions/{session}/ws`]);
    assert.equal(code, 2, stdout);
    assert.match(stdout, /check-agent: cannot reach the agent/);
  });
});
