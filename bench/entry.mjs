// What a request costs before any chat: the instructions of a plain request (`GET /nothing`, a
// JSON 404 from each) through this worker, through the smallest workers-rs worker (bench/floor)
// and through the TS adapter, counted by callgrind in workerd's main thread. No agent and no
// stream take part, so a request's count repeats to within a few percent, and the differences
// split what any request costs:
//
//   floor − ts    what workers-rs and wasm-bindgen cost a request over plain JavaScript (the
//                 generated entry, the async export, the wasm call, the answer's conversions);
//   rust − floor  what this worker's own entry adds (its request id, clock, log line, routing,
//                 configuration, headers and JSON answer).
//
// A chat turn pays both, once, on top of its stream's own work (bench/instructions.mjs counts
// whole turns). Another build of this worker given as a directory is measured beside, as c1, c2,
// …: a change to the entry shows here far above the noise of a whole turn.
//
//   node bench/entry.mjs [build dir…] [--requests N] [--warm N] [--reps N] [--chat N] [--keep]
//
//   --requests N  requests per measurement (default 1000: at 300, a window that a collection
//                 lands in reads 10% above one it misses), each on a new connection
//   --warm N      unmeasured requests per worker first (default 500)
//   --reps N      measurements per worker (default 4), interleaved, in alternating order
//   --chat N      chat turns of N events (`/flood N`) in place of the 404s: this worker, the
//                 builds given and the TS adapter (not the floor, which has no chat), the agent's
//                 work included in each (the same for all: subtract it with instructions.mjs)
//   --keep        keep callgrind's files and V8's perf map, with parts.json, for
//                 `node bench/jit_functions.mjs <dir> rust floor` (function by function)
//
// Builds bench/floor first (`bench/build.sh floor`, incremental). Needs valgrind. About a
// minute and a half. Not part of `npm run bench`.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { candidateArgs } from "./lib/args.mjs";
import { callgrindWorkerd } from "./lib/callgrind.mjs";
import { completeTurn, newAgent, notFound } from "./lib/client.mjs";
import { median, spread } from "./lib/stats.mjs";
import { root, startWorkers } from "./lib/workers.mjs";

const { candidates, kind, option, flag } = candidateArgs(process.argv.slice(2), ["--requests", "--warm", "--reps", "--chat"]);
const cfg = { requests: option("--requests", 1000), warm: option("--warm", 500), reps: option("--reps", 4), chat: option("--chat", 0) };

execFileSync("bash", ["bench/build.sh", "floor"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
const { counter, finish } = callgrindWorkerd({ perfMap: flag("--keep") });
const variants = { floor: path.join(root, "bench/.build/floor/index.js"), ...candidates };
const names = ["rust", ...(cfg.chat ? [] : ["floor"]), "ts", ...Object.keys(candidates)];
const w = await startWorkers({ adapters: ["rust", "ts"], variants });

const agent = newAgent();
/** `count` requests to worker `name`, one after another: chat turns with `--chat`, else 404s. */
async function requests(name, count) {
  for (let i = 0; i < count; i++) {
    await (cfg.chat ? completeTurn(w.urls[name], kind(name), cfg.chat, { agent }) : notFound(w.urls[name], agent));
  }
}

const counted = counter(w.pid);
const parts = [];
const perRequest = Object.fromEntries(names.map((n) => [n, []]));
/** The same without the windows' collections (lib/collections.mjs). */
const work = Object.fromEntries(names.map((n) => [n, []]));
try {
  for (const name of names) await requests(name, cfg.warm);
  // The first window after the warm-up reads high, whichever worker it measures: dropped.
  const { part } = await counted(() => requests(names[0], cfg.requests));
  parts.push({ part, worker: names[0], turns: cfg.requests, events: cfg.chat, dropped: true });
  for (let rep = 0; rep < cfg.reps; rep++) {
    for (const name of rep % 2 ? [...names].reverse() : names) {
      const { part, main, collections } = await counted(() => requests(name, cfg.requests));
      parts.push({ part, worker: name, turns: cfg.requests, events: cfg.chat });
      perRequest[name].push(main / cfg.requests);
      work[name].push((main - collections) / cfg.requests);
      console.log(
        `  ${name.padEnd(6)} ${(main / cfg.requests / 1e3).toFixed(1).padStart(7)} k instr/${cfg.chat ? "turn" : "request"}` +
          ` (${((main - collections) / cfg.requests / 1e3).toFixed(1)} k without collections)`,
      );
    }
  }
} finally {
  await w.dispose();
  finish({ keep: flag("--keep"), pid: w.pid, parts });
}

const k = (v) => `${(v / 1e3).toFixed(1)}k`;
console.log(
  `\nper ${cfg.chat ? `${cfg.chat}-event turn` : "request"}, main thread: median of ${cfg.reps} (lowest–highest); ` +
    "the same without collections",
);
for (const name of names) {
  const { min, max } = spread(perRequest[name]);
  const bare = spread(work[name]);
  console.log(
    `  ${name.padEnd(6)} ${k(median(perRequest[name])).padStart(8)}  (${k(min)}–${k(max)})` +
      `   ${k(median(work[name])).padStart(8)}  (${k(bare.min)}–${k(bare.max)})`,
  );
}
const m = (name) => median(perRequest[name]);
const mw = (name) => median(work[name]);
if (!cfg.chat) {
  console.log(`\n  floor − ts     ${k(m("floor") - m("ts")).padStart(8)}  workers-rs and wasm-bindgen over plain JavaScript`);
  console.log(`  rust − floor   ${k(m("rust") - m("floor")).padStart(8)}  this worker's own entry`);
}
for (const name of Object.keys(candidates)) {
  console.log(`  ${name} − rust   ${k(m(name) - m("rust")).padStart(8)}   without collections ${k(mw(name) - mw("rust"))}`);
}
