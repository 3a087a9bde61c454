// clients/follow-session.js with stock `Chat`s of ai 5.0.0, 5, 6 and 7: two clients of one session
// (two tabs, two devices), each following the session feed, end every operation with the same
// conversation as each other and as the history, with the clients' ids: a turn sent from one
// (shown in the other while it streams, its user message first), a stop from the other, a
// question asked in one and answered in the other, a regenerate.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, sleep } from "./harness.mjs";
import { loadSdk, textOf } from "./chat.mjs";
import { followSession } from "../../clients/follow-session.js";

const VERSIONS = ["ai-v7", "ai", "ai-v5", "ai-v5-0-0"];

async function until(predicate, what, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** What two clients must agree on: each message's id, role and text. */
const conversation = (messages) => messages.map((m) => [m.id, m.role, textOf(m)]);
const toolParts = (message) => (message?.parts ?? []).filter((p) => p.type.startsWith("tool-"));

describe("two followed Chats of one session", { concurrency: true }, () => {
  let worker;
  before(async () => {
    worker = await startWorker();
  });
  after(() => worker?.dispose());

  /** A stock `Chat` of `pkg` on `session`, following its feed. */
  async function client(pkg, session) {
    const sdk = await import(pkg);
    const { Chat, DefaultChatTransport } = await loadSdk(pkg);
    const base = `${worker.base}/api/sessions/${session}`;
    const errors = [];
    const chat = new Chat({
      transport: new DefaultChatTransport({ api: `${base}/chat`, prepareReconnectToStreamRequest: () => ({ api: `${base}/chat/c/stream` }) }),
      sendAutomaticallyWhen: (options) => sdk.lastAssistantMessageIsCompleteWithToolCalls(options),
      onError: (e) => errors.push(e),
    });
    const events = [];
    const feed = followSession(chat, { url: `${base}/events`, onEvent: (e) => events.push(e), onError: (e) => errors.push(e) });
    await until(() => events.some((e) => e.type === "sync"), "the feed's sync");
    return { chat, feed, events, errors, base };
  }

  /** Both clients ready, with one conversation, which is the history's. */
  async function assertOne(a, b) {
    await until(() => a.chat.status === "ready" && b.chat.status === "ready", "both clients ready");
    const history = await (await fetch(`${a.base}/messages`)).json();
    await until(() => JSON.stringify(conversation(b.chat.messages)) === JSON.stringify(conversation(history)), "the follower to hold the history", 5_000).catch(() => {});
    assert.deepEqual(conversation(a.chat.messages), conversation(history), "the sender's is the history");
    assert.deepEqual(conversation(b.chat.messages), conversation(history), "the follower's is the history");
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  }

  test("a sync and a turn-start read before this chat's own turn ended at its question, arriving after, take nothing of the turn away and resume nothing", { timeout: 30_000 }, async () => {
    const { Chat, DefaultChatTransport } = await loadSdk("ai");
    const base = `${worker.base}/api/sessions/${sessionId("late-sync")}`;
    const chat = new Chat({ transport: new DefaultChatTransport({ api: `${base}/chat` }) });
    // The feed's first bytes held back until the chat's own turn stopped at its question.
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    let answered = false;
    const held = async (url, init) => {
      const response = await fetch(url, init);
      if (!String(url).endsWith("/events")) return response;
      answered = true;
      const body = response.body.pipeThrough(new TransformStream({ async transform(chunk, out) { await gate; out.enqueue(chunk); } }));
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const seen = [];
    const feed = followSession(chat, { url: `${base}/events`, fetch: held, onEvent: (e) => seen.push([e.type, chat.messages.length]) });
    await until(() => answered, "the feed's answer");
    await chat.sendMessage({ text: "/ask Go on?" });
    assert.equal(chat.messages.length, 2);
    release();
    await until(() => seen.some(([type]) => type === "turn-waiting"), "the feed's events");
    feed.close();
    // Each event, as it was applied, left the chat's turn where it was: no reload, no resume.
    assert.deepEqual(seen, [["sync", 2], ["turn-start", 2], ["turn-waiting", 2]]);
    assert.equal(chat.status, "ready");
  });

  test("a session with nothing to follow (an agent with no init: 204) is not asked again within the minute", { timeout: 30_000 }, async () => {
    const { Chat, DefaultChatTransport } = await loadSdk("ai");
    const base = `${worker.base}/api/sessions/${sessionId("noinit")}`;
    const chat = new Chat({ transport: new DefaultChatTransport({ api: `${base}/chat` }) });
    const asked = [];
    const errors = [];
    const counting = (url, init) => {
      asked.push(url);
      return fetch(url, init);
    };
    const feed = followSession(chat, { url: `${base}/events`, fetch: counting, onError: (e) => errors.push(e) });
    await until(() => asked.length === 1, "the feed asked");
    // The 204 comes once the wait for an init is over (5 s); the retries would come within 2 s.
    await sleep(8_000);
    feed.close();
    assert.deepEqual(asked, [`${base}/events`]);
    assert.deepEqual(errors, [], "nothing said of it");
    assert.deepEqual(chat.messages, [], "the chat untouched");
  });

  for (const pkg of VERSIONS) {
    test(`${pkg}: a turn, a stop, a question and a regenerate, each shown in the other client live`, { timeout: 60_000 }, async () => {
      const session = sessionId(`follow-${pkg}`);
      const a = await client(pkg, session);
      const b = await client(pkg, session);
      try {
        // A turn from a, in b while it streams: its user message first, with a's id.
        const sent = a.chat.sendMessage({ text: "/slow 30 40" });
        await until(() => b.chat.messages.length === 2 && textOf(b.chat.messages[1]).length > 0, "the turn in b");
        assert.equal(a.chat.status === "streaming" || a.chat.status === "submitted", true, "while a still streams");
        assert.equal(b.chat.messages[0].id, a.chat.messages[0].id);
        assert.equal(textOf(b.chat.messages[0]), "/slow 30 40");
        await sent;
        await assertOne(a, b);

        // A stop from b ends a's turn; both keep what it said.
        const long = a.chat.sendMessage({ text: "/slow 200 40" });
        await until(() => b.chat.messages.length === 4 && b.chat.status === "streaming", "the long turn in b");
        assert.equal((await fetch(`${b.base}/chat/stop`, { method: "POST" })).status, 202);
        await long;
        await assertOne(a, b);
        assert.equal(a.chat.messages.length, 4);

        // A question asked in a's turn, answered in b: the turn goes on in both.
        await a.chat.sendMessage({ text: "/ask Which region?" });
        let part;
        await until(() => (part = toolParts(b.chat.messages.at(-1)).find((p) => p.type === "tool-askUser" && p.state === "input-available")) !== undefined, "the question in b");
        const add = b.chat.addToolOutput ? b.chat.addToolOutput.bind(b.chat) : b.chat.addToolResult.bind(b.chat);
        await until(() => b.chat.status === "ready", "b ready to answer");
        await add({ tool: "askUser", toolCallId: part.toolCallId, output: "eu" });
        await until(() => textOf(a.chat.messages.at(-1)).includes("You answered: eu."), "the rest of the turn in a");
        await assertOne(a, b);

        // A regenerate in b of a's first reply: both cut there, both show the new reply.
        const firstReply = a.chat.messages[1].id;
        await b.chat.regenerate({ messageId: firstReply });
        await until(() => a.chat.messages.length === 2 && a.chat.status === "ready" && textOf(a.chat.messages[1]).length > 0, "the cut in a");
        await assertOne(a, b);
        assert.equal(a.chat.messages[0].id, b.chat.messages[0].id);
      } finally {
        a.feed.close();
        b.feed.close();
      }
    });
  }
});
