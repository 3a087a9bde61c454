// Instructions, not seconds: what each worker costs, counted by Valgrind's callgrind in workerd's
// main thread, where every worker's JavaScript and WebAssembly runs (the agent, the adapters and
// the runtime's own work for them). A turn's count repeats to within about 1% from run to run,
// where CPU time on a shared machine swings by ±20% (bench/README.md): this is the measure that
// can show a change worth a few percent. Instructions are not time (WebAssembly and JIT-compiled
// JavaScript do not retire instructions at the same rate), so `npm run bench` keeps the timed
// figures; this says which build does less work, and by how much.
//
//   node bench/instructions.mjs [build dir…] [--streams N] [--short N] [--long N] [--events N] [--warm N] [--reps N] [--concurrent N] [--keep]
//
//   build dir   another build of this worker (scripts/build.sh's build/), measured as c1, c2, …
//   --streams N short turns (/flood 100) per measurement (default 30): the per-stream figure
//   --short N   events of a short turn (default 100, a chat turn's few); 1 counts a stream's
//               setup and end nearly alone
//   --long N    long turns (/flood --events) per measurement (default 3)
//   --events N  events of a long turn (default 2000); per 10k events = the long turn minus a
//               short one, per event, so the stream's setup and end cancel out
//   --warm N    unmeasured short turns per worker first (default 40), and two long ones: until
//               V8 has tiered up what it will, which under Valgrind takes many turns
//   --reps N    measurements per worker (default 2), interleaved: their spread is shown
//   --concurrent N  the measured short turns N at a time, each on its own connection (default 1:
//               one after another): what a stream costs among others, as in run.mjs's
//               concurrency row
//   --keep      keep callgrind's files, with parts.json naming each part's worker and turns: workerd
//               has its symbols, so `callgrind_annotate <file>` names the runtime's functions;
//               V8's perf map is kept too, and bench/jit_functions.mjs names JIT-compiled
//               JavaScript and WebAssembly with it
//
// Needs valgrind (Debian: apt-get install valgrind). Takes 3–8 minutes. Writes
// bench/results/instructions-<short events>.json. Not part of `npm run bench`, which measures
// time; threads other than the main one (V8's compilers and collector helpers) are shown beside
// it, not in the ratios: when they run depends on timing.
import { candidateArgs } from "./lib/args.mjs";
import { callgrindWorkerd } from "./lib/callgrind.mjs";
import { newAgent, runSink, runTurn, waveOutcome } from "./lib/client.mjs";
import { writeResults } from "./lib/results.mjs";
import { median, spread } from "./lib/stats.mjs";
import { startWorkers } from "./lib/workers.mjs";

const { candidates, kind, option, flag } = candidateArgs(process.argv.slice(2), ["--streams", "--short", "--long", "--events", "--warm", "--reps", "--concurrent"]);
const cfg = {
  streams: option("--streams", 30),
  long: option("--long", 3),
  events: option("--events", 2000),
  warm: option("--warm", 40),
  reps: option("--reps", 2),
  concurrent: option("--concurrent", 1),
};
/** Events of a short turn: a stream's setup and end, with a few events, as a chat turn has. */
const SHORT_EVENTS = option("--short", 100);

// With --keep, V8's perf map is kept beside callgrind's files too (bench/jit_functions.mjs).
const { counter, finish } = callgrindWorkerd({ perfMap: flag("--keep") });

// "agent" is the agent alone: the same turns into the passthrough's /sink (the agent and the
// socket hop, no stream to the client), subtracted from every ratio.
const names = ["rust", "ts", "pass", ...Object.keys(candidates), "agent"];
const started = performance.now();
const w = await startWorkers({ adapters: ["rust", "ts", "pass"], variants: candidates });
// Every turn gets a connection of its own, as a chat turn does (and as bench/turns.mjs measures):
// a kept-alive connection idles for minutes under Valgrind while the other workers warm up, and
// the server closes it (see also bench/README.md on keep-alive connections under overload).
const fresh = newAgent();
const turn = (name, events, agent) =>
  name === "agent"
    ? runSink(w.urls.pass, `/flood ${events}`, { agent })
    : runTurn(w.urls[name], kind(name), `/flood ${events}`, { agent });

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
/** Instructions of `run()`: { part, main, others } (workerd's main thread, and all other threads). */
const counted = counter(w.pid);

const runs = Object.fromEntries(names.map((n) => [n, []]));
try {
  console.log(`workerd under callgrind, started in ${((performance.now() - started) / 1000).toFixed(0)} s; warming up`);
  for (const name of names) {
    await turns(name, cfg.warm, SHORT_EVENTS);
    await turns(name, 2, cfg.events);
  }
  // The first window counted after the warm-up reads 5–10% high, for whichever worker it
  // measures (bench/README.md): one is counted and dropped before the measured ones.
  const { part } = await counted(() => turns(names[0], cfg.streams, SHORT_EVENTS, cfg.concurrent));
  parts.push({ part, worker: names[0], turns: cfg.streams, events: SHORT_EVENTS, dropped: true });
  for (let rep = 0; rep < cfg.reps; rep++) {
    for (const name of rep % 2 ? [...names].reverse() : names) {
      const short = await counted(() => turns(name, cfg.streams, SHORT_EVENTS, cfg.concurrent));
      parts.push({ part: short.part, worker: name, turns: cfg.streams, events: SHORT_EVENTS });
      const long = await counted(() => turns(name, cfg.long, cfg.events));
      parts.push({ part: long.part, worker: name, turns: cfg.long, events: cfg.events });
      const perStream = short.main / cfg.streams;
      const per10k = ((long.main / cfg.long - perStream) / (cfg.events - SHORT_EVENTS)) * 1e4;
      const others = (short.others + long.others) / (cfg.streams + cfg.long);
      runs[name].push({ perStream, per10k, others });
      console.log(
        `  ${name.padEnd(6)} ${(perStream / 1e6).toFixed(2).padStart(7)} M instr/stream  ` +
          `${(per10k / 1e6).toFixed(1).padStart(7)} M instr/10k events  (other threads ${(others / 1e6).toFixed(2)} M/turn)`,
      );
    }
  }
} finally {
  await w.dispose();
  finish({ keep: flag("--keep"), pid: w.pid, parts });
}

const med = (name, key) => median(runs[name].map((r) => r[key]));
const spreadOf = (name, key) => {
  const { min, max, median: mid } = spread(runs[name].map((r) => r[key]));
  return ((max - min) / mid) * 100;
};
console.log(`\nmedian of ${cfg.reps} (spread between runs in brackets); "−agent": minus the agent alone`);
console.log("worker   instr/stream   −agent     instr/10k events   −agent");
for (const name of names) {
  const less = (key) => (name === "agent" ? "" : `${((med(name, key) - med("agent", key)) / 1e6).toFixed(2)} M`);
  console.log(
    `${name.padEnd(8)} ${(med(name, "perStream") / 1e6).toFixed(2).padStart(6)} M (${spreadOf(name, "perStream").toFixed(1)}%)`.padEnd(32) +
      less("perStream").padEnd(11) +
      `${(med(name, "per10k") / 1e6).toFixed(1).padStart(6)} M (${spreadOf(name, "per10k").toFixed(1)}%)`.padEnd(19) +
      less("per10k"),
  );
}
// A window that a collector's sweep or a compilation landed in reads 3× to 60× the others: under
// Valgrind the runtime's steps bounded by a deadline (cppgc's incremental sweep) do many times less
// work each, so their task loop takes over a window (seen with `--keep`: cppgc's sweeper, the
// platform's task queue and the clock were most of one). The clean figure is the median of the
// windows within 1.5× of the worker's lowest; the median above keeps every window.
const cleanValues = (name, key) => {
  const values = runs[name].map((r) => r[key]);
  const lowest = Math.min(...values);
  return values.filter((v) => v <= lowest * 1.5);
};
const clean = (name, key) => median(cleanValues(name, key));
console.log(`\nper stream, clean windows (within 1.5× of the lowest): how many, median, minus the agent alone`);
for (const name of names) {
  const less = name === "agent" ? "" : `${((clean(name, "perStream") - clean("agent", "perStream")) / 1e6).toFixed(2)} M`;
  console.log(`${name.padEnd(8)} ${String(cleanValues(name, "perStream").length).padStart(2)} of ${runs[name].length}  ${(clean(name, "perStream") / 1e6).toFixed(2).padStart(6)} M  ${less}`);
}
const ratio = (a, b, key) => (med(a, key) - med("agent", key)) / (med(b, key) - med("agent", key));
const cleanRatio = (a, b) => (clean(a, "perStream") - clean("agent", "perStream")) / (clean(b, "perStream") - clean("agent", "perStream"));
console.log("\nratios, minus the agent alone (per stream, per 10k events; per stream of the clean windows)");
for (const a of ["rust", ...Object.keys(candidates)]) {
  console.log(`  ${a}/ts    ${ratio(a, "ts", "perStream").toFixed(3)}   ${ratio(a, "ts", "per10k").toFixed(3)}   ${cleanRatio(a, "ts").toFixed(3)}`);
  console.log(`  ${a}/pass  ${ratio(a, "pass", "perStream").toFixed(3)}   ${ratio(a, "pass", "per10k").toFixed(3)}   ${cleanRatio(a, "pass").toFixed(3)}`);
}
for (const c of Object.keys(candidates)) {
  console.log(`  ${c}/rust  ${ratio(c, "rust", "perStream").toFixed(3)}   ${ratio(c, "rust", "per10k").toFixed(3)}   ${cleanRatio(c, "rust").toFixed(3)}`);
}

// The figures, for a README row to name its run: bench/results/instructions-<short events>.json.
const figures = {};
for (const name of names) {
  figures[name] = {
    windows: runs[name],
    perStream: med(name, "perStream"),
    per10k: med(name, "per10k"),
    cleanPerStream: clean(name, "perStream"),
    ...(name === "agent"
      ? {}
      : {
          perStreamBeyondAgent: med(name, "perStream") - med("agent", "perStream"),
          per10kBeyondAgent: med(name, "per10k") - med("agent", "per10k"),
        }),
  };
}
const ratios = {};
for (const a of ["rust", ...Object.keys(candidates)]) {
  for (const b of ["ts", "pass", ...(a === "rust" ? [] : ["rust"])]) {
    ratios[`${a}/${b}`] = { perStream: ratio(a, b, "perStream"), per10k: ratio(a, b, "per10k"), cleanPerStream: cleanRatio(a, b) };
  }
}
const out = writeResults(`instructions-${SHORT_EVENTS}`, { ...cfg, short: SHORT_EVENTS, candidates }, { workers: figures, ratios });
console.log(`\nresults: ${out}`);
