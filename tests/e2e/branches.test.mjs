// Regenerate, edit and fork through the real `Chat` of every AI SDK version, against the demo
// agent and the reference TypeScript agent (protocol 5): after each operation the client's
// messages, the history (`GET …/messages`, what a reload shows), a fresh `Chat` built from it and
// what the agent's model is given (its `/seen` command) are one conversation, with the client's
// ids; and every message ever sent is still reachable, through the siblings of the history's
// messages and their branches (`?leaf=`). Two devices on one session, one of them stale, send and
// regenerate: nothing of the other's is lost, and the current branch is the newest turn's; a
// restart of the agents keeps every branch. Then what is refused and loses nothing: a regenerate
// while a turn runs or a question waits (the agent's `busy`), a stale device's send to an agent of
// protocol 4 (409 `stale_conversation`, the demo agent's `proto4-` sessions), and a regenerate or
// an edit to an agent of protocol 3 (409 `agent_cannot_take_back`), whose fork degrades as the
// agent contract's degrade matrix says. docs/sessions.md, "Regenerate and edit".
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWorker, sessionId, chatBody, postChat, readAll, sleep } from "./harness.mjs";
import { loadSdk } from "./chat.mjs";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");
const CLIENTS = ["ai-v7", "ai", "ai-v5", "ai-v5-0-0"];

/** A quick turn whose reply says how many words it has (`w1 … wN`), told apart by N. */
const quick = (n) => `/slow ${n} 5`;

/** A message's text parts, joined by newlines (as the agents' `/seen` joins them). */
const textOf = (message) => message.parts.filter((p) => p.type === "text").map((p) => p.text).join("\n");
/** What the conversation is made of: each message's id, role and text. */
const view = (messages) => messages.map((m) => ({ id: m.id, role: m.role, text: textOf(m) }));

/**
 * Every message a client can reach in `session` from what a reload shows: the current branch
 * (every page of it), then each sibling's branch (`?leaf=`), and so on. Resolves to the set of
 * `id text` of every message reached.
 */
async function reachable(base, session) {
  const get = async (query) => {
    const response = await fetch(`${base}/api/sessions/${session}/messages${query}`);
    assert.equal(response.status, 200, `${query}: ${await response.clone().text()}`);
    return response;
  };
  const reached = new Set();
  const seenLeaves = new Set();
  const queue = [""];
  while (queue.length > 0) {
    const leaf = queue.pop();
    if (seenLeaves.has(leaf)) continue;
    seenLeaves.add(leaf);
    let query = leaf === "" ? "?limit=200" : `?leaf=${encodeURIComponent(leaf)}&limit=200`;
    for (;;) {
      const response = await get(query);
      for (const message of await response.json()) {
        reached.add(`${message.id} ${textOf(message)}`);
        for (const ref of message.metadata?.siblings?.refs ?? []) queue.push(ref);
      }
      const older = response.headers.get("x-history-before");
      if (older === null) break;
      query = `?before=${encodeURIComponent(older)}&limit=200`;
    }
  }
  return reached;
}

/** Fails unless every message of `ever` (a set of `id text`) is reachable in `session`. */
async function assertNothingLost(base, session, ever, after) {
  const reached = await reachable(base, session);
  const lost = [...ever].filter((m) => !reached.has(m));
  assert.deepEqual(lost, [], `${after}: every message ever sent reachable through the siblings`);
}

/** Adds every message of `messages` (a client's, or the history's) to `ever`. */
const remember = (ever, messages) => messages.forEach((m) => ever.add(`${m.id} ${textOf(m)}`));

for (const agent of AGENTS) {
  describe(`agent: ${agent}`, () => {
    let worker;
    before(async () => {
      worker = await startWorker({ agent });
    });
    after(() => worker?.dispose());

    const api = (session) => `${worker.base}/api/sessions/${session}/chat`;
    const history = async (session) => {
      const response = await fetch(`${worker.base}/api/sessions/${session}/messages`);
      assert.equal(response.status, 200);
      return response.json();
    };

    /** A `Chat` of `pkg` on `session`, seeded with `messages`; `lastOnly`: its transport sends
     * only the last message (`prepareSendMessagesRequest`). */
    async function chatOf(pkg, session, { messages, lastOnly = false } = {}) {
      const { Chat, DefaultChatTransport } = await loadSdk(pkg);
      const prepareSendMessagesRequest = lastOnly
        ? ({ id, messages: list, trigger, messageId, body }) => ({ body: { ...body, id, trigger, messageId, messages: list.slice(-1) } })
        : undefined;
      return new Chat({ messages, transport: new DefaultChatTransport({ api: api(session), prepareSendMessagesRequest }) });
    }

    /** Every message each session ever showed its client, as `id text`. */
    const sent = new Map();

    /** Fails unless the client, the history, a fresh `Chat` from the history and the model's
     * input are one conversation, and every message the session ever showed is still reachable.
     * Asks the agent `/seen`, which the conversation then holds. */
    async function assertOne(pkg, chat, session, after) {
      assert.equal(chat.status, "ready", `${after}: ${chat.error?.message}`);
      const ever = sent.get(session) ?? new Set();
      sent.set(session, ever);
      remember(ever, chat.messages);
      await assertNothingLost(worker.base, session, ever, after);
      const stored = await history(session);
      assert.deepEqual(view(stored), view(chat.messages), `${after}: the history is the client's conversation`);
      // Its refs and siblings in the metadata keep it an array the SDK takes (ai 5.0.0 has no validator).
      const { validateUIMessages } = await import(pkg);
      if (validateUIMessages) await validateUIMessages({ messages: stored });
      const fresh = await chatOf(pkg, session, { messages: stored });
      assert.deepEqual(view(fresh.messages), view(chat.messages), `${after}: a Chat from the history holds it`);
      await chat.sendMessage({ text: "/seen" });
      assert.equal(chat.status, "ready", `${after}: /seen: ${chat.error?.message}`);
      const seen = JSON.parse(textOf(chat.messages.at(-1)));
      assert.deepEqual(seen, view(chat.messages.slice(0, -1)), `${after}: the model is given the client's conversation`);
      remember(ever, chat.messages);
    }

    describe("one conversation through a stock Chat", { concurrency: true }, () => {
      for (const pkg of CLIENTS) {
        test(`${pkg}: regenerate the last reply, an earlier one, from a user message, and after a reload`, { timeout: 60_000 }, async () => {
          const session = sessionId("regen");
          const chat = await chatOf(pkg, session);
          await chat.sendMessage({ text: quick(1) });
          await chat.sendMessage({ text: quick(2) });
          const taken = chat.messages[3].id;
          await chat.regenerate();
          assert.notEqual(chat.messages[3].id, taken, "a new reply");
          await assertOne(pkg, chat, session, "regenerate()");

          await chat.regenerate({ messageId: chat.messages[1].id });
          assert.equal(chat.messages.length, 2);
          await assertOne(pkg, chat, session, "regenerate({ messageId }) of the first reply");

          await chat.sendMessage({ text: quick(3) });
          await chat.regenerate({ messageId: chat.messages[0].id });
          assert.equal(chat.messages.length, 2);
          await assertOne(pkg, chat, session, "regenerate({ messageId }) of the first user message");

          // A reload: a new Chat from the history regenerates the last reply.
          const reloaded = await chatOf(pkg, session, { messages: await history(session) });
          await reloaded.regenerate();
          await assertOne(pkg, reloaded, session, "regenerate() after a reload");
        });

        test(`${pkg}: edit a later and the first message, and a fork of a cut list (assistant-ui)`, { timeout: 60_000 }, async () => {
          const session = sessionId("edit");
          const chat = await chatOf(pkg, session);
          await chat.sendMessage({ text: quick(1) });
          await chat.sendMessage({ text: quick(2) });
          const second = chat.messages[2].id;
          await chat.sendMessage({ text: quick(3), messageId: second });
          assert.equal(chat.messages[2].id, second, "the edited message keeps its id");
          assert.equal(chat.messages.length, 4);
          await assertOne(pkg, chat, session, "an edit of the second message");

          await chat.sendMessage({ text: quick(4), messageId: chat.messages[0].id });
          assert.equal(chat.messages.length, 2);
          await assertOne(pkg, chat, session, "an edit of the first message");

          // assistant-ui's edit: the list cut before a user message, a new one with a new id.
          const at = chat.messages.findIndex((m, i) => i > 0 && m.role === "user");
          chat.messages = chat.messages.slice(0, at);
          await chat.sendMessage({ text: quick(5) });
          await assertOne(pkg, chat, session, "a fork");
        });

        test(`${pkg}: a failed reply is in the history as the client holds it, and an edit replaces it`, { timeout: 60_000 }, async () => {
          const session = sessionId("failed");
          const chat = await chatOf(pkg, session);
          await chat.sendMessage({ text: quick(1) });
          await chat.sendMessage({ text: "/error boom" });
          assert.equal(chat.status, "error");
          const stored = await history(session);
          assert.deepEqual(view(stored), view(chat.messages), "the failed reply, with no part but its step, in both");
          assert.equal(stored.at(-1).metadata.error, "boom");
          const { validateUIMessages } = await import(pkg);
          if (validateUIMessages) await validateUIMessages({ messages: stored });
          await chat.sendMessage({ text: quick(2), messageId: chat.messages.at(-2).id });
          await assertOne(pkg, chat, session, "an edit of the message whose reply failed");
        });

        test(`${pkg}: a client that sends only its last message`, { timeout: 60_000 }, async () => {
          const session = sessionId("last");
          const chat = await chatOf(pkg, session, { lastOnly: true });
          await chat.sendMessage({ text: quick(1) });
          await chat.sendMessage({ text: quick(2) });
          await assertOne(pkg, chat, session, "two sends");
          await chat.regenerate();
          await assertOne(pkg, chat, session, "regenerate()");
          await chat.sendMessage({ text: quick(3), messageId: chat.messages.at(-2).id });
          await assertOne(pkg, chat, session, "an edit of the last message");
        });
      }
    });

    describe("two devices, one stale", { concurrency: true }, () => {
      for (const pkg of CLIENTS) {
        test(`${pkg}: a stale device's send and regenerate each make a branch; nothing of the other device's is lost`, { timeout: 60_000 }, async () => {
          const session = sessionId("devices");
          const a = await chatOf(pkg, session);
          await a.sendMessage({ text: quick(1) });
          // Device B loads the history, and sends.
          const b = await chatOf(pkg, session, { messages: await history(session) });
          await b.sendMessage({ text: quick(2) });
          await assertOne(pkg, b, session, "device B's send");
          const ever = sent.get(session);
          remember(ever, a.messages);
          // Device A never saw it: its send goes after its own last message, beside B's.
          await a.sendMessage({ text: quick(3) });
          assert.equal(a.status, "ready", a.error?.message);
          assert.deepEqual(view(await history(session)), view(a.messages), "the current branch is the newest turn's");
          await assertNothingLost(worker.base, session, ever, "device A's stale send");
          const shown = await history(session);
          assert.deepEqual(shown.at(-2).metadata.siblings?.count, 2, "B's message is a sibling of A's, one click away");
          // Device B, now stale, regenerates its old reply: a new reply beside it; A's turn stays.
          remember(ever, a.messages);
          await b.regenerate();
          assert.equal(b.status, "ready", b.error?.message);
          const replies = (await history(session)).at(-1).metadata.siblings;
          assert.equal(replies?.count, 2, "the regenerated reply and the one it replaced");
          await assertOne(pkg, b, session, "device B's stale regenerate");
          // Device A regenerates its (older) reply: a new reply to its u3; B's turns stay.
          await a.regenerate();
          await assertOne(pkg, a, session, "device A's stale regenerate");
        });
      }
    });

    describe("refused, and nothing lost", { concurrency: true }, () => {
      for (const pkg of CLIENTS) {
        test(`${pkg}: a regenerate while another client's turn runs gets busy; the history keeps both turns`, { timeout: 60_000 }, async () => {
          const session = sessionId("busy");
          const chat = await chatOf(pkg, session);
          await chat.sendMessage({ text: quick(1) });
          const before = view(chat.messages);
          const running = postChat(worker.base, session, chatBody("/slow 15 100"));
          await sleep(400);
          await chat.regenerate();
          assert.equal(chat.status, "error");
          assert.match(chat.error.message, /busy/i);
          const other = await readAll(await running);
          assert.match(other.text, /"type":"finish"/);
          const after = view(await history(session));
          assert.deepEqual(after.slice(0, 2), before, "the regenerate took nothing back");
          assert.equal(after.length, 4, "and the other client's turn is kept");
          // The client goes on: from the history, a new message.
          const again = await chatOf(pkg, session, { messages: await history(session) });
          await again.sendMessage({ text: quick(2) });
          await assertOne(pkg, again, session, "a send after the refusal");
        });

        test(`${pkg}: a regenerate while a question waits gets busy; after a stop an edit replaces the question's message`, { timeout: 60_000 }, async () => {
          const session = sessionId("asking");
          const chat = await chatOf(pkg, session);
          await chat.sendMessage({ text: quick(1) });
          await chat.sendMessage({ text: "/ask Go on?" });
          const waiting = view(await history(session));
          await chat.regenerate();
          assert.equal(chat.status, "error");
          assert.match(chat.error.message, /busy/i);
          assert.deepEqual(view(await history(session)), waiting, "nothing taken back");
          const stop = await fetch(`${api(session)}/stop`, { method: "POST" });
          assert.equal(stop.status, 202);
          await readAll(stop);
          const asked = chat.messages.findLast((m) => m.role === "user").id;
          await chat.sendMessage({ text: quick(2), messageId: asked });
          await assertOne(pkg, chat, session, "an edit after the stop");
        });
      }
    });
  });
}

describe("an agent of protocol 3 (the reference agent's minimal mode)", () => {
  let worker;
  before(async () => {
    worker = await startWorker({ agent: "typescript-minimal" });
  });
  after(() => worker?.dispose());
  const api = (session) => `${worker.base}/api/sessions/${session}/chat`;
  const history = async (session) => (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();

  for (const pkg of CLIENTS) {
    test(`${pkg}: a regenerate and an edit are refused 409 before the agent hears of them; a fork appends`, { timeout: 60_000 }, async () => {
      const { Chat, DefaultChatTransport } = await loadSdk(pkg);
      const session = sessionId("proto3");
      const chat = new Chat({ transport: new DefaultChatTransport({ api: api(session) }) });
      await chat.sendMessage({ text: quick(1) });
      const kept = view(await history(session));
      assert.equal(kept.length, 2);

      await chat.regenerate();
      assert.equal(chat.status, "error");
      assert.match(chat.error.message, /agent_cannot_take_back/);
      assert.match(chat.error.message, /cannot take messages back/);
      assert.deepEqual(view(await history(session)), kept, "a refused regenerate loses nothing");

      const reloaded = new Chat({ messages: await history(session), transport: new DefaultChatTransport({ api: api(session) }) });
      await reloaded.sendMessage({ text: quick(2), messageId: reloaded.messages[0].id });
      assert.equal(reloaded.status, "error");
      assert.match(reloaded.error.message, /agent_cannot_take_back/);
      assert.deepEqual(view(await history(session)), kept, "a refused edit loses nothing");
      const prompts = (await (await fetch(`${worker.base}/demo/sessions/${session}/received`)).json()).filter((e) => e.frame.type === "prompt");
      assert.equal(prompts.length, 1, "the agent heard only the first prompt");

      // The degrade matrix: a fork by a new id is appended (this agent cannot take back).
      const forked = new Chat({ messages: await history(session), transport: new DefaultChatTransport({ api: api(session) }) });
      forked.messages = forked.messages.slice(0, 1);
      await forked.sendMessage({ text: quick(3) });
      assert.equal(forked.status, "ready", forked.error?.message);
      const after = view(await history(session));
      assert.deepEqual(after.slice(0, 2), kept, "the old branch stays");
      assert.equal(after.length, 4);
    });
  }
});

describe("an agent of protocol 4 (the demo agent's proto4- sessions)", () => {
  let worker;
  before(async () => {
    worker = await startWorker();
  });
  after(() => worker?.dispose());
  const api = (session) => `${worker.base}/api/sessions/${session}/chat`;
  const history = async (session) => (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
  const prompts = async (session) =>
    (await (await fetch(`${worker.base}/demo/sessions/${session}/received`)).json()).filter((e) => e.frame.type === "prompt").length;

  for (const pkg of CLIENTS) {
    test(`${pkg}: a stale device's send is refused 409 stale_conversation before the agent hears of it, and nothing is lost`, { timeout: 60_000 }, async () => {
      const { Chat, DefaultChatTransport } = await loadSdk(pkg);
      const chatOf = (messages) => new Chat({ messages, transport: new DefaultChatTransport({ api: api(session) }) });
      const session = sessionId("proto4-stale");
      const a = chatOf();
      await a.sendMessage({ text: quick(1) });
      const b = chatOf(await history(session));
      await b.sendMessage({ text: quick(2) });
      const both = view(await history(session));
      assert.equal(both.length, 4);
      // Device A never saw B's turn: its send would delete it.
      await a.sendMessage({ text: quick(3) });
      assert.equal(a.status, "error");
      assert.match(a.error.message, /stale_conversation/);
      assert.match(a.error.message, /reload/);
      assert.deepEqual(view(await history(session)), both, "nothing lost");
      assert.equal(await prompts(session), 2, "the agent heard nothing of it");
      // A fork looks the same, and is refused too; a regenerate of the last exchange goes.
      const forked = chatOf((await history(session)).slice(0, 2));
      await forked.sendMessage({ text: quick(4) });
      assert.match(forked.error?.message ?? "", /stale_conversation/);
      const current = chatOf(await history(session));
      await current.regenerate();
      assert.equal(current.status, "ready", current.error?.message);
      assert.deepEqual(view(await history(session)), view(current.messages));
      // Reloaded, device A sends: its turn follows B's.
      const reloaded = chatOf(await history(session));
      await reloaded.sendMessage({ text: quick(5) });
      assert.equal(reloaded.status, "ready", reloaded.error?.message);
      assert.equal(view(await history(session)).length, 6);
    });
  }
});

describe("a restart of the agents keeps every branch", () => {
  for (const agent of AGENTS) {
    test(`${agent}: the branches of a regenerate, an edit and a stale send, all reachable after a restart`, { timeout: 90_000 }, async () => {
      const persist = mkdtempSync(path.join(os.tmpdir(), "branches-restart-"));
      const worker = await startWorker({ agent, persist });
      try {
        const { Chat, DefaultChatTransport } = await loadSdk("ai");
        const session = sessionId("restart-branches");
        const chatOf = (messages) => new Chat({ messages, transport: new DefaultChatTransport({ api: `${worker.base}/api/sessions/${session}/chat` }) });
        const history = async () => (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
        const a = chatOf();
        await a.sendMessage({ text: quick(1) });
        await a.sendMessage({ text: quick(2) });
        const stale = chatOf(a.messages.slice(0, 2));
        await a.regenerate();
        await a.sendMessage({ text: quick(3), messageId: a.messages[2].id });
        await stale.sendMessage({ text: quick(4) });
        assert.equal(stale.status, "ready", stale.error?.message);
        const before = await reachable(worker.base, session);
        const shown = view(await history());
        assert.equal(before.size, 9, "u1 a1, u2 and its two replies, its edit and reply, the stale send and reply");
        await worker.restart();
        assert.deepEqual(await reachable(worker.base, session), before, "every message reachable after the restart");
        assert.deepEqual(view(await history()), shown, "the same current branch");
      } finally {
        await worker.dispose();
        rmSync(persist, { recursive: true, force: true });
      }
    });
  }
});

