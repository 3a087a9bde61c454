// `npm run bench`: this adapter (Rust → WASM), a TypeScript adapter of the same endpoint and a
// passthrough, side by side in ONE workerd, behind the same demo SessionAgent Durable Object.
// Both rivals coalesce their writes exactly as this adapter does (the SSE text of one event-loop
// turn is one write, flushed by a 0 ms timer and before the end); their one-write-per-message
// variants (`ts-per-message`, `pass-per-message`) run beside them as labelled reference rows.
// Prints the main table, the reference table and issue 9's goals (met or not, with the
// figures), and writes bench/results/latest.json. Ratios are the claims; absolute numbers are
// context for this machine. See bench/README.md for what each row measures.
//
//   node bench/run.mjs [--quick | --smoke] [--no-build] [--reps N] [--throughput-reps N] [--stream-reps N] [--rate R] [--big N]
//
//   --quick     small sizes, fewer repetitions: a quick look (~1.5 min)
//   --smoke     the conformance step, then one short repetition of each measure, no figure
//               asserted and nothing written to bench/results/: what `npm test` runs, so that a
//               change that breaks the benchmark fails the tests
//   --no-build  do not run scripts/build.sh first
//   --reps N    repetitions of each other timed measurement (median reported; default 3)
//   --throughput-reps N  runs of the throughput rows (default 5): the events/s goals are paired ratios
//   --stream-reps N  runs of the concurrency rows (default 5): they vary the most
//   --rate R    deltas a second the agent sends during the memory turns (default: 3/4 of the
//               slowest worker's measured events/s, so every worker keeps up and nothing queues)
//   --big N     events of the big memory turn (default 1000000)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { performance } from "node:perf_hooks";
import { startWorkers, buildTsAdapter, benchDir, root, PER_MESSAGE } from "./lib/workers.mjs";
import { runTurn, runSink, newAgent, waveOutcome } from "./lib/client.mjs";
import { cpuSeconds, memory, rssSampler, machine, machineBusySeconds } from "./lib/proc.mjs";
import { median, pairedRatios, percentile, spread, rotate } from "./lib/stats.mjs";
import { runConformance } from "./conformance.mjs";
import { inspect } from "./lib/inspector.mjs";

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
};
const smoke = flag("--smoke");
const quick = flag("--quick") || smoke;
const cfg = {
  reps: option("--reps", smoke ? 1 : quick ? 2 : 3),
  // A 100k-event turn through one worker varies by ±10% from run to run on a shared machine:
  // five paired runs, and the events/s goals judged on the median of the paired ratios.
  throughputReps: option("--throughput-reps", smoke ? 1 : quick ? 2 : 5),
  throughputEvents: smoke ? 2_000 : quick ? 20_000 : 100_000,
  stampEvents: smoke ? 50 : quick ? 300 : 1_000,
  stampIntervalMs: 1,
  firstByteReps: smoke ? 1 : quick ? 5 : 15,
  streams: smoke ? 20 : quick ? 200 : 1_000,
  // The concurrency rows vary by ±20% from run to run (each stream creates a Durable Object and
  // its database): five paired runs, and the goal judged on the median of the paired ratios.
  streamReps: option("--stream-reps", quick ? 1 : 5),
  streamEvents: 100,
  smallEvents: smoke ? 1_000 : 10_000,
  bigEvents: option("--big", smoke ? 5_000 : quick ? 100_000 : 1_000_000),
  rate: option("--rate", 0),
  coldReps: smoke ? 1 : quick ? 2 : 3,
};
/** The main table: this adapter and its two rivals, all three coalescing writes. */
const ADAPTERS = ["rust", "ts", "pass"];
/** One write per WebSocket message: reference rows (throughput, first byte, latency, streams). */
const REFERENCE = PER_MESSAGE;
const TIMED = [...ADAPTERS, ...REFERENCE];
const t0 = performance.now();
const say = (...line) => console.error(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s]`, ...line);

// ---- build and sizes -----------------------------------------------------------------------------

if (!flag("--no-build")) {
  say("building the worker (scripts/build.sh; incremental)");
  execFileSync("bash", ["scripts/build.sh"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  say("building the production worker (scripts/build.sh --production; incremental): the wasm users deploy, for the size goals");
  execFileSync("bash", ["scripts/build.sh", "--production"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}
const tsAdapterPath = await buildTsAdapter();
const wasmPath = path.join(root, "build/index_bg.wasm");
const wasm = readFileSync(wasmPath);
const productionWasmPath = path.join(root, "build/production/index_bg.wasm");
/** `gzip -9`'s size of a file (GNU gzip, the measure README's size row and the goals use; Node's zlib at level 9 compresses a wasm about 1% worse). */
const gzip9 = (file) => execFileSync("gzip", ["-9c", file], { maxBuffer: 64 << 20 }).length;
const sizes = {
  // The production build (no demo agent): the wasm users deploy, which the size goals are about.
  // NaN when it was not built (a --no-build run after no production build).
  productionWasmRaw: existsSync(productionWasmPath) ? statSync(productionWasmPath).size : NaN,
  productionWasmGzip: existsSync(productionWasmPath) ? gzip9(productionWasmPath) : NaN,
  // The local build the runs measure (the adapter and the demo agent in one module), for reference.
  wasmRaw: wasm.length,
  wasmGzip: gzipSync(wasm, { level: 9 }).length,
  rustGlueJs: statSync(path.join(root, "build/index.js")).size,
  tsAdapterJs: statSync(tsAdapterPath).size,
  tsAdapterJsGzip: gzipSync(readFileSync(tsAdapterPath), { level: 9 }).length,
};

// ---- one process, all workers ----------------------------------------------------------------------

/** Runs `fn` while measuring workerd's CPU, this client's CPU and the machine's other load. */
async function measured(pid, fn) {
  const cpu0 = cpuSeconds(pid);
  const client0 = process.cpuUsage();
  const busy0 = machineBusySeconds();
  const wall0 = performance.now();
  const result = await fn();
  const wall = (performance.now() - wall0) / 1000;
  const workerd = cpuSeconds(pid) - cpu0;
  const c = process.cpuUsage(client0);
  const client = (c.user + c.system) / 1e6;
  const others = Math.max(0, machineBusySeconds() - busy0 - workerd - client);
  return { result, workerd, client, others, wall };
}

const results = { config: cfg, sizes, adapters: {}, notes: [] };
for (const a of [...TIMED, "rust-colocated"]) results.adapters[a] = {};
results.writes = Object.fromEntries([
  ["rust", "coalesced"],
  ["ts", "coalesced"],
  ["pass", "coalesced"],
  ...REFERENCE.map((a) => [a, "one per WebSocket message"]),
  ["rust-colocated", "coalesced"],
]);
const noise = [];

say(`starting workerd: agent (demo DO) + rust + ts + pass (coalescing) + ${REFERENCE.join(" + ")} (one write per message)`);
const main = await startWorkers({ adapters: TIMED, tsAdapterPath });
const urls = { ...Object.fromEntries(TIMED.map((a) => [a, main.urls[a]])), "rust-colocated": main.urls.agent };
const fail = (what, r) => {
  throw new Error(`${what}: status ${r.status}, ${r.deltas} deltas, done=${r.done}\n${main.output().slice(-2000)}`);
};
try {
  say("conformance: the TS adapter (coalescing, and one write per message) against this adapter (same chunks and bytes; AI SDK ai@5.0.0 and ai@6)");
  results.conformance = await runConformance(main.urls);
  say(`conformance: ${results.conformance.length} checks passed`);

  // Warm-up: one unmeasured turn of the throughput row's size through every worker and the sink.
  // Each isolate's JIT (JS and WASM tiers alike) and the agent reach their steady state over the
  // first large turns: the first 100k-event turn through each worker ran 15–30% slower than the
  // third, for every worker.
  const warmEvents = cfg.throughputEvents;
  for (const a of Object.keys(urls)) {
    const r = await runTurn(urls[a], a, `/flood ${warmEvents}`);
    if (r.deltas !== warmEvents || !r.done) fail(`warm-up ${a}`, r);
  }
  if ((await runSink(urls.pass, `/flood ${warmEvents}`)).status !== 200) fail("warm-up of the sink", {});

  // First byte and first delta of a one-delta turn, warm.
  say(`first byte: ${cfg.firstByteReps} one-delta turns per worker`);
  const first = Object.fromEntries(TIMED.map((a) => [a, { byte: [], delta: [] }]));
  for (let i = 0; i < cfg.firstByteReps; i++) {
    for (const a of rotate(TIMED, i)) {
      const r = await runTurn(urls[a], a, "/stamp 1", { stamps: true });
      if (r.deltas !== 1 || !r.done) fail(`first byte ${a}`, r);
      first[a].byte.push(r.ttfb);
      first[a].delta.push(r.firstDelta);
    }
  }
  for (const a of TIMED) {
    results.adapters[a].firstByteMs = spread(first[a].byte);
    results.adapters[a].firstDeltaMs = spread(first[a].delta);
  }

  // Throughput and CPU: a 100k-delta turn, as fast as the agent can send it.
  const n = cfg.throughputEvents;
  say(`throughput: /flood ${n}, ${cfg.throughputReps} runs per worker (+ rust-colocated, + the agent alone)`);
  const thr = Object.fromEntries(Object.keys(urls).map((a) => [a, { rate: [], cpu: [], client: [] }]));
  const sink = [];
  for (let i = 0; i < cfg.throughputReps; i++) {
    for (const a of rotate([...TIMED, "rust-colocated", "agent alone"], i)) {
      if (a === "agent alone") {
        // The same turn into the passthrough's /sink: the agent and the socket hop, no stream.
        const m = await measured(main.pid, () => runSink(urls.pass, `/flood ${n}`));
        if (m.result.status !== 200) fail("the agent alone", m.result);
        sink.push((m.workerd / n) * 1e7);
        say(`  ${a.padEnd(16)}                  ${sink.at(-1).toFixed(0).padStart(4)} ms CPU/10k`);
        continue;
      }
      const m = await measured(main.pid, () => runTurn(urls[a], a, `/flood ${n}`));
      if (m.result.deltas !== n || !m.result.done) fail(`throughput ${a}`, m.result);
      thr[a].rate.push(n / (m.result.wall / 1000));
      thr[a].cpu.push((m.workerd / n) * 1e4 * 1000);
      thr[a].client.push((m.client / n) * 1e4 * 1000);
      noise.push(m.others / m.wall);
      say(`  ${a.padEnd(16)} ${(n / (m.result.wall / 1000)).toFixed(0).padStart(7)} events/s  ` +
        `${((m.workerd / n) * 1e7).toFixed(0).padStart(4)} ms CPU/10k  (others on the machine: ${(100 * m.others / m.wall).toFixed(0)}% of a core)`);
    }
  }
  results.agentAloneCpuMsPer10k = spread(sink);
  for (const a of Object.keys(urls)) {
    results.adapters[a].eventsPerSecond = spread(thr[a].rate);
    // Run by run, in the rotation's order: the paired ratios of the goals.
    results.adapters[a].eventsPerSecondRuns = thr[a].rate;
    results.adapters[a].cpuMsPer10k = spread(thr[a].cpu);
    results.adapters[a].cpuMsPer10kWithoutAgent = spread(thr[a].cpu.map((c) => c - median(sink)));
    results.adapters[a].clientCpuMsPer10k = spread(thr[a].client);
  }

  // Latency: deltas 1 ms apart, each stamped with the agent's send time.
  say(`latency: /stamp ${cfg.stampEvents} ${cfg.stampIntervalMs}, ${cfg.reps} runs per worker`);
  const lat = Object.fromEntries(TIMED.map((a) => [a, []]));
  for (let i = 0; i < cfg.reps; i++) {
    for (const a of rotate(TIMED, i)) {
      const r = await runTurn(urls[a], a, `/stamp ${cfg.stampEvents} ${cfg.stampIntervalMs}`, { stamps: true });
      if (r.deltas !== cfg.stampEvents || !r.done) fail(`latency ${a}`, r);
      lat[a].push(...r.latencies);
    }
  }
  for (const a of TIMED) {
    results.adapters[a].latencyMs = { p50: percentile(lat[a], 50), p99: percentile(lat[a], 99), samples: lat[a].length };
  }

  // Many streams at once; and as many turns at once into the passthrough's /sink (the agent
  // alone), whose CPU per stream every worker's is also shown without.
  say(`concurrency: ${cfg.streams} concurrent /flood ${cfg.streamEvents} streams per worker (+ the agent alone)`);
  const sinkStreams = [];
  for (let i = 0; i < cfg.streamReps; i++) {
    for (const a of rotate([...TIMED, "agent alone"], i)) {
      // Each stream on its own new connection, as from separate clients (reusing a pool of
      // idle keep-alive connections races with the server closing them: client-side resets).
      const agent = newAgent();
      const alone = a === "agent alone";
      const m = await measured(main.pid, () =>
        Promise.allSettled(
          Array.from({ length: cfg.streams }, () =>
            alone
              ? runTurn(urls.pass, "pass", `/flood ${cfg.streamEvents}`, { timeoutMs: 120_000, agent, path: "sink", keepBody: true })
              : runTurn(urls[a], a, `/flood ${cfg.streamEvents}`, { timeoutMs: 120_000, agent }),
          ),
        ),
      );
      const { completed, lost, reasons } = waveOutcome(m.result, cfg.streamEvents, { sink: alone });
      const run = { completed, lost, wallMs: m.wall * 1000, cpuMsPerStream: (m.workerd * 1000) / cfg.streams, lostReasons: reasons };
      if (alone) sinkStreams.push(run);
      else (results.adapters[a].concurrentRuns ??= []).push(run);
      say(`  ${a.padEnd(16)} completed ${completed}/${cfg.streams} in ${(m.wall * 1000).toFixed(0)} ms, ` +
        `${run.cpuMsPerStream.toFixed(1)} ms CPU per stream${lost ? ` (lost: ${reasons.join("; ")})` : ""}`);
    }
  }
  const sinkPerStream = median(sinkStreams.map((r) => r.cpuMsPerStream));
  results.agentAloneConcurrent = {
    streams: cfg.streams,
    completed: Math.min(...sinkStreams.map((r) => r.completed)),
    cpuMsPerStream: spread(sinkStreams.map((r) => r.cpuMsPerStream)),
    wallMs: spread(sinkStreams.map((r) => r.wallMs)),
  };
  for (const a of TIMED) {
    const runs = results.adapters[a].concurrentRuns;
    results.adapters[a].concurrent = {
      streams: cfg.streams,
      completed: Math.min(...runs.map((r) => r.completed)),
      lost: Math.max(...runs.map((r) => r.lost)),
      wallMs: spread(runs.map((r) => r.wallMs)),
      cpuMsPerStream: spread(runs.map((r) => r.cpuMsPerStream)),
      cpuMsPerStreamWithoutAgent: spread(runs.map((r) => r.cpuMsPerStream - sinkPerStream)),
    };
  }
} finally {
  await main.dispose();
}

// ---- memory: a fresh workerd per adapter, 10k then 1M events at a steady rate -----------------------

// The agent is paced below every worker's throughput: a flood faster than the stream drains queues
// up in workerd (no backpressure crosses a WebSocket), which would measure the queue, not the adapter.
const slowest = Math.min(...ADAPTERS.map((a) => results.adapters[a].eventsPerSecond.median));
const rate = cfg.rate > 0 ? cfg.rate : Math.max(5_000, Math.min(30_000, Math.floor((0.75 * slowest) / 1000) * 1000));
results.memoryRate = rate;
say(`memory: fresh workerd per adapter; /flood ${cfg.smallEvents} then /flood ${cfg.bigEvents}, both at ${rate}/s`);
for (const a of ADAPTERS) {
  const inspectorPort = 9300 + Math.floor(Math.random() * 600);
  const w = await startWorkers({ adapters: [a], tsAdapterPath, inspectorPort });
  try {
    const url = w.urls[a];
    await runTurn(url, a, "/flood 2000");
    const baseline = memory(w.pid).rss;
    const heap = async () => {
      const i = await inspect(inspectorPort, a);
      try {
        return (await i.heap()).used;
      } finally {
        i.close();
      }
    };
    const turn = async (events) => {
      const sampler = rssSampler(w.pid);
      const r = await runTurn(url, a, `/flood ${events} ${rate}`, { timeoutMs: 1_800_000 });
      const peak = sampler.stop();
      if (r.deltas !== events || !r.done) throw new Error(`memory ${a} ${events}: ${r.deltas} deltas`);
      return { peak, rate: events / (r.wall / 1000), heap: await heap() };
    };
    const small = await turn(cfg.smallEvents);
    const big = await turn(cfg.bigEvents);
    results.adapters[a].memory = {
      baselineMB: baseline / 2 ** 20,
      peakSmallMB: small.peak / 2 ** 20,
      peakBigMB: big.peak / 2 ** 20,
      growthMB: (big.peak - small.peak) / 2 ** 20,
      growthBytesPerEvent: (big.peak - small.peak) / (cfg.bigEvents - cfg.smallEvents),
      adapterJsHeapSmallMB: small.heap / 2 ** 20,
      adapterJsHeapBigMB: big.heap / 2 ** 20,
      achievedRate: big.rate,
    };
    say(`  ${a.padEnd(6)} RSS peak ${(small.peak / 2 ** 20).toFixed(0)} MB at ${cfg.smallEvents}, ` +
      `${(big.peak / 2 ** 20).toFixed(0)} MB at ${cfg.bigEvents} (${big.rate.toFixed(0)} events/s achieved); ` +
      `its isolate's JS heap ${(small.heap / 2 ** 20).toFixed(1)} → ${(big.heap / 2 ** 20).toFixed(1)} MB`);
  } finally {
    await w.dispose();
  }
}

// ---- cold start: a fresh workerd, start → first SSE byte ------------------------------------------

say(`cold start: ${cfg.coldReps} fresh workerd processes per layout`);
const layouts = { rust: ["rust"], ts: ["ts"], pass: ["pass"], "rust-colocated": [] };
const cold = Object.fromEntries(Object.keys(layouts).map((k) => [k, { total: [], firstRequest: [] }]));
for (let i = 0; i < cfg.coldReps; i++) {
  for (const k of rotate(Object.keys(layouts), i)) {
    const started = performance.now();
    const w = await startWorkers({ adapters: layouts[k], tsAdapterPath, probe: false });
    try {
      const url = k === "rust-colocated" ? w.urls.agent : w.urls[k];
      const r = await runTurn(url, k, "/flood 1");
      if (!r.done) throw new Error(`cold start ${k}: no [DONE]`);
      cold[k].total.push(w.readyAt - started + r.ttfb);
      cold[k].firstRequest.push(r.ttfb);
    } finally {
      await w.dispose();
    }
  }
}
for (const k of Object.keys(layouts)) {
  results.adapters[k].coldStart = { totalMs: spread(cold[k].total), firstRequestMs: spread(cold[k].firstRequest) };
}

// ---- report ----------------------------------------------------------------------------------------

const version = (cmd, args) => {
  try {
    return execFileSync(cmd, args, { cwd: root }).toString().trim();
  } catch {
    return "unknown";
  }
};
const m = machine();
results.machine = {
  cpu: m.model,
  cores: os.cpus().length,
  memoryGB: +(m.memTotal / 2 ** 30).toFixed(1),
  node: process.version,
  workerd: version(path.join(root, "node_modules/.bin/workerd"), ["--version"]),
  miniflare: JSON.parse(readFileSync(path.join(root, "node_modules/miniflare/package.json"), "utf8")).version,
  loadavgAtEnd: m.loadavg,
  otherProcessesDuringThroughput: `median ${(100 * median(noise)).toFixed(0)}% of a core (max ${(100 * Math.max(...noise)).toFixed(0)}%)`,
};
results.git = {
  commit: version("git", ["rev-parse", "--short", "HEAD"]),
  dirty: version("git", ["status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock", "bench/ts-adapter", "bench/passthrough"]).split("\n").filter(Boolean),
};
results.durationSeconds = (performance.now() - t0) / 1000;
results.date = new Date().toISOString();

const A = results.adapters;
const r2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "–");
const f0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "–");
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "–");
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "–");
const x2 = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : "–");
const signed = (x) => (Number.isFinite(x) ? `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)} ms` : "–");
const verdict = (met) => (met ? "met" : "NOT MET");
/** a ÷ b; none (shown as –) when b is not positive or a is negative: a figure minus the agent alone can be ≤ 0 within noise. */
const div = (a, b) => (b > 0 && a >= 0 ? a / b : NaN);

// Issue 9's goals, in this run, against the coalescing rivals. Every CPU comparison uses the
// figures minus the agent alone (the /sink turn's CPU), so the claim is about the adapter.
// Paired: each run's ratio (the same rotation), so drift between runs cancels.
const streamRatios = pairedRatios(...["rust", "ts"].map((a) => A[a].concurrentRuns.map((r) => r.cpuMsPerStream)));
const g = {
  eventsVsTsRuns: pairedRatios(A.rust.eventsPerSecondRuns, A.ts.eventsPerSecondRuns),
  eventsVsPassRuns: pairedRatios(A.rust.eventsPerSecondRuns, A.pass.eventsPerSecondRuns),
  cpuVsTs: div(A.rust.cpuMsPer10kWithoutAgent.median, A.ts.cpuMsPer10kWithoutAgent.median),
  addedP99: A.rust.latencyMs.p99 - A.pass.latencyMs.p99,
  wasmGzipKB: sizes.productionWasmGzip / 1000,
  streamCpuVsTsRuns: streamRatios,
  streamCpuVsTs: median(streamRatios),
  streamCpuVsTsWithoutAgent: div(A.rust.concurrent.cpuMsPerStreamWithoutAgent.median, A.ts.concurrent.cpuMsPerStreamWithoutAgent.median),
};
g.eventsVsTs = median(g.eventsVsTsRuns);
g.eventsVsPass = median(g.eventsVsPassRuns);
const goalStreams = 1_000;
results.goals = {
  eventsPerSecondVsTs: {
    value: g.eventsVsTs,
    goal: ">= 1.2× the coalescing TS adapter's events/s",
    met: g.eventsVsTs >= 1.2,
    figures: { rust: A.rust.eventsPerSecond.median, ts: A.ts.eventsPerSecond.median, pairedRatios: spread(g.eventsVsTsRuns) },
  },
  eventsPerSecondVsPassthrough: {
    value: g.eventsVsPass,
    goal: ">= 0.9× the coalescing passthrough's events/s",
    met: g.eventsVsPass >= 0.9,
    figures: { rust: A.rust.eventsPerSecond.median, pass: A.pass.eventsPerSecond.median, pairedRatios: spread(g.eventsVsPassRuns) },
  },
  cpuPer10kWithoutAgentVsTs: {
    value: g.cpuVsTs,
    goal: "workerd CPU per 10k events minus the agent alone <= 0.75× the coalescing TS adapter's",
    met: A.ts.cpuMsPer10kWithoutAgent.median > 0 && A.rust.cpuMsPer10kWithoutAgent.median <= 0.75 * A.ts.cpuMsPer10kWithoutAgent.median,
    figures: {
      rust: A.rust.cpuMsPer10kWithoutAgent.median,
      ts: A.ts.cpuMsPer10kWithoutAgent.median,
      agentAlone: results.agentAloneCpuMsPer10k.median,
    },
  },
  addedP99LatencyMs: {
    value: g.addedP99,
    goal: "p99 latency per event <= 1 ms over the coalescing passthrough's",
    met: g.addedP99 <= 1,
    figures: { rust: A.rust.latencyMs.p99, pass: A.pass.latencyMs.p99 },
  },
  wasmGzipKB: { value: g.wasmGzipKB, goal: "the production wasm <= 250 KB gzip -9", met: g.wasmGzipKB <= 250 },
  concurrentStreamsLost: {
    value: A.rust.concurrent.lost,
    goal: `${f0(goalStreams)} concurrent streams, 0 lost`,
    met: cfg.streams >= goalStreams && A.rust.concurrent.lost === 0,
    figures: { streams: cfg.streams, completed: A.rust.concurrent.completed, lost: A.rust.concurrent.lost },
  },
  concurrentCpuPerStreamVsTs: {
    value: g.streamCpuVsTs,
    goal: "workerd CPU per stream <= the coalescing TS adapter's",
    met: g.streamCpuVsTs <= 1,
    figures: {
      rust: A.rust.concurrent.cpuMsPerStream.median,
      ts: A.ts.concurrent.cpuMsPerStream.median,
      agentAlone: results.agentAloneConcurrent.cpuMsPerStream.median,
      ratioWithoutAgent: g.streamCpuVsTsWithoutAgent,
      pairedRatios: spread(g.streamCpuVsTsRuns),
    },
  },
};
// Issue 5's goals (the first benchmark's), now against the coalescing rivals, for continuity.
const flatLimitMB = 16;
const issue5 = {
  eventsPerSecond: A.rust.eventsPerSecond.median / A.ts.eventsPerSecond.median,
  cpuVsPass: A.rust.cpuMsPer10k.median / A.pass.cpuMsPer10k.median,
  memoryGrowthMB: A.rust.memory.growthMB,
  memoryGrowthBeyondPassMB: A.rust.memory.growthMB - A.pass.memory.growthMB,
};
results.goalsIssue5 = {
  eventsPerSecondVsTs: { value: issue5.eventsPerSecond, goal: ">= 1.5", met: issue5.eventsPerSecond >= 1.5 },
  cpuPerEventVsPassthrough: { value: issue5.cpuVsPass, goal: "<= 1.2", met: issue5.cpuVsPass <= 1.2 },
  memoryFlat: { value: issue5.memoryGrowthMB, goal: `workerd's peak RSS grows < ${flatLimitMB} MB from ${cfg.smallEvents} to ${cfg.bigEvents} events`, met: issue5.memoryGrowthMB < flatLimitMB },
  memoryFlatBeyondPassthrough: {
    value: issue5.memoryGrowthBeyondPassMB,
    goal: `grows < ${flatLimitMB} MB more than with the passthrough`,
    met: issue5.memoryGrowthBeyondPassMB < flatLimitMB,
  },
};
const G = results.goals;

/** A fixed-width text table; column 0 and `leftCols` are left-aligned. */
function textTable(header, rows, leftCols = []) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const left = (i) => i === 0 || leftCols.includes(i);
  const line = (cells) => cells.map((c, i) => (left(i) ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

// The main table: this adapter against the coalescing rivals.
const rows = [];
const row = (metric, rust, ts, pass, vsTs, vsPass, goal = "") => rows.push([metric, rust, ts, pass, vsTs, vsPass, goal]);
const ratio = (key, sub = "median") => [r2(div(A.rust[key][sub], A.ts[key][sub])), r2(div(A.rust[key][sub], A.pass[key][sub]))];
const conc = (a, key) => A[a].concurrent[key].median;
row(`events/s, ${f0(cfg.throughputEvents)}-delta turn`, f0(A.rust.eventsPerSecond.median), f0(A.ts.eventsPerSecond.median), f0(A.pass.eventsPerSecond.median),
  ...ratio("eventsPerSecond"), `≥1.2× ts: ${verdict(G.eventsPerSecondVsTs.met)}; ≥0.9× pass: ${verdict(G.eventsPerSecondVsPassthrough.met)}`);
row("workerd CPU ms / 10k events", f0(A.rust.cpuMsPer10k.median), f0(A.ts.cpuMsPer10k.median), f0(A.pass.cpuMsPer10k.median), ...ratio("cpuMsPer10k"));
row(`  same, minus the agent alone (${f0(results.agentAloneCpuMsPer10k.median)})`, f0(A.rust.cpuMsPer10kWithoutAgent.median), f0(A.ts.cpuMsPer10kWithoutAgent.median),
  f0(A.pass.cpuMsPer10kWithoutAgent.median), ...ratio("cpuMsPer10kWithoutAgent"), `≤0.75× ts: ${verdict(G.cpuPer10kWithoutAgentVsTs.met)}`);
row("first byte, ms (p50, warm)", f1(A.rust.firstByteMs.median), f1(A.ts.firstByteMs.median), f1(A.pass.firstByteMs.median), ...ratio("firstByteMs"), "pass: its first byte is `init`");
row("first delta, ms (p50, warm)", f1(A.rust.firstDeltaMs.median), f1(A.ts.firstDeltaMs.median), f1(A.pass.firstDeltaMs.median), ...ratio("firstDeltaMs"));
row("latency per event p50, ms", f2(A.rust.latencyMs.p50), f2(A.ts.latencyMs.p50), f2(A.pass.latencyMs.p50),
  signed(A.rust.latencyMs.p50 - A.ts.latencyMs.p50), signed(A.rust.latencyMs.p50 - A.pass.latencyMs.p50));
row("latency per event p99, ms", f2(A.rust.latencyMs.p99), f2(A.ts.latencyMs.p99), f2(A.pass.latencyMs.p99),
  signed(A.rust.latencyMs.p99 - A.ts.latencyMs.p99), signed(A.rust.latencyMs.p99 - A.pass.latencyMs.p99), `added p99 ≤1 ms over pass: ${verdict(G.addedP99LatencyMs.met)}`);
row(`peak RSS MB, ${f0(cfg.smallEvents)} events (at ${f0(rate)}/s)`, f0(A.rust.memory.peakSmallMB), f0(A.ts.memory.peakSmallMB), f0(A.pass.memory.peakSmallMB), "", "");
row(`peak RSS MB, ${f0(cfg.bigEvents)} events`, f0(A.rust.memory.peakBigMB), f0(A.ts.memory.peakBigMB), f0(A.pass.memory.peakBigMB), "", "");
row("  growth, MB", f0(A.rust.memory.growthMB), f0(A.ts.memory.growthMB), f0(A.pass.memory.growthMB),
  `${f0(A.rust.memory.growthMB - A.ts.memory.growthMB)} MB`, `${f0(A.rust.memory.growthMB - A.pass.memory.growthMB)} MB`,
  `issue 5: flat (<${flatLimitMB} MB): ${verdict(results.goalsIssue5.memoryFlat.met)}; vs pass: ${verdict(results.goalsIssue5.memoryFlatBeyondPassthrough.met)}`);
row(`  adapter isolate's JS heap, MB (${f0(cfg.smallEvents)} → ${f0(cfg.bigEvents)})`, `${f1(A.rust.memory.adapterJsHeapSmallMB)} → ${f1(A.rust.memory.adapterJsHeapBigMB)}`,
  `${f1(A.ts.memory.adapterJsHeapSmallMB)} → ${f1(A.ts.memory.adapterJsHeapBigMB)}`, `${f1(A.pass.memory.adapterJsHeapSmallMB)} → ${f1(A.pass.memory.adapterJsHeapBigMB)}`, "", "");
row(`${f0(cfg.streams)} × ${cfg.streamEvents}-event streams: completed (worst run)`, f0(A.rust.concurrent.completed), f0(A.ts.concurrent.completed), f0(A.pass.concurrent.completed), "", "");
row("  lost (worst run)", f0(A.rust.concurrent.lost), f0(A.ts.concurrent.lost), f0(A.pass.concurrent.lost), "", "",
  `${f0(goalStreams)} streams, 0 lost: ${verdict(G.concurrentStreamsLost.met)}${cfg.streams < goalStreams ? ` (this run: ${f0(cfg.streams)} streams)` : ""}`);
row("  workerd CPU ms per stream", f1(conc("rust", "cpuMsPerStream")), f1(conc("ts", "cpuMsPerStream")), f1(conc("pass", "cpuMsPerStream")),
  r2(g.streamCpuVsTs), r2(conc("rust", "cpuMsPerStream") / conc("pass", "cpuMsPerStream")),
  `≤ ts (median of paired runs): ${verdict(G.concurrentCpuPerStreamVsTs.met)}`);
row(`    same, minus the agent alone (${f1(results.agentAloneConcurrent.cpuMsPerStream.median)})`,
  f1(conc("rust", "cpuMsPerStreamWithoutAgent")), f1(conc("ts", "cpuMsPerStreamWithoutAgent")), f1(conc("pass", "cpuMsPerStreamWithoutAgent")),
  r2(div(conc("rust", "cpuMsPerStreamWithoutAgent"), conc("ts", "cpuMsPerStreamWithoutAgent"))),
  r2(div(conc("rust", "cpuMsPerStreamWithoutAgent"), conc("pass", "cpuMsPerStreamWithoutAgent"))));
row("  wall time, ms", f0(conc("rust", "wallMs")), f0(conc("ts", "wallMs")), f0(conc("pass", "wallMs")),
  r2(conc("rust", "wallMs") / conc("ts", "wallMs")), r2(conc("rust", "wallMs") / conc("pass", "wallMs")));
row("cold start → first byte, ms", f0(A.rust.coldStart.totalMs.median), f0(A.ts.coldStart.totalMs.median), f0(A.pass.coldStart.totalMs.median),
  r2(A.rust.coldStart.totalMs.median / A.ts.coldStart.totalMs.median), r2(A.rust.coldStart.totalMs.median / A.pass.coldStart.totalMs.median), "fresh workerd: agent + adapter");
row("  of which the first request, ms", f0(A.rust.coldStart.firstRequestMs.median), f0(A.ts.coldStart.firstRequestMs.median), f0(A.pass.coldStart.firstRequestMs.median), "", "");
row("code size, KB (raw / gzip -9)", `${f0(sizes.productionWasmRaw / 1000)} / ${f1(sizes.productionWasmGzip / 1000)} wasm`, `${f0(sizes.tsAdapterJs / 1000)} / ${f0(sizes.tsAdapterJsGzip / 1000)} js`, "", "", "",
  `production wasm ≤250 KB gzip: ${verdict(G.wasmGzipKB.met)}`);
row("  the local build (with the demo agent), for reference", `${f0(sizes.wasmRaw / 1000)} / ${f0(sizes.wasmGzip / 1000)} wasm`, "", "", "", "");
const table = textTable(["", "rust (this)", "ts", "pass", "rust/ts", "rust/pass", "goal (issue 9)"], rows, [6]);
results.table = table;

// The reference table: the rivals writing once per WebSocket message, and what coalescing buys
// each (the coalescing variant's figure ÷ the per-message one's).
const refRows = [];
const [tsPm, passPm] = REFERENCE;
const refRow = (metric, get, fmt) => {
  const v = (a) => get(A[a]);
  refRows.push([metric, fmt(v(tsPm)), r2(div(v("ts"), v(tsPm))), fmt(v(passPm)), r2(div(v("pass"), v(passPm))), r2(div(v("rust"), v(tsPm)))]);
};
refRow(`events/s, ${f0(cfg.throughputEvents)}-delta turn`, (a) => a.eventsPerSecond.median, f0);
refRow("workerd CPU ms / 10k events", (a) => a.cpuMsPer10k.median, f0);
refRow(`  same, minus the agent alone (${f0(results.agentAloneCpuMsPer10k.median)})`, (a) => a.cpuMsPer10kWithoutAgent.median, f0);
refRow("first delta, ms (p50, warm)", (a) => a.firstDeltaMs.median, f1);
refRow("latency per event p50, ms", (a) => a.latencyMs.p50, f2);
refRow("latency per event p99, ms", (a) => a.latencyMs.p99, f2);
refRow(`${f0(cfg.streams)} × ${cfg.streamEvents}-event streams: lost (worst run)`, (a) => a.concurrent.lost, f0);
refRow("  workerd CPU ms per stream", (a) => a.concurrent.cpuMsPerStream.median, f1);
refRow(`    same, minus the agent alone (${f1(results.agentAloneConcurrent.cpuMsPerStream.median)})`, (a) => a.concurrent.cpuMsPerStreamWithoutAgent.median, f1);
refRow("  wall time, ms", (a) => a.concurrent.wallMs.median, f0);
const referenceTable = textTable(
  ["reference: one write per WebSocket message", "ts 1 write/msg", "ts ÷ it", "pass 1 write/msg", "pass ÷ it", "rust ÷ ts 1 write/msg"],
  refRows,
);
results.referenceTable = referenceTable;

// The goals, each with its figures; a miss is printed as NOT MET, never left out.
const goalLines = [
  [G.eventsPerSecondVsTs, `events/s ≥ 1.2× the coalescing TS adapter: ${x2(g.eventsVsTs)} (the median of ${cfg.throughputReps} paired runs: ${g.eventsVsTsRuns.map(x2).join(", ")}; medians ${f0(A.rust.eventsPerSecond.median)} vs ${f0(A.ts.eventsPerSecond.median)})`],
  [G.eventsPerSecondVsPassthrough, `events/s ≥ 0.9× the coalescing passthrough: ${x2(g.eventsVsPass)} (the median of ${cfg.throughputReps} paired runs: ${g.eventsVsPassRuns.map(x2).join(", ")}; medians ${f0(A.rust.eventsPerSecond.median)} vs ${f0(A.pass.eventsPerSecond.median)})`],
  [G.cpuPer10kWithoutAgentVsTs, `workerd CPU per 10k events minus the agent alone ≤ 0.75× the coalescing TS adapter's: ${x2(g.cpuVsTs)} ` +
    `(${f0(A.rust.cpuMsPer10kWithoutAgent.median)} vs ${f0(A.ts.cpuMsPer10kWithoutAgent.median)} ms; the agent alone ${f0(results.agentAloneCpuMsPer10k.median)} ms)`],
  [G.addedP99LatencyMs, `added p99 latency per event ≤ 1 ms over the passthrough: ${signed(g.addedP99)} (${f2(A.rust.latencyMs.p99)} vs ${f2(A.pass.latencyMs.p99)} ms)`],
  [G.wasmGzipKB, `the production wasm ≤ 250 KB gzip -9: ${Number.isNaN(g.wasmGzipKB) ? "not built (scripts/build.sh --production)" : `${f0(sizes.productionWasmGzip)} bytes`}`],
  [G.concurrentStreamsLost, `${f0(goalStreams)} concurrent streams, 0 lost: ${f0(A.rust.concurrent.lost)} lost of ${f0(cfg.streams)}` +
    `${cfg.streams < goalStreams ? ` (this run started only ${f0(cfg.streams)}: not a measure of the goal)` : ""}`],
  [G.concurrentCpuPerStreamVsTs, `workerd CPU per stream ≤ the TS adapter's: ${x2(g.streamCpuVsTs)}, the median of ${g.streamCpuVsTsRuns.length} paired runs ` +
    `(${g.streamCpuVsTsRuns.map(x2).join(", ")}; medians ${f1(conc("rust", "cpuMsPerStream"))} vs ${f1(conc("ts", "cpuMsPerStream"))} ms; ` +
    `minus the agent alone, ${f1(results.agentAloneConcurrent.cpuMsPerStream.median)} ms: ${x2(g.streamCpuVsTsWithoutAgent)})`],
];
const goalsText = [
  `Goals (issue 9; this run, against the coalescing rivals): ${goalLines.filter(([x]) => x.met).length} of ${goalLines.length} met`,
  ...goalLines.map(([x, text]) => `  ${verdict(x.met).padEnd(7)}  ${text}`),
].join("\n");
results.goalsText = goalsText;

const colocated = A["rust-colocated"];
const extra = [
  `rust-colocated (the agent's DO in the adapter's own isolate, the default wrangler.toml layout): ` +
    `${f0(colocated.eventsPerSecond.median)} events/s, ${f0(colocated.cpuMsPer10k.median)} ms CPU/10k, ` +
    `cold start ${f0(colocated.coldStart.totalMs.median)} ms`,
  `writes: rust, ts and pass each write the SSE text of one event-loop turn as one chunk (a 0 ms timer; flushed before the end); ` +
    `${REFERENCE.join(" and ")} are the same scripts writing once per WebSocket message (binding WRITES = "per-message"), for reference`,
  `memory: workerd's RSS grows with every WebSocket message it relays, adapter or not (the passthrough keeps no state ` +
    `and grows as much; so did a pure-JS agent with a frame-counting sink, in development), so the claim is the growth ` +
    `beyond the passthrough's`,
  `machine: ${results.machine.cpu}, ${results.machine.cores} cores, node ${results.machine.node}, workerd ${results.machine.workerd}; ` +
    `other processes during the throughput runs: ${results.machine.otherProcessesDuringThroughput}; load average at the end ${m.loadavg.join(" ")}`,
  `git ${results.git.commit}${results.git.dirty.length ? ` + uncommitted changes in ${results.git.dirty.length} file(s)` : ""}; ` +
    `runs per timed row: ${cfg.throughputReps} (throughput), ${cfg.streamReps} (concurrency), ${cfg.reps} (the others); median shown; took ${results.durationSeconds.toFixed(0)} s`,
];
console.log(`\n${table}\n\n${referenceTable}\n  (ts ÷ it, pass ÷ it: the coalescing worker's figure over its one-write-per-message twin's; ` +
  `rust ÷ ts 1 write/msg: the comparison the first benchmark made)\n\n${goalsText}\n\n${extra.join("\n")}\n`);

if (smoke) {
  // A smoke run's figures are no figures: nothing is written.
  console.log("smoke: every step of the benchmark ran; no figure is claimed");
} else {
  mkdirSync(path.join(benchDir, "results"), { recursive: true });
  const out = path.join(benchDir, "results", quick ? "quick.json" : "latest.json");
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`results: ${path.relative(root, out)}`);
}
