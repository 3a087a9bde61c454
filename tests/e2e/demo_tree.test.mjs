// The demo agent as an agent of protocol 5, on its own socket (the probe worker opens it as the
// adapter does): every message kept as a tree, each with its `ref`, `parent` and `siblings`;
// `message.create` carrying the turn's user message; `history` frames for any branch and older
// pages; `/grow`, the bounds of a page and a full store; a turn cut off by a restart listed
// finished with its parts so far; and the `proto4-` persona, an agent of protocol 4 that deletes
// what a turn does not follow (docs/agent-protocol.md, "Branches", "Agents of protocol 4").
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWorker, sessionId, sleep } from "./harness.mjs";
import { loadSdk } from "./chat.mjs";

/** A page's bounds (R-init-bounds): 200 messages, 3 MiB. */
const MAX_PAGE_MESSAGES = 200;
const MAX_PAGE_BYTES = 3 * 1024 * 1024;

/** The agent's socket of `session` through `worker`'s probe: its frames, and `next(type)`, the
 * next unread frame of that type (waiting for it). */
async function agentSocket(worker, session) {
  const ws = new WebSocket(`${worker.probe.replace("http", "ws")}/sessions/${session}/agent`);
  const unread = [];
  const waiting = [];
  ws.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    frame.bytes = event.data.length;
    const at = waiting.findIndex((w) => w.type === frame.type);
    if (at === -1) unread.push(frame);
    else waiting.splice(at, 1)[0].resolve(frame);
  };
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const next = (type) => {
    const at = unread.findIndex((f) => f.type === type);
    if (at !== -1) return Promise.resolve(unread.splice(at, 1)[0]);
    return new Promise((resolve) => waiting.push({ type, resolve }));
  };
  const send = (frame) => ws.send(JSON.stringify(frame));
  return { ws, unread, next, send, close: () => ws.close() };
}

/** A prompt of `content` for message `messageId` after the client's `branch`; its turn's
 * `message.create` and `message.finalize`, once the agent is idle again. */
async function turn(socket, content, messageId, branch) {
  socket.send({ type: "prompt", content, requestId: `r-${messageId}`, messageId, branch, onDisconnect: "detach" });
  const create = await socket.next("message.create");
  const finalize = await socket.next("message.finalize");
  await socket.next("complete");
  return { create, finalize };
}

const view = (messages) => messages.map((m) => m.parts.find((p) => p.type === "text")?.text);

describe("the demo agent keeps protocol 7 (5's tree)", { concurrency: true }, () => {
  let worker;
  before(async () => {
    worker = await startWorker({ probe: true });
  });
  after(() => worker?.dispose());

  test("a stale device's send and a regenerate set aside, never delete; siblings and the branch request reach every message", { timeout: 30_000 }, async () => {
    const session = sessionId("tree");
    const a = await agentSocket(worker, session);
    assert.equal((await a.next("init")).protocol, 7);
    const first = await turn(a, "/slow 1 5", "u1", []);
    const a1 = first.create.turnId;
    assert.deepEqual(first.create.message.parent, null);
    const second = await turn(a, "/slow 2 5", "u2", ["u1", a1]);
    // A stale device: it holds [u1, a1] and sends u3.
    const third = await turn(a, "/slow 3 5", "u3", ["u1", a1]);
    const u2 = second.create.message.ref;
    const u3 = third.create.message.ref;
    assert.equal(third.create.message.id, "u3");
    assert.equal(third.create.message.parent, a1, "u3 follows a1");
    assert.deepEqual(third.create.message.siblings, [u2, u3], "beside u2");
    assert.equal(third.create.siblings, undefined, "a first reply has no siblings");

    const b = await agentSocket(worker, session);
    const init = await b.next("init");
    assert.deepEqual(init.messages.map((m) => m.id), ["u1", a1, "u3", third.create.turnId], "the current branch: the newest turn's");
    assert.deepEqual(init.messages.map((m) => m.parent), [null, first.create.message.ref, a1, u3]);
    assert.deepEqual(init.messages[2].siblings, [u2, u3]);
    assert.equal(init.messages[3].ref, third.create.turnId, "a reply's ref is its id");

    // The other branch, by its message; the answer goes to the asking socket only.
    b.send({ type: "history", requestId: "h1", leaf: u2 });
    const other = await b.next("history");
    assert.equal(other.requestId, "h1");
    assert.deepEqual(other.messages.map((m) => m.id), ["u1", a1, "u2", second.create.turnId]);
    b.send({ type: "history", requestId: "h2", before: u3, limit: 1 });
    assert.deepEqual((await b.next("history")).messages.map((m) => m.id), [a1]);
    b.send({ type: "history", requestId: "h3", leaf: "u_never" });
    const missing = await b.next("error");
    assert.equal(missing.code, "not_found");
    await sleep(100);
    assert.equal(a.unread.filter((f) => f.type === "history" || f.type === "error").length, 0, "nothing on the other socket");

    // A regenerate of u3: a new reply beside the first, which message.create names.
    const again = await turn(b, "/slow 3 5", "u3", ["u1", a1]);
    assert.equal(again.create.message.ref, u3, "the same user message");
    assert.deepEqual(again.create.siblings, [third.create.turnId, again.create.turnId]);
    // The model is given the branch to u3, not u2's.
    const seen = await turn(b, "/seen", "u4", ["u1", a1, "u3", again.create.turnId]);
    assert.deepEqual(JSON.parse(seen.finalize.finalText).map((m) => m.id), ["u1", a1, "u3", again.create.turnId, "u4"]);
    a.close();
    b.close();
  });

  test("/grow: a session of 10,000 messages opens on its newest page and reads back by pages; past the cap a prompt is refused and stores nothing", { timeout: 60_000 }, async () => {
    const session = sessionId("grow");
    const a = await agentSocket(worker, session);
    await a.next("init");
    const started = Date.now();
    const grown = await turn(a, "/grow 5000", "g", []);
    const took = Date.now() - started;
    assert.match(grown.finalize.finalText, /^Grew the conversation by 4,999 exchanges \(9,998 messages\)\. 5,000 were asked/);
    assert.ok(took < 10_000, `a /grow of 5,000 took ${took} ms`);
    assert.match(grown.create.message.parent, /^msg_[0-9a-f]{16}_r4999$/, "its message follows the last grown reply");

    const b = await agentSocket(worker, session);
    const init = await b.next("init");
    assert.equal(init.messages.length, MAX_PAGE_MESSAGES);
    assert.ok(init.bytes <= MAX_PAGE_BYTES);
    assert.equal(init.messages.at(-1).id, grown.create.turnId, "the newest last");
    let before = init.messages[0].ref;
    let total = init.messages.length;
    const texts = [];
    for (let page = 1; before; page += 1) {
      assert.ok(page <= 10_000 / MAX_PAGE_MESSAGES, "older pages end");
      b.send({ type: "history", requestId: `p${page}`, before });
      const older = await b.next("history");
      assert.equal(older.requestId, `p${page}`);
      assert.ok(older.messages.length <= MAX_PAGE_MESSAGES);
      total += older.messages.length;
      texts.unshift(...view(older.messages));
      before = older.messages[0].parent === null ? null : older.messages[0].ref;
    }
    assert.equal(total, 10_000, "every message, by pages");
    assert.deepEqual(texts.slice(0, 4), ["g1", "r1", "g2", "r2"]);

    b.send({ type: "prompt", content: "one more", requestId: "r-full", messageId: "m", branch: ["g", grown.create.turnId], onDisconnect: "detach" });
    const full = await b.next("error");
    assert.equal(full.code, "session_full");
    assert.match(full.message, /10,000 messages/);
    const c = await agentSocket(worker, session);
    assert.equal((await c.next("init")).messages.at(-1).id, grown.create.turnId, "nothing stored");
    for (const s of [a, b, c]) s.close();
  });

  test("proto4-: an agent of protocol 4 lists no refs, deletes what a turn does not follow, and ignores a history frame", { timeout: 30_000 }, async () => {
    const session = sessionId("proto4");
    const a = await agentSocket(worker, session);
    assert.equal((await a.next("init")).protocol, 4);
    const first = await turn(a, "/slow 1 5", "u1", []);
    assert.equal(first.create.message, undefined);
    await turn(a, "/slow 2 5", "u2", ["u1", first.create.turnId]);
    const stale = await turn(a, "/slow 3 5", "u3", ["u1", first.create.turnId]);
    a.send({ type: "history", requestId: "h" });
    const b = await agentSocket(worker, session);
    const init = await b.next("init");
    assert.deepEqual(init.messages.map((m) => m.id), ["u1", first.create.turnId, "u3", stale.create.turnId], "u2 and its reply deleted");
    assert.ok(init.messages.every((m) => m.ref === undefined && m.parent === undefined));
    await sleep(100);
    assert.equal(a.unread.filter((f) => f.type === "history").length, 0);
    a.close();
    b.close();
  });
});

test("the upgrade's X-Agent-Protocol: a regenerate reaches the proto4- persona (4) and is refused for noinflight- (none)", { timeout: 30_000 }, async () => {
  const worker = await startWorker();
  try {
    const { Chat, DefaultChatTransport } = await loadSdk("ai");
    for (const [prefix, refused] of [["proto4", false], ["noinflight", true]]) {
      const session = sessionId(prefix);
      const chat = new Chat({ transport: new DefaultChatTransport({ api: `${worker.base}/api/sessions/${session}/chat` }) });
      await chat.sendMessage({ text: "/slow 1 5" });
      await chat.regenerate();
      if (refused) assert.match(chat.error?.message ?? "", /agent_cannot_take_back/, prefix);
      else assert.equal(chat.status, "ready", `${prefix}: ${chat.error?.message}`);
    }
  } finally {
    await worker.dispose();
  }
});

test("R-restart: a turn running when the object stops is listed finished after the restart, with its parts so far", { timeout: 60_000 }, async () => {
  const persist = mkdtempSync(path.join(os.tmpdir(), "demo-tree-restart-"));
  const worker = await startWorker({ probe: true, persist });
  try {
    const session = sessionId("restart");
    const a = await agentSocket(worker, session);
    await a.next("init");
    a.send({ type: "prompt", content: "/slow 60 100", requestId: "r1", messageId: "u1", branch: [], onDisconnect: "detach" });
    const create = await a.next("message.create");
    await sleep(2_500);
    await worker.restart();
    const b = await agentSocket(worker, session);
    const init = await b.next("init");
    assert.deepEqual(init.messages.map((m) => m.id), ["u1", create.turnId]);
    const cut = init.messages[1];
    assert.deepEqual(cut.parts.slice(-2), [
      { type: "error", message: "The demo agent restarted before this turn finished." },
      { type: "finish", reason: "error" },
    ]);
    assert.match(cut.parts[0].text, /^w1 w2 w3 /, "its text as far as it was stored (a second behind at most)");
    b.close();
  } finally {
    await worker.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
});
