// Another build of this worker beside the current one (and the TS adapter and the passthrough),
// in the same workerd, interleaved: what a change to src/edge/ buys, before it lands.
//
//   node bench/compare.mjs <build dir> [<build dir> …] [--reps N] [--events N]
//
// Build the candidate elsewhere (a copy of the repo, its own CARGO_TARGET_DIR, scripts/build.sh),
// then point this at its build/ directory. Prints events/s, CPU per 10k events, latency p50/p99
// and 1,000 concurrent streams for: rust (build/), each candidate (c1, c2, …), ts, pass.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startWorkers } from "./lib/workers.mjs";
import { runTurn, newAgent } from "./lib/client.mjs";
import { cpuSeconds } from "./lib/proc.mjs";
import { median, percentile, rotate } from "./lib/stats.mjs";

const args = process.argv.slice(2);
const dirs = args.filter((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--")));
if (dirs.length === 0) {
  console.error("usage: node bench/compare.mjs <build dir> [<build dir> …] [--reps N] [--events N]");
  process.exit(2);
}
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const reps = option("--reps", 3);
const n = option("--events", 100_000);
const candidates = Object.fromEntries(dirs.map((d, i) => [`c${i + 1}`, path.resolve(d, "index.js")]));
for (const [name, file] of Object.entries(candidates)) console.error(`${name}: ${file}`);
const names = ["rust", ...Object.keys(candidates), "ts", "pass"];
const w = await startWorkers({ variants: candidates });
const kind = (a) => (a in candidates ? "rust" : a);
const table = Object.fromEntries(names.map((a) => [a, { rate: [], cpu: [], lat: [], conc: [], concCpu: [], lost: 0 }]));
try {
  for (const a of names) await runTurn(w.urls[a], kind(a), "/flood 2000");
  for (let i = 0; i < reps; i++) {
    for (const a of rotate(names, i)) {
      const c0 = cpuSeconds(w.pid);
      const r = await runTurn(w.urls[a], kind(a), `/flood ${n}`);
      if (r.deltas !== n || !r.done) throw new Error(`${a}: ${r.deltas} deltas`);
      table[a].rate.push(n / (r.wall / 1000));
      table[a].cpu.push(((cpuSeconds(w.pid) - c0) / n) * 1e7);
      const s = await runTurn(w.urls[a], kind(a), "/stamp 1000 1", { stamps: true });
      table[a].lat.push(...s.latencies);
      const t = performance.now();
      const c1 = cpuSeconds(w.pid);
      const agent = newAgent();
      const all = await Promise.allSettled(
        Array.from({ length: 1000 }, () => runTurn(w.urls[a], kind(a), "/flood 100", { timeoutMs: 120_000, agent })),
      );
      table[a].conc.push(performance.now() - t);
      table[a].concCpu.push(cpuSeconds(w.pid) - c1);
      table[a].lost = Math.max(table[a].lost, all.filter((x) => x.status !== "fulfilled" || x.value.deltas !== 100 || !x.value.done).length);
      console.error(`  run ${i + 1} ${a.padEnd(5)} ${table[a].rate.at(-1).toFixed(0)} events/s, ${table[a].cpu.at(-1).toFixed(0)} ms CPU/10k`);
    }
  }
} finally {
  await w.dispose();
}
const rows = names.map((a) => {
  const t = table[a];
  return [a, median(t.rate).toFixed(0), median(t.cpu).toFixed(0), percentile(t.lat, 50).toFixed(2), percentile(t.lat, 99).toFixed(2),
    median(t.conc).toFixed(0), median(t.concCpu).toFixed(1), String(t.lost)];
});
const header = ["", "events/s", "CPU ms/10k", "lat p50", "lat p99", "1000×100 ms", "CPU s", "lost"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (c) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join("  ");
console.log([line(header), ...rows.map(line)].join("\n"));
const ratio = (a, b, k) => (median(table[a][k]) / median(table[b][k])).toFixed(2);
for (const c of ["rust", ...Object.keys(candidates)]) {
  console.log(`${c}: events/s ×${ratio(c, "ts", "rate")} ts, ×${ratio(c, "rust", "rate")} rust; ` +
    `CPU/event ×${ratio(c, "pass", "cpu")} pass, ×${ratio(c, "rust", "cpu")} rust`);
}
