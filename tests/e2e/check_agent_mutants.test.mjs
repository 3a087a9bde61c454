// check-agent against every broken agent of tests/fixtures/agents/mutants.mjs: each fails exactly
// the one rule it breaks (exit 1 for a MUST, 0 for a SHOULD), and says what arrived and what a
// chat client sees. A file of its own, beside tests/e2e/check_agent.test.mjs, so that the two run
// at once (the e2e files run a few at a time: tests/README.md).
//
// Each broken agent runs the scenarios its rule needs: the restart only for a rule judged across
// one, the long session (109 turns, 3.6 MB of messages: half of a run's CPU) only for a rule
// judged over it, or where every MUST must be checked for the run's exit 0 (a SHOULD's or a
// MAY's). So chosen, the 64 runs took 67 s of CPU against 110 (49 s with neither for any); the reference agents' runs
// (./check_agent.test.mjs) drive every scenario. Each set was seen necessary: without the restart
// the broken agents of R-turn-id (ids per object), R-keep, R-forget, R-history and R-restart pass;
// without the long session, R-init-bounds's.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { RULES } from "../../check-agent/rules.mjs";
import { JUDGED_ACROSS_RESTART } from "../../check-agent/restart.mjs";
import { JUDGED_OVER_LONG_SESSION } from "../../check-agent/bounds.mjs";
import { MUTANTS } from "../fixtures/agents/mutants.mjs";
import { AT_ONCE, check, failed, unpassed } from "./check_agent.mjs";

describe("check-agent on the broken agents", { concurrency: AT_ONCE }, () => {
  for (const [fault, { rule, does }] of Object.entries(MUTANTS)) {
    const { level } = RULES.find((r) => r.id === rule);
    test(`${rule} (${level}): an agent that ${does} fails exactly it, exit ${level === "MUST" ? 1 : 0}`, { timeout: 120_000 }, async () => {
      const scenarios = {
        restart: JUDGED_ACROSS_RESTART.includes(rule),
        longSession: JUDGED_OVER_LONG_SESSION.includes(rule) || level !== "MUST",
      };
      const { byId, exitCode, results } = await check("typescript", { AGENT_FAULT: fault }, undefined, undefined, scenarios);
      assert.deepEqual(failed(results), [rule], unpassed(results).join("\n"));
      assert.ok(byId[rule].arrived.length > 10, "says what arrived");
      assert.ok(byId[rule].impact.length > 20, "says what a chat client sees");
      assert.equal(exitCode, level === "MUST" ? 1 : 0, unpassed(results).join("\n"));
    });
  }
});
