// The default environment (a plain `wrangler deploy`) is the safe one: the demo agent is off and
// a caller must authenticate. Without AUTH_SECRET nothing is served at all (500 misconfigured);
// with it, a request without credentials is a 401, and the demo's routes and playground are not
// there.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, chatBody, postChat } from "./harness.mjs";

const workers = [];
after(() => Promise.all(workers.map((w) => w.dispose())));

test("without a secret: every request refused, none served open", { timeout: 30_000 }, async () => {
  const worker = await startWorker({ env: null });
  workers.push(worker);
  const chat = await postChat(worker.base, "s1", chatBody("hi"));
  assert.equal(chat.status, 500);
  assert.equal((await chat.json()).error.code, "misconfigured");
  for (const path of ["/", "/demo/sessions/s1/received", "/api/sessions/s1/messages"]) {
    const response = await fetch(`${worker.base}${path}`);
    assert.equal(response.status, 500, path);
    await response.arrayBuffer();
  }
});

test("with a secret: no credentials is a 401; no demo routes, no playground", { timeout: 30_000 }, async () => {
  const worker = await startWorker({ env: null, vars: { AUTH_SECRET: "a-secret-for-this-test-only-0123456789" } });
  workers.push(worker);
  const chat = await postChat(worker.base, "s1", chatBody("hi"));
  assert.equal(chat.status, 401);
  assert.equal((await chat.json()).error.code, "unauthorized");
  for (const path of ["/", "/demo/sessions/s1/received"]) {
    const response = await fetch(`${worker.base}${path}`);
    assert.equal(response.status, 404, path);
    await response.arrayBuffer();
  }
});
