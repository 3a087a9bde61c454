// Only the benchmark's concurrency row, repeated: N concurrent /flood streams per worker, in
// rotated order, after a warm-up of every isolate, with the agent alone (the passthrough's /sink)
// measured in the same rotation. For the one figure that needs many runs to be trusted: workerd
// CPU per stream. Each run's figure is printed, then the median and range per worker.
//
//   node bench/streams.mjs [<build dir> …] [--reps N] [--streams N] [--events N] [--warm N]
//
// A build dir (another build of this worker, as in compare.mjs) adds it as c1, c2, … .
import { startWorkers } from "./lib/workers.mjs";
import { runTurn, newAgent, waveOutcome } from "./lib/client.mjs";
import { cpuSeconds } from "./lib/proc.mjs";
import { candidateArgs } from "./lib/args.mjs";
import { median, pairedRatios, rotate } from "./lib/stats.mjs";

const { candidates, kind, option, flag } = candidateArgs(process.argv.slice(2), ["--reps", "--streams", "--events", "--warm"]);
const reps = option("--reps", 8);
const streams = option("--streams", 1_000);
const events = option("--events", 100);
const warm = option("--warm", 200);
const ALONE = "agent alone";
const workers = ["rust", ...Object.keys(candidates), "ts", "pass"];

/** `streams` turns at once into worker `a` (the agent alone: into the passthrough's /sink). */
async function wave(urls, a, count) {
  const agent = newAgent();
  const alone = a === ALONE;
  const all = await Promise.allSettled(
    Array.from({ length: count }, () =>
      alone
        ? runTurn(urls.pass, "pass", `/flood ${events}`, { timeoutMs: 120_000, agent, path: "sink", keepBody: true })
        : runTurn(urls[a], kind(a), `/flood ${events}`, { timeoutMs: 120_000, agent }),
    ),
  );
  return waveOutcome(all, events, { sink: alone });
}

const w = await startWorkers({ adapters: ["rust", "ts", "pass"], variants: candidates });
const perStream = Object.fromEntries([...workers, ALONE].map((a) => [a, []]));
try {
  for (const a of [...workers, ALONE]) await wave(w.urls, a, warm);
  for (let i = 0; i < reps; i++) {
    const line = [];
    for (const a of rotate([...workers, ALONE], i)) {
      const c0 = cpuSeconds(w.pid);
      const { lost, reasons } = await wave(w.urls, a, streams);
      const ms = ((cpuSeconds(w.pid) - c0) * 1000) / streams;
      perStream[a].push(ms);
      line.push(`${a} ${ms.toFixed(2)}${lost ? ` (${lost} lost: ${reasons.join("; ")})` : ""}`);
    }
    console.error(`run ${i + 1}: ${line.join(", ")}`);
  }
} finally {
  await w.dispose();
}
const alone = median(perStream[ALONE]);
console.log(`${streams} concurrent ${events}-event streams, ${reps} runs; workerd CPU ms per stream (median, min–max; minus the agent alone)`);
for (const a of [...workers, ALONE]) {
  const v = perStream[a];
  const net = a === ALONE ? "" : `; − agent ${(median(v) - alone).toFixed(2)}`;
  console.log(`  ${a.padEnd(12)} ${median(v).toFixed(2)} (${Math.min(...v).toFixed(2)}–${Math.max(...v).toFixed(2)})${net}`);
}
for (const a of workers.filter((x) => x !== "ts")) {
  const ratios = pairedRatios(perStream[a], perStream.ts);
  console.log(`  ${a} / ts: median ×${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`);
}
