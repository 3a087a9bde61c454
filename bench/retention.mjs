// Retention (docs/sessions.md, "Retention"; `SESSION_TTL_DAYS`): what one run of the worker's
// hourly Cron Trigger costs, with many lists in the index's directory and many idle sessions.
// Lists and their sessions are written straight into the index by a worker of the bench's own
// inside workerd (a turn's touch, then the directory's enlist, as a chat turn's write does), so
// the sessions exist in the index alone: a run's forget reaches a demo agent that holds nothing
// (its cheapest case; a real session's storage is the agent's to delete). First a run with
// nothing due yet (the directory's query over every list), then runs past the cutoff until none
// deletes anything: each run's wall time, workerd's CPU (the adapter, the index objects, the
// agents, Miniflare's local R2), and what its `session_expiry` line says.
//
// Last, a directory of `--directory` lists none of which is due (rows of the directory alone: that
// many lists' objects, each a SQLite database, would pass this machine's open files): the run's
// query over it, which every run pays.
//
//   node bench/retention.mjs [--smoke] [--shapes L×S,L×S…] [--directory N]
//
//   --shapes     lists × idle sessions each (default 1000x1,10x100: many users with a session
//                each, a few with many)
//   --directory  the directory's size for the last run (default 10000, ten times the first shape)
//   --smoke      20 lists of 2 sessions and a directory of 100: what `npm test` runs, so the
//                benchmark cannot rot (no figure asserted, nothing written)
// Writes bench/results/retention.json (not with --smoke).
import { startWorker } from "../tests/e2e/harness.mjs";
import { scheduledRuns } from "./lib/scheduled.mjs";
import { commandLine } from "./lib/args.mjs";
import { writeResults } from "./lib/results.mjs";

const { value, option, flag } = commandLine(process.argv.slice(2), ["--shapes", "--directory"]);
const smoke = flag("--smoke");
const SHAPES = (value("--shapes") ?? (smoke ? "20x2" : "1000x1,10x100")).split(",").map((shape) => shape.split("x").map(Number));
const DIRECTORY = option("--directory", smoke ? 100 : 10_000);
const DAY_MS = 86_400_000;
const say = (...line) => console.error("[retention]", ...line);

/**
 * A worker of the bench's own, bound to the adapter's index class: `?prefix=&lists=&sessions=`
 * lists `sessions` sessions in each of `lists` lists named `<prefix>-<i>`, each list put in the
 * directory as stub.js's touchIndex does at a list's first session.
 */
const FILLER = {
  name: "retention-filler",
  modules: true,
  script: `export default {
    async fetch(request, env) {
      const url = new URL(request.url);
      const prefix = url.searchParams.get("prefix");
      const send = (name, op, body) => env.INDEX.get(env.INDEX.idFromName(name)).fetch("https://session-index/" + op + "?" + encodeURIComponent(body));
      if (url.searchParams.has("directory")) {
        // Rows of the directory alone: lists whose oldest activity is now, none due.
        const [count, oldest] = [Number(url.searchParams.get("directory")), Number(url.searchParams.get("oldest"))];
        for (let l = 0; l < count; l++) {
          const enlisted = await send("directory", "enlist", "key:" + prefix + "-" + l + "\\n" + oldest);
          if (enlisted.status !== 204) return new Response("enlist: " + enlisted.status, { status: 500 });
        }
        return new Response("ok");
      }
      const [lists, sessions] = [Number(url.searchParams.get("lists")), Number(url.searchParams.get("sessions"))];
      for (let l = 0; l < lists; l++) {
        const list = "key:" + prefix + "-" + l;
        for (let s = 0; s < sessions; s++) {
          const id = prefix + "-" + l + "-" + s;
          const answer = await send(list, "touch", id + "\\nAn idle conversation");
          if (answer.status === 201) {
            const oldest = await answer.text();
            const enlisted = await send("directory", "enlist", list + "\\n" + oldest);
            if (enlisted.status !== 204) return new Response("enlist: " + enlisted.status, { status: 500 });
            if ((await send(list, "enlisted", "")).status !== 204) return new Response("enlisted", { status: 500 });
          } else if (answer.status !== 204) return new Response("touch: " + answer.status + " " + await answer.text(), { status: 500 });
        }
      }
      return new Response("ok");
    },
  };`,
  durableObjects: { INDEX: { className: "SessionIndex", scriptName: "session-agent-chat", useSQLite: true } },
};

const worker = await startWorker({ vars: { SESSION_TTL_DAYS: "1" }, sidecars: [FILLER] });

/** `lists` lists of `sessions` sessions each, written in pieces of 500 lists. */
async function fill(prefix, lists, sessions) {
  for (let from = 0; from < lists; from += 500) {
    const count = Math.min(500, lists - from);
    const response = await fetch(`${worker.sidecar(FILLER.name)}/?prefix=${prefix}-${from}&lists=${count}&sessions=${sessions}`);
    if (response.status !== 200) throw new Error(`fill: ${response.status} ${await response.text()}`);
  }
}

const runTrigger = scheduledRuns(worker, "session_expiry");

/** One run of the trigger at `at`: its wall time, workerd's CPU, its line's words, and how many sessions it deleted. */
async function run(at) {
  const done = await runTrigger(at);
  return { ...done, deleted: Number(/^(\d+) session/.exec(done.line ?? "")?.[1] ?? NaN) };
}

const figures = [];
try {
  for (const [i, [lists, sessions]] of SHAPES.entries()) {
    const started = performance.now();
    await fill(`bench-${process.pid}-${i}`, lists, sessions);
    say(`${lists} lists of ${sessions} idle session(s) written in ${Math.round(performance.now() - started)} ms`);
    const now = Date.now();
    const early = await run(now);
    say(`nothing due yet: ${early.wallMs} ms, ${early.cpuMs} ms of CPU; ${early.line}`);
    const runs = [];
    for (;;) {
      const late = await run(now + 2 * DAY_MS);
      if (!(late.deleted > 0)) break;
      runs.push(late);
      if (runs.length > (lists * sessions) / 10 + 5) throw new Error("the runs do not end");
    }
    const deleted = runs.reduce((sum, r) => sum + r.deleted, 0);
    if (deleted !== lists * sessions) throw new Error(`${deleted} deleted of ${lists * sessions}`);
    const wall = runs.map((r) => r.wallMs).sort((a, b) => a - b);
    const cpuMs = runs.map((r) => r.cpuMs).sort((a, b) => a - b);
    const mid = (sorted) => sorted[Math.floor(sorted.length / 2)];
    say(`deleted in ${runs.length} runs: a run ${mid(wall)} ms (median; ${wall[0]} to ${wall.at(-1)}), ${mid(cpuMs)} ms of CPU`);
    figures.push({ lists, sessions, nothingDue: early, runs: runs.length, runWallMsMedian: mid(wall), runCpuMsMedian: mid(cpuMs), each: runs });
  }
  const now = Date.now();
  for (let from = 0; from < DIRECTORY; from += 500) {
    const response = await fetch(`${worker.sidecar(FILLER.name)}/?prefix=bench-${process.pid}-directory-${from}&directory=${Math.min(500, DIRECTORY - from)}&oldest=${now}`);
    if (response.status !== 200) throw new Error(`directory: ${response.status} ${await response.text()}`);
  }
  const idle = await run(now + 60_000);
  if (idle.deleted !== 0) throw new Error(`a run over the directory deleted ${idle.deleted}`);
  say(`a directory of ${DIRECTORY} lists, none due: ${idle.wallMs} ms, ${idle.cpuMs} ms of CPU; ${idle.line}`);
  figures.push({ directory: DIRECTORY, nothingDue: idle });
} finally {
  await worker.dispose();
}

for (const f of figures) {
  if (f.directory !== undefined) {
    console.log(`${String(f.directory).padStart(6)} lists in the directory, none due: a run ${f.nothingDue.wallMs} ms (${f.nothingDue.cpuMs} ms CPU)`);
    continue;
  }
  console.log(`${String(f.lists).padStart(6)} lists × ${f.sessions}: nothing due ${f.nothingDue.wallMs} ms (${f.nothingDue.cpuMs} ms CPU); deleted in ${f.runs} runs of ${f.runWallMsMedian} ms (${f.runCpuMsMedian} ms CPU) each, median`);
}
if (!smoke) writeResults("retention", { shapes: SHAPES, directory: DIRECTORY }, { figures });
