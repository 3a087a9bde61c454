// What a cold start costs, in instructions: a fresh workerd under callgrind, counted from its
// first instruction to the end of its first request, for this worker's production build, for the
// smallest workers-rs worker (bench/floor) and for the TS adapter. A start's time is a few 10 ms
// ticks of /proc (bench/turns.mjs takes the mean of 20); its instructions repeat to within a
// few percent, and three workers split them as bench/entry.mjs splits a warm request:
//
//   floor − ts    what any workers-rs worker's start costs over plain JavaScript (a wasm module
//                 compiled and instantiated, wasm-bindgen's glue, the first calls across);
//   rust − floor  what this worker adds (a larger module to validate, its first request's
//                 functions compiled on their first call, its own set-up).
//
// Each workerd also runs the demo agent's worker (the same in every start, its module compiled
// at start), so differences, not totals, are the figures. Two first requests: `GET /nothing`
// (the JSON 404 all three answer) and, for this worker and the TS adapter, a chat turn of
// `--events` (the floor has no chat). All threads are counted (V8 compiles and validates on
// threads of its own); the main thread's share is shown beside.
//
//   node bench/cold.mjs [--starts N] [--events N] [--only 404|chat] [--keep]
//
//   --starts N  fresh workerd processes per worker and first request (default 3), in rotated order
//   --events N  events of the first chat turn (default 100, as bench/turns.mjs's cold figure)
//   --only F    only the first requests F (`404` or `chat`), to try a change in a minute
//   --build DIR this worker's build to start (default build/production, which it builds)
//   --keep      keep callgrind's files (`out.<pid>.1-<thread>`, thread 01 the main one), with
//               parts.json saying which process started which worker, for `callgrind_annotate`
//
// Builds the production build and bench/floor first (incremental). Needs valgrind. About two
// minutes. Writes bench/results/cold.json. Not part of `npm run bench`.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { commandLine } from "./lib/args.mjs";
import { callgrindWorkerd } from "./lib/callgrind.mjs";
import { completeTurn, newAgent, notFound } from "./lib/client.mjs";
import { writeResults } from "./lib/results.mjs";
import { median, rotate, spread } from "./lib/stats.mjs";
import { buildTsAdapter, root, startWorkers } from "./lib/workers.mjs";

const { option, flag, value } = commandLine(process.argv.slice(2), ["--starts", "--events", "--only", "--build"]);
const cfg = { starts: option("--starts", 3), events: option("--events", 100), only: value("--only") ?? "", build: value("--build") ?? "build/production" };

execFileSync("bash", ["scripts/build.sh", "--production"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
execFileSync("bash", ["bench/build.sh", "floor"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
const tsAdapterPath = await buildTsAdapter();
const { sinceStart, finish } = callgrindWorkerd({ fromStart: true });

/** How each worker is started: this one as it is deployed (no demo agent of its own). */
const START = {
  rust: { adapters: [], variants: { rust: path.resolve(root, cfg.build, "index.js") }, vars: { DEMO_AGENT: "off" } },
  floor: { adapters: [], variants: { floor: path.join(root, "bench/.build/floor/index.js") } },
  ts: { adapters: ["ts"], tsAdapterPath },
};

const BOTH = { "404": ["rust", "floor", "ts"], chat: ["rust", "ts"] };
if (cfg.only && !(cfg.only in BOTH)) throw new Error(`--only is 404 or chat, not ${JSON.stringify(cfg.only)}`);
const FIRST = cfg.only ? { [cfg.only]: BOTH[cfg.only] } : BOTH;
const counts = {};
const parts = [];
try {
  for (const [first, names] of Object.entries(FIRST)) {
    counts[first] = Object.fromEntries(names.map((n) => [n, []]));
    for (let rep = 0; rep < cfg.starts; rep++) {
      for (const name of rotate(names, rep)) {
        const w = await startWorkers({ ...START[name], probe: false });
        try {
          const agent = newAgent();
          await (first === "chat" ? completeTurn(w.urls[name], name, cfg.events, { agent }) : notFound(w.urls[name], agent));
          agent.destroy();
          const { main, others } = sinceStart(w.pid);
          counts[first][name].push({ all: main + others, main });
          parts.push({ pid: w.pid, first, worker: name });
          console.log(`  ${first.padEnd(4)} ${name.padEnd(5)} ${((main + others) / 1e6).toFixed(1).padStart(7)} M (main thread ${(main / 1e6).toFixed(1)} M)`);
        } finally {
          await w.dispose();
        }
      }
    }
  }
} finally {
  finish({ keep: flag("--keep"), pid: null, parts });
}

const M = (v) => `${(v / 1e6).toFixed(1)} M`;
const all = (first, name) => median(counts[first][name].map((c) => c.all));
console.log(`\nfrom workerd's start to the end of the first request, all threads: median of ${cfg.starts} (lowest–highest)`);
for (const [first, names] of Object.entries(FIRST)) {
  for (const name of names) {
    const { min, max } = spread(counts[first][name].map((c) => c.all));
    const main = median(counts[first][name].map((c) => c.main));
    const label = first === "chat" ? `${cfg.events}-event turn` : "404";
    console.log(`  ${label.padEnd(14)} ${name.padEnd(5)} ${M(all(first, name)).padStart(9)}  (${M(min)}–${M(max)}; main thread ${M(main)})`);
  }
}
const has = (first) => first in FIRST;
if (has("404")) console.log(`\n  404: floor − ts    ${M(all("404", "floor") - all("404", "ts")).padStart(9)}  any workers-rs worker over plain JavaScript`);
if (has("404")) console.log(`  404: rust − floor  ${M(all("404", "rust") - all("404", "floor")).padStart(9)}  this worker over the smallest workers-rs worker`);
if (has("chat")) console.log(`  turn: rust − ts    ${M(all("chat", "rust") - all("chat", "ts")).padStart(9)}  (${(all("chat", "rust") / all("chat", "ts")).toFixed(3)}× the TS adapter's whole start)`);

const out = writeResults("cold", cfg, {
  starts: counts,
  median: Object.fromEntries(Object.entries(FIRST).map(([first, names]) => [first, Object.fromEntries(names.map((n) => [n, all(first, n)]))])),
  floorOverTs404: has("404") ? all("404", "floor") / all("404", "ts") : null,
  rustOverFloor404: has("404") ? all("404", "rust") / all("404", "floor") : null,
  rustOverTsTurn: has("chat") ? all("chat", "rust") / all("chat", "ts") : null,
});
console.log(`\nresults: ${out}`);
