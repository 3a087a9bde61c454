// Idle live lists (`GET /api/sessions?live=1`, docs/sessions.md "Live lists"): what LISTS live
// lists held open for WINDOW seconds cost the worker's workerd (the adapter, its index objects and
// the demo agents, collections included: CPU from /proc), against the same workerd idle with none,
// second by second; and what a live list costs at a turn of its user (the object tells the turn's
// write to its sockets, the worker carries the event), against the same turns with none. The
// claim: an idle live list wakes its worker for its keep-alive and its ping (every 5 s) and its
// object not at all (its socket hibernates; the runtime answers the ping), nothing between.
//
//   node bench/live_lists.mjs [--smoke] [--lists N] [--window S] [--turns N] [--per-list K]
//
//   --smoke  16 live lists for 3 s and 3 turns: what `npm test` runs, so the benchmark cannot rot
//            (no figure asserted, nothing written)
// Writes bench/results/live_lists.json (not with --smoke).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startWorker, sessionId, chatBody, postChat, readAll, sleep } from "../tests/e2e/harness.mjs";
import { conversations } from "../clients/conversations.js";
import { workerdPids, benchDir } from "./lib/workers.mjs";
import { cpuSeconds, cpuBySecond, clockTicks, machine } from "./lib/proc.mjs";
import { commandLine } from "./lib/args.mjs";

const { option, flag } = commandLine(process.argv.slice(2), ["--lists", "--window", "--turns", "--per-list"]);
const smoke = flag("--smoke");
const LISTS = option("--lists", smoke ? 16 : 200);
const WINDOW_S = option("--window", smoke ? 3 : 60);
const TURNS = option("--turns", smoke ? 3 : 30);
const PER_LIST = option("--per-list", 8);
const say = (...line) => console.error("[live-lists]", ...line);

const worker = await startWorker({});
const pids = workerdPids();
if (pids.length === 0) throw new Error("no workerd process found");
const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
let keys = 0;
const newKey = () => `live-bench-${process.pid}-${(keys += 1)}-${Date.now()}`;

/** A live list of `key`, open: its events, the bytes it received, and its close. */
async function openLive(key) {
  const live = new AbortController();
  const events = [];
  const headers = { "x-conversations-key": key };
  let bytes = 0;
  let open;
  const opened = new Promise((resolve, reject) => {
    open = resolve;
    const counting = (input, init) =>
      fetch(input, init).then((response) => {
        if (!response.ok) return response;
        const [mine, theirs] = response.body.tee();
        (async () => {
          for await (const chunk of mine) bytes += chunk.length;
        })().catch(() => {});
        return new Response(theirs, { status: response.status, headers: response.headers });
      });
    conversations({ baseUrl: worker.base, headers, fetch: counting }).follow((event) => events.push(event), { signal: live.signal, onOpen: open }).catch(reject);
  });
  await opened;
  return { key, headers, events, bytes: () => bytes, close: () => live.abort() };
}

try {
  // Warm: one live list and one turn, so that nothing measured compiles code.
  const warm = await openLive(newKey());
  await readAll(await postChat(worker.base, sessionId("live-warm"), chatBody("/slow 3 1"), { headers: { "content-type": "application/json", ...warm.headers } }));
  for (const deadline = Date.now() + 5000; warm.events.length === 0 && Date.now() < deadline; ) await sleep(20);
  warm.close();
  await sleep(500);

  say(`idle workerd, no live list: ${WINDOW_S} s`);
  const baseline = await cpuBySecond(cpu, WINDOW_S);

  say(`${LISTS} live lists (one a user) held idle: ${WINDOW_S} s`);
  const lists = await Promise.all(Array.from({ length: LISTS }, () => openLive(newKey())));
  await sleep(200);
  const bytesBefore = lists.reduce((sum, l) => sum + l.bytes(), 0);
  const idle = await cpuBySecond(cpu, WINDOW_S);
  const idleBytes = lists.reduce((sum, l) => sum + l.bytes(), 0) - bytesBefore;
  for (const list of lists) list.close();
  await sleep(500);

  say(`${TURNS} turns of a user with no live list, then with ${PER_LIST}`);
  const turns = async (liveOn) => {
    const key = newKey();
    const headers = { "content-type": "application/json", "x-conversations-key": key };
    const open = await Promise.all(Array.from({ length: liveOn }, () => openLive(key)));
    const session = sessionId("live-turns");
    const before = cpu();
    for (let i = 0; i < TURNS; i++) {
      await readAll(await postChat(worker.base, session, chatBody("/slow 10 1"), { headers }));
      for (const deadline = Date.now() + 5000; !open.every((l) => l.events.length === i + 1) && Date.now() < deadline; ) await sleep(5);
    }
    const ms = (cpu() - before) * 1000;
    for (const list of open) list.close();
    return ms;
  };
  const without = await turns(0);
  const withLists = await turns(PER_LIST);

  const extraIdleMs = idle.ms - baseline.ms;
  const result = {
    machine: machine(),
    clockTickMs: 1000 / clockTicks(),
    lists: LISTS,
    windowS: WINDOW_S,
    baseline,
    idle,
    bytesPerListMinute: +((idleBytes / LISTS) * (60 / WINDOW_S)).toFixed(1),
    idleExtraMs: extraIdleMs,
    idleMsPerListMinute: +((extraIdleMs / LISTS) * (60 / WINDOW_S)).toFixed(4),
    quietSeconds: idle.series.filter((ms) => ms === 0).length,
    turns: TURNS,
    perList: PER_LIST,
    turnsMsWithout: Math.round(without),
    turnsMsWithLists: Math.round(withLists),
    msPerListPerTurn: +((withLists - without) / (TURNS * PER_LIST)).toFixed(3),
  };
  console.log(JSON.stringify(result, null, 2));
  say(`idle: ${LISTS} live lists for ${WINDOW_S} s cost ${idle.ms} ms of CPU against ${baseline.ms} ms with none (${result.bytesPerListMinute} bytes per list a minute); ${result.quietSeconds} of ${WINDOW_S} seconds spent none`);
  say(`per turn: ${result.msPerListPerTurn} ms of CPU per live list (${TURNS} turns, ${PER_LIST} live lists: ${result.turnsMsWithLists} ms against ${result.turnsMsWithout} ms)`);
  if (!smoke) writeFileSync(path.join(benchDir, "results/live_lists.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await worker.dispose();
}
