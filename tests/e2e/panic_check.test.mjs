// The reliability suite's "no panics" check must be able to fail: a worker whose demo agent
// panics on purpose (`/panic`) leaves lines in workerd's stderr that `panicsIn` (the function the
// suite uses) reports. The worker is its own: a panic loses its wasm instance.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, readAll, panicsIn, sleep } from "./harness.mjs";

let worker;
before(async () => {
  worker = await startWorker();
});
after(() => worker?.dispose());

test("a panic of the Rust code shows in workerd's stderr, and the suite's check reports it", { timeout: 30_000 }, async () => {
  const quiet = await postChat(worker.base, sessionId("calm"), chatBody("/slow 2 10"));
  await readAll(quiet);
  assert.deepEqual(panicsIn(worker.stderr), [], "nothing before the panic");

  // The agent shares the worker's isolate here, so the panic takes the stream down with it: the
  // request is not read to an end that may never come, only cancelled once the check is done.
  const controller = new AbortController();
  postChat(worker.base, sessionId("panic"), chatBody("/panic"), { signal: controller.signal }).catch(() => {});
  const deadline = Date.now() + 10_000;
  while (panicsIn(worker.stderr).length === 0 && Date.now() < deadline) await sleep(50);
  controller.abort();
  const found = panicsIn(worker.stderr);
  assert.ok(found.length > 0, `no panic seen; stderr:\n${worker.stderr.slice(-20).join("\n")}`);
  assert.ok(worker.stderr.some((line) => line.includes("/panic asked for a panic")), "the panic's own message");

  // The next request gets a new wasm instance (the entry's panic recovery): a whole turn again.
  const after = await postChat(worker.base, sessionId("after"), chatBody("/slow 2 10"));
  assert.equal(after.status, 200);
  const { text } = await readAll(after);
  assert.match(text, /"type":"finish"/, `no finish after the panic:\n${text}`);
  assert.match(text, /data: \[DONE\]/);
});
