// Closed by default (docs/configuration.md): a worker left without `AUTH_MODE` runs `jwt`, and
// without its keys refuses every request with 500 misconfigured and a log line naming what is
// missing; with a key it needs a token; `none` only when written out; the start-up line says the
// mode. One rule for every setting: an empty one is an error (here `TRACE_MAX`, the cap an empty
// value once lifted; crates/core/src/config_tests.rs sets every setting empty).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { hs256Jwt, nowS } from "./jwks.mjs";
import { startWorker, sessionId, chatBody, postChat, readAll } from "./harness.mjs";

const SECRET = "closed-default-secret-0123456789abcdef";
const workers = [];
after(() => Promise.all(workers.map((w) => w.dispose())));

async function start(options) {
  const worker = await startWorker(options);
  workers.push(worker);
  return worker;
}

/** The worker's `settings` lines, once its first request came. */
const settingsLines = (worker) => worker.diagnostics.filter((d) => d.event === "settings");

test("no AUTH_MODE and no key: every request is 500 misconfigured, and the log says what is missing", { timeout: 30_000 }, async () => {
  const worker = await start({ unset: ["AUTH_MODE"] });
  const session = sessionId("closed");
  for (const response of [
    await postChat(worker.base, session, chatBody("hello")),
    await fetch(`${worker.base}/api/sessions/${session}/messages`),
    await fetch(`${worker.base}/api/sessions/${session}/chat/stop`, { method: "POST" }),
  ]) {
    assert.equal(response.status, 500);
    assert.equal((await response.json()).error.code, "misconfigured");
  }
  const lines = settingsLines(worker);
  assert.ok(lines.length >= 1, JSON.stringify(worker.diagnostics));
  assert.equal(lines[0].level, "error");
  assert.equal(lines[0].detail, 'AUTH_MODE is "jwt" (the default when it is not set) but neither AUTH_SECRET nor JWKS_URL is set');
  // Nothing reached the agent: no session was ever opened.
  const received = await fetch(`${worker.base}/demo/sessions/${session}/received`);
  assert.notEqual(received.status, 200);
});

test("no AUTH_MODE with a key is jwt: no token 401, a token streams the turn; the start-up line says jwt", { timeout: 30_000 }, async () => {
  const worker = await start({ unset: ["AUTH_MODE"], vars: { AUTH_SECRET: SECRET } });
  const session = sessionId("closed-jwt");
  const refused = await postChat(worker.base, session, chatBody("hello"));
  assert.equal(refused.status, 401);
  assert.equal((await refused.json()).error.code, "unauthorized");
  const token = hs256Jwt(SECRET, { sub: "u1", sessions: [session], exp: nowS() + 600 });
  const ok = await postChat(worker.base, session, chatBody("/slow 1 5"), {
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
  });
  assert.equal(ok.status, 200);
  assert.match((await readAll(ok)).text, /"type":"finish"/);
  assert.deepEqual(settingsLines(worker).map((l) => [l.level, l.detail]), [["info", "AUTH_MODE jwt"]]);
});

test("AUTH_MODE none written out is open, and says so once", { timeout: 30_000 }, async () => {
  const worker = await start({ vars: { AUTH_MODE: "none" } });
  const response = await postChat(worker.base, sessionId("open"), chatBody("/slow 1 5"));
  assert.equal(response.status, 200);
  await readAll(response);
  await readAll(await postChat(worker.base, sessionId("open"), chatBody("/slow 1 5")));
  assert.deepEqual(settingsLines(worker).map((l) => [l.level, l.detail]), [["info", "AUTH_MODE none"]]);
});

test("an empty TRACE_MAX is an error, not the cap lifted: 500 misconfigured, the setting named", { timeout: 30_000 }, async () => {
  const worker = await start({ vars: { TRACE_MAX: "" } });
  const response = await postChat(worker.base, sessionId("empty"), chatBody("hello"));
  assert.equal(response.status, 500);
  assert.equal((await response.json()).error.code, "misconfigured");
  assert.equal(settingsLines(worker)[0].detail, "TRACE_MAX is set but empty");
});
