// clients/conversations.js in Node, against a stand-in of the worker's routes: the requests each
// call makes (path, query, method, body, the caller's headers, sync or async), a walk of every
// page that gives each session once though one moved between pages, and a refusal as a
// ConversationsError with the worker's status and code. The worker itself is in
// tests/e2e/conversations.test.mjs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { conversations, ConversationsError, MAX_PAGE } from "../../../clients/conversations.js";

const session = (id) => ({ id, title: `t ${id}`, createdAt: 1, updatedAt: 2 });

/** A fetch that records each request and answers with `answer(url, init)`: [status, json]. */
function standIn(answer) {
  const sent = [];
  const fetch = async (url, init = {}) => {
    sent.push({ url: String(url), method: init.method ?? "GET", headers: init.headers, body: init.body });
    const [status, json] = answer(new URL(url, "http://x"), init);
    return new Response(status === 204 ? null : JSON.stringify(json), { status, headers: { "content-type": "application/json" } });
  };
  return { sent, fetch };
}

describe("conversations", () => {
  test("a page: the query it asks, the caller's headers, the answer as the worker gave it", async () => {
    const { sent, fetch } = standIn(() => [200, { sessions: [session("a")], next: "c1" }]);
    const list = conversations({ baseUrl: "https://chat.example/", headers: async () => ({ authorization: "Bearer t" }), fetch });
    assert.deepEqual(await list.page({ limit: 5, cursor: "c0" }), { sessions: [session("a")], next: "c1" });
    await list.page();
    assert.deepEqual(sent.map((r) => r.url), ["https://chat.example/api/sessions?limit=5&cursor=c0", "https://chat.example/api/sessions"]);
    assert.deepEqual(sent[0].headers, { authorization: "Bearer t" });
  });

  test("every page: each session once, though one moved to the front between two pages", async () => {
    const pages = { "": [["a", "b"], "p2"], p2: [["b", "c"], "p3"], p3: [["d"], null] };
    const { sent, fetch } = standIn((url) => {
      const [ids, next] = pages[url.searchParams.get("cursor") ?? ""];
      return [200, { sessions: ids.map(session), next }];
    });
    const seen = [];
    for await (const s of conversations({ fetch }).all()) seen.push(s.id);
    assert.deepEqual(seen, ["a", "b", "c", "d"]);
    assert.ok(sent.every((r) => new URL(r.url, "http://x").searchParams.get("limit") === String(MAX_PAGE)));
  });

  test("a rename is a PATCH of the title, a delete a DELETE; ids are encoded", async () => {
    const { sent, fetch } = standIn((url, init) => (init.method === "DELETE" ? [204] : [200, { ...session("a b"), title: JSON.parse(init.body).title }]));
    const list = conversations({ headers: { "x-conversations-key": "k" }, fetch });
    assert.equal((await list.rename("a b", "Lisbon")).title, "Lisbon");
    assert.equal(await list.remove("a b"), undefined);
    assert.deepEqual(sent.map((r) => [r.method, r.url]), [["PATCH", "/api/sessions/a%20b"], ["DELETE", "/api/sessions/a%20b"]]);
    assert.deepEqual(sent[0].headers, { "x-conversations-key": "k", "content-type": "application/json" });
  });

  test("a refusal rejects with the worker's status, code and message", async () => {
    const { fetch } = standIn(() => [404, { error: { code: "session_not_found", message: "No such session in your list." } }]);
    const refused = await conversations({ fetch }).remove("x").catch((e) => e);
    assert.ok(refused instanceof ConversationsError);
    assert.deepEqual([refused.status, refused.code, refused.message], [404, "session_not_found", "No such session in your list."]);
    const { fetch: broken } = standIn(() => [502, "not json"]);
    const odd = await conversations({ fetch: broken }).page().catch((e) => e);
    assert.deepEqual([odd.status, odd.code], [502, "unknown"]);
  });
});
