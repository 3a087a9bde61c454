// What check-agent's end-to-end tests share (tests/e2e/check_agent.test.mjs, the reference agents
// and the command line; tests/e2e/check_agent_mutants.test.mjs, the broken agents): the prompts of
// the scripted agents, one check of an agent through the probe, and how a run's results are read.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { startWorker } from "./harness.mjs";
import { checkAgent } from "../../check-agent/check.mjs";

/** The scripted agents' commands: a turn that ends, one of 3 s (a tool for 1.5 s, then text),
 * a question, a tool call that waits for the user's approval, what the model is given. */
export const PROMPTS = { short: "hello", long: "/work 30 100", ask: "/ask Go on?", approve: "/deploy", seen: "/seen", extras: "/extras" };

/** Checks `agent` (with `agentVars`) through the probe, restarting its worker when the checker
 * asks (unless `restart: false`; `longSession: false` leaves the long session out: checkAgent's
 * options); resolves to { byId, exitCode, results }. */
export async function check(agent, agentVars = {}, prompts = PROMPTS, declares = {}, { restart = true, longSession = true } = {}) {
  const persist = mkdtempSync(path.join(os.tmpdir(), "check-agent-test-"));
  const worker = await startWorker({ agent, agentVars, probe: true, persist, adapter: agent === "demo" });
  try {
    const { results, exitCode } = await checkAgent({
      connect: (session) => new WebSocket(`${worker.probe.replace("http", "ws")}/sessions/${session}/agent`),
      prompts,
      declares,
      restart: restart ? () => worker.restart() : null,
      longSession,
    });
    return { byId: Object.fromEntries(results.map((r) => [r.id, r])), exitCode, results };
  } finally {
    await worker.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
}

export const failed = (results) => results.filter((r) => r.status === "fail").map((r) => r.id).sort();
export const unpassed = (results) => results.filter((r) => r.status !== "pass").map((r) => `${r.id}: ${r.status} ${r.arrived ?? ""}`);

/** Checks at once: each starts a worker of its own (its own workerd and storage), and most of a
 * check is waiting on the agent's timers (the broken agents alone, 55 then: 40% of 2 cores busy at 4 at
 * once, 171 s; 104 s at 8), so several run side by side even on 2 cores. */
export const AT_ONCE = Number(process.env.CHECK_AGENT_CONCURRENCY ?? 8);

