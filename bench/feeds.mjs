// Idle session feeds (`GET /api/sessions/:id/events`): what FEEDS feeds held open for WINDOW
// seconds cost the worker's workerd (the adapter and the demo agents, collections included: CPU
// from /proc), against the same workerd idle with none, second by second; and what a feed costs
// at a turn of its session (it reads the session again on a new socket), against the same turns
// with no feed. The claim: an idle feed wakes for its keep-alive (every 5 s, a 3-byte comment: the
// write through which workerd learns that a client left; every sixth, at 30 s, it also pings its
// socket to the agent, whose pong wakes it once more) and costs nothing between; CPU is read from
// /proc in clock ticks (10 ms), so the figures are sums over many feeds. Also reported: the
// keep-alives and bytes each idle feed received a minute (its wake-ups).
//
//   node bench/feeds.mjs [--smoke] [--feeds N] [--window S] [--turns N] [--per-session K]
//
//   --smoke  20 feeds for 3 s and 3 turns: what `npm test` runs, so the benchmark cannot rot
//            (no figure asserted, nothing written)
// Writes bench/results/feeds.json (not with --smoke).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startWorker, sessionId, chatBody, postChat, readAll, sleep } from "../tests/e2e/harness.mjs";
import { openFeed } from "../tests/e2e/feed.mjs";
import { workerdPids, benchDir } from "./lib/workers.mjs";
import { cpuSeconds, cpuBySecond, clockTicks, machine } from "./lib/proc.mjs";
import { commandLine } from "./lib/args.mjs";

const { option, flag } = commandLine(process.argv.slice(2), ["--feeds", "--window", "--turns", "--per-session"]);
const smoke = flag("--smoke");
const FEEDS = option("--feeds", smoke ? 20 : 200);
const WINDOW_S = option("--window", smoke ? 3 : 60);
const TURNS = option("--turns", smoke ? 3 : 30);
const PER_SESSION = option("--per-session", 8);
const say = (...line) => console.error("[feeds]", ...line);

// Every feed comes from this one client's address: its cap (MAX_USER_FEEDS) is lifted with the
// isolate's.
const worker = await startWorker({ vars: { MAX_FEEDS: String(FEEDS + PER_SESSION + 10), MAX_USER_FEEDS: String(FEEDS + PER_SESSION + 9) } });
const pids = workerdPids();
if (pids.length === 0) throw new Error("no workerd process found");
const cpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

try {
  // Warm: one feed and one turn, so that nothing measured compiles code.
  const warm = sessionId("feeds-warm");
  const warmFeed = await openFeed(worker.base, warm);
  await readAll(await postChat(worker.base, warm, chatBody("/slow 3 1")));
  await warmFeed.until((e) => e.type === "turn-end", "the warm-up's turn-end");
  warmFeed.close();
  await sleep(500);

  say(`idle workerd, no feed: ${WINDOW_S} s`);
  const baseline = await cpuBySecond(cpu, WINDOW_S);

  say(`${FEEDS} feeds (one a session) held idle: ${WINDOW_S} s`);
  const feeds = await Promise.all(Array.from({ length: FEEDS }, () => openFeed(worker.base, sessionId("feeds-idle"))));
  if (!feeds.every((f) => f.status === 200)) throw new Error(`feeds refused: ${feeds.map((f) => f.status)}`);
  await Promise.all(feeds.map((f) => f.until((e) => e.type === "sync", "sync")));
  await sleep(200);
  const commentsBefore = feeds.reduce((sum, f) => sum + f.comments, 0);
  const bytesBefore = feeds.reduce((sum, f) => sum + f.bytes, 0);
  const idle = await cpuBySecond(cpu, WINDOW_S);
  const keepAlives = feeds.reduce((sum, f) => sum + f.comments, 0) - commentsBefore;
  const idleBytes = feeds.reduce((sum, f) => sum + f.bytes, 0) - bytesBefore;
  for (const feed of feeds) feed.close();

  say(`${TURNS} turns on a session with no feed, then with ${PER_SESSION}`);
  const turns = async (feedsOn) => {
    const session = sessionId("feeds-turns");
    const open = await Promise.all(Array.from({ length: feedsOn }, () => openFeed(worker.base, session)));
    await Promise.all(open.map((f) => f.until((e) => e.type === "sync", "sync")));
    const before = cpu();
    for (let i = 0; i < TURNS; i++) {
      await readAll(await postChat(worker.base, session, chatBody("/slow 10 1")));
      await Promise.all(open.map((f) => f.until((e) => e.type === "turn-end" && f.events.filter((x) => x.data.type === "turn-end").length === i + 1, "turn-end")));
    }
    const ms = (cpu() - before) * 1000;
    for (const feed of open) feed.close();
    return { ms, session };
  };
  const without = (await turns(0)).ms;
  const { ms: withFeeds, session: read } = await turns(PER_SESSION);
  // What a feed does at each turn beyond hearing its frames: it reads the session again on a new
  // socket, as a history request does. The same reads as history requests, on the session the
  // turns above made, for comparison.
  const reads = TURNS * PER_SESSION;
  const readsBefore = cpu();
  for (let i = 0; i < reads; i++) await (await fetch(`${worker.base}/api/sessions/${read}/messages`)).arrayBuffer();
  const historyMs = (cpu() - readsBefore) * 1000;

  const extraIdleMs = idle.ms - baseline.ms;
  const result = {
    machine: machine(),
    clockTickMs: 1000 / clockTicks(),
    feeds: FEEDS,
    windowS: WINDOW_S,
    baseline,
    idle,
    keepAlivesReceived: keepAlives,
    wakeUpsPerFeedMinute: +((keepAlives / FEEDS) * (60 / WINDOW_S)).toFixed(2),
    bytesPerFeedMinute: +((idleBytes / FEEDS) * (60 / WINDOW_S)).toFixed(1),
    idleExtraMs: extraIdleMs,
    idleMsPerFeedMinute: +((extraIdleMs / FEEDS) * (60 / WINDOW_S)).toFixed(4),
    quietSeconds: idle.series.filter((ms) => ms === 0).length,
    turns: TURNS,
    perSession: PER_SESSION,
    turnsMsWithout: Math.round(without),
    turnsMsWithFeeds: Math.round(withFeeds),
    msPerFeedPerTurn: +((withFeeds - without) / (TURNS * PER_SESSION)).toFixed(3),
    historyReads: reads,
    msPerHistoryRead: +(historyMs / reads).toFixed(3),
  };
  console.log(JSON.stringify(result, null, 2));
  say(`idle: ${FEEDS} feeds for ${WINDOW_S} s cost ${idle.ms} ms of CPU against ${baseline.ms} ms with none (${keepAlives} keep-alives received: ${result.wakeUpsPerFeedMinute} wake-ups and ${result.bytesPerFeedMinute} bytes per feed a minute); ${result.quietSeconds} of ${WINDOW_S} seconds spent none`);
  say(`per turn: ${result.msPerFeedPerTurn} ms of CPU per feed (${TURNS} turns, ${PER_SESSION} feeds: ${result.turnsMsWithFeeds} ms against ${result.turnsMsWithout} ms); a history request of that session: ${result.msPerHistoryRead} ms`);
  if (!smoke) writeFileSync(path.join(benchDir, "results/feeds.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await worker.dispose();
}
