// Slow readers: CLIENTS clients read a /flood at ~RATE bytes a second, far slower than the agent
// sends. With the bound (MAX_BUFFERED_BYTES) the adapter's isolate keeps at most that much per
// stream: each stream ends in-band ("the client is reading too slowly", `finish`, `[DONE]`) and
// its turn is aborted. The same run without a bound (the setting raised past the turn's size)
// shows what the bound saves. Prints the peak of the isolate's ArrayBuffer backing stores (where
// the queued chunks live) and of its JS heap, for both, and how each stream ended.
//
//   node bench/slow_readers.mjs [CLIENTS=20] [RATE=10240] [BOUND_KB=512]
//
// Each client reads at RATE for SLOW_MS, long enough for its stream to pass the bound, then
// reads the rest at full speed, so that the run checks how every stream ends without waiting
// minutes for 10 KB/s to drain it. Not part of `npm test`: it measures memory, and takes ~2 min.
import http from "node:http";
import { startWorkers } from "./lib/workers.mjs";
import { inspect } from "./lib/inspector.mjs";
import { chatBody, sessionId } from "./lib/client.mjs";

const [clients = 20, rate = 10_240, boundKb = 512] = process.argv.slice(2).map(Number);
/** The turn: up to 400,000 deltas (~26 MB of SSE) at up to 10,000 a second per stream. With 20
 * streams one workerd relays ~5,000 a second each (~0.3 MB/s). */
const TURN = "/flood 400000 10000";
/** How long each client reads slowly: ~10 MB reach each stream meanwhile, more than the kernel's
 * socket buffers between workerd and the client absorb (a few MB on loopback), so the rest queues
 * in the worker. */
const SLOW_MS = 30_000;
/** How often the isolate's memory is sampled. */
const SAMPLE_MS = 200;
const MB = 2 ** 20;

/** Reads `res` at about `bytesPerSecond` for `slowMs`, then at full speed; resolves the body. */
function throttledRead(res, bytesPerSecond, slowMs) {
  return new Promise((resolve, reject) => {
    const pieces = [];
    const started = Date.now();
    let read = 0;
    res.on("data", (piece) => {
      pieces.push(piece);
      read += piece.length;
      const elapsed = Date.now() - started;
      if (elapsed >= slowMs) return;
      // Ahead of the pace: pause until the pace catches up (TCP backpressure reaches workerd).
      const dueMs = (read / bytesPerSecond) * 1000 - elapsed;
      if (dueMs > 0) {
        res.pause();
        setTimeout(() => res.resume(), Math.min(dueMs, slowMs - elapsed));
      }
    });
    res.on("end", () => resolve(Buffer.concat(pieces).toString("utf8")));
    res.on("error", reject);
  });
}

function post(base, session) {
  return new Promise((resolve, reject) => {
    const body = chatBody(TURN);
    const req = http.request(`${base}/api/sessions/${session}/chat`, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    req.on("response", (res) => throttledRead(res, rate, SLOW_MS).then(resolve, reject));
    req.on("error", reject);
    req.end(body);
  });
}

/** How a stream ended: "finish" after an error (the bound), "finish" whole, or what is wrong. */
function ending(text) {
  const events = text.split("\n\n").filter((e) => e.startsWith("data: "));
  const last = events.at(-1);
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
  const error = chunks.find((c) => c.type === "error");
  const deltas = chunks.filter((c) => c.type === "text-delta").length;
  if (last !== "data: [DONE]") return { valid: false, what: "no [DONE]", deltas };
  if (chunks.at(-1)?.type !== "finish") return { valid: false, what: "no finish", deltas };
  return { valid: true, what: error ? `error: ${error.errorText}` : "whole", deltas };
}

async function run(label, boundBytes) {
  const inspectorPort = 9300 + Math.floor(Math.random() * 600);
  const w = await startWorkers({ adapters: ["rust"], inspectorPort, vars: { MAX_BUFFERED_BYTES: String(boundBytes) } });
  const isolate = await inspect(inspectorPort, "rust");
  /** { heap, buffers }: the JS heap in use (garbage included: no GC can be forced), and the
   * ArrayBuffer backing stores, where the chunks queued for the clients live. */
  const memory = async () => {
    const { result } = await isolate.call("Runtime.getHeapUsage");
    return { heap: result.usedSize, buffers: result.backingStorageSize ?? 0 };
  };
  try {
    await isolate.call("Runtime.enable");
    const { result } = await isolate.call("Runtime.getHeapUsage");
    if (result.backingStorageSize === undefined) console.log("(this workerd reports no backingStorageSize: JS heap only)");
    const warm = await memory();
    const peak = { ...warm };
    const sampler = setInterval(async () => {
      const now = await memory();
      peak.heap = Math.max(peak.heap, now.heap);
      peak.buffers = Math.max(peak.buffers, now.buffers);
    }, SAMPLE_MS);
    const sessions = Array.from({ length: clients }, () => sessionId("slow"));
    const bodies = await Promise.all(sessions.map((s) => post(w.urls.rust, s)));
    clearInterval(sampler);
    const ends = bodies.map(ending);
    const aborts = await Promise.all(
      sessions.map(async (s) => {
        const received = await (await fetch(`${w.urls.agent}/demo/sessions/${s}/received`)).json();
        return received.filter((e) => e.frame?.type === "abort").length;
      }),
    );
    const kinds = {};
    for (const e of ends) kinds[e.what] = (kinds[e.what] ?? 0) + 1;
    console.log(
      `${label}: MAX_BUFFERED_BYTES ${(boundBytes / MB).toFixed(boundBytes < MB ? 2 : 0)} MB, ${clients} clients at ${(rate / 1024).toFixed(0)} KB/s: ` +
        `the isolate's buffers (queued chunks) peak ${(peak.buffers / MB).toFixed(1)} MB (the bound × clients = ${((boundBytes * clients) / MB).toFixed(0)} MB); ` +
        `its JS heap ${(warm.heap / MB).toFixed(1)} → peak ${(peak.heap / MB).toFixed(1)} MB (garbage included)`,
    );
    const deltas = ends.map((e) => e.deltas).sort((a, b) => a - b);
    console.log(`  streams: ${ends.filter((e) => e.valid).length}/${clients} valid; ${Object.entries(kinds).map(([k, n]) => `${n} × ${k}`).join("; ")}; deltas read ${deltas[0]}–${deltas.at(-1)}`);
    console.log(`  aborts at the agent: ${aborts.reduce((a, b) => a + b, 0)} (${aborts.filter((n) => n === 1).length} streams with exactly one)`);
    return { warm, peak, ends, aborts };
  } finally {
    isolate.close();
    await w.dispose();
  }
}

await run("bounded", boundKb * 1024);
await run("unbounded", 1024 * MB);
