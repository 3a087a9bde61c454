// Session feeds under pressure (issue 66): a burst of clients that open feeds and reset them, and
// feeds whose clients stopped reading while turns carry images.
//
// 1. N feeds (on as many sessions, from N/10 client addresses: the places of the isolate, less
//    what the per-caller cap leaves) open, then every client goes at once, half with RST, half
//    with FIN. workerd learns of a client's going only when it writes to it: the feed's keep-alive
//    (every 5 s) is that write, so every place must be free again within GONE_WITHIN_MS (10 s).
//    Asserted with a margin (FREED_WITHIN_MS); reported: how long until another caller was
//    served, and until every feed had ended.
// 2. STALLED feeds on one session whose clients read the opening, then stop (TCP backpressure),
//    while TURNS turns each carry a 1.4 MB image (the TypeScript agent stores it whole). Asserted:
//    each feed was written less than MAX_QUEUED_BYTES (64 KiB; a turn-start carries no message
//    over 16 KiB). Reported: what the adapter's isolate holds (JS heap and ArrayBuffers after a
//    full collection, through the inspector) and workerd's RSS, before and after.
import { openFeed, openSocketFeed } from "../e2e/feed.mjs";
import { chatBody, postChat, readAll, startWorker, panicsIn } from "../e2e/harness.mjs";
import { inspect } from "../../bench/lib/inspector.mjs";
import { workerdPids } from "../../bench/lib/workers.mjs";
import { memory } from "../../bench/lib/proc.mjs";
import { sleep } from "./lib.mjs";

/** The bound a gone client's place is freed within, with a margin for a loaded machine: two
 * keep-alives (GONE_WITHIN_MS, crates/core/src/feed/mod.rs) is 10 s. */
const FREED_WITHIN_MS = 25_000;
/** The bound on one feed's queued bytes (MAX_QUEUED_BYTES, crates/core/src/feed/backlog.rs). */
const MAX_QUEUED_BYTES = 64 * 1024;
/** A user message of 1.4 MB: a photo as a data: URL, within the TypeScript agent's row cap
 * (MAX_ROW_BYTES, 1.5 MiB, packages/session-agent/src/rows.ts; a larger one is refused). */
const MESSAGE_BYTES = 1_400_000;
const MB = 2 ** 20;

export const FEEDS = {
  quick: { burst: 200, stalled: 20, turns: 5 },
  full: { burst: 1000, stalled: 100, turns: 20 },
};

/** The adapter's worker name (wrangler.toml's `name`) and the agent's. */
const ADAPTER = "session-agent-chat";
const AGENT = "session-agent";

/** Runs both on workers of the section's own (the stalled one with its inspector, and workerd's
 * process told apart for its RSS). */
export async function feeds({ newSession }, size) {
  const burstWorker = await startWorker({ vars: { MAX_FEEDS: String(size.burst) } });
  const others = new Set(workerdPids());
  const inspectorPort = 9300 + Math.floor(Math.random() * 600);
  const stalledWorker = await startWorker({ agent: "typescript", inspectorPort, vars: { MAX_SESSION_FEEDS: String(size.stalled), MAX_USER_FEEDS: String(size.stalled) } });
  const pid = workerdPids().find((p) => !others.has(p));
  try {
    const result = await measure(newSession, burstWorker, stalledWorker, inspectorPort, pid, size);
    const panics = [...panicsIn(burstWorker.stderr), ...panicsIn(stalledWorker.stderr)];
    result.failures.push(...panics.map((text) => `workerd: ${text.slice(0, 300)}`));
    return result;
  } finally {
    await Promise.all([burstWorker.dispose(), stalledWorker.dispose()]);
  }
}

async function measure(newSession, burstWorker, stalledWorker, inspectorPort, pid, size) {
  const figures = [];
  const failures = [];

  // 1. The burst.
  const from = (i) => ({ "cf-connecting-ip": `198.51.100.${i % Math.ceil(size.burst / 10)}` });
  const sessions = Array.from({ length: size.burst }, () => newSession("rel-feed-burst"));
  const opened = [];
  for (let i = 0; i < sessions.length; i += 100) {
    opened.push(...(await Promise.all(sessions.slice(i, i + 100).map((s, j) => openSocketFeed(burstWorker.base, s, { headers: from(i + j) }).catch(() => ({ status: 0 }))))));
  }
  const accepted = opened.filter((f) => f.status === 200);
  if (accepted.length !== size.burst) failures.push(`burst: ${size.burst - accepted.length} of ${size.burst} feeds not opened`);
  const full = await openFeed(burstWorker.base, newSession("rel-feed-other"));
  await full.response.body?.cancel().catch(() => {});
  const gone = Date.now();
  accepted.forEach((f, i) => (i % 2 ? f.socket.destroy() : f.socket.resetAndDestroy()));
  let servedMs = null;
  while (servedMs === null && Date.now() - gone < FREED_WITHIN_MS * 2) {
    const other = await openFeed(burstWorker.base, newSession("rel-feed-other"));
    if (other.status === 200) {
      servedMs = Date.now() - gone;
      other.close();
    } else {
      await other.response.body?.cancel().catch(() => {});
      await sleep(100);
    }
  }
  const ended = () => burstWorker.logs.filter((l) => l.path?.startsWith("/api/sessions/rel-feed-burst") && l.outcome === "feed_client_gone").length;
  while (ended() < accepted.length && Date.now() - gone < FREED_WITHIN_MS * 2) await sleep(100);
  const allMs = ended() >= accepted.length ? Date.now() - gone : null;
  figures.push(
    { figure: `feeds: ${size.burst} open (the isolate's MAX_FEEDS), then every client gone at once (half FIN, half RST)`, n: size.burst, value: `${accepted.length} opened; another caller then ${full.status}` },
    { figure: `  another caller served within ${FREED_WITHIN_MS / 1000} s of the resets (ms)`, n: 1, value: servedMs === null ? "never" : String(servedMs), pass: servedMs !== null && servedMs < FREED_WITHIN_MS },
    { figure: `  every place free within ${FREED_WITHIN_MS / 1000} s (ms until the last feed ended)`, n: accepted.length, value: allMs === null ? `${ended()} ended` : String(allMs), pass: allMs !== null && allMs < FREED_WITHIN_MS },
  );

  // 2. Stalled feeds, and turns that carry images.
  const adapter = await inspect(inspectorPort, ADAPTER);
  const agent = await inspect(inspectorPort, AGENT);
  const held = async () => {
    await agent.liveHeap();
    await adapter.liveHeap();
    const { result } = await adapter.call("Runtime.getHeapUsage");
    return { adapterMb: (result.usedSize + (result.backingStorageSize ?? 0)) / MB, rssMb: pid ? memory(pid).rss / MB : NaN };
  };
  try {
    const session = newSession("rel-feed-stalled");
    await readAll(await postChat(stalledWorker.base, session, chatBody("/slow 2 1")));
    const stalled = await Promise.all(Array.from({ length: size.stalled }, () => openSocketFeed(stalledWorker.base, session)));
    for (const f of stalled) f.socket.pause();
    const before = await held();
    for (let turn = 0; turn < size.turns; turn++) {
      const body = JSON.parse(chatBody("/slow 2 1"));
      body.messages[0].parts.push({ type: "file", mediaType: "image/png", url: `data:image/png;base64,${Buffer.alloc((MESSAGE_BYTES * 3) / 4, 7).toString("base64")}` });
      await readAll(await postChat(stalledWorker.base, session, JSON.stringify(body)));
    }
    const after = await held();
    for (const f of stalled) f.socket.resetAndDestroy();
    const path = `/api/sessions/${session}/events`;
    const deadline = Date.now() + FREED_WITHIN_MS;
    while (stalledWorker.logs.filter((l) => l.path === path).length < stalled.length && Date.now() < deadline) await sleep(100);
    const written = stalledWorker.logs.filter((l) => l.path === path).map((l) => l.bytes);
    const most = written.length ? Math.max(...written) : null;
    figures.push(
      { figure: `feeds: ${size.stalled} stalled on one session, ${size.turns} turns of 1.4 MB images (TypeScript agent)`, n: size.stalled, value: `${written.length} ended` },
      { figure: `  most bytes written to one stalled feed (under MAX_QUEUED_BYTES, ${MAX_QUEUED_BYTES})`, n: written.length, value: String(most), pass: most !== null && most < MAX_QUEUED_BYTES && written.length === stalled.length },
      { figure: "  the adapter's isolate holds, collected (MB, before → after)", n: size.turns, value: `${before.adapterMb.toFixed(2)} → ${after.adapterMb.toFixed(2)}` },
      { figure: "  workerd's RSS, both isolates collected (MB, before → after; the agent stores every image)", n: size.turns, value: `${before.rssMb.toFixed(0)} → ${after.rssMb.toFixed(0)}` },
    );
  } finally {
    adapter.close();
    agent.close();
  }
  return { name: "feeds", figures, failures };
}
