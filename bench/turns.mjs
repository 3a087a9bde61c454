// What a chat turn costs: workerd CPU per turn for short turns, the kind most chats are made of.
// Workers bill CPU per request, and a figure for long streams says nothing about a 100-event turn.
//
//   node bench/turns.mjs [--sizes 10,100,1000] [--turns N] [--reps N] [--warm N] [--cold N]
//
//   --sizes     events per turn (default 10,100,1000)
//   --turns N   sequential turns per measurement (default 100; a tenth of that, at least 10, for
//               turns of 1,000 events or more): each on a new connection, so each opens a new
//               agent socket, as a chat turn does
//   --reps N    measurements per worker and size (default 3), the workers' order rotated each time;
//               the median is shown
//   --warm N    unmeasured turns per worker and size first (default 50)
//   --cold N    fresh workerd processes per worker for the cold figure (default 20: /proc counts
//               CPU in 10 ms ticks, so the figure is a mean over many starts)
//
// One workerd: the demo agent in a worker of its own, and three adapters bound to it: this one
// (Rust), the coalescing TS adapter (bench/ts-adapter) and the coalescing passthrough
// (bench/passthrough). "Beyond the agent" is a worker's CPU per turn minus the agent alone's: the
// same turns into the passthrough's /sink, which runs them and streams nothing. CPU is workerd's
// whole process from /proc (every thread, 10 ms ticks): each measurement spans hundreds of ticks.
// The cold figure: a fresh workerd with the agent and one adapter (this one: its production
// build), the CPU from its start to the end of its first 100-event turn (isolate and module
// set-up, wasm instantiation, the first turn). bench/first_turn.mjs says what that turn compiles.
// Writes bench/results/turns.json and prints a table. Not part of `npm test`.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { newAgent, runSink, runTurn } from "./lib/client.mjs";
import { cpuSeconds } from "./lib/proc.mjs";
import { sourceCommit, writeResults } from "./lib/results.mjs";
import { median, rotate, spread } from "./lib/stats.mjs";
import { buildTsAdapter, root, startWorkers } from "./lib/workers.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const cfg = {
  sizes: String(option("--sizes", "10,100,1000")).split(",").map(Number),
  turns: Number(option("--turns", 100)),
  reps: Number(option("--reps", 3)),
  warm: Number(option("--warm", 50)),
  cold: Number(option("--cold", 20)),
};
const WORKERS = ["rust", "ts", "pass", "agent"];
const say = (text) => process.stdout.write(`${text}\n`);

/** One turn of `events` on `name`: a chat POST (the agent alone: the passthrough's /sink), on a
 * connection of its own; throws unless it ended whole. */
async function turn(urls, name, events) {
  const prompt = `/flood ${events}`;
  const agent = newAgent();
  try {
    if (name === "agent") {
      const r = await runSink(urls.pass, prompt, { agent });
      if (r.status !== 200 || !(r.frames > events)) throw new Error(`sink: status ${r.status}, ${r.frames} frames`);
      return;
    }
    const r = await runTurn(urls[name], name, prompt, { agent });
    if (r.status !== 200 || !r.done || r.deltas !== events) throw new Error(`${name}: status ${r.status}, ${r.deltas} deltas, done ${r.done}`);
  } finally {
    agent.destroy();
  }
}

const turnsFor = (events) => (events >= 1000 ? Math.max(10, Math.round(cfg.turns / 10)) : cfg.turns);

const tsAdapterPath = await buildTsAdapter();
const started = performance.now();
const results = { sizes: {}, cold: {} };

// ---- warm turns: CPU per turn, sequential -----------------------------------------------------
const w = await startWorkers({ adapters: ["rust", "ts", "pass"], tsAdapterPath });
try {
  for (const events of cfg.sizes) {
    const n = turnsFor(events);
    say(`${events}-event turns: ${cfg.warm} warm-up and ${cfg.reps} × ${n} measured per worker`);
    for (const name of WORKERS) for (let i = 0; i < cfg.warm; i++) await turn(w.urls, name, events);
    const perTurn = Object.fromEntries(WORKERS.map((k) => [k, []]));
    for (let rep = 0; rep < cfg.reps; rep++) {
      for (const name of rotate(WORKERS, rep)) {
        const before = cpuSeconds(w.pid);
        for (let i = 0; i < n; i++) await turn(w.urls, name, events);
        perTurn[name].push(((cpuSeconds(w.pid) - before) * 1000) / n);
      }
    }
    const agentAlone = median(perTurn.agent);
    const entry = { turnsPerMeasurement: n, cpuMsPerTurn: {}, beyondAgentMs: {} };
    for (const name of WORKERS) entry.cpuMsPerTurn[name] = spread(perTurn[name]);
    for (const name of ["rust", "ts", "pass"]) entry.beyondAgentMs[name] = median(perTurn[name]) - agentAlone;
    entry.rustOverTs = entry.beyondAgentMs.rust / entry.beyondAgentMs.ts;
    results.sizes[events] = entry;
    say(`  CPU ms per turn (median): ${WORKERS.map((k) => `${k} ${median(perTurn[k]).toFixed(2)}`).join(", ")}`);
  }
} finally {
  await w.dispose();
}

// The size that ships, and the build the cold figure starts: the production build (no demo
// agent, no name section), built here when it is not up to date.
execFileSync("bash", ["scripts/build.sh", "--production"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });

// ---- cold: a fresh workerd, CPU to the end of the first turn ------------------------------------
// This adapter as it is deployed: the production build, whose wasm is a module of its own. (The
// local build's is byte for byte the agent's, and V8 compiles one module once per process for
// both: a first turn of it finds the agent's functions compiled.)
say(`cold: ${cfg.cold} fresh workerd processes per adapter`);
const cold = { rust: [], ts: [], pass: [] };
const production = { adapters: [], variants: { rust: path.join(root, "build/production/index.js") }, vars: { DEMO_AGENT: "off" } };
for (let rep = 0; rep < cfg.cold; rep++) {
  for (const name of rotate(Object.keys(cold), rep)) {
    const options = name === "rust" ? production : { adapters: [name] };
    const fresh = await startWorkers({ ...options, tsAdapterPath, probe: false });
    try {
      await turn(fresh.urls, name, 100);
      cold[name].push(cpuSeconds(fresh.pid) * 1000);
    } finally {
      await fresh.dispose();
    }
  }
}
// The mean, beside the median: each start is a whole number of 10 ms ticks.
const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
for (const name of Object.keys(cold)) results.cold[name] = { ...spread(cold[name]), mean: mean(cold[name]) };

// Issue 24's goal is in `gzip -9` bytes: the gzip command's (GNU gzip, on every Debian machine).
// Node's zlib at level 9 compresses the same wasm about 1% worse (175,220 against 173,218 bytes
// at e1b8e61), so both are kept, and only the command's is called `gzip -9`.
const gzipCommand = (file) => {
  try {
    return execFileSync("gzip", ["-9c", file], { maxBuffer: 64 * 1024 * 1024 }).length;
  } catch {
    return null;
  }
};
const size = (file) => {
  const wasm = readFileSync(path.join(root, file));
  return {
    file,
    bytes: wasm.length,
    gzip9Bytes: gzipCommand(path.join(root, file)),
    zlib9Bytes: gzipSync(wasm, { level: 9 }).length,
  };
};
results.wasm = size("build/production/index_bg.wasm");
results.wasmWithDemo = size("build/index_bg.wasm");
results.seconds = Math.round((performance.now() - started) / 1000);

// ---- the table ------------------------------------------------------------------------------------
const f2 = (v) => v.toFixed(2);
say("");
say("| per turn | this adapter | TS adapter | passthrough | agent alone | this adapter beyond the agent | TS beyond the agent | ratio |");
say("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const [events, e] of Object.entries(results.sizes)) {
  const m = (k) => e.cpuMsPerTurn[k].median;
  say(`| ${events} events | ${f2(m("rust"))} ms | ${f2(m("ts"))} ms | ${f2(m("pass"))} ms | ${f2(m("agent"))} ms | ${f2(e.beyondAgentMs.rust)} ms | ${f2(e.beyondAgentMs.ts)} ms | ${f2(e.rustOverTs)}× |`);
}
say(`| cold: workerd start to the first 100-event turn's end (mean of ${cfg.cold}) | ${results.cold.rust.mean.toFixed(1)} ms | ${results.cold.ts.mean.toFixed(1)} ms | ${results.cold.pass.mean.toFixed(1)} ms | | | | ${f2(results.cold.rust.mean / results.cold.ts.mean)}× |`);
const kb = (w) =>
  `${(w.bytes / 1024).toFixed(0)} KB, ${w.gzip9Bytes === null ? "no gzip command" : `${w.gzip9Bytes} bytes gzip -9`} (zlib level 9: ${w.zlib9Bytes})`;
const out = writeResults("turns", cfg, results);
say(`wasm: production ${kb(results.wasm)}; with the demo agent ${kb(results.wasmWithDemo)}; ${results.seconds} s at ${sourceCommit()}`);
say(`results: ${path.relative(root, out)}`);
