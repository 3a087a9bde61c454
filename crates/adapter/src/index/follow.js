// A user's list, live, at the edge (crates/adapter/src/index/follow.rs; the rules are
// crates/core/src/conversations/live.rs): a socket to the list's object, whose events each go to
// the client as one SSE `data:` line, with a keep-alive comment every `keepAliveMs` and a ping to
// the object every `pingEvery` keep-alives. The feed ends, once, when the client goes (the
// request's signal, compatibility flag `enable_request_signal`, or the body's writer closed or
// errored: workerd learns of a client that closed its connection when it next writes to it, and
// the keep-alive is that write), when the object's socket closes or answers none of `silentPings` pings in a row, or
// when the caller's credentials end; its end closes the socket (the object closes back) and the
// body, and calls `onEnd` (the feed's place in the isolate given back), as a refusal or a failure
// to open it does: once, whichever comes.

/** The object's URL; only its path, the operation, is read (crates/adapter/src/index/stub.js). */
const ORIGIN = "https://session-index/";

/** The response's first bytes, as every stream's (crates/core/src/sse.rs's `KEEP_ALIVE`). */
const OPENING = ": keep-alive\n\n";

/** A session feed's response headers (crates/core/src/feed/mod.rs's `RESPONSE_HEADERS`). */
const HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-store",
  "x-accel-buffering": "no",
  "x-content-type-options": "nosniff",
};

/** An idle feed's keep-alive (crates/core/src/feed/mod.rs's `HEARTBEAT`). */
const HEARTBEAT = ":\n\n";

/**
 * The live list of `owner` in `namespace`: resolves to the SSE response, or to `null` when the
 * object refused it at its cap (429); rejects with text when the object cannot be reached.
 * `expiresAtMs` (0: never) is when the caller's credentials end; `request` is the client's.
 */
export function followList(namespace, owner, op, keepAliveMs, pingEvery, silentPings, ping, pong, expiresAtMs, request, onEnd) {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    onEnd();
  };
  return (async () => {
    const stub = namespace.get(namespace.idFromName(owner));
    const answer = await stub.fetch(`${ORIGIN}${op}?`, { headers: { Upgrade: "websocket" } });
    if (answer.status === 429) {
      release();
      return null;
    }
    const socket = answer.webSocket;
    if (!socket) throw new Error(`the index answered ${answer.status} to a live list`);
    socket.accept();
    const { readable, writable } = new TransformStream();
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    let open = true;
    let silent = 0;
    let beats = 0;
    const end = () => {
      if (!open) return;
      open = false;
      clearInterval(timer);
      clearTimeout(expiry);
      try {
        socket.close(1000, "the live list ended");
      } catch {
        // closed already
      }
      writer.close().catch(() => {});
      release();
    };
    const write = (text) => {
      if (open) writer.write(encoder.encode(text)).catch(end);
    };
    socket.addEventListener("message", (event) => {
      silent = 0;
      if (event.data !== pong) write(`data: ${event.data}\n\n`);
    });
    socket.addEventListener("close", end);
    socket.addEventListener("error", end);
    const timer = setInterval(() => {
      write(HEARTBEAT);
      beats += 1;
      if (beats % pingEvery !== 0) return;
      if (silent >= silentPings) return end();
      silent += 1;
      try {
        socket.send(ping);
      } catch {
        end();
      }
    }, keepAliveMs);
    // The largest delay a timer takes is 2^31 - 1 ms; credentials that outlive it end the feed
    // then, and the client opens another.
    const expiry = expiresAtMs > 0 ? setTimeout(end, Math.min(Math.max(expiresAtMs - Date.now(), 0), 2 ** 31 - 1)) : undefined;
    writer.closed.then(end, end);
    const signal = request?.signal;
    if (signal?.aborted) end();
    else signal?.addEventListener("abort", end, { once: true });
    write(OPENING);
    return new Response(readable, { headers: HEADERS });
  })().catch((error) => {
    release();
    throw String(error?.message ?? error);
  });
}
