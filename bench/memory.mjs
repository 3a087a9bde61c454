// Whether an adapter's isolate keeps anything between turns: runs N turns of /flood and prints its
// JS heap after each. workerd's inspector cannot force a GC, so the heap saws up and down with the
// collector; an isolate that retains nothing falls back to its first figure, one that leaks never does.
//
//   node bench/memory.mjs [rust|ts|pass] [TURNS=16] [EVENTS=100000] [RATE=40000]
import { startWorkers, buildTsAdapter } from "./lib/workers.mjs";
import { runTurn } from "./lib/client.mjs";
import { inspect } from "./lib/inspector.mjs";

const [adapter = "rust", turns = "16", events = "100000", rate = "40000"] = process.argv.slice(2);
const inspectorPort = 9300 + Math.floor(Math.random() * 600);
const tsAdapterPath = adapter === "ts" ? await buildTsAdapter() : undefined;
const w = await startWorkers({ adapters: [adapter], inspectorPort, tsAdapterPath });
const heapMB = async () => {
  const i = await inspect(inspectorPort, adapter);
  try {
    return (await i.heap()).used / 2 ** 20;
  } finally {
    i.close();
  }
};
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
