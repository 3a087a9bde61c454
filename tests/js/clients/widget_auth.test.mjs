// The chat panel's token handling (widget/src/auth.js) against a fake fetch: which token each
// request carries, and that a 401 is retried once, only when the site's function can renew.
import { test } from "node:test";
import assert from "node:assert/strict";
import { authorizedFetch, replaceableSource, tokenSource } from "../../../widget/src/auth.js";

/** A fetch that answers each call with the next status of `statuses`, recording what it got. */
function fakeFetch(statuses) {
  const calls = [];
  const fetch = async (input, init) => {
    calls.push({ input, authorization: new Headers(init.headers).get("authorization"), body: init.body });
    return new Response("{}", { status: statuses[calls.length - 1] ?? 200 });
  };
  return { fetch, calls };
}

test("a fixed token goes on every request, and a 401 is final", async () => {
  const { fetch, calls } = fakeFetch([401]);
  const response = await authorizedFetch(tokenSource({ token: "t1" }), fetch)("/messages");
  assert.equal(response.status, 401);
  assert.deepEqual(calls.map((c) => c.authorization), ["Bearer t1"]);
});

test("no token: no header", async () => {
  const { fetch, calls } = fakeFetch([200]);
  await authorizedFetch(tokenSource({}), fetch)("/messages");
  assert.equal(calls[0].authorization, null);
});

test("a token function is asked before each request, and to renew after a 401, then the request goes again once", async () => {
  const asked = [];
  let n = 0;
  const getToken = async ({ renew }) => {
    asked.push(renew);
    return renew ? `fresh-${++n}` : "stale";
  };
  const { fetch, calls } = fakeFetch([401, 200]);
  const response = await authorizedFetch(tokenSource({ getToken }), fetch)("/chat", { method: "POST", body: '{"a":1}' });
  assert.equal(response.status, 200);
  assert.deepEqual(asked, [false, true]);
  assert.deepEqual(calls.map((c) => c.authorization), ["Bearer stale", "Bearer fresh-1"]);
  assert.deepEqual(calls.map((c) => c.body), ['{"a":1}', '{"a":1}'], "the same body both times");
});

test("a second 401 is returned as it is: one retry, never a loop", async () => {
  const getToken = () => "always-bad"; // a sync function works too
  const { fetch, calls } = fakeFetch([401, 401, 200]);
  const response = await authorizedFetch(tokenSource({ getToken }), fetch)("/chat");
  assert.equal(response.status, 401);
  assert.equal(calls.length, 2);
});

test("a header the transport set (from the same source) is kept, and replaced on the retry", async () => {
  const getToken = ({ renew }) => (renew ? "new" : "old");
  const { fetch, calls } = fakeFetch([401, 200]);
  await authorizedFetch(tokenSource({ getToken }), fetch)("/chat", { headers: { authorization: "Bearer from-transport" } });
  assert.deepEqual(calls.map((c) => c.authorization), ["Bearer from-transport", "Bearer new"]);
});

test("identify replaces the token for requests made after it", async () => {
  const source = replaceableSource(tokenSource({ token: "before" }));
  const { fetch, calls } = fakeFetch([200, 200]);
  const authorized = authorizedFetch(source, fetch);
  await authorized("/a");
  source.set(tokenSource({ token: "after" }));
  await authorized("/b");
  assert.deepEqual(calls.map((c) => c.authorization), ["Bearer before", "Bearer after"]);
});
