// The benchmark's HTTP client: node:http over 127.0.0.1, a streaming SSE scanner that counts
// events without JSON-parsing them (so the client stays cheap next to the server it measures).
import http from "node:http";
import { StringDecoder } from "node:string_decoder";
import { performance } from "node:perf_hooks";

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** Wall-clock time in ms since the epoch, with sub-millisecond resolution. */
export const nowMs = () => performance.timeOrigin + performance.now();

/** The AI SDK's POST body for one user message. */
export function chatBody(text) {
  return JSON.stringify({
    id: "chat-1",
    trigger: "submit-message",
    messages: [{ id: "user-1", role: "user", parts: [{ type: "text", text }] }],
  });
}

let sessions = 0;
/** A session id no other request uses (each session is its own Durable Object). */
export function sessionId(label) {
  sessions += 1;
  return `${label}-${process.pid}-${sessions}-${Date.now()}`;
}

/**
 * Whether an SSE event is a text delta. The adapters write `type` first; the passthrough forwards
 * the demo agent's frames, whose keys serde_json writes in sorted order (`type` last).
 */
const ADAPTER_DELTA = 'data: {"type":"text-delta"';
const FRAME_DELTA = '"type":"message.part.text-delta"}';
export const isDelta = (kind, event) =>
  kind === "pass" || kind.startsWith("pass-") ? event.endsWith(FRAME_DELTA) : event.startsWith(ADAPTER_DELTA);

/** Splits a byte stream into SSE events (text between blank lines). */
export class SseScanner {
  #decoder = new StringDecoder("utf8");
  #tail = "";
  /** Feeds bytes; calls `onEvent(text)` for every complete event. */
  feed(buf, onEvent) {
    const text = this.#tail + this.#decoder.write(buf);
    let start = 0;
    for (;;) {
      const end = text.indexOf("\n\n", start);
      if (end === -1) break;
      onEvent(text.slice(start, end));
      start = end + 2;
    }
    this.#tail = text.slice(start);
  }
  get rest() {
    return this.#tail;
  }
}

const STAMP = /"delta":"(\d+)@([\d.]+) "/;

/**
 * POSTs `prompt` to `${base}/api/sessions/<new id>/chat` and reads the stream to its end.
 * `kind` (the worker's name) picks how deltas are recognised: `pass` and `pass-…` forward frames. With `stamps`, each delta's `{i}@{ms}` stamp gives a
 * latency (arrival − stamp, ms). With `keepBody`, the whole body is returned. `headers` go with the
 * request.
 * Returns { status, ttfb, firstDelta, wall, deltas, events, done, bytes, latencies?, body? } (times
 * in ms from the request's start).
 */
export function runTurn(
  base,
  kind,
  prompt,
  { stamps = false, keepBody = false, timeoutMs = 300_000, path = "chat", agent: httpAgent = agent, headers = {} } = {},
) {
  const url = new URL(`/api/sessions/${sessionId("bench")}/${path}`, base);
  const body = chatBody(prompt);
  return new Promise((resolve, reject) => {
    const started = nowMs();
    let ttfb = null;
    let firstDelta = null;
    let deltas = 0;
    let events = 0;
    let bytes = 0;
    let last = "";
    const latencies = stamps ? [] : undefined;
    const chunks = keepBody ? [] : undefined;
    const scanner = new SseScanner();
    const req = http.request(
      url,
      { method: "POST", agent: httpAgent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers } },
      (res) => {
        res.on("data", (buf) => {
          const at = nowMs();
          if (ttfb === null) ttfb = at - started;
          bytes += buf.length;
          if (chunks) chunks.push(buf);
          scanner.feed(buf, (event) => {
            events += 1;
            last = event;
            if (isDelta(kind, event)) {
              deltas += 1;
              if (firstDelta === null) firstDelta = at - started;
              if (latencies) {
                const m = STAMP.exec(event);
                if (m) latencies.push(at - Number(m[2]));
              }
            }
          });
        });
        res.on("end", () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode,
            ttfb,
            firstDelta,
            wall: nowMs() - started,
            deltas,
            events,
            done: last === "data: [DONE]",
            bytes,
            latencies,
            body: chunks ? Buffer.concat(chunks).toString("utf8") : undefined,
          });
        });
        res.on("error", reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(body);
  });
}

/**
 * `count` turns of `prompt`, `concurrency` at a time; each must answer 200 and end with [DONE].
 * For many short requests (a stream's setup and end, what each request leaves behind).
 */
export async function manyTurns(base, kind, prompt, count, concurrency) {
  let next = 0;
  const one = async () => {
    while (next < count) {
      next += 1;
      const r = await runTurn(base, kind, prompt);
      if (r.status !== 200 || !r.done) throw new Error(`a request ended with status ${r.status}, done: ${r.done}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, one));
}

/** A fresh connection pool: each of many concurrent clients gets its own connection. */
export const newAgent = () => new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** POSTs to the passthrough's sink route: the turn runs, nothing is streamed. `options` as runTurn's. */
export async function runSink(base, prompt, options = {}) {
  const started = nowMs();
  const result = await runTurn(base, "pass", prompt, { ...options, path: "sink", keepBody: true });
  return { ...result, wall: nowMs() - started, frames: JSON.parse(result.body).frames };
}

/**
 * What a wave of concurrent turns (`Promise.allSettled` of `runTurn`) lost, and why: a turn is
 * complete when it answered 200 and, for a chat stream, carried `events` deltas and `[DONE]`
 * (a /sink turn: reported more than `events` frames, its body kept). Returns
 * { completed, lost, reasons: ["<reason> ×N", …] }.
 */
export function waveOutcome(settled, events, { sink = false } = {}) {
  const reasons = new Map();
  let completed = 0;
  for (const s of settled) {
    let why = null;
    if (s.status !== "fulfilled") why = `client error: ${s.reason?.code ?? s.reason?.message ?? s.reason}`;
    else if (s.value.status !== 200) why = `status ${s.value.status}`;
    else if (sink ? !(JSON.parse(s.value.body).frames > events) : s.value.deltas !== events || !s.value.done) {
      why = sink ? "sink: too few frames" : `${s.value.deltas} deltas${s.value.done ? "" : ", no [DONE]"}`;
    }
    if (why === null) completed += 1;
    else reasons.set(why, (reasons.get(why) ?? 0) + 1);
  }
  return { completed, lost: settled.length - completed, reasons: [...reasons].map(([why, n]) => `${why} ×${n}`) };
}

/** `GET /nothing` on `base` with the connection pool `agent`, read to its end; rejects unless it
 * is the 404 every worker here answers for an unknown path. */
export function notFound(base, agent) {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/nothing`, { agent }, (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 404 ? resolve() : reject(new Error(`${base}: status ${res.statusCode}`))));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** One chat turn of `/flood events` on `base` (`kind` as runTurn's), read to its end; rejects
 * unless it completed (waveOutcome's rule). */
export async function completeTurn(base, kind, events, { agent: httpAgent } = {}) {
  const result = await runTurn(base, kind, `/flood ${events}`, { agent: httpAgent });
  const { lost, reasons } = waveOutcome([{ status: "fulfilled", value: result }], events);
  if (lost) throw new Error(`${kind}: /flood ${events} did not complete (${reasons.join(", ")})`);
}
