// A user's conversations (docs/sessions.md, "Your conversations"): the time to list a user's
// SESSIONS sessions page by page, on the index's own Durable Object (SESSION_INDEX, SQLite). The
// index is filled through the object's own `touch`, the bytes a chat turn's write sends
// (crates/core/src/conversations/wire.rs), by a worker of the bench's own beside the adapter, so
// that 10,000 sessions take seconds, not 10,000 turns; the lists go through the worker's route as
// a client's do. Then, each to its end and checked (every session once):
//
// - the first page alone, REPEAT times: wall ms p50 and p95, its bytes;
// - a walk of every page at `limit=100` and at `limit=20` (the default): requests, wall ms in all,
//   per page p50 and p95, and workerd's CPU per page (from /proc, a clock tick is 10 ms);
// - the same walk at `limit=100` with a session moved by a write between every two pages (what a
//   walk does while the user's turns go on: the moved sessions are placed where they were).
//
// A turn's added cost is not here: it is a write the chat route hands to `waitUntil` after its
// response, in the index's object; bench/instructions.mjs counts it (`--with rust-indexed`: the
// production build with the index bound, its turns sent with a list's key) against the build
// without (bench/README.md, "A user's conversations").
//
//   node bench/conversations.mjs [--smoke] [--sessions N] [--repeat N]
//
// `npm test` runs `--smoke` (200 sessions, no figure asserted), so the benchmark cannot rot.
// Writes bench/results/conversations.json (not with --smoke).
import { startWorker } from "../tests/e2e/harness.mjs";
import { writeResults } from "./lib/results.mjs";
import { workerdPids } from "./lib/workers.mjs";
import { cpuSeconds, clockTicks } from "./lib/proc.mjs";

const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const SESSIONS = Number(option("--sessions", smoke ? 200 : 10_000));
const REPEAT = Number(option("--repeat", smoke ? 5 : 50));
/** Writes a request of the filler makes, one after another. */
const FILL_BATCH = 500;
const say = (...line) => console.error("[conversations]", ...line);

const KEY = `bench-conversations-${process.pid}-${Date.now()}`;
const headers = { "x-conversations-key": KEY };
/** The index's name for the key's list (crates/core/src/conversations/owner.rs). */
const OWNER = `key:${KEY}`;

/**
 * A worker of the bench's own beside the adapter, bound to its index class: `?from=&count=`
 * touches sessions `conv-<from>`… of the list, one after another, inside workerd (a write from
 * Node through Miniflare's proxy takes tens of milliseconds, one from here a fraction of one).
 */
const FILLER = {
  name: "conversations-filler",
  modules: true,
  script: `export default {
    async fetch(request, env) {
      const url = new URL(request.url);
      const [from, count] = [Number(url.searchParams.get("from")), Number(url.searchParams.get("count"))];
      const index = env.INDEX.get(env.INDEX.idFromName(${JSON.stringify(OWNER)}));
      for (let i = from; i < from + count; i++) {
        const id = "conv-" + String(i).padStart(6, "0");
        const answer = await index.fetch("https://session-index/touch?" + encodeURIComponent(id + "\\nA conversation about " + id));
        // 201: a list not yet in the retention's directory (the worker would enlist it; listing does not need it).
        if (answer.status !== 204 && answer.status !== 201) return new Response(await answer.text(), { status: 500 });
      }
      return new Response("ok");
    },
  };`,
  durableObjects: { INDEX: { className: "SessionIndex", scriptName: "session-agent-chat", useSQLite: true } },
};

const worker = await startWorker({ sidecars: [FILLER] });
const pids = workerdPids();
if (pids.length === 0) throw new Error("no workerd process found");
const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

/** The index's `touch` of sessions `from`…`from + count - 1`, as a chat turn's write sends it. */
async function touch(from, count = 1) {
  const response = await fetch(`${worker.sidecar(FILLER.name)}/?from=${from}&count=${count}`);
  if (response.status !== 200) throw new Error(`touch ${from}: ${response.status} ${await response.text()}`);
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (value) => +value.toFixed(2);

/** One page: its JSON, wall ms and bytes. */
async function page(query) {
  const start = performance.now();
  const response = await fetch(`${worker.base}/api/sessions${query}`, { headers });
  const text = await response.text();
  const wall = performance.now() - start;
  if (response.status !== 200) throw new Error(`list ${query}: ${response.status} ${text}`);
  return { body: JSON.parse(text), wall, bytes: text.length };
}

/** Every page at `limit`, `between()` after each; checked: every session of `expected` once. */
async function walk(limit, expected, between = async () => {}) {
  const walls = [];
  const seen = new Set();
  let cursor = null;
  const before = cpu();
  const start = performance.now();
  do {
    const { body, wall } = await page(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    walls.push(wall);
    for (const { id } of body.sessions) {
      if (seen.has(id)) throw new Error(`${id} twice`);
      seen.add(id);
    }
    cursor = body.next;
    if (cursor) await between();
  } while (cursor);
  const wallMs = performance.now() - start;
  const cpuMs = (cpu() - before) * 1000;
  if (seen.size !== expected) throw new Error(`${seen.size} sessions listed of ${expected}`);
  walls.sort((a, b) => a - b);
  return {
    limit,
    requests: walls.length,
    wallMs: Math.round(wallMs),
    pageP50Ms: ms(quantile(walls, 0.5)),
    pageP95Ms: ms(quantile(walls, 0.95)),
    cpuMsPerPage: ms(cpuMs / walls.length),
  };
}

try {
  say(`filling the index with ${SESSIONS} sessions`);
  const filling = performance.now();
  const ids = Array.from({ length: SESSIONS }, (_, i) => `conv-${String(i).padStart(6, "0")}`);
  for (let i = 0; i < SESSIONS; i += FILL_BATCH) await touch(i, Math.min(FILL_BATCH, SESSIONS - i));
  const fillMs = Math.round(performance.now() - filling);
  say(`  ${fillMs} ms (${ms(fillMs / SESSIONS)} ms a write, one after another)`);
  // Warm: a page and a short walk, so that nothing measured compiles code.
  for (let i = 0; i < 3; i++) await page("?limit=100");
  const walls = [];
  let bytes = 0;
  for (let i = 0; i < REPEAT; i++) {
    const first = await page("?limit=100");
    walls.push(first.wall);
    bytes = first.bytes;
    if (first.body.sessions[0].id !== ids.at(-1)) throw new Error("the newest first");
  }
  walls.sort((a, b) => a - b);
  const firstPage = { limit: 100, p50Ms: ms(quantile(walls, 0.5)), p95Ms: ms(quantile(walls, 0.95)), bytes };
  say(`first page of 100: ${firstPage.p50Ms} ms p50, ${firstPage.p95Ms} ms p95, ${bytes} bytes`);
  const walks = [];
  for (const limit of [100, 20]) {
    const row = await walk(limit, SESSIONS);
    walks.push(row);
    say(`every page at limit=${limit}: ${row.requests} requests in ${row.wallMs} ms (a page ${row.pageP50Ms} ms p50, ${row.pageP95Ms} ms p95; ${row.cpuMsPerPage} ms of workerd's CPU)`);
  }
  // A session moved between every two pages: the moved ones, where they were.
  let moved = 0;
  const busy = await walk(100, SESSIONS, () => touch((moved++ * 7919) % SESSIONS));
  walks.push({ ...busy, movedBetweenPages: 1 });
  say(`every page at limit=100, a session moved between each two: ${busy.requests} requests in ${busy.wallMs} ms (a page ${busy.pageP50Ms} ms p50, ${busy.pageP95Ms} ms p95)`);
  const result = { clockTickMs: 1000 / clockTicks(), sessions: SESSIONS, fillMs, firstPage, walks };
  console.log(JSON.stringify(result, null, 2));
  if (!smoke) say(`written to ${writeResults("conversations", { sessions: SESSIONS, repeat: REPEAT }, result)}`);
} finally {
  await worker.dispose();
}
