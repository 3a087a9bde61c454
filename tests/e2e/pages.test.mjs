// A session of 5,000 messages (the demo agent's `/grow`), as every client meets it: the first
// page of the history (the newest 100, with `x-history-before`), every older page down to the
// first message (each message once, in order), an `init` within its bounds (200 messages, 3 MiB:
// R-init-bounds) on a new socket, and a turn made on another device reaching a followed stock
// `Chat` that holds only the newest page with no history load. Then the query's refusals.
// docs/sessions.md, "Pages and branches".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { startWorker, sessionId, chatBody, postChat, readAll } from "./harness.mjs";
import { stockChat, textOf } from "./chat.mjs";
import { Conn } from "../../check-agent/conn.mjs";
import { followSession } from "../../clients/follow-session.js";

/** The session's size: 2,499 exchanges grown, and the `/grow` turn's own two messages. */
const SIZE = 5_000;
const GROWN = (SIZE - 2) / 2;

let worker;
let session;
before(async () => {
  worker = await startWorker({ probe: true });
  session = sessionId("pages");
  const grown = await readAll(await postChat(worker.base, session, chatBody(`/grow ${GROWN}`)));
  assert.match(grown.text, /"type":"finish"/, grown.text.slice(0, 500));
});
after(() => worker?.dispose());

const history = (query = "") => fetch(`${worker.base}/api/sessions/${session}/messages${query}`);

test("the first page is the newest 100 messages, and the header names the page before it", async () => {
  const response = await history();
  assert.equal(response.status, 200);
  const page = await response.json();
  assert.equal(page.length, 100);
  assert.equal(page.at(-1).role, "assistant", "the /grow turn's reply last");
  const older = response.headers.get("x-history-before");
  assert.equal(older, page[0].metadata.ref, "the cursor is the first message's ref");
});

test("every older page, down to the first message: 5,000 messages, each once, in order", async () => {
  const all = [];
  let query = "?limit=200";
  let pages = 0;
  for (;;) {
    const response = await history(query);
    assert.equal(response.status, 200, await response.clone().text());
    all.unshift(...(await response.json()));
    pages += 1;
    const older = response.headers.get("x-history-before");
    if (older === null) break;
    query = `?before=${encodeURIComponent(older)}&limit=200`;
    assert.ok(pages < 100, "pages end");
  }
  assert.equal(pages, SIZE / 200);
  assert.equal(all.length, SIZE);
  assert.equal(new Set(all.map((m) => m.metadata.ref)).size, SIZE, "each message once");
  assert.deepEqual([...new Set(all.map((m, i) => (i % 2 ? "assistant" : "user") === m.role))], [true], "user, reply, user, reply …");
});

test("a new socket's init holds the newest page of the branch, within its bounds", async () => {
  const conn = await Conn.open(new WebSocket(`${worker.probe.replace("http", "ws")}/sessions/${session}/agent`));
  try {
    const init = conn.init;
    assert.ok(init, "an init first");
    assert.equal(init.protocol, 7);
    assert.ok(init.messages.length <= 200, `${init.messages.length} messages`);
    assert.ok(JSON.stringify(init.messages).length <= 3 * 1024 * 1024);
    const newest = await (await history("?limit=200")).json();
    assert.deepEqual(init.messages.map((m) => m.ref), newest.map((m) => m.metadata.ref), "the newest 200, as the history's page");
  } finally {
    conn.close();
  }
});

test("a turn from another device reaches a followed Chat that holds the newest page, with no history load", async () => {
  const { chat } = await stockChat("ai", `${worker.base}/api/sessions/${session}/chat`, { messages: await (await history()).json() });
  let loads = 0;
  const counting = async (url, init) => {
    if (String(url).includes("/messages")) loads += 1;
    return fetch(url, init);
  };
  let synced;
  const sync = new Promise((resolve) => (synced = resolve));
  const feed = followSession(chat, {
    url: `${worker.base}/api/sessions/${session}/events`,
    fetch: counting,
    shareTabs: false,
    onEvent: (event) => event.type === "sync" && synced(),
  });
  try {
    // Following before the other device sends (a feed that connects after the turn ended has
    // only a `sync` to go by, and loads the history, as it should).
    await sync;
    // Another device: a send after the conversation's newest message, a turn of 2 s, so that the
    // followed chat's resume reaches it while it runs, however loaded the machine (a turn that
    // ended before the resume came is whole only in the history, which the chat then loads, as it
    // should).
    const last = chat.messages.at(-1);
    const body = JSON.parse(chatBody("/slow 20 100"));
    body.messages = [...chat.messages.map(({ id, role, parts }) => ({ id, role, parts })), { ...body.messages[0], id: "device-b-1" }];
    await readAll(await postChat(worker.base, session, JSON.stringify(body)));
    const deadline = Date.now() + 10_000;
    while (!(chat.status === "ready" && chat.messages.at(-1)?.id !== last.id && textOf(chat.messages.at(-1)).includes("w20"))) {
      assert.ok(Date.now() < deadline, `the turn in the followed chat: ${chat.messages.slice(-2).map((m) => m.id)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(loads, 0, "no history loaded");
    assert.equal(chat.messages.at(-2).id, "device-b-1");
    assert.equal(chat.messages.length, 102, "the page kept, the turn added");
  } finally {
    feed.close();
  }
});

test("a query it cannot read is a 400, a ref it does not hold a 404: nothing asked of the agent's store", async () => {
  for (const [query, status, code] of [
    ["?limit=0", 400, "invalid_query"],
    ["?limit=201", 400, "invalid_query"],
    ["?before=a%20b", 400, "invalid_query"],
    ["?before=x&leaf=y", 400, "invalid_query"],
    ["?leaf=u_nobody", 404, "message_not_found"],
    ["?before=u_nobody", 404, "message_not_found"],
  ]) {
    const response = await history(query);
    assert.equal(response.status, status, query);
    assert.equal((await response.json()).error.code, code, query);
  }
});
