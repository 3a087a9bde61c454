// Other builds of this worker beside the current one, the coalescing TS adapter and the
// coalescing passthrough (the benchmark's rivals), in the same workerd, interleaved: what a
// change to crates/adapter/src/ buys, before it lands.
//
//   node bench/compare.mjs <build dir> [<build dir> …] [--reps N] [--events N] [--streams N] [--per-message]
//
// Build the candidate elsewhere (a copy of the repo, its own CARGO_TARGET_DIR, scripts/build.sh),
// then point this at its build/ directory. Prints events/s, workerd CPU per 10k events (and the
// same minus the agent alone: a /flood into the passthrough's /sink), latency p50/p99 and
// concurrent streams for: rust (build/), each candidate (c1, c2, …), ts, pass; with
// `--per-message`, also ts-per-message and pass-per-message (the rivals writing once per
// WebSocket message). With no build dir it compares the workers alone.
import { performance } from "node:perf_hooks";
import { startWorkers, PER_MESSAGE } from "./lib/workers.mjs";
import { runTurn, runSink, newAgent } from "./lib/client.mjs";
import { cpuSeconds } from "./lib/proc.mjs";
import { candidateArgs } from "./lib/args.mjs";
import { median, percentile, rotate } from "./lib/stats.mjs";

const { candidates, kind, option, flag } = candidateArgs(process.argv.slice(2), ["--reps", "--events", "--streams"]);
const reps = option("--reps", 3);
const n = option("--events", 100_000);
const streams = option("--streams", 1_000);
const perMessage = flag("--per-message");
for (const [name, file] of Object.entries(candidates)) console.error(`${name}: ${file}`);
const rivals = ["ts", "pass", ...(perMessage ? PER_MESSAGE : [])];
const names = ["rust", ...Object.keys(candidates), ...rivals];
const w = await startWorkers({ adapters: ["rust", ...rivals], variants: candidates });
const table = Object.fromEntries(names.map((a) => [a, { rate: [], cpu: [], lat: [], conc: [], concCpu: [], lost: 0 }]));
const sink = [];
try {
  for (const a of names) await runTurn(w.urls[a], kind(a), "/flood 2000");
  for (let i = 0; i < reps; i++) {
    const c = cpuSeconds(w.pid);
    await runSink(w.urls.pass, `/flood ${n}`);
    sink.push(((cpuSeconds(w.pid) - c) / n) * 1e7);
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
        Array.from({ length: streams }, () => runTurn(w.urls[a], kind(a), "/flood 100", { timeoutMs: 120_000, agent })),
      );
      table[a].conc.push(performance.now() - t);
      table[a].concCpu.push(cpuSeconds(w.pid) - c1);
      table[a].lost = Math.max(table[a].lost, all.filter((x) => x.status !== "fulfilled" || x.value.deltas !== 100 || !x.value.done).length);
      console.error(`  run ${i + 1} ${a.padEnd(16)} ${table[a].rate.at(-1).toFixed(0)} events/s, ${table[a].cpu.at(-1).toFixed(0)} ms CPU/10k`);
    }
  }
} finally {
  await w.dispose();
}
const alone = median(sink);
const rows = names.map((a) => {
  const t = table[a];
  return [a, median(t.rate).toFixed(0), median(t.cpu).toFixed(0), (median(t.cpu) - alone).toFixed(0), percentile(t.lat, 50).toFixed(2),
    percentile(t.lat, 99).toFixed(2), median(t.conc).toFixed(0), median(t.concCpu).toFixed(1), String(t.lost)];
});
const header = ["", "events/s", "CPU ms/10k", "− agent", "lat p50", "lat p99", `${streams}×100 ms`, "CPU s", "lost"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (c) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join("  ");
console.log([line(header), ...rows.map(line)].join("\n"));
console.log(`the agent alone (/sink): ${alone.toFixed(0)} ms CPU/10k; ts and pass coalesce writes` +
  `${perMessage ? `; ${PER_MESSAGE.join(" and ")} write once per WebSocket message` : ""}`);
const ratio = (a, b, k) => (median(table[a][k]) / median(table[b][k])).toFixed(2);
// Minus the agent alone, a figure can be ≤ 0, or a sliver above it, within noise: no ratio then.
// A divisor under 1 ms per 10k events is below the table's own resolution (whole ms), and a
// ratio over it would be a large number that means nothing.
const MIN_NET_MS = 1;
const netRatio = (a, b) => {
  const [x, y] = [median(table[a].cpu) - alone, median(table[b].cpu) - alone];
  return y >= MIN_NET_MS && x >= 0 ? (x / y).toFixed(2) : "–";
};
for (const c of ["rust", ...Object.keys(candidates)]) {
  console.log(`${c}: events/s ×${ratio(c, "ts", "rate")} ts, ×${ratio(c, "pass", "rate")} pass, ×${ratio(c, "rust", "rate")} rust; ` +
    `CPU/event ×${ratio(c, "ts", "cpu")} ts, ×${ratio(c, "pass", "cpu")} pass, ×${ratio(c, "rust", "cpu")} rust; ` +
    `minus the agent alone ×${netRatio(c, "ts")} ts, ×${netRatio(c, "pass")} pass, ×${netRatio(c, "rust")} rust`);
}
