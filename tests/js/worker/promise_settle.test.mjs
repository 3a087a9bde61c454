// Settling a promise into the isolate's one callback (crates/platform/src/promise.js): the callback gets
// the promise's key first, then whether it was fulfilled and its value or reason, once, and
// never before the promise settles.
import { test } from "node:test";
import assert from "node:assert/strict";
import { settle } from "../../../crates/platform/src/promise.js";

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

function recorder() {
  const calls = [];
  return { calls, callback: (...args) => calls.push(args) };
}

test("a fulfilled promise: its key, true and its value, once", async () => {
  const { calls, callback } = recorder();
  let resolve;
  settle(new Promise((r) => (resolve = r)), 4, 9, callback);
  await turn();
  assert.deepEqual(calls, [], "nothing before the promise settles");
  resolve("value");
  await turn();
  assert.deepEqual(calls, [[4, 9, true, "value"]]);
});

test("a rejected promise: its key, false and the reason", async () => {
  const { calls, callback } = recorder();
  const reason = new Error("refused");
  settle(Promise.reject(reason), 0, 1, callback);
  await turn();
  assert.deepEqual(calls, [[0, 1, false, reason]]);
});

test("promises that share the callback each report under their own key", async () => {
  const { calls, callback } = recorder();
  settle(Promise.resolve("a"), 1, 0, callback);
  settle(Promise.reject("b"), 2, 5, callback);
  await turn();
  assert.deepEqual(calls, [
    [1, 0, true, "a"],
    [2, 5, false, "b"],
  ]);
});
