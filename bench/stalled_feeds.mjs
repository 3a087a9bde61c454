// Stalled feeds: FEEDS session feeds (`GET /api/sessions/:id/events`) on one session whose clients
// read their first bytes, then stop reading (a socket that is paused: TCP backpressure reaches
// workerd), while TURNS turns each carry a user message of MESSAGE_MB MB, an image as a data: URL
// (the reference TypeScript agent, which stores a user message whole; its reply is `/slow 2 1`'s,
// so that a turn takes a few hundred ms). What workerd's memory (its RSS, from /proc) does over the
// turns, against the same turns in a workerd with no feed: the difference is what the stalled
// feeds hold. Issue 66: before the feed's bounds, 8 stalled feeds grew workerd by ~43 MB a turn,
// and kept it. Each feed's queued bytes are bounded (`MAX_QUEUED_BYTES`, 64 KiB, held by the
// core's tests, crates/core/src/feed/backlog_tests.rs), and a turn-start carries no user message
// over 16 KiB (`MAX_MESSAGE_BYTES`): what this measures is that nothing else grows.
//
// The worker runs without its files' bucket (`unset: ["FILES"]`): with it (the demo environment
// binds one since issue 68), a data: URL file of a message is kept in R2 and the agent is given its
// URL, so the agent's `message.create` would carry a URL of a hundred bytes, not the 1.4 MB image,
// and the feeds would have nothing large to stall on. Without the bucket the image goes to the
// agent as it came (docs/files.md), which is this benchmark's premise: every feed's socket hears a
// turn's message whole, as an agent that is given a file's bytes sends it.
//
//   node bench/stalled_feeds.mjs [--smoke] [--feeds N] [--turns N] [--message-mb M]
//
//   --smoke  10 feeds, 3 turns of 1.4 MB: what `npm test` runs, so the benchmark cannot rot (no
//            figure asserted, nothing written)
// Writes bench/results/stalled_feeds.json (not with --smoke).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startWorker, sessionId, chatBody, postChat, readAll, sleep } from "../tests/e2e/harness.mjs";
import { openSocketFeed } from "../tests/e2e/feed.mjs";
import { workerdPids, benchDir } from "./lib/workers.mjs";
import { memory, rssSampler, machine } from "./lib/proc.mjs";
import { inspect } from "./lib/inspector.mjs";

const args = process.argv.slice(2);
const smoke = args.includes("--smoke");
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const FEEDS = option("--feeds", smoke ? 10 : 100);
const TURNS = option("--turns", smoke ? 3 : 50);
/** 1.4 MB: a photo from a phone, as a data: URL within the reference agent's row cap (the
 * library's MAX_ROW_BYTES, 1.5 MiB, packages/session-agent/src/rows.ts). A larger message is
 * refused in words (`message_too_large`), so its turns would measure nothing. */
const MESSAGE_MB = option("--message-mb", 1.4);
const MB = 2 ** 20;
const say = (...line) => console.error("[stalled-feeds]", ...line);
/** How often (in turns) memory is read, after a forced collection in both isolates. */
const EVERY = smoke ? 1 : 5;
/** The adapter's and the agent's worker names (wrangler.toml's, agents/typescript/wrangler.toml's). */
const ADAPTER = "session-agent-chat";
const AGENT = "session-agent";

/** A chat body whose user message carries an image whose data: URL is `bytes` long (base64). */
function imageBody(bytes) {
  const body = JSON.parse(chatBody("/slow 2 1"));
  const data = Buffer.alloc(Math.floor((bytes * 3) / 4), 7).toString("base64");
  body.messages[0].parts.push({ type: "file", mediaType: "image/png", url: `data:image/png;base64,${data}` });
  return JSON.stringify(body);
}

/** workerd's RSS over TURNS image turns on a session with `feeds` stalled feeds, in MB. */
async function run(feeds) {
  const inspectorPort = 9300 + Math.floor(Math.random() * 600);
  const worker = await startWorker({
    agent: "typescript",
    inspectorPort,
    // The image in the message itself, not a URL of the bucket: the header says why.
    unset: ["FILES"],
    vars: { MAX_SESSION_FEEDS: String(FEEDS), MAX_USER_FEEDS: String(FEEDS), MAX_FEEDS: String(FEEDS + 1) },
  });
  const adapter = await inspect(inspectorPort, ADAPTER);
  const agent = await inspect(inspectorPort, AGENT);
  /** { rssMb, adapterMb }: after a full collection of both isolates. */
  const measure = async () => {
    await agent.liveHeap();
    await adapter.liveHeap();
    const { result } = await adapter.call("Runtime.getHeapUsage");
    const held = result.usedSize + (result.backingStorageSize ?? 0);
    return { rssMb: +(memory(pid).rss / MB).toFixed(1), adapterMb: +(held / MB).toFixed(2) };
  };
  let pid;
  try {
    [pid] = workerdPids();
    if (pid === undefined) throw new Error("no workerd process found");
    const session = sessionId("stalled");
    // Warm: one turn, so that nothing measured compiles code.
    await readAll(await postChat(worker.base, session, chatBody("hello")));
    const open = await Promise.all(Array.from({ length: feeds }, () => openSocketFeed(worker.base, session)));
    if (!open.every((f) => f.status === 200)) throw new Error(`feeds refused: ${open.map((f) => f.status)}`);
    for (const feed of open) feed.socket.pause();
    await sleep(500);
    const start = await measure();
    const sampler = rssSampler(pid, 50);
    const series = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const { text } = await readAll(await postChat(worker.base, session, imageBody(MESSAGE_MB * 1e6)));
      if (!text.includes('"type":"finish-step"')) throw new Error(`turn ${turn} did not finish: ${text.slice(-200)}`);
      if ((turn + 1) % EVERY === 0) series.push(await measure());
    }
    const peak = sampler.stop();
    const end = series.at(-1) ?? start;
    for (const feed of open) feed.socket.resetAndDestroy();
    const events = `/api/sessions/${session}/events`;
    const deadline = Date.now() + 20_000;
    while (worker.logs.filter((l) => l.path === events).length < feeds && Date.now() < deadline) await sleep(100);
    const written = worker.logs.filter((l) => l.path === events).map((l) => l.bytes);
    const adapterMb = series.map((s) => s.adapterMb);
    return {
      feeds,
      start,
      end,
      rssGrowthMb: +(end.rssMb - start.rssMb).toFixed(1),
      adapterMostMb: Math.max(start.adapterMb, ...adapterMb),
      rssPeakUncollectedMb: +(peak / MB).toFixed(1),
      series,
      mostBytesWrittenToAFeed: written.length ? Math.max(...written) : null,
    };
  } finally {
    adapter.close();
    agent.close();
    await worker.dispose();
  }
}

say(`${TURNS} turns of ${MESSAGE_MB} MB messages, no feed`);
const without = await run(0);
say(`the same with ${FEEDS} stalled feeds`);
const withFeeds = await run(FEEDS);
const result = {
  machine: machine(),
  feeds: FEEDS,
  turns: TURNS,
  messageMb: MESSAGE_MB,
  without,
  withFeeds,
  feedsRssShareMb: +(withFeeds.rssGrowthMb - without.rssGrowthMb).toFixed(1),
  feedsAdapterShareMb: +(withFeeds.adapterMostMb - without.adapterMostMb).toFixed(2),
};
console.log(JSON.stringify(result, null, 2));
say(
  `workerd's RSS, collected: no feed ${without.start.rssMb} → ${without.end.rssMb} MB, ${FEEDS} stalled feeds ${withFeeds.start.rssMb} → ${withFeeds.end.rssMb} MB ` +
    `(uncollected peaks ${without.rssPeakUncollectedMb} and ${withFeeds.rssPeakUncollectedMb} MB); the adapter's isolate holds at most ${without.adapterMostMb} MB with no feed, ` +
    `${withFeeds.adapterMostMb} MB with them; the most written to one feed: ${withFeeds.mostBytesWrittenToAFeed} bytes`,
);
if (!smoke) writeFileSync(path.join(benchDir, "results/stalled_feeds.json"), `${JSON.stringify(result, null, 2)}\n`);
