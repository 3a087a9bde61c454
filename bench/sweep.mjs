// The uploads' sweep (docs/files.md, "What is kept, and for how long"): what one run of the
// worker's hourly Cron Trigger costs with N uploads waiting for a message (a marker and a small
// file each, put straight into the worker's local bucket), first before their life is over (the
// run lists every marker and deletes nothing), then after it (it deletes each file and its
// marker, at most MAX_SWEPT_MARKERS, 10,000, a run; what is left waits for the next hour's). Each
// run's wall time and workerd's CPU (the adapter and Miniflare's local R2, from /proc), and what
// the run's `upload_sweep` line says.
//
//   node bench/sweep.mjs [--smoke] [--uploads N,N…]
//
//   --uploads  the counts measured (default 1000,10000,20000: a day of a busy site's abandoned
//              uploads, ten times that, and twice a run's bound, which takes two runs)
//   --smoke    200 uploads: what `npm test` runs, so the benchmark cannot rot (no figure asserted,
//              nothing written)
// Writes bench/results/sweep.json (not with --smoke).
import { startWorker, sessionId } from "../tests/e2e/harness.mjs";
import { scheduledRuns } from "./lib/scheduled.mjs";
import { commandLine } from "./lib/args.mjs";
import { writeResults } from "./lib/results.mjs";

const { value, flag } = commandLine(process.argv.slice(2), ["--uploads"]);
const smoke = flag("--smoke");
const COUNTS = (value("--uploads") ?? (smoke ? "200" : "1000,10000,20000")).split(",").map(Number);
const HOUR_MS = 3_600_000;
/** The uploads' life in these runs (UPLOAD_TTL_H): an hour. */
const TTL_H = 1;
/** As crates/core/src/files/pending.rs's MAX_SWEPT_MARKERS. */
const MAX_SWEPT_MARKERS = 10_000;
const say = (...line) => console.error("[sweep]", ...line);

const worker = await startWorker({ vars: { UPLOAD_TTL_H: String(TTL_H) } });
const bucket = await worker.r2("FILES");

/** `count` uploads of 16 bytes no message named, made at `made`, 100 a session. */
async function fill(count, made) {
  const label = sessionId("sweep");
  const puts = [];
  for (let i = 0; i < count; i++) {
    const session = `${label}-${Math.floor(i / 100)}`;
    const id = (BigInt(i) + 1n).toString(16).padStart(32, "0");
    puts.push(() => bucket.put(`sessions/${session}/files/${id}`, new Uint8Array(16)));
    puts.push(() => bucket.put(`pending/${session}/${id}`, "", { customMetadata: { made: String(made) } }));
  }
  for (let at = 0; at < puts.length; at += 200) await Promise.all(puts.slice(at, at + 200).map((put) => put()));
}

/** How many objects are under `prefix`. */
async function counted(prefix) {
  let total = 0;
  let cursor;
  do {
    const page = await bucket.list({ prefix, cursor });
    total += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return total;
}

/** One run of the trigger at `at`: its wall time, workerd's CPU, and its log line's words. */
const run = scheduledRuns(worker, "upload_sweep");

const figures = [];
try {
  for (const count of COUNTS) {
    const made = Date.now();
    await fill(count, made);
    say(`${count} uploads waiting`);
    const early = await run(made + HOUR_MS / 2);
    say(`before their life is over: ${early.wallMs} ms, ${early.cpuMs} ms of CPU; ${early.line}`);
    const runs = [];
    for (let left = count; left > 0; left = await counted("pending/")) {
      if (runs.length >= Math.ceil(count / MAX_SWEPT_MARKERS) + 1) throw new Error(`${left} markers left after ${runs.length} runs`);
      const late = await run(made + TTL_H * HOUR_MS + 60_000);
      say(`after it (run ${runs.length + 1}): ${late.wallMs} ms, ${late.cpuMs} ms of CPU; ${late.line}`);
      runs.push(late);
    }
    const files = await counted("sessions/");
    if (files !== 0) throw new Error(`${files} files left after the sweep`);
    figures.push({ uploads: count, listedOnly: early, deleting: runs });
  }
} finally {
  await worker.dispose();
}

for (const { uploads, listedOnly, deleting } of figures) {
  const deleted = deleting.map((r) => `${r.wallMs} ms (${r.cpuMs} ms CPU)`).join(" + ");
  console.log(`${String(uploads).padStart(6)} uploads: a run that lists them ${listedOnly.wallMs} ms (${listedOnly.cpuMs} ms CPU); deleting them ${deleted}`);
}
if (!smoke) writeResults("sweep", { uploads: COUNTS, ttlHours: TTL_H }, { runs: figures });
