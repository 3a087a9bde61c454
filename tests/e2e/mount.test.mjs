// examples/mount: a workers-rs worker of its own that mounts the adapter (`Adapter::handle`)
// beside routes of its own, built as a user builds it (stock worker-build output) and bound to the
// reference TypeScript agent in its own worker, as its wrangler.toml says. The adapter answers its
// routes (auth included) and hands every other request back unread; a real AI SDK `Chat` runs a
// turn through it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { Miniflare, Log, LogLevel } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { root, typescriptAgentWorker, sessionId, chatBody, postChat } from "./harness.mjs";
import { loadSdk } from "./chat.mjs";

const EXAMPLE = path.join(root, "examples/mount");
/** The example's `AUTH_SECRET` (its `AUTH_MODE` is `token`). */
const SECRET = "mount-example-secret-of-at-least-32-bytes";
const auth = { authorization: `Bearer ${SECRET}` };

let mf;
let base;

/** The example in workerd, its settings changed by `change(bindings)`; resolves to its Miniflare. */
async function startExample(change) {
  const config = path.join(EXAMPLE, "wrangler.toml");
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(config);
  if (!existsSync(main)) throw new Error(`${main} is missing: run bash scripts/build.sh --mount-example`);
  const agent = await typescriptAgentWorker(workerOptions, { MODEL: "scripted" });
  return new Miniflare({
    workers: [
      {
        ...workerOptions,
        bindings: change({ ...workerOptions.bindings }),
        name: "mount-example",
        modules: true,
        scriptPath: main,
        modulesRoot: path.dirname(main),
      },
      agent,
    ],
    host: "127.0.0.1",
    port: 0,
    cf: false,
    log: new Log(process.env.E2E_LOG ? LogLevel.DEBUG : LogLevel.ERROR),
  });
}

before(async () => {
  mf = await startExample((bindings) => ({ ...bindings, AUTH_SECRET: SECRET }));
  base = (await mf.ready).origin;
});
after(() => mf?.dispose());

test("the worker's own routes answer beside the adapter, with the request's body unread", { timeout: 30_000 }, async () => {
  const health = await fetch(`${base}/health`);
  assert.equal(health.status, 200);
  assert.equal(await health.text(), "ok");
  const echo = await fetch(`${base}/echo`, { method: "POST", body: "the body, untouched" });
  assert.equal(await echo.text(), "the body, untouched");
  // Paths the adapter does not answer are the worker's: its own 404, not the adapter's JSON one;
  // the demo's routes are not built into the adapter here.
  for (const other of ["/nothing", "/", "/demo/sessions/s/received", "/api/sessions/s/other"]) {
    const response = await fetch(`${base}${other}`);
    assert.equal(response.status, 404, other);
    assert.equal(await response.text(), "This worker has no such page.", other);
  }
});

test("a path of the adapter's with an empty first segment (//api/…) is the host's, as a host guarding by prefix sees it", { timeout: 30_000 }, async () => {
  for (const other of ["//api/sessions/s1/messages", "//api/sessions/s1/chat", "///api/sessions/s1/chat/stop"]) {
    const response = await fetch(`${base}${other}`, { method: other.endsWith("/messages") ? "GET" : "POST", headers: auth });
    assert.equal(response.status, 404, other);
    assert.equal(await response.text(), "This worker has no such page.", other);
  }
});

test("mounted without AUTH_MODE, the adapter serves nobody: 500 misconfigured; the worker's own routes still answer", { timeout: 30_000 }, async () => {
  const open = await startExample(({ AUTH_MODE: _, ...bindings }) => bindings);
  try {
    const at = (await open.ready).origin;
    for (const response of [
      await postChat(at, sessionId("mount-closed"), chatBody("hello")),
      await fetch(`${at}/api/sessions/s1/messages`),
    ]) {
      assert.equal(response.status, 500);
      assert.equal((await response.json()).error.code, "misconfigured");
    }
    assert.equal(await (await fetch(`${at}/health`)).text(), "ok");
  } finally {
    await open.dispose();
  }
});

test("the adapter's routes are the adapter's: its auth, its errors", { timeout: 30_000 }, async () => {
  const refused = await postChat(base, sessionId("mount"), chatBody("hello"));
  assert.equal(refused.status, 401);
  assert.equal((await refused.json()).error.code, "unauthorized");
  assert.ok(refused.headers.get("x-request-id"));
  const wrongMethod = await fetch(`${base}/api/sessions/s/chat`, { headers: auth });
  assert.equal(wrongMethod.status, 405);
  assert.equal(wrongMethod.headers.get("allow"), "POST, OPTIONS");
});

test("a turn through the mounted adapter reaches an AI SDK Chat, and the session's history", { timeout: 30_000 }, async () => {
  const { Chat, DefaultChatTransport } = await loadSdk("ai");
  const session = sessionId("mount");
  const errors = [];
  const chat = new Chat({
    transport: new DefaultChatTransport({ api: `${base}/api/sessions/${session}/chat`, headers: auth }),
    onError: (e) => errors.push(e),
  });
  await chat.sendMessage({ text: "hello" });
  assert.deepEqual(errors, []);
  assert.equal(chat.status, "ready");
  const reply = chat.messages.at(-1);
  assert.equal(reply.role, "assistant");
  const text = reply.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
  assert.ok(text.length > 0, "the agent's reply streamed");

  const history = await fetch(`${base}/api/sessions/${session}/messages`, { headers: auth });
  assert.equal(history.status, 200);
  const messages = await history.json();
  assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]);
  assert.equal(messages[1].id, reply.id);
});

test("the host exports the adapter's index with it: a turn through it is listed, renamed and deleted", { timeout: 30_000 }, async () => {
  // The example's AUTH_MODE is `token`: no credential names a user, so a key names the list.
  const mine = { ...auth, "x-conversations-key": `mount-list-${process.pid}-${Date.now()}` };
  const session = sessionId("mount-listed");
  const turn = await postChat(base, session, chatBody("A question through the host"), { headers: { "content-type": "application/json", ...mine } });
  assert.equal(turn.status, 200);
  await turn.text();
  let listed;
  // Listed by the turn, then titled by its agent (the TypeScript agent titles a first exchange).
  const title = "Docs search: A question through the host";
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
    listed = await (await fetch(`${base}/api/sessions`, { headers: mine })).json();
    if (listed.sessions[0]?.title === title) break;
  }
  assert.deepEqual(listed.sessions.map((s) => [s.id, s.title]), [[session, title]]);
  const renamed = await fetch(`${base}/api/sessions/${session}`, { method: "PATCH", headers: { ...mine, "content-type": "application/json" }, body: '{"title":"Named"}' });
  assert.equal((await renamed.json()).title, "Named");
  assert.equal((await fetch(`${base}/api/sessions/${session}`, { method: "DELETE", headers: mine })).status, 204);
  assert.deepEqual((await (await fetch(`${base}/api/sessions`, { headers: mine })).json()).sessions, []);
});
