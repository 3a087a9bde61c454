// Instructions, not seconds: what each worker costs, counted by Valgrind's callgrind in workerd's
// main thread, where every worker's JavaScript and WebAssembly runs (the agent, the adapters and
// the runtime's own work for them). A long turn's count repeats to within a few percent from run
// to run, where CPU time on a shared machine swings by ±20% (bench/README.md); a short turn's
// moves more (the collections a window holds, the agent's own drift), which the design below
// takes out: each adapter's window sits between two of the agent alone, and the figures beyond
// the agent subtract those two. Instructions are not time (WebAssembly and JIT-compiled
// JavaScript do not retire instructions at the same rate), so `npm run bench` keeps the timed
// figures; this says which build does less work, and by how much.
//
//   node bench/instructions.mjs [build dir…] [--streams N] [--short N] [--long N] [--events N] [--warm N] [--reps N] [--concurrent N] [--v8-flags "F…"] [--keep]
//
//   build dir   another build of this worker (scripts/build.sh's build/, or its production/ for the
//               build users deploy), measured as c1, c2, …; `rust` is build/production, built here
//   --streams N short turns (/flood 100) per measurement (default 30): the per-stream figure
//   --short N   events of a short turn (default 100, a chat turn's few); 1 counts a stream's
//               setup and end nearly alone
//   --long N    long turns (/flood --events) per measurement (default 3)
//   --events N  events of a long turn (default 2000); per 10k events = the long turn minus a
//               short one, per event, so the stream's setup and end cancel out
//   --warm N    unmeasured short turns per worker first (default 150), and two long ones: until
//               V8 has tiered up what it will, which under Valgrind takes many turns (after 40,
//               the agent's own count still fell by a tenth over a run)
//   --reps N    measurements per adapter (default 2), in rotated order, each between two of the
//               agent alone (so 1 + reps × adapters of the agent): their spread is shown
//   --concurrent N  the measured short turns N at a time, each on its own connection (default 1:
//               one after another): what a stream costs among others, as in run.mjs's
//               concurrency row
//   --v8-flags "F…"  more V8 flags for workerd, for a diagnosis (`--no-liftoff`: every
//               WebAssembly function compiled by TurboFan from its first call, as in an isolate
//               that has served enough requests for V8 to tier each one up); the results then
//               say which flags they were taken with
//   --with A,B  more workers of bench/lib/workers.mjs's JS_WORKERS or RUST_WORKERS measured
//               beside the others (e.g. rust-indexed: the production build with a user's
//               conversations' index bound, each turn listed, what a turn's write adds;
//               ts-unlogged: the TS adapter without its log line;
//               pass-rs: the passthrough in Rust, what any workers-rs adapter's turn costs;
//               pass-core: its frames handled in Rust behind a JavaScript request path)
//   --keep      keep callgrind's files, with parts.json naming each part's worker and turns: workerd
//               has its symbols, so `callgrind_annotate <file>` names the runtime's functions;
//               V8's perf map is kept too, and bench/jit_functions.mjs names JIT-compiled
//               JavaScript and WebAssembly with it (`--wasm build/production-symbols.wasm` for
//               the rust slot's names)
//
// Needs valgrind (Debian: apt-get install valgrind). Takes 5–12 minutes. Writes
// bench/results/instructions-<short events>.json. Not part of `npm run bench`, which measures
// time; threads other than the main one (V8's compilers and collector helpers) are shown beside
// it, not in the ratios: when they run depends on timing.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { candidateArgs } from "./lib/args.mjs";
import { callgrindWorkerd } from "./lib/callgrind.mjs";
import { newAgent, runSink, runTurn, waveOutcome } from "./lib/client.mjs";
import { writeResults } from "./lib/results.mjs";
import { median, rotate, spread } from "./lib/stats.mjs";
import { INDEXED, INDEX_KEY_HEADER, JS_WORKERS, RUST_WORKERS, root, startWorkers } from "./lib/workers.mjs";

const { candidates, kind, option, value, flag } = candidateArgs(process.argv.slice(2), ["--streams", "--short", "--long", "--events", "--warm", "--reps", "--concurrent", "--v8-flags", "--with"]);
// The JavaScript workers always measured; --with adds others of JS_WORKERS.
const ADAPTERS = ["ts", "pass"];
const extraAdapters = value("--with")?.split(",").filter(Boolean) ?? [];
const more = [...Object.keys(JS_WORKERS), ...Object.keys(RUST_WORKERS)].filter((name) => !ADAPTERS.includes(name));
const unknown = extraAdapters.filter((name) => !more.includes(name));
if (unknown.length > 0) {
  console.error(`--with: ${unknown.join(", ")}: not one of ${more.join(", ")}`);
  process.exit(2);
}
const cfg = {
  streams: option("--streams", 30),
  long: option("--long", 3),
  events: option("--events", 2000),
  warm: option("--warm", 150),
  reps: option("--reps", 2),
  concurrent: option("--concurrent", 1),
};
/** Events of a short turn: a stream's setup and end, with a few events, as a chat turn has. */
const SHORT_EVENTS = option("--short", 100);

// With --keep, V8's perf map is kept beside callgrind's files too (bench/jit_functions.mjs).
const v8Flags = value("--v8-flags")?.split(" ").filter(Boolean) ?? [];
const { counter, finish } = callgrindWorkerd({ perfMap: flag("--keep"), v8Flags });

// "agent" is the agent alone: the same turns into the passthrough's /sink (the agent and the
// socket hop, no stream to the client), subtracted from every ratio.
const names = ["rust", ...ADAPTERS, ...extraAdapters, ...Object.keys(candidates), "agent"];
const started = performance.now();
// This adapter as it is deployed: the production build (no demo agent), a module of its own. The
// local build's wasm is byte for byte the agent worker's, and V8 compiles one module once per
// process for both, so that adapter would run code the agent's turns compiled and tiered up.
execFileSync("bash", ["scripts/build.sh", "--production"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
// The other Rust workers asked for (--with pass-rs), built the same way (incremental).
const rustExtras = extraAdapters.filter((name) => name in RUST_WORKERS);
for (const name of rustExtras.filter((extra) => !INDEXED.has(extra))) {
  execFileSync("bash", ["bench/build.sh", name], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}
const w = await startWorkers({
  adapters: [...ADAPTERS, ...extraAdapters.filter((name) => name in JS_WORKERS)],
  variants: {
    rust: path.join(root, "build/production/index.js"),
    ...Object.fromEntries(rustExtras.map((name) => [name, RUST_WORKERS[name]])),
    ...candidates,
  },
  vars: { DEMO_AGENT: "off" },
});
// Every turn gets a connection of its own, as a chat turn does (and as bench/turns.mjs measures):
// a kept-alive connection idles for minutes under Valgrind while the other workers warm up, and
// the server closes it (see also bench/README.md on keep-alive connections under overload).
const fresh = newAgent();
const turn = (name, events, agent) =>
  name === "agent"
    ? runSink(w.urls.pass, `/flood ${events}`, { agent })
    : runTurn(w.urls[name], kind(name), `/flood ${events}`, { agent, headers: INDEXED.has(name) ? INDEX_KEY_HEADER : {} });

/** `count` turns of worker `name`, `atOnce` at a time. */
async function turns(name, count, events, atOnce = 1) {
  for (let i = 0; i < count; i += atOnce) {
    const batch = Array.from({ length: Math.min(atOnce, count - i) }, (_, k) =>
      turn(name, events, fresh).catch((err) => {
        throw new Error(`${name}: /flood ${events}, turn ${i + k + 1} of ${count}: ${err.message}`, { cause: err });
      }),
    );
    for (const value of await Promise.all(batch)) {
      const { lost, reasons } = waveOutcome([{ status: "fulfilled", value }], events, { sink: name === "agent" });
      if (lost) throw new Error(`${name}: /flood ${events} did not complete (${reasons.join(", ")})`);
    }
  }
}

/** What each part counted: { part, worker, turns, events }, for --keep. */
const parts = [];
/** Instructions of `run()`: { part, main, others, collections } (lib/callgrind.mjs). */
const counted = counter(w.pid);

/** One measurement of `name`: a window of short turns, then one of long turns. */
async function measure(name) {
  const short = await counted(() => turns(name, cfg.streams, SHORT_EVENTS, cfg.concurrent));
  parts.push({ part: short.part, worker: name, turns: cfg.streams, events: SHORT_EVENTS });
  const long = await counted(() => turns(name, cfg.long, cfg.events));
  parts.push({ part: long.part, worker: name, turns: cfg.long, events: cfg.events });
  const perStream = short.main / cfg.streams;
  // The same without the window's collections (lib/collections.mjs): the turns' own work.
  const perStreamWork = (short.main - short.collections) / cfg.streams;
  const per10k = ((long.main / cfg.long - perStream) / (cfg.events - SHORT_EVENTS)) * 1e4;
  const others = (short.others + long.others) / (cfg.streams + cfg.long);
  console.log(
    `  ${name.padEnd(6)} ${(perStream / 1e6).toFixed(2).padStart(7)} M instr/stream ` +
      `(${(perStreamWork / 1e6).toFixed(2)} M without collections)  ` +
      `${(per10k / 1e6).toFixed(1).padStart(7)} M instr/10k events  (other threads ${(others / 1e6).toFixed(2)} M/turn)`,
  );
  return { perStream, perStreamWork, per10k, others };
}

// Every adapter's window sits between two of the agent alone, and what it costs beyond the agent
// is its count minus the mean of those two. The agent's own count drifts while a run goes on (by
// up to a tenth of a 10-event turn from its first windows to its last: a new session, so a new
// Durable Object, every turn), and a subtraction from the median of windows taken elsewhere in
// the run moved a 10-event ratio from 1.8× to 4.9× between two runs of the same builds.
const adapters = names.filter((n) => n !== "agent");
/** Each worker's windows; an adapter's also carry `beyond`, the same keys minus the agent around. */
const runs = Object.fromEntries(names.map((n) => [n, []]));
const KEYS = ["perStream", "perStreamWork", "per10k"];
try {
  console.log(`workerd under callgrind${v8Flags.length ? ` (V8 flags: ${v8Flags.join(" ")})` : ""}, started in ${((performance.now() - started) / 1000).toFixed(0)} s; warming up`);
  for (const name of names) {
    await turns(name, cfg.warm, SHORT_EVENTS);
    await turns(name, 2, cfg.events);
  }
  // The first window counted after the warm-up reads 5–10% high, for whichever worker it
  // measures (bench/README.md): one is counted and dropped before the measured ones.
  const { part } = await counted(() => turns("agent", cfg.streams, SHORT_EVENTS, cfg.concurrent));
  parts.push({ part, worker: "agent", turns: cfg.streams, events: SHORT_EVENTS, dropped: true });
  runs.agent.push(await measure("agent"));
  for (let rep = 0; rep < cfg.reps; rep++) {
    for (const name of rotate(adapters, rep)) {
      // Each window remembers the agent's windows either side of it (by their index).
      runs[name].push({ ...(await measure(name)), around: [runs.agent.length - 1, runs.agent.length] });
      runs.agent.push(await measure("agent"));
    }
  }
} finally {
  await w.dispose();
  finish({ keep: flag("--keep"), pid: w.pid, parts });
}

// What each adapter window costs beyond the agent: minus the mean of the agent's windows either
// side. A window that a collector's sweep or a compilation landed in reads 3× to 100× the others
// (under Valgrind a step bounded by a deadline, as cppgc's incremental sweep, does many times
// less work each, so its task loop takes over a window: seen with `--keep`), and the first agent
// window after the warm-up reads a fifth high (idle Durable Objects evicted in it), so an agent
// window off the agent's median by more than OUTLIER either way (a long window after a wild short
// one reads negative per 10k events) is left out, and the nearest clean one on that side stands
// in. An adapter's own such windows are left out of its median the same way.
/** Clean windows stay within about 6% of their worker's median; the ones left out read 1.2× to 100× it. */
const OUTLIER = 1.15;
const within = (value, mid) => value <= mid * OUTLIER && value >= mid / OUTLIER;
for (const key of KEYS) {
  const mid = median(runs.agent.map((r) => r[key]));
  const clean = (i) => within(runs.agent[i][key], mid);
  const nearest = (i, step) => {
    for (let j = i; j >= 0 && j < runs.agent.length; j += step) if (clean(j)) return runs.agent[j][key];
    return undefined;
  };
  for (const name of adapters) {
    for (const window of runs[name]) {
      const sides = [nearest(window.around[0], -1), nearest(window.around[1], 1)].filter((v) => v !== undefined);
      window.beyond ??= {};
      window.beyond[key] = window[key] - sides.reduce((a, v) => a + v, 0) / sides.length;
    }
  }
}

const med = (name, key) => median(runs[name].map((r) => r[key]));
/** An adapter's clean windows, each beyond the agent around it. */
const cleanBeyond = (name, key) => {
  const mid = med(name, key);
  return runs[name].filter((r) => within(r[key], mid)).map((r) => r.beyond[key]);
};
/** Their median. */
const beyond = (name, key) => median(cleanBeyond(name, key));
const spreadOf = (name, key) => {
  const { min, max, median: m } = spread(cleanBeyond(name, key));
  return ((max - min) / Math.abs(m)) * 100;
};
const M = (v, digits = 2) => `${(v / 1e6).toFixed(digits)} M`;
console.log(
  `\nmedian of ${cfg.reps} windows; beyond the agent: each window minus the agent's windows around it, ` +
    `windows off their worker's median by more than ${OUTLIER}× left out (the spread of the others in brackets)`,
);
console.log("worker   instr/stream   beyond the agent      without collections   instr/10k events   beyond the agent");
for (const name of names) {
  const row = name === "agent"
    ? `${name.padEnd(8)} ${M(med(name, "perStream")).padStart(9)}`.padEnd(48) + `${M(med(name, "perStreamWork"), 3)}`.padEnd(22) + M(med(name, "per10k"), 1)
    : `${name.padEnd(8)} ${M(med(name, "perStream")).padStart(9)}   ` +
      `${M(beyond(name, "perStream"), 3)} (${spreadOf(name, "perStream").toFixed(0)}%)`.padEnd(22) +
      `${M(beyond(name, "perStreamWork"), 3)} (${spreadOf(name, "perStreamWork").toFixed(0)}%)`.padEnd(22) +
      `${M(med(name, "per10k"), 1).padStart(8)}`.padEnd(19) +
      `${M(beyond(name, "per10k"), 1)} (${spreadOf(name, "per10k").toFixed(0)}%)`;
  console.log(row);
}
const ratio = (a, b, key) => beyond(a, key) / beyond(b, key);
console.log("\nratios beyond the agent (per stream; per stream without collections; per 10k events)");
const ratioLine = (a, b) =>
  `  ${`${a}/${b}`.padEnd(10)} ${ratio(a, b, "perStream").toFixed(3)}   ${ratio(a, b, "perStreamWork").toFixed(3)}   ${ratio(a, b, "per10k").toFixed(3)}`;
for (const a of ["rust", ...Object.keys(candidates)]) {
  console.log(ratioLine(a, "ts"));
  console.log(ratioLine(a, "pass"));
}
for (const c of Object.keys(candidates)) console.log(ratioLine(c, "rust"));
// With the passthrough in Rust: what a turn costs any workers-rs adapter over plain JavaScript,
// and each adapter's own work over the passthrough in its language; with its frames handled in
// Rust behind a JavaScript request path (pass-core): what each half costs.
if (names.includes("pass-rs") || names.includes("pass-core")) {
  const over = (a, b, key) => M(beyond(a, key) - beyond(b, key), 3).padStart(9);
  console.log("\nper stream beyond the agent (with collections; without), and per 10k events");
  const line = (a, b, what) => {
    if (names.includes(a) && names.includes(b)) {
      console.log(`  ${`${a} − ${b}`.padEnd(19)}${over(a, b, "perStream")}${over(a, b, "perStreamWork")}${over(a, b, "per10k")}  ${what}`);
    }
  };
  line("pass-rs", "pass", "a Rust passthrough over the JavaScript one: what any workers-rs adapter pays");
  line("pass-core", "pass", "its frames in Rust behind a JavaScript request path: what the core's calls cost");
  line("pass-rs", "pass-core", "the request driven from WebAssembly instead");
  line("rust", "pass-rs", "this adapter's own work, in Rust");
  line("ts", "pass", "the same work, in JavaScript");
}

// With the index bound: what a turn's write to its user's index adds (issue 69 asks at most 2% of
// a 100-event turn beyond the agent).
if (names.includes("rust-indexed")) {
  const added = (key) => beyond("rust-indexed", key) - beyond("rust", key);
  const share = (key) => ((added(key) / beyond("rust", key)) * 100).toFixed(1);
  console.log(
    `\nrust-indexed − rust: a turn's write to its user's index, ${M(added("perStream"), 3)} per stream ` +
      `(${share("perStream")}% of rust's beyond the agent; without collections ${M(added("perStreamWork"), 3)}, ${share("perStreamWork")}%)`,
  );
}

// With the stand-in index: the write's worker side and the runtime's delivery, and so the object's own.
if (names.includes("rust-indexed-floor")) {
  const added = (a, b, key) => beyond(a, key) - beyond(b, key);
  const share = (value, key) => ((value / beyond("rust", key)) * 100).toFixed(1);
  const floor = (key) => added("rust-indexed-floor", "rust", key);
  console.log(
    `rust-indexed-floor − rust: the write's worker side and its delivery (a stand-in object that answers at once), ` +
      `${M(floor("perStream"), 3)} (${share(floor("perStream"), "perStream")}%; without collections ${M(floor("perStreamWork"), 3)}, ${share(floor("perStreamWork"), "perStreamWork")}%)`,
  );
  if (names.includes("rust-indexed")) {
    const own = (key) => added("rust-indexed", "rust-indexed-floor", key);
    console.log(
      `rust-indexed − rust-indexed-floor: the object's own work, ${M(own("perStream"), 3)} (${share(own("perStream"), "perStream")}%; ` +
        `without collections ${M(own("perStreamWork"), 3)}, ${share(own("perStreamWork"), "perStreamWork")}%)`,
    );
  }
}

// The figures, for a README row to name its run: bench/results/instructions-<short events>.json.
const figures = {};
for (const name of names) {
  figures[name] = {
    windows: runs[name],
    perStream: med(name, "perStream"),
    perStreamWork: med(name, "perStreamWork"),
    per10k: med(name, "per10k"),
    ...(name === "agent"
      ? {}
      : {
          perStreamBeyondAgent: beyond(name, "perStream"),
          perStreamWorkBeyondAgent: beyond(name, "perStreamWork"),
          per10kBeyondAgent: beyond(name, "per10k"),
        }),
  };
}
const ratios = {};
for (const a of ["rust", ...Object.keys(candidates)]) {
  for (const b of ["ts", "pass", ...(a === "rust" ? [] : ["rust"])]) {
    ratios[`${a}/${b}`] = Object.fromEntries(KEYS.map((k) => [k, ratio(a, b, k)]));
  }
}
// A diagnosis with other V8 flags is kept apart from the figures the README cites.
// So is a run with a user's index bound (`-indexed`), whose adapter row is the same as a plain run's.
const tag = [...v8Flags.map((f) => f.replace(/^-+/, "").replace(/[^A-Za-z0-9]+/g, "-")), ...(extraAdapters.some((name) => INDEXED.has(name)) ? ["indexed"] : [])].join("_");
const out = writeResults(`instructions-${SHORT_EVENTS}${tag ? `-${tag}` : ""}`, { ...cfg, short: SHORT_EVENTS, candidates, v8Flags, design: "each adapter window between two agent windows" }, { workers: figures, ratios });
console.log(`\nresults: ${out}`);
