// Requests sent and timed from a thread of their own. Node's fetch, writing a large body, holds its
// thread's event loop for long stretches: a 10 ms timer beside a 90 MiB POST to workerd on
// 127.0.0.1 saw gaps of 270 to 390 ms on its thread, 80 to 230 ms with the POST sent from here (a
// 2-core machine under load). A bench that samples while a request runs (bench/bodies.mjs: RSS
// from /proc every 10 ms) sends it from here.
import { Worker, isMainThread, parentPort } from "node:worker_threads";
import { performance } from "node:perf_hooks";

/** Answers longer than this are kept as their last 300 characters. */
const KEEP_CHARS = 2000;

/**
 * Sends `url` with `init` (`body`: bytes or text; with `chunked`, sent as a stream of 64 KiB pieces, so
 * that Node's fetch sends no Content-Length, each `paceMs` after the one before when given);
 * { status, headersMs, firstByteMs, endMs, text }.
 */
async function timed(url, { chunked, paceMs, ...init }) {
  if (chunked) {
    const bytes = typeof init.body === "string" ? new TextEncoder().encode(init.body) : init.body;
    init = { ...init, body: pieces(bytes, paceMs), duplex: "half" };
  }
  const t0 = performance.now();
  const response = await fetch(url, init);
  const headersMs = performance.now() - t0;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let firstByteMs = null;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    firstByteMs ??= performance.now() - t0;
    text += decoder.decode(value, { stream: true });
  }
  const endMs = performance.now() - t0;
  return { status: response.status, headersMs, firstByteMs: firstByteMs ?? endMs, endMs, text: text.length > KEEP_CHARS ? text.slice(-300) : text };
}

/** `bytes` as a stream of 64 KiB pieces, each `paceMs` after the one before (0: at once). */
function pieces(bytes, paceMs = 0) {
  const size = 64 * 1024;
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (at >= bytes.length) return controller.close();
      if (paceMs > 0) await new Promise((resolve) => setTimeout(resolve, paceMs));
      controller.enqueue(bytes.subarray(at, Math.min(at + size, bytes.length)));
      at += size;
    },
  });
}

if (!isMainThread && parentPort) {
  parentPort.on("message", async ({ id, url, init }) => {
    try {
      parentPort.postMessage({ id, result: await timed(url, init) });
    } catch (err) {
      parentPort.postMessage({ id, error: String(err?.stack ?? err) });
    }
  });
}

/** A thread that sends requests: `send(url, init)` resolves as `timed` does there; `close()`. */
export function sender() {
  const worker = new Worker(new URL(import.meta.url));
  const pending = new Map();
  let next = 0;
  worker.on("message", ({ id, result, error }) => {
    const { resolve, reject } = pending.get(id);
    pending.delete(id);
    if (error) reject(new Error(error));
    else resolve(result);
  });
  worker.on("error", (err) => {
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
  });
  return {
    send(url, init) {
      next += 1;
      const id = next;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // The body is copied to the thread (structured clone), before any timing starts.
        worker.postMessage({ id, url, init });
      });
    },
    close: () => worker.terminate(),
  };
}
