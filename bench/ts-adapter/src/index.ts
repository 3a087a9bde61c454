// The TypeScript adapter of `POST /api/sessions/:id/chat`, for the side-by-side benchmark
// (bench/run.mjs): what a competent TS developer writes for the same endpoint as the Rust/WASM
// worker. Not shipped. Opens a WebSocket to the session's SessionAgent Durable Object, sends the
// `prompt`, translates each V2 frame (translator.ts) and writes its SSE events to a
// TransformStream, forwards `abort` when the client leaves.
//
// Like the Rust worker, it gives every request an id (`x-request-id`, the prompt's `requestId`)
// and writes one structured log line per request (docs/reliability.md: ids, counts and the
// outcome, never content); with the binding `LOG_LINE = "off"` it writes none (the benchmark's
// `ts-unlogged` row, what the rival cost before it did the same).
//
// Writes are coalesced as a careful developer does (and as the Rust worker does): the SSE text of
// every frame that arrives in one turn of the event loop is buffered and written once, by a
// `setTimeout(…, 0)`, and flushed before the stream closes. With the binding
// `WRITES = "per-message"` it writes once per WebSocket message instead (the benchmark's
// labelled extra row).

import { parseFrame, MalformedFrame, questionParts, Translator, type UIChunk } from "./translator";
import { parseChatRequest, RequestError, MAX_BODY_BYTES, type Attachment } from "./request";

interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(url: string, init?: RequestInit): Promise<Response & { webSocket?: WebSocket | null }> };
}
interface Env {
  SESSION_AGENT: DurableObjectNamespace;
  /** "per-message": one write per WebSocket message; anything else: coalesced writes. */
  WRITES?: string;
  /** "off": no log line. */
  LOG_LINE?: string;
}
interface ExecutionContext { waitUntil(promise: Promise<unknown>): void }
// workerd's WebSocket has accept() for sockets it hands to the worker.
type WorkerWebSocket = WebSocket & { accept(): void };

const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const RESPONSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-store",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
};
const DONE = "data: [DONE]\n\n";
const KEEP_ALIVE = ": keep-alive\n\n";
/** A keep-alive goes out on a tick with nothing written since the tick before. */
const TICK_MS = 125;
const CONNECT_TIMEOUT_MS = 10_000;

const encoder = new TextEncoder();

/** One request: its id, what it asked, when it began, and the fields of its log line. */
interface Exchange {
  requestId: string;
  method: string;
  path: string;
  session?: string;
  started: number;
  log: boolean;
}

/** The request's one log line, with the same fields as the Rust worker's (src/request_log.rs). */
function logLine(x: Exchange, status: number, outcome: string, chunks = 0, bytes = 0, skippedFrames = 0): void {
  if (!x.log) return;
  console.log(
    JSON.stringify({
      requestId: x.requestId,
      method: x.method,
      path: x.path,
      session: x.session,
      status,
      outcome,
      chunks,
      bytes,
      skippedFrames,
      durationMs: Date.now() - x.started,
    }),
  );
}

function jsonError(x: Exchange, status: number, code: string, message: string): Response {
  logLine(x, status, code);
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": x.requestId },
  });
}

function isJson(contentType: string | null): boolean {
  const essence = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return essence === "application/json" || (essence.startsWith("application/") && essence.endsWith("+json"));
}

async function connect(env: Env, sessionId: string): Promise<WorkerWebSocket> {
  const stub = env.SESSION_AGENT.get(env.SESSION_AGENT.idFromName(sessionId));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestError(504, "agent_timeout", "The agent did not answer in time.")), CONNECT_TIMEOUT_MS);
  });
  let response: Response & { webSocket?: WebSocket | null };
  try {
    response = await Promise.race([
      stub.fetch("https://session-agent/ws", {
        headers: { upgrade: "websocket", "x-session-id": sessionId, "x-client": "ai-sdk-adapter" },
      }),
      timeout,
    ]);
  } catch (e) {
    if (e instanceof RequestError) throw e;
    throw new RequestError(503, "agent_unavailable", "The agent is unavailable right now. Try again.");
  } finally {
    clearTimeout(timer);
  }
  const ws = response.webSocket as WorkerWebSocket | null | undefined;
  if (response.status !== 101 || !ws) throw new RequestError(502, "agent_bad_response", "The agent did not accept the connection.");
  ws.accept();
  return ws;
}

function sse(chunks: UIChunk[], done: boolean): string {
  let text = "";
  for (const chunk of chunks) text += `data: ${JSON.stringify(chunk)}\n\n`;
  return done ? text + DONE : text;
}

async function chat(request: Request, env: Env, ctx: ExecutionContext, sessionId: string, x: Exchange): Promise<Response> {
  if (!SESSION_ID.test(sessionId)) {
    return jsonError(x, 400, "invalid_session_id", "The session id must be 1 to 128 characters of A-Z, a-z, 0-9, '.', '_', ':' or '-'.");
  }
  if (!isJson(request.headers.get("content-type"))) {
    return jsonError(x, 415, "unsupported_media_type", "The request body must be JSON (Content-Type: application/json).");
  }
  let prompt: { text: string; attachments: Attachment[] };
  let ws: WorkerWebSocket;
  try {
    const body = await request.text();
    if (body.length > MAX_BODY_BYTES) {
      throw new RequestError(413, "body_too_large", `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes.`);
    }
    prompt = parseChatRequest(body);
    ws = await connect(env, sessionId);
  } catch (e) {
    if (e instanceof RequestError) return jsonError(x, e.status, e.code, e.message);
    throw e;
  }

  const requestId = x.requestId;
  const promptFrame: Record<string, unknown> = { type: "prompt", content: prompt.text, requestId };
  if (prompt.attachments.length > 0) promptFrame.attachments = prompt.attachments;
  ws.send(JSON.stringify(promptFrame));

  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const translator = new Translator(requestId, Date.now, questionParts(request.headers.get("x-questions")) ?? "tools");
  let finished = false;
  let outcome = "finished";
  let chunks = 0;
  let bytes = 0;
  let skippedFrames = 0;
  let wroteSinceTick = false;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  const perMessage = env.WRITES === "per-message";
  // Coalesced writes: the text of one event-loop turn, written by one 0 ms timer.
  let pending = "";
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  // One write to the body, counted for the log line.
  const writeNow = (text: string) => {
    const encoded = encoder.encode(text);
    bytes += encoded.length;
    writer.write(encoded).catch(() => clientGone());
  };
  const flush = () => {
    flushTimer = undefined;
    if (pending === "") return;
    const text = pending;
    pending = "";
    writeNow(text);
  };
  const write = (text: string) => {
    if (text === "") return;
    wroteSinceTick = true;
    if (perMessage) {
      writeNow(text);
      return;
    }
    pending += text;
    flushTimer ??= setTimeout(flush, 0);
  };
  const finish = () => {
    if (finished) return;
    finished = true;
    clearInterval(ticker);
    clearTimeout(flushTimer);
    flush();
    try {
      ws.close(1000, "done");
    } catch {
      // already closed
    }
    writer.close().catch(() => {});
    logLine(x, 200, outcome, chunks, bytes, skippedFrames);
    resolveDone();
  };
  const clientGone = () => {
    if (finished) return;
    outcome = "client_gone";
    try {
      ws.send(JSON.stringify({ type: "abort", requestId }));
    } catch {
      // the socket is gone too
    }
    finish();
  };
  const endFor = (cause: "socket-closed") => {
    if (finished) return;
    const out: UIChunk[] = [];
    translator.end(cause, out);
    outcome = "connection_lost";
    chunks += out.length;
    write(sse(out, true));
    finish();
  };

  ws.addEventListener("message", (event: MessageEvent) => {
    const data = event.data;
    if (finished || typeof data !== "string") return;
    // Most frames: a delta of the open part, known by its text (DeltaShape).
    const streamed = translator.streamingShape()?.eventOf(data);
    if (streamed !== undefined) {
      chunks += 1;
      write(streamed);
      return;
    }
    let out: UIChunk[];
    try {
      const frame = parseFrame(data);
      out = [];
      translator.push(frame, out);
    } catch (e) {
      if (e instanceof MalformedFrame) {
        skippedFrames += 1;
        console.warn(`skipped a frame from the agent: ${e.message}`);
        return;
      }
      throw e;
    }
    chunks += out.length;
    write(sse(out, translator.ended));
    if (translator.ended) finish();
  });
  ws.addEventListener("close", () => endFor("socket-closed"));
  ws.addEventListener("error", () => endFor("socket-closed"));
  request.signal?.addEventListener("abort", clientGone);
  writer.closed.catch(() => clientGone());
  const ticker = setInterval(() => {
    if (!wroteSinceTick) write(KEEP_ALIVE);
    wroteSinceTick = false;
  }, TICK_MS);
  ctx.waitUntil(done);

  return new Response(readable, { status: 200, headers: { ...RESPONSE_HEADERS, "x-request-id": requestId } });
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const path = new URL(request.url).pathname;
    const x: Exchange = {
      requestId: crypto.randomUUID(),
      method: request.method,
      path,
      started: Date.now(),
      log: env.LOG_LINE !== "off",
    };
    const match = /^\/api\/sessions\/([^/]+)\/chat$/.exec(path);
    if (!match) return jsonError(x, 404, "not_found", "Nothing here.");
    x.session = decodeURIComponent(match[1]);
    if (request.method !== "POST") {
      const response = jsonError(x, 405, "method_not_allowed", "Use POST.");
      response.headers.set("allow", "POST");
      return response;
    }
    return chat(request, env, ctx, x.session, x);
  },
};
