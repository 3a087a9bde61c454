// The Rust passthroughs' JavaScript side (bench/pass-rs, and bench/pass-core's entry), with the
// tricks this project's worker uses (src/edge/): the agent's socket opened and the prompt sent in
// one call, and the frames of one event-loop turn handed to WebAssembly in one call (joined by
// U+001E, as UTF-8 bytes), written back in one.

const encoder = new TextEncoder();
const DONE = encoder.encode("data: [DONE]\n\n");

/** The session's agent socket, accepted, its prompt sent: resolves to `[socket, requestId]`. */
export async function openAgent(namespace, sessionId, content) {
  const stub = namespace.get(namespace.idFromName(sessionId));
  const response = await stub.fetch("https://session-agent/ws", {
    headers: { upgrade: "websocket", "x-session-id": sessionId, "x-client": "ai-sdk-adapter" },
  });
  const socket = response.webSocket;
  if (response.status !== 101 || !socket) throw new Error("no websocket");
  socket.accept();
  const requestId = crypto.randomUUID();
  socket.send(JSON.stringify({ type: "prompt", content, requestId }));
  return [socket, requestId];
}

/**
 * Streams the socket's frames through `onBurst(writer, bytes)`: `bytes` are one burst's frames,
 * and `onBurst` writes what it makes of them to `writer` and answers 1 once the turn is over.
 * Returns `[response, done]`: the streamed response, and a promise that settles when the stream
 * has ended.
 */
export function pipe(socket, requestId, request, onBurst) {
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  let frames = [];
  let timer;
  let finished = false;
  let settle;
  const done = new Promise((resolve) => (settle = resolve));
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    writer.write(DONE).catch(ignore);
    writer.close().catch(ignore);
    try {
      socket.close(1000, "done");
    } catch {
      // already closed
    }
    settle();
  };
  const deliver = () => {
    timer = undefined;
    if (finished || frames.length === 0) return;
    const text = frames.length === 1 ? frames[0] : frames.join("\u001e");
    frames = [];
    if (onBurst(writer, encoder.encode(text)) === 1) finish();
  };
  socket.addEventListener("message", (event) => {
    if (finished || typeof event.data !== "string") return;
    frames.push(event.data);
    timer ??= setTimeout(deliver, 0);
  });
  const end = () => {
    deliver();
    finish();
  };
  socket.addEventListener("close", end);
  socket.addEventListener("error", end);
  request.signal?.addEventListener("abort", () => {
    if (finished) return;
    try {
      socket.send(JSON.stringify({ type: "abort", requestId }));
    } catch {
      // gone too
    }
    finish();
  });
  const response = new Response(readable, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "x-vercel-ai-ui-message-stream": "v1" },
  });
  return [response, done];
}

/** Writes a copy of `bytes` (a view of WebAssembly memory, valid only during this call). */
export function write(writer, bytes) {
  writer.write(bytes.slice()).catch(ignore);
}

function ignore() {}
