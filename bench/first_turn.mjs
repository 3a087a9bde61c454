// What a cold start compiles: the WebAssembly functions V8 compiles for the production build's
// first chat turn, counted from V8's perf map. A worker's first request compiles every function it
// touches, lazily and whole (Liftoff, V8's baseline compiler, compiles a function's whole body
// even when one branch of it runs), so the bytes compiled before the first turn ends are a cold
// start's cost that repeats exactly, where timing a cold start is a few 10 ms ticks.
//
//   node bench/first_turn.mjs [build dir] [--events N] [--top N]
//
//   build dir   a production build (scripts/build.sh --production's build/production/, whose
//               named twin is build/production-symbols.wasm; default: those two)
//   --events N  events of the turn (/flood N; default 100)
//   --top N     the largest functions compiled, listed (default 15)
//
// The build runs with its name section put back (its `-symbols.wasm` twin, in a scratch copy), so
// the map names each function; the agent is the demo build in a worker of its own, whose
// functions are told apart by index and name. Needs `scripts/build.sh --production` first. Not
// part of `npm run bench`; bench/turns.mjs times the cold start.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { commandLine } from "./lib/args.mjs";
import { newAgent, runTurn } from "./lib/client.mjs";
import { functionsOf } from "./lib/wasm_names.mjs";
import { root } from "./lib/workers.mjs";

const { positional, option } = commandLine(process.argv.slice(2), ["--events", "--top"]);
const events = option("--events", 100);
const top = option("--top", 15);
const dir = path.resolve(positional[0] ?? path.join(root, "build/production"));
const symbols = path.join(path.dirname(dir), `${path.basename(dir)}-symbols.wasm`);
if (!existsSync(path.join(dir, "index.js")) || !existsSync(symbols)) {
  console.error(`needs ${dir}/index.js and ${symbols}: run scripts/build.sh --production first`);
  process.exit(2);
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "first-turn-"));
cpSync(dir, scratch, { recursive: true });
cpSync(symbols, path.join(scratch, "index_bg.wasm"));
const { names, sizes } = functionsOf(readFileSync(symbols));

// V8 writes /tmp/perf-<pid>.map: each compiled function's address, machine-code size and name,
// for WebAssembly `<name>-<index>-<tier>`.
// (`--perf-basic-prof` also opens a V8 log per isolate: sent nowhere.)
process.env.MINIFLARE_WORKERD_V8_FLAGS = "--perf-basic-prof --no-logfile-per-isolate --logfile=/dev/null";
const { startWorkers } = await import("./lib/workers.mjs");
const w = await startWorkers({ adapters: [], variants: { prod: path.join(scratch, "index.js") }, vars: { DEMO_AGENT: "off" }, probe: false });
let pid;
try {
  const agent = newAgent();
  const r = await runTurn(w.urls.prod, "rust", `/flood ${events}`, { agent });
  agent.destroy();
  if (r.status !== 200 || !r.done) throw new Error(`the turn: status ${r.status}, done ${r.done}`);
  pid = w.pid;
} finally {
  await w.dispose();
  rmSync(scratch, { recursive: true, force: true });
}
const map = `/tmp/perf-${pid}.map`;
const compiled = new Map();
for (const line of readFileSync(map, "utf8").split("\n")) {
  const m = /^\S+ ([0-9a-f]+) JS:(.*)-(\d+)-(liftoff|turbofan|turboshaft)$/.exec(line);
  if (!m || names.get(Number(m[3])) !== m[2]) continue;
  const entry = compiled.get(Number(m[3])) ?? { name: m[2], bytes: sizes.get(Number(m[3])) ?? 0, code: 0, tiers: new Set() };
  entry.code += parseInt(m[1], 16);
  entry.tiers.add(m[4]);
  compiled.set(Number(m[3]), entry);
}
rmSync(map, { force: true });
const all = [...compiled.values()].sort((a, b) => b.bytes - a.bytes);
const sum = (list, key) => list.reduce((s, f) => s + f[key], 0);
const total = [...sizes.values()].reduce((s, n) => s + n, 0);
console.log(`first turn (/flood ${events}) of ${path.relative(root, dir) || "."}: ${all.length} of ${sizes.size} functions compiled, ${sum(all, "bytes").toLocaleString("en")} of ${total.toLocaleString("en")} bytes of function bodies, ${sum(all, "code").toLocaleString("en")} bytes of machine code`);
for (const f of all.slice(0, top)) console.log(`${String(f.bytes).padStart(7)}  ${[...f.tiers].join("+").padEnd(18)} ${f.name.slice(0, 110)}`);
