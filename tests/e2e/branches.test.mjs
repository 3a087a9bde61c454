// Regenerate, edit and fork through the real `Chat` of every AI SDK version, against the demo
// agent and the reference TypeScript agent (protocol 4): after each operation the client's
// messages, the history (`GET …/messages`, what a reload shows), a fresh `Chat` built from it and
// what the agent's model is given (its `/seen` command) are one conversation, with the client's
// ids. Then what is refused and loses nothing: a regenerate while a turn runs or a question waits
// (the agent's `busy`), and a regenerate or an edit to an agent of protocol 3 (409
// `agent_cannot_take_back`), whose fork degrades as the agent contract's degrade matrix says.
// docs/sessions.md, "Regenerate and edit".
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
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

    /** Fails unless the client, the history, a fresh `Chat` from the history and the model's
     * input are one conversation. Asks the agent `/seen`, which the conversation then holds. */
    async function assertOne(pkg, chat, session, after) {
      assert.equal(chat.status, "ready", `${after}: ${chat.error?.message}`);
      const stored = await history(session);
      assert.deepEqual(view(stored), view(chat.messages), `${after}: the history is the client's conversation`);
      const fresh = await chatOf(pkg, session, { messages: stored });
      assert.deepEqual(view(fresh.messages), view(chat.messages), `${after}: a Chat from the history holds it`);
      await chat.sendMessage({ text: "/seen" });
      assert.equal(chat.status, "ready", `${after}: /seen: ${chat.error?.message}`);
      const seen = JSON.parse(textOf(chat.messages.at(-1)));
      assert.deepEqual(seen, view(chat.messages.slice(0, -1)), `${after}: the model is given the client's conversation`);
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
