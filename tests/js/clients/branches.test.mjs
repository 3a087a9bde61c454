// clients/branches.js against a history route of the test's own: which messages have siblings,
// where a turn that follows a branch goes in a chat that holds only the newest pages, showing
// another branch (`?leaf=`), and older pages (`?before=`, `x-history-before`); then
// clients/follow-session.js on a long conversation: a turn from another device is added with no
// history load, and a turn on another branch moves the chat to it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { keptFor, loadBranch, loadOlder, refreshBranches, siblingsOf } from "../../../clients/branches.js";
import { followSession } from "../../../clients/follow-session.js";

const HISTORY = "https://worker.example/api/sessions/s/messages";
const msg = (id, extra = {}) => ({ id, role: id.startsWith("u") ? "user" : "assistant", parts: [], metadata: { ref: `r-${id}`, ...extra } });

test("a message's siblings are read from its metadata, and nothing else passes for them", () => {
  const picked = msg("u2", { siblings: { index: 1, count: 3, refs: ["a", "b", "c"] } });
  assert.deepEqual(siblingsOf(picked), { index: 1, count: 3, refs: ["a", "b", "c"] });
  for (const siblings of [undefined, null, "x", { index: 0, count: 1, refs: ["a"] }, { index: 3, count: 3, refs: ["a", "b", "c"] }, { index: 0, count: 2, refs: ["a"] }, { index: 0, count: 2, refs: ["a", 2] }]) {
    assert.equal(siblingsOf(msg("u1", { siblings })), null, JSON.stringify(siblings));
  }
  assert.equal(siblingsOf({ id: "x" }), null);
  assert.equal(siblingsOf(undefined), null);
});

test("a turn's branch is found at the end of a chat that holds only its newest pages", () => {
  const chat = ["u5", "a5", "u6", "a6"].map((id) => ({ id }));
  // The feed names more of the branch than the chat loaded: kept all, the turn after a6.
  assert.equal(keptFor(chat, ["u4", "a4", "u5", "a5", "u6", "a6"]), 4);
  // A turn after a5 (a stale device, a regenerate of u6 elsewhere): the chat is cut there.
  assert.equal(keptFor(chat, ["u4", "a4", "u5", "a5"]), 2);
  // The chat holds older pages than the feed names: kept.
  assert.equal(keptFor(chat, ["u6", "a6"]), 4);
  // Another branch: its last message is not the chat's, or the messages before it differ.
  assert.equal(keptFor(chat, ["u4", "a4", "u5", "x5"]), -1);
  assert.equal(keptFor(chat, ["u4", "zz", "u6", "a6"].slice(1)), -1);
  // A new first message keeps nothing.
  assert.equal(keptFor(chat, []), 0);
});

/** A history route: `pages` by query (`""`, `"leaf=…"`, `"before=…"`), each `{ messages, older }`. */
function route(pages) {
  const asked = [];
  const fetch = async (url, init) => {
    const query = new URL(url).searchParams;
    asked.push({ query: query.toString(), headers: init.headers });
    const page = pages[query.toString()];
    if (!page) return Response.json({ error: { code: "message_not_found" } }, { status: 404 });
    return Response.json(page.messages, { headers: page.older ? { "x-history-before": page.messages[0].metadata.ref } : {} });
  };
  return { fetch, asked };
}

test("another branch is shown whole from its newest page, with the transport's headers", async () => {
  const branch = [msg("u1"), msg("a1b")];
  const { fetch, asked } = route({ "leaf=r-a1b&limit=50": { messages: branch, older: true } });
  const chat = { messages: [msg("u1"), msg("a1")] };
  const shown = await loadBranch(chat, "r-a1b", { historyUrl: HISTORY, headers: async () => ({ "X-Questions": "tools" }), fetch, limit: 50 });
  assert.deepEqual(shown, { older: true });
  assert.deepEqual(chat.messages, branch);
  assert.deepEqual(asked[0].headers, { "X-Questions": "tools" });
  await assert.rejects(loadBranch(chat, "nope", { historyUrl: HISTORY, fetch }), (error) => error.status === 404);
  assert.deepEqual(chat.messages, branch, "a refused page changes nothing");
});

test("older pages go before the chat's first message until there are none", async () => {
  const { fetch, asked } = route({
    "before=r-u3": { messages: [msg("u2"), msg("a2")], older: true },
    "before=r-u2": { messages: [msg("u1"), msg("a1")], older: false },
  });
  const chat = { messages: [msg("u3"), msg("a3")] };
  const options = { historyUrl: () => HISTORY, fetch };
  assert.deepEqual(await loadOlder(chat, options), { added: 2, older: true });
  assert.deepEqual(await loadOlder(chat, options), { added: 2, older: false });
  assert.deepEqual(chat.messages.map((m) => m.id), ["u1", "a1", "u2", "a2", "u3", "a3"]);
  // A first message with no ref (an older agent's): nothing asked.
  assert.deepEqual(await loadOlder({ messages: [{ id: "x" }] }, options), { added: 0, older: false });
  assert.equal(asked.length, 2);
});

test("a page that comes after the chat changed is not put before another first message", async () => {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  const chat = { messages: [msg("u3")] };
  const fetch = async () => (await held, Response.json([msg("u2")]));
  const loading = loadOlder(chat, { historyUrl: HISTORY, fetch });
  chat.messages = [msg("u9")];
  release();
  assert.deepEqual(await loading, { added: 0, older: false });
  assert.deepEqual(chat.messages.map((m) => m.id), ["u9"]);
});

/** Follows a feed that sends `events`, with a chat holding `messages`; resolves to what it did. */
async function follow(messages, events, newest = []) {
  const chat = { messages, status: "ready", resumes: 0, resumeStream: async () => (chat.resumes += 1) };
  let loads = 0;
  const fetch = async (url) => {
    if (url.endsWith("/messages")) {
      loads += 1;
      return Response.json(newest);
    }
    const text = events.map((event, i) => `id: ${String(i + 1).padStart(16, "0")}\ndata: ${JSON.stringify(event)}\n\n`).join("");
    return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(text)) }));
  };
  let applied = 0;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  const feed = followSession(chat, { url: "https://worker.example/api/sessions/s/events", fetch, shareTabs: false, onEvent: () => ++applied === events.length && done() });
  await all;
  feed.close();
  return { resumes: chat.resumes, loads, ids: chat.messages.map((m) => m.id) };
}

/** The newest 100 of a 5,000-message conversation, as a chat holds it. */
const LONG = Array.from({ length: 100 }, (_, i) => msg(`${i % 2 ? "a" : "u"}${4900 + i}`));
const WINDOW = Array.from({ length: 200 }, (_, i) => `${i % 2 ? "a" : "u"}${4800 + i}`);

test("a long conversation: another device's turn is added with no history load", async () => {
  const u = { id: "u5000", role: "user", parts: [] };
  const seen = await follow(LONG.slice(), [{ type: "sync", messageIds: WINDOW, turn: null }, { type: "turn-start", turnId: "a5001", message: u, branch: WINDOW }]);
  assert.equal(seen.loads, 0, "neither the sync nor the turn loads the history");
  assert.equal(seen.resumes, 1);
  assert.deepEqual(seen.ids.slice(-2), ["a4999", "u5000"]);
  assert.equal(seen.ids.length, 101);
});

test("a long conversation: a turn on an earlier message moves the chat there, and one on another branch loads its newest page", async () => {
  const u = { id: "u9", role: "user", parts: [] };
  const cut = await follow(LONG.slice(), [{ type: "turn-start", turnId: "a10", message: u, branch: WINDOW.slice(0, 150) }]);
  assert.equal(cut.loads, 0);
  assert.deepEqual(cut.ids.slice(-2), ["a4949", "u9"]);
  const moved = await follow(LONG.slice(), [{ type: "turn-start", turnId: "a10", message: u, branch: ["u1", "a1"] }], [msg("u1"), msg("a1"), u]);
  assert.equal(moved.loads, 1);
  assert.deepEqual(moved.ids, ["u1", "a1", "u9"]);
});

test("a turn's end brings the chat's refs and siblings up to date, and changes nothing else", async () => {
  const streamed = { id: "a2", role: "assistant", parts: [{ type: "text", text: "live" }], metadata: { turnId: "a2" } };
  const user = { id: "u2", role: "user", parts: [{ type: "text", text: "edited" }] };
  const { fetch, asked } = route({
    "leaf=a2&limit=4": {
      messages: [msg("u1"), msg("a1"), msg("u2", { siblings: { index: 1, count: 2, refs: ["r-old", "r-u2"] } }), { ...streamed, metadata: { ref: "a2", turnId: "a2" } }],
    },
  });
  const chat = { messages: [msg("u1"), msg("a1"), user, streamed] };
  const first = chat.messages[0];
  assert.equal(await refreshBranches(chat, { historyUrl: HISTORY, fetch }), true);
  assert.equal(asked[0].query, "leaf=a2&limit=4");
  assert.deepEqual(chat.messages[2].metadata, { ref: "r-u2", siblings: { index: 1, count: 2, refs: ["r-old", "r-u2"] } });
  assert.deepEqual(chat.messages[3].metadata, { turnId: "a2", ref: "a2" });
  assert.deepEqual(chat.messages[3].parts, streamed.parts, "the parts as the stream left them");
  assert.equal(chat.messages[0], first, "an unchanged message is kept as it is");
  assert.equal(await refreshBranches(chat, { historyUrl: HISTORY, fetch }), false, "nothing new");
  assert.equal(await refreshBranches({ messages: [{ id: "u", role: "user" }] }, { historyUrl: HISTORY, fetch }), false);
});
