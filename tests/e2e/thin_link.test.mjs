// A stream keeps its connection through an intermediary that cuts idle connections (a proxy, a
// load balancer, a carrier's NAT): the worker's keep-alive comments (docs/endpoint.md, step 6)
// keep a turn whose agent is silent for longer than the intermediary's idle timeout alive. The
// intermediary here is a TCP proxy (./tcp_proxy.mjs) that cuts a connection after IDLE_MS with no
// byte either way, and is first shown to do so.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf, sleep } from "./harness.mjs";
import { tcpProxy } from "./tcp_proxy.mjs";

/** The proxy's idle timeout: a stand-in for a proxy's 60 s, scaled down to a test's time. */
const IDLE_MS = 1_000;
/** The agent's silence between deltas: three times the proxy's idle timeout. */
const SILENCE_MS = 3 * IDLE_MS;

let worker;
let proxy;
before(async () => {
  worker = await startWorker();
  proxy = await tcpProxy(new URL(worker.base), { idleMs: IDLE_MS });
});
after(async () => {
  proxy?.close();
  await worker?.dispose();
});

test("the proxy cuts a connection that carries nothing for its idle time", { timeout: 15_000 }, async () => {
  const url = new URL(proxy.base);
  const socket = net.connect(Number(url.port), url.hostname);
  const closed = new Promise((resolve) => socket.on("close", resolve));
  const cutBefore = proxy.cut.length;
  const outcome = await Promise.race([closed.then(() => "closed"), sleep(5 * IDLE_MS).then(() => "open")]);
  socket.destroy();
  assert.equal(outcome, "closed", "an idle connection is cut");
  assert.ok(proxy.cut.length > cutBefore);
});

test("a turn whose agent is silent longer than the idle timeout streams whole through it", { timeout: 30_000 }, async () => {
  const cutBefore = proxy.cut.length;
  const response = await postChat(proxy.base, sessionId("thin"), chatBody(`/slow 3 ${SILENCE_MS}`));
  assert.equal(response.status, 200);
  const { text } = await readAll(response);
  const chunks = chunksOf(text);
  assert.equal(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join(""), "w1 w2 w3");
  assert.equal(chunks.at(-1).type, "finish");
  assert.match(text, /data: \[DONE\]\n\n$/);
  const keepAlives = text.split("\n\n").filter((event) => event === ": keep-alive").length;
  assert.ok(keepAlives >= 2 * (SILENCE_MS / IDLE_MS), `keep-alives carried the silence (${keepAlives})`);
  assert.equal(proxy.cut.length, cutBefore, "the proxy cut nothing");
});
