// Where an adapter's time goes: V8's sampling CPU profiler on one worker's isolate (through
// workerd's inspector), while it streams a `/flood` turn. Prints the functions with the most
// self time, JS and WASM alike (WASM functions show as `$func…` or by name), and writes the
// whole profile to bench/results/<worker>.cpuprofile (open it in Chrome DevTools).
//
//   node bench/profile.mjs [rust|ts|pass|ts-per-message|pass-per-message|agent] [N]   (default: rust 30000)
//   (ts and pass coalesce writes as the Rust worker does; the -per-message ones write once per message)
//   node bench/profile.mjs candidate [N] <build dir>        (another build, as in compare.mjs)
//   node bench/profile.mjs [worker] streams [K] [C] [E]   (K short turns of E events (/flood E), C
//                                                  at a time: the cost of a stream's setup and end;
//                                                  default 500, 20, 100; E = 1: the setup nearly alone)
//
// Not part of `npm run bench`: the profiler itself slows the isolate down.
import { mkdirSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { inspect } from "./lib/inspector.mjs";
import { startWorkers, benchDir } from "./lib/workers.mjs";
import { runTurn, manyTurns } from "./lib/client.mjs";

const worker = process.argv[2] ?? "rust";
const streamsMode = process.argv[3] === "streams";
const n = Number((streamsMode ? process.argv[4] : process.argv[3]) ?? (streamsMode ? 500 : 30_000));
const atOnce = Number((streamsMode && process.argv[5]) || 20);
const shortEvents = Number((streamsMode && process.argv[6]) || 100);
const unit = streamsMode ? "stream" : "delta";
const port = 9400 + Math.floor(Math.random() * 500);

const variants = worker === "candidate" ? { candidate: path.resolve(process.argv[4], "index.js") } : {};
const w = await startWorkers({ inspectorPort: port, variants });
try {
  const inspector = await inspect(port, worker);
  const { call } = inspector;

  const kind = worker === "agent" ? "rust-colocated" : worker === "candidate" ? "rust" : worker;
  const base = w.urls[worker];
  await runTurn(base, kind, "/flood 2000"); // warm up
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 50 });
  await call("Profiler.start");
  const turn = streamsMode ? await shortTurns(base, kind, n) : await runTurn(base, kind, `/flood ${n}`);
  const { result } = await call("Profiler.stop");
  inspector.close();

  const profile = result.profile;
  const dt = profile.timeDeltas.reduce((a, b) => a + b, 0) / profile.samples.length; // µs per sample
  const self = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const id of profile.samples) {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id).callFrame;
    const where = url ? `${path.basename(url)}:${lineNumber + 1}:${columnNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = self.get("(idle)") ?? 0;
  const units = streamsMode ? n : turn.deltas;
  console.log(`${worker}: ${units} ${unit}s in ${turn.wall.toFixed(0)} ms; isolate busy ${((total - idle) / 1000).toFixed(0)} ms ` +
    `= ${((total - idle) / units).toFixed(2)} µs per ${unit} (sampled; idle ${(idle / 1000).toFixed(0)} ms)`);
  // Totals by kind: WASM code, JS (the worker's own or wasm-bindgen's glue), the runtime.
  const kinds = new Map();
  for (const [key, us] of self) {
    if (key === "(idle)") continue;
    const kind = /^wasm-function|^wasm-to-js|^js-to-wasm/.test(key) || key.includes(".wasm")
      ? "wasm (and its JS<->WASM transitions)"
      : /^\((program|garbage collector)\)/.test(key)
        ? key.split(" ")[0]
        : /\.js:\d/.test(key) ? "JS of the worker (incl. wasm-bindgen glue)" : "runtime built-ins (streams, WebSocket, microtasks…)";
    kinds.set(kind, (kinds.get(kind) ?? 0) + us);
  }
  for (const [kind, us] of [...kinds.entries()].sort((a, b) => b[1] - a[1])) {
    console.log(`${(us / units).toFixed(2).padStart(8)} µs/${unit}  ${((100 * us) / (total - idle)).toFixed(1).padStart(5)}%  ${kind}`);
  }
  console.log(`self µs/${unit}  share  function`);
  for (const [key, us] of [...self.entries()].filter(([k]) => k !== "(idle)").sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`${(us / units).toFixed(3).padStart(13)}  ${((100 * us) / (total - idle)).toFixed(1).padStart(5)}%  ${key}`);
  }
  mkdirSync(path.join(benchDir, "results"), { recursive: true });
  const out = path.join(benchDir, "results", `${worker}.cpuprofile`);
  writeFileSync(out, JSON.stringify(profile));
  console.log(`profile: ${path.relative(process.cwd(), out)}`);
} finally {
  await w.dispose();
}

/** `count` turns of /flood `shortEvents`, `atOnce` at a time, and how long they took. */
async function shortTurns(base, kind, count) {
  const started = performance.now();
  await manyTurns(base, kind, `/flood ${shortEvents}`, count, atOnce);
  return { wall: performance.now() - started };
}
