// The Expo example's token renewal (examples/expo/auth.ts), run: a token is reused while more
// than a minute of it is left, renewed after, once for however many requests wait, and a failed
// renewal is tried again by the next request. The file is TypeScript: stripped with the
// repository's own compiler, then imported.
import { test, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { root } from "../docs/docs.mjs";

const source = readFileSync(path.join(root, "examples/expo/auth.ts"), "utf8");
const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
const { authHeaders } = await import(`data:text/javascript,${encodeURIComponent(outputText)}`);

let now = 1_000_000;
const realNow = Date.now;
beforeEach(() => (Date.now = () => now));
afterEach(() => (Date.now = realNow));

/** A backend that issues `token-1`, `token-2`… each living `lifeMs`, and counts its calls. */
function backend(lifeMs = 10 * 60_000) {
  const calls = { count: 0 };
  const source = async () => {
    calls.count += 1;
    return { token: `token-${calls.count}`, expiresAt: Date.now() + lifeMs };
  };
  return { source, calls };
}

test("no source, no header (the demo agent)", async () => {
  assert.deepEqual(await authHeaders(null)(), {});
});

test("a token is reused while more than a minute is left, and renewed after", async () => {
  const { source, calls } = backend();
  const headers = authHeaders(source);
  assert.deepEqual(await headers(), { Authorization: "Bearer token-1" });
  now += 8 * 60_000; // two minutes left
  assert.deepEqual(await headers(), { Authorization: "Bearer token-1" });
  now += 61_000; // 59 s left
  assert.deepEqual(await headers(), { Authorization: "Bearer token-2" });
  assert.equal(calls.count, 2);
});

test("requests waiting for a renewal share one call to the backend", async () => {
  const { source, calls } = backend();
  const headers = authHeaders(source);
  const all = await Promise.all([headers(), headers(), headers()]);
  assert.deepEqual(all.map((h) => h.Authorization), ["Bearer token-1", "Bearer token-1", "Bearer token-1"]);
  assert.equal(calls.count, 1);
});

test("a failed renewal fails its request; the next one asks again", async () => {
  let fail = true;
  let calls = 0;
  const headers = authHeaders(async () => {
    calls += 1;
    if (fail) throw new Error("the backend is down");
    return { token: "fresh", expiresAt: Date.now() + 600_000 };
  });
  await assert.rejects(headers(), /the backend is down/);
  fail = false;
  assert.deepEqual(await headers(), { Authorization: "Bearer fresh" });
  assert.equal(calls, 2);
});
