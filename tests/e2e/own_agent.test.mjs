// check-agent on an agent of a team's own (docs/your-agent.md, steps 1 to 3): the AI SDK example
// copied out of the repository onto the packed library (tests/fixtures/own-agent.mjs), then made
// theirs: its class and its worker renamed, its own wording of an approval (typechecked: `call.args`
// is the tool's input). Every MUST
// is driven and passes with the copied check-agent.args, and the command names their class.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { root } from "./harness.mjs";
import { copyExample } from "../fixtures/own-agent.mjs";

/** Replaces every `from` in `file` of `project` by `to`, and fails if there was none. */
function rename(project, file, from, to) {
  const at = path.join(project, file);
  const text = readFileSync(at, "utf8");
  assert.ok(text.includes(from), `${file} holds ${from}`);
  writeFileSync(at, text.replaceAll(from, to));
}

test("check-agent passes every MUST on an agent of the user's own: the example copied onto the packed library, its class and worker renamed, its own approval wording", { timeout: 240_000 }, async () => {
  const project = mkdtempSync(path.join(os.tmpdir(), "my-agent-"));
  try {
    copyExample(project, { config: true });
    for (const file of ["src/agent.ts", "src/index.ts", "wrangler.toml"]) rename(project, file, "ChatAgent", "SupportAgent");
    rename(project, "wrangler.toml", 'name = "ai-sdk-agent"', 'name = "my-agent"');
    // Their own wording of the approval, from the call's typed args, as docs/your-agent.md shows it.
    rename(project, "src/agent.ts", "stopWhen: stepCountIs(5) }),\n    {},", 'stopWhen: stepCountIs(5) }),\n    { approval: (call) => (call.toolName === "deploy" ? `Deploy to ${call.args.target.toUpperCase()}?` : `Allow ${call.toolName}?`) },');
    execFileSync(path.join(root, "node_modules/.bin/tsc"), ["-p", project], { stdio: "pipe" });
    const args = readFileSync(path.join(project, "check-agent.args"), "utf8").trim().split(/\s+/);
    const cli = path.join(root, "check-agent/cli.mjs");
    const run = await promisify(execFile)(process.execPath, [cli, "--config", path.join(project, "wrangler.toml"), ...args, "--json"], {
      cwd: project,
      timeout: 200_000,
      env: { ...process.env, INIT_CWD: project, WRANGLER_SEND_METRICS: "false" },
    }).catch((err) => err);
    const report = JSON.parse(run.stdout);
    const musts = report.rules.filter((r) => r.level === "MUST");
    assert.ok(musts.length > 10);
    assert.deepEqual(musts.filter((r) => r.result !== "pass").map((r) => `${r.id}: ${r.result} ${r.why ?? r.arrived ?? ""}`), [], "every MUST driven and passed");
    assert.deepEqual(report.rules.filter((r) => r.result === "fail").map((r) => r.id), []);
    assert.equal(report.exitCode, 0);
    assert.equal(report.agent, "SupportAgent of worker my-agent-test, started locally", "the run names their class and their worker (as --env test renames it)");
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
