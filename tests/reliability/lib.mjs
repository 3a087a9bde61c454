// Shared by the reliability suite (tests/reliability/run.mjs): bounded requests, stream checks,
// JSON error checks, HS256 tokens, statistics, a seeded random source, and the capture of
// workerd's log. The worker itself is started by the end-to-end harness (tests/e2e/harness.mjs).
import { createHmac } from "node:crypto";
import http from "node:http";
import { parseSse, checkSequence } from "../sdk/sse.mjs";

export { parseSse, checkSequence };

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A seeded random source (mulberry32): the same seed draws the same disconnect times. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nearest-rank percentile of `values` (p in 0..100); null when there are none. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/** { n, min, p50, p99, max } of `values` (ms), rounded. */
export function summary(values) {
  const round = (v) => (v === null ? null : Math.round(v));
  return {
    n: values.length,
    min: round(values.length ? Math.min(...values) : null),
    p50: round(percentile(values, 50)),
    p99: round(percentile(values, 99)),
    max: round(values.length ? Math.max(...values) : null),
  };
}

/**
 * Runs `task(i)` for i in 0..count-1 with at most `limit` at a time. Resolves with the results
 * in order; a task that throws yields { thrown: message }.
 */
export async function pool(count, limit, task) {
  const results = new Array(count);
  let next = 0;
  async function lane() {
    while (next < count) {
      const i = next++;
      try {
        results[i] = await task(i);
      } catch (err) {
        results[i] = { thrown: String(err?.stack ?? err) };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
  return results;
}

/**
 * One HTTP request, bounded by `timeoutMs` (headers and body alike). Never throws: returns
 * { status, headers, text, firstByteAt, headersAt, endedAt, startedAt, networkError, timedOut,
 * aborted }. `signal` aborts it from outside (then `aborted` is true).
 *
 * `fresh: true` sends it on a connection of its own (node:http, no agent) instead of fetch's
 * pool. The concurrent waves need that: local workerd resets reused keep-alive connections whose
 * next request it cannot read in time while its event loop is saturated (a flood on 200
 * streams), so the request never reaches the worker; a fresh connection is what a new client
 * opens anyway.
 */
export async function request(url, options = {}) {
  if (options.fresh) return requestFresh(url, options);
  const { method = "GET", headers = {}, body, timeoutMs = 30_000, signal, onChunk } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signals = signal ? [timeout, signal] : [timeout];
  const init = { method, headers, signal: AbortSignal.any(signals) };
  if (body !== undefined) {
    init.body = body;
    if (body instanceof ReadableStream) init.duplex = "half";
  }
  const result = {
    startedAt: Date.now(), status: null, headers: null, text: "", firstByteAt: null, headersAt: null,
    endedAt: null, networkError: null, timedOut: false, aborted: false,
  };
  try {
    const response = await fetch(url, init);
    result.headersAt = Date.now();
    result.status = response.status;
    result.headers = Object.fromEntries(response.headers);
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      if (result.firstByteAt === null) result.firstByteAt = Date.now();
      const piece = decoder.decode(value, { stream: true });
      result.text += piece;
      onChunk?.(piece, result);
    }
    result.text += decoder.decode();
  } catch (err) {
    if (timeout.aborted) result.timedOut = true;
    else if (signal?.aborted) result.aborted = true;
    else result.networkError = String(err?.cause?.code ?? err?.cause?.message ?? err?.message ?? err);
  }
  result.endedAt = Date.now();
  return result;
}

/** `request` on a connection of its own; string or Buffer bodies only. */
function requestFresh(url, { method = "GET", headers = {}, body, timeoutMs = 30_000, onChunk }) {
  const result = {
    startedAt: Date.now(), status: null, headers: null, text: "", firstByteAt: null, headersAt: null,
    endedAt: null, networkError: null, timedOut: false, aborted: false,
  };
  return new Promise((resolve) => {
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      result.endedAt = Date.now();
      resolve(result);
    };
    const req = http.request(url, { method, headers, agent: false });
    const timer = setTimeout(() => {
      result.timedOut = true;
      req.destroy();
      done();
    }, timeoutMs);
    req.on("response", (res) => {
      result.headersAt = Date.now();
      result.status = res.statusCode;
      result.headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : v]));
      res.setEncoding("utf8");
      res.on("data", (piece) => {
        if (result.firstByteAt === null) result.firstByteAt = Date.now();
        result.text += piece;
        onChunk?.(piece, result);
      });
      res.on("end", done);
      res.on("error", (err) => {
        result.networkError ??= String(err?.code ?? err?.message ?? err);
        done();
      });
      res.on("close", () => {
        if (!res.complete) result.networkError ??= "the response ended early";
        done();
      });
    });
    req.on("error", (err) => {
      if (!result.timedOut) result.networkError ??= String(err?.code ?? err?.message ?? err);
      done();
    });
    req.end(body);
  });
}

/** The UI stream headers of the AI SDK (`ui-message-stream-headers.ts`). */
const STREAM_HEADERS = {
  "content-type": "text/event-stream",
  "x-vercel-ai-ui-message-stream": "v1",
};

/**
 * Checks a streamed answer: 200, the UI stream headers, SSE framing (keep-alive comments
 * allowed), the AI SDK's sequencing rules, exactly one ending and `[DONE]` last. Returns
 * { problems, chunks, deltas, errorTexts, ending }.
 */
export function checkStream(res) {
  const problems = [];
  if (res.status !== 200) problems.push(`status ${res.status}${res.networkError ? ` (${res.networkError})` : ""}`);
  if (res.timedOut) problems.push("timed out");
  if (res.networkError) problems.push(`network error: ${res.networkError}`);
  for (const [name, value] of Object.entries(STREAM_HEADERS)) {
    if (res.headers && res.headers[name] !== value) problems.push(`header ${name}: ${res.headers[name]}`);
  }
  const parsed = parseSse(res.text);
  problems.push(...parsed.problems);
  problems.push(...checkSequence(parsed.chunks));
  const done = res.text.split("\n\n").filter((e) => e === "data: [DONE]").length;
  if (done !== 1) problems.push(`${done} [DONE] events`);
  const chunks = parsed.chunks;
  const deltas = chunks.filter((c) => c.type === "text-delta").map((c) => c.delta);
  const errorTexts = chunks.filter((c) => c.type === "error").map((c) => c.errorText);
  const last = chunks.at(-1)?.type;
  const ending = errorTexts.length ? "error" : last;
  return { problems, chunks, deltas, errorTexts, ending };
}

/** Words that must never reach a client in an error message: internals of the worker. */
const INTERNAL = [/SESSION_AGENT/, /DemoSessionAgent/, /RustError/i, /wasm/i, /panicked/i, /\.rs:\d/, /session-agent\//, /\bstack\b/i, /TypeError/, /JsValue/];

/**
 * Checks a JSON error answer: status, JSON content type, the exact `{ error: { code, message } }`
 * shape, `code`, a plain message without internal detail, and `x-request-id`. `status` and
 * `code` may be arrays of accepted values. Returns { problems, code, message }.
 */
export function checkJsonError(res, { status, code }) {
  const problems = [];
  const statuses = [status].flat();
  const codes = [code].flat();
  if (res.networkError || res.timedOut) {
    problems.push(res.timedOut ? "timed out" : `network error: ${res.networkError}`);
    return { problems, code: null, message: null };
  }
  if (!statuses.includes(res.status)) problems.push(`status ${res.status}, expected ${statuses.join("|")}`);
  if (!/^application\/json/.test(res.headers["content-type"] ?? "")) {
    problems.push(`content-type ${res.headers["content-type"]}`);
  }
  let body;
  try {
    body = JSON.parse(res.text);
  } catch {
    problems.push(`body is not JSON: ${JSON.stringify(res.text.slice(0, 80))}`);
    return { problems, code: null, message: null };
  }
  const error = body?.error;
  const shapeOk = body && typeof body === "object" && Object.keys(body).join() === "error"
    && error && typeof error === "object" && Object.keys(error).sort().join() === "code,message";
  if (!shapeOk) problems.push(`shape: ${JSON.stringify(body).slice(0, 120)}`);
  if (!codes.includes(error?.code)) problems.push(`code ${error?.code}, expected ${codes.join("|")}`);
  if (typeof error?.message !== "string" || error.message.length === 0) problems.push("empty message");
  for (const word of INTERNAL) {
    if (word.test(error?.message ?? "")) problems.push(`message shows internal detail (${word}): ${error.message}`);
  }
  if (!res.headers["x-request-id"]) problems.push("no x-request-id");
  return { problems, code: error?.code ?? null, message: error?.message ?? null };
}

// --- HS256 JWTs (the worker verifies them; tests make them) ---

const b64url = (data) => Buffer.from(data).toString("base64url");

/** A compact JWT with `header` and `claims`, signed with HMAC-`hash` over `secret`. */
export function jwt(claims, secret, { header = { alg: "HS256", typ: "JWT" }, hash = "sha256" } = {}) {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  const signature = hash ? createHmac(hash, secret).update(input).digest("base64url") : "";
  return `${input}.${signature}`;
}

export const nowSecs = () => Math.floor(Date.now() / 1000);

// --- logs ---

/**
 * Keeps what Miniflare itself prints through the console (its own errors, such as uncaught
 * exceptions of the worker) instead of letting it interleave with the table; the suite prints
 * with process.stdout.write. The worker's structured request log comes from the harness
 * (`worker.logs`), which reads workerd's stdout.
 */
export function captureWorkerdLog({ echo = false } = {}) {
  const lines = [];
  const keep = (stream) => (...args) => {
    // eslint-disable-next-line no-control-regex
    const text = args.map(String).join(" ").replace(/\x1b\[[0-9;]*m/g, "");
    lines.push({ at: Date.now(), stream, text });
    if (echo) process.stderr.write(`[workerd ${stream}] ${text}\n`);
  };
  console.log = keep("out");
  console.info = keep("out");
  console.warn = keep("err");
  console.error = keep("err");
  return lines;
}

/**
 * The log records a request must have left: `expectLog(worker, res, { outcome, skippedFramesAtLeast })`
 * notes one; `checkLogs` then finds, for each, exactly one record of the worker's log with the
 * response's x-request-id, its status, and the outcome word where one is given.
 */
export function logExpectations() {
  const list = [];
  const expectLog = (worker, res, expected = {}) => {
    const requestId = res.headers?.["x-request-id"];
    if (requestId) list.push({ worker, requestId, status: res.status, ...expected });
  };
  return { list, expectLog };
}

export function checkLogs(list) {
  const failures = [];
  for (const e of list) {
    const records = e.worker.logs.filter((r) => r.requestId === e.requestId);
    const what = `log of ${e.requestId} (${e.worker.name}, ${e.label ?? e.status})`;
    if (records.length !== 1) {
      failures.push(`${what}: ${records.length} records, expected 1`);
      continue;
    }
    const [r] = records;
    if (e.status !== undefined && r.status !== e.status) failures.push(`${what}: status ${r.status}, answered ${e.status}`);
    if (e.outcome && r.outcome !== e.outcome) failures.push(`${what}: outcome ${r.outcome}, expected ${e.outcome}`);
    if (e.skippedFramesAtLeast !== undefined && !(r.skippedFrames >= e.skippedFramesAtLeast)) {
      failures.push(`${what}: skippedFrames ${r.skippedFrames}, expected at least ${e.skippedFramesAtLeast}`);
    }
    if (e.user !== undefined && r.user !== e.user) failures.push(`${what}: user ${r.user}, expected ${e.user}`);
  }
  return failures;
}
