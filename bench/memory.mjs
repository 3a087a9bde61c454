// Whether an adapter's isolate keeps anything between turns: runs N turns of /flood and prints its
// JS heap after each, garbage included, so it saws up and down with the collector; an isolate that
// retains nothing falls back to its first figure, one that leaks never does.
//
//   node bench/memory.mjs [rust|ts|pass] [TURNS=16] [EVENTS=100000] [RATE=40000]
//   node bench/memory.mjs [rust|ts|pass] requests [N=10000] [CONCURRENCY=20]
//
// The second form sends N short chat requests (a two-delta turn each), CONCURRENCY at a time, and
// prints the live heap (after a full GC: a heap snapshot forces one) after a warm-up and after
// each fifth of them: what a request leaves behind (a promise that never settles keeps its
// closures alive, a little per request) adds up there.
import { startWorkers, buildTsAdapter } from "./lib/workers.mjs";
import { runTurn, manyTurns } from "./lib/client.mjs";
import { inspect } from "./lib/inspector.mjs";

const [adapter = "rust", turns = "16", events = "100000", rate = "40000"] = process.argv.slice(2);
const requestsMode = turns === "requests";
const inspectorPort = 9300 + Math.floor(Math.random() * 600);
const tsAdapterPath = adapter === "ts" ? await buildTsAdapter() : undefined;
const w = await startWorkers({ adapters: [adapter], inspectorPort, tsAdapterPath });
/** The heap in MB; `live`: after a full collection (what is still reachable). */
const heapMB = async ({ live = false } = {}) => {
  const i = await inspect(inspectorPort, adapter);
  try {
    return (await (live ? i.liveHeap() : i.heap())).used / 2 ** 20;
  } finally {
    i.close();
  }
};
/** `count` short turns (a two-delta turn each), `concurrency` at a time. */
const shortTurns = (url, count, concurrency) => manyTurns(url, adapter, "/slow 2 1", count, concurrency);

if (requestsMode) {
  const n = Number(events === "100000" ? "10000" : events);
  const concurrency = Number(rate === "40000" ? "20" : rate);
  try {
    const url = w.urls[adapter];
    await shortTurns(url, 200, concurrency);
    const figures = [await heapMB({ live: true })];
    for (let fifth = 0; fifth < 5; fifth++) {
      await shortTurns(url, n / 5, concurrency);
      figures.push(await heapMB({ live: true }));
    }
    console.log(`${adapter}: live JS heap (MB, after a full GC) after 200 warm-up requests, then after each fifth of ${n} requests:`);
    console.log(figures.map((mb) => mb.toFixed(2)).join("  "));
    const kb = (mb) => `${mb >= 0 ? "+" : ""}${(mb * 1024).toFixed(0)} KB`;
    const late = figures.at(-1) - figures[1];
    console.log(
      `warm-up ${figures[0].toFixed(2)} MB; after all ${n}: ${figures.at(-1).toFixed(2)} MB (${kb(figures.at(-1) - figures[0])}); ` +
        `over the last ${(4 * n) / 5}: ${kb(late)}, ${((late * 2 ** 20) / ((4 * n) / 5)).toFixed(1)} bytes per request`,
    );

  } finally {
    await w.dispose();
  }
  process.exit(0);
}

try {
  const url = w.urls[adapter];
  await runTurn(url, adapter, "/flood 2000");
  const figures = [await heapMB()];
  for (let t = 0; t < Number(turns); t++) {
    const r = await runTurn(url, adapter, `/flood ${events} ${rate}`, { timeoutMs: 600_000 });
    if (r.deltas !== Number(events) || !r.done) throw new Error(`turn ${t + 1}: ${r.deltas} deltas`);
    figures.push(await heapMB());
  }
  console.log(`${adapter}: JS heap (MB) after a warm-up turn, then after each of ${turns} turns of ${events} events:`);
  console.log(figures.map((mb) => mb.toFixed(1)).join("  "));
  console.log(`lowest after the first turn: ${Math.min(...figures.slice(1)).toFixed(1)} MB; highest: ${Math.max(...figures).toFixed(1)} MB`);
} finally {
  await w.dispose();
}
