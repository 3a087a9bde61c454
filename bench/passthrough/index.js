// The floor of the benchmark (bench/run.mjs): the same endpoint shape as the adapters, but each
// frame of the Durable Object goes to the client as `data: <frame>\n\n`, with no parsing and no
// translation. Any adapter costs at least this much per event.
//
// `POST /api/sessions/:id/chat`: connect, send the prompt, forward every frame as is; the
// stream ends after the demo agent's `{"type":"complete"}` frame (compared as a string), or when
// the socket closes. The prompt is the last message's first text part (the benchmark sends one).
//
// `POST /api/sessions/:id/sink`: the same turn, but the frames are only counted; the answer is
// `{"frames":N}` once the turn is over. It prices the agent and the socket hop alone.
//
// Writes are coalesced like the adapters': the frames of one event-loop turn go out as one write
// (a 0 ms timer), flushed before the end. With the binding `WRITES = "per-message"` each frame is
// its own write (the benchmark's labelled extra row).

const encoder = new TextEncoder();
const COMPLETE = '{"type":"complete"}';
const DONE = encoder.encode("data: [DONE]\n\n");

async function open(env, sessionId, request) {
  const body = await request.json();
  const last = body.messages[body.messages.length - 1];
  const content = last.parts.find((p) => p.type === "text").text;
  const stub = env.SESSION_AGENT.get(env.SESSION_AGENT.idFromName(sessionId));
  const response = await stub.fetch("https://session-agent/ws", {
    headers: { upgrade: "websocket", "x-session-id": sessionId, "x-client": "ai-sdk-adapter" },
  });
  const ws = response.webSocket;
  if (response.status !== 101 || !ws) throw new Error("no websocket");
  ws.accept();
  const requestId = crypto.randomUUID();
  ws.send(JSON.stringify({ type: "prompt", content, requestId }));
  return { ws, requestId };
}

async function chat(request, env, ctx, sessionId) {
  const { ws, requestId } = await open(env, sessionId, request);
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const perMessage = env.WRITES === "per-message";
  let pending = "";
  let flushTimer;
  const flush = () => {
    flushTimer = undefined;
    if (pending === "") return;
    const text = pending;
    pending = "";
    writer.write(encoder.encode(text)).catch(gone);
  };
  let finished = false;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(flushTimer);
    flush();
    writer.write(DONE).catch(() => {});
    writer.close().catch(() => {});
    try {
      ws.close(1000, "done");
    } catch {
      // already closed
    }
    resolveDone();
  };
  const gone = () => {
    if (finished) return;
    try {
      ws.send(JSON.stringify({ type: "abort", requestId }));
    } catch {
      // gone too
    }
    finish();
  };
  ws.addEventListener("message", (event) => {
    if (finished) return;
    if (perMessage) {
      writer.write(encoder.encode(`data: ${event.data}\n\n`)).catch(gone);
    } else {
      pending += `data: ${event.data}\n\n`;
      flushTimer ??= setTimeout(flush, 0);
    }
    if (event.data === COMPLETE) finish();
  });
  ws.addEventListener("close", finish);
  ws.addEventListener("error", finish);
  request.signal?.addEventListener("abort", gone);
  ctx.waitUntil(done);
  return new Response(readable, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-vercel-ai-ui-message-stream": "v1" },
  });
}

async function sink(request, env, sessionId) {
  const { ws } = await open(env, sessionId, request);
  let frames = 0;
  await new Promise((resolve) => {
    ws.addEventListener("message", (event) => {
      frames += 1;
      if (event.data === COMPLETE) resolve();
    });
    ws.addEventListener("close", resolve);
    ws.addEventListener("error", resolve);
  });
  try {
    ws.close(1000, "done");
  } catch {
    // already closed
  }
  return Response.json({ frames });
}

export default {
  async fetch(request, env, ctx) {
    const match = /^\/api\/sessions\/([^/]+)\/(chat|sink)$/.exec(new URL(request.url).pathname);
    if (!match || request.method !== "POST") return new Response("not found", { status: 404 });
    const sessionId = decodeURIComponent(match[1]);
    return match[2] === "chat" ? chat(request, env, ctx, sessionId) : sink(request, env, sessionId);
  },
};
