// Long sessions (docs/sessions.md, "Pages and branches"): what a session of SIZE messages costs
// to open and to follow, against a session of a few. The demo agent's `/grow N` stores N
// exchanges at once; then, for each size:
//
// - the first page (`GET …/messages`, the newest 100): the wall time a client waits, p50 and p95
//   of REPEAT requests, its bytes, and workerd's CPU per request (from /proc, collections
//   included, summed over the requests: a clock tick is 10 ms);
// - every older page to the first message (`?before=`): how many requests, and the wall time of
//   all of them;
// - a turn on the session, seen by a feed: workerd's CPU per turn, and the bytes of the feed's
//   `turn-start` (its `branch` is at most a page of ids however long the session).
//
// The budget it holds the adapter to (bench/README.md, "Long sessions"): the first page of a
// 5,000-message session within 2x the first page of a session of 4 messages, in wall time and in
// CPU; a turn's CPU within 2x the same. `npm test` runs `--smoke` (sizes 4 and 200, no figure
// asserted), so the benchmark cannot rot.
//
//   node bench/pages.mjs [--smoke] [--sizes 4,5000,9000] [--repeat N]
//
// Writes bench/results/pages.json (not with --smoke).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startWorker, sessionId, chatBody, postChat, readAll, sleep } from "../tests/e2e/harness.mjs";
import { openFeed } from "../tests/e2e/feed.mjs";
import { workerdPids, benchDir } from "./lib/workers.mjs";
import { cpuSeconds, clockTicks, machine } from "./lib/proc.mjs";

const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const SIZES = option("--sizes", smoke ? "4,200" : "4,5000,9000").split(",").map(Number);
const REPEAT = Number(option("--repeat", smoke ? 3 : 30));
/** A `/grow` command stores at most this many exchanges (the demo agent's bound). */
const GROW_MAX = 2_500;
const say = (...line) => console.error("[pages]", ...line);

const worker = await startWorker();
const pids = workerdPids();
if (pids.length === 0) throw new Error("no workerd process found");
const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
const history = (session, query = "") => `${worker.base}/api/sessions/${session}/messages${query}`;

/** A session of about `size` messages: `/grow` batches, then one short turn (2 messages). */
async function sessionOf(size) {
  const session = sessionId(`pages-${size}`);
  let left = Math.max(0, size - 2) / 2;
  while (left > 0) {
    const n = Math.min(GROW_MAX, left);
    const grown = await readAll(await postChat(worker.base, session, chatBody(`/grow ${n}`)));
    if (!grown.text.includes('"type":"finish"')) throw new Error(`/grow ${n}: ${grown.text.slice(0, 300)}`);
    left -= n;
  }
  if (size <= 2) await readAll(await postChat(worker.base, session, chatBody("/slow 2 1")));
  return session;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** The first page, REPEAT times: wall ms p50 and p95, bytes, CPU ms per request. */
async function firstPage(session) {
  const walls = [];
  let bytes = 0;
  const before = cpu();
  for (let i = 0; i < REPEAT; i++) {
    const start = performance.now();
    const response = await fetch(history(session));
    const body = await response.arrayBuffer();
    walls.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`history: ${response.status}`);
    bytes = body.byteLength;
  }
  const cpuMs = ((cpu() - before) * 1000) / REPEAT;
  walls.sort((a, b) => a - b);
  return { p50Ms: +quantile(walls, 0.5).toFixed(2), p95Ms: +quantile(walls, 0.95).toFixed(2), bytes, cpuMsPerRequest: +cpuMs.toFixed(3) };
}

/** Every page, newest first, to the first message: requests, messages, wall ms. */
async function allPages(session) {
  let before = null;
  let requests = 0;
  let messages = 0;
  const start = performance.now();
  do {
    const response = await fetch(history(session, before ? `?before=${before}&limit=200` : "?limit=200"));
    if (response.status !== 200) throw new Error(`page: ${response.status} ${await response.text()}`);
    messages += (await response.json()).length;
    before = response.headers.get("x-history-before");
    requests += 1;
  } while (before);
  return { requests, messages, wallMs: Math.round(performance.now() - start) };
}

/** TURNS turns with a feed open: workerd's CPU per turn, and the feed's turn-start bytes. */
async function turnsFollowed(session, turns) {
  const feed = await openFeed(worker.base, session);
  await feed.until((e) => e.type === "sync", "sync");
  const before = cpu();
  for (let i = 0; i < turns; i++) {
    await readAll(await postChat(worker.base, session, chatBody("/slow 10 1")));
    await feed.until((e) => e.type === "turn-end" && feed.events.filter((x) => x.data.type === "turn-end").length === i + 1, "turn-end");
  }
  const cpuMs = ((cpu() - before) * 1000) / turns;
  const start = feed.events.findLast((e) => e.data.type === "turn-start");
  feed.close();
  return { cpuMsPerTurn: +cpuMs.toFixed(2), turnStartBytes: JSON.stringify(start?.data ?? null).length };
}

try {
  // Warm: one session's pages and turns, so that nothing measured compiles code.
  const warm = await sessionOf(4);
  await firstPage(warm);
  await turnsFollowed(warm, 2);
  await sleep(300);
  const rows = [];
  for (const size of SIZES) {
    say(`a session of ${size} messages`);
    const session = await sessionOf(size);
    const first = await firstPage(session);
    const pages = await allPages(session);
    const turns = await turnsFollowed(session, smoke ? 2 : 10);
    rows.push({ size, first, pages, turns });
    say(`  first page: ${first.p50Ms} ms p50, ${first.p95Ms} ms p95, ${first.bytes} bytes, ${first.cpuMsPerRequest} ms CPU; all ${pages.messages} messages in ${pages.requests} pages, ${pages.wallMs} ms; a followed turn ${turns.cpuMsPerTurn} ms CPU, its turn-start ${turns.turnStartBytes} bytes`);
  }
  const result = { machine: machine(), clockTickMs: 1000 / clockTicks(), repeat: REPEAT, rows };
  console.log(JSON.stringify(result, null, 2));
  if (!smoke) writeFileSync(path.join(benchDir, "results/pages.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await worker.dispose();
}
