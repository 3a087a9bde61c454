// The passthrough with a JavaScript request path and its frames handled in Rust (src/lib.rs):
// the entry, the body, the agent's socket and the stream are JavaScript (the socket and the
// stream by bench/pass-rs's own `pipe.js`, so that the two differ in who drives the request
// only); the prompt is read and each burst of frames (joined by U+001E, as UTF-8) is written by
// WebAssembly, one call each.
import * as core from "./pass_core.mjs";
import wasm from "./pass_core_bg.wasm";
import { openAgent, pipe } from "./pipe.mjs";

core.initSync({ module: wasm });

/** One burst: its SSE events written, 1 when the turn is over (pipe.js's `onBurst`). */
function onBurst(writer, bytes) {
  const out = core.burst(bytes);
  writer.write(out.subarray(1)).catch(() => {});
  return out[0];
}

async function chat(request, env, ctx, sessionId) {
  const content = core.promptOf(new Uint8Array(await request.arrayBuffer()));
  if (content === undefined) return new Response("bad request", { status: 400 });
  const [socket, requestId] = await openAgent(env.SESSION_AGENT, sessionId, content);
  const [response, done] = pipe(socket, requestId, request, onBurst);
  ctx.waitUntil(done);
  return response;
}

export default {
  fetch(request, env, ctx) {
    const match = /^\/api\/sessions\/([^/]+)\/chat$/.exec(new URL(request.url).pathname);
    if (!match || request.method !== "POST") return new Response("not found", { status: 404 });
    return chat(request, env, ctx, decodeURIComponent(match[1]));
  },
};
