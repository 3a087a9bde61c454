// clients/follow-session.js against a feed of the test's own: a chat (messages, status,
// resumeStream) whose own stream of a turn ended after the feed's sync named that turn running.
// The sync was read before that end, so the events after it say why the stream ended: a
// question (nothing to do), or the turn ran on (its reply is loaded whole at its end). A chat
// whose stream failed resumes the turn, as one that never held it does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { followSession } from "../../../clients/follow-session.js";

const USER = { id: "u1", role: "user", parts: [{ type: "text", text: "Deploy it" }] };
/** The reply as this chat's own stream left it. */
const SHOWN = { id: "a1", role: "assistant", parts: [{ type: "text", text: "Deploying" }] };
/** The reply whole, as the history has it once the turn ended. */
const WHOLE = { id: "a1", role: "assistant", parts: [{ type: "text", text: "Deploying. Done." }] };

/**
 * Follows a feed that sends `events` (then stays open) with a chat holding [USER, SHOWN] in
 * `status`. Resolves, once every event was applied, to what the chat did: its resumes, the
 * history loads, and its messages.
 */
async function follow(events, status) {
  const chat = { messages: [USER, SHOWN], status, resumes: 0, resumeStream: async () => (chat.resumes += 1) };
  let loads = 0;
  const fetch = async (url) => {
    if (url.endsWith("/messages")) {
      loads += 1;
      return Response.json([USER, WHOLE]);
    }
    const text = events.map((event, i) => `id: ${String(i + 1).padStart(16, "0")}\ndata: ${JSON.stringify(event)}\n\n`).join("");
    const body = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode(`: keep-alive\n\n${text}`)) });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
  let applied = 0;
  let done;
  const all = new Promise((resolve) => (done = resolve));
  const feed = followSession(chat, {
    url: "https://worker.example/api/sessions/s/events",
    fetch,
    shareTabs: false,
    onEvent: () => ++applied === events.length && done(),
  });
  await all;
  feed.close();
  return { resumes: chat.resumes, loads, messages: chat.messages };
}

const SYNC = { type: "sync", messageIds: ["u1"], turn: { turnId: "a1" } };

test("a sync naming the turn running, after this chat's own stream ended at the question, resumes nothing and takes nothing away", async () => {
  const seen = await follow([SYNC, { type: "turn-waiting", turnId: "a1", questionId: "q1" }], "ready");
  assert.deepEqual(seen, { resumes: 0, loads: 0, messages: [USER, SHOWN] });
});

test("a sync naming the turn running, after this chat's own stream ended while the turn ran on: its end loads the reply whole", async () => {
  const seen = await follow([SYNC, { type: "turn-end", turnId: "a1", reason: "end_turn" }], "ready");
  assert.deepEqual(seen, { resumes: 0, loads: 1, messages: [USER, WHOLE] });
});

test("a chat whose stream of the turn failed resumes it, its reply taken out for the resume to bring whole", async () => {
  const seen = await follow([SYNC], "error");
  assert.deepEqual(seen, { resumes: 1, loads: 0, messages: [USER] });
});

test("a sync naming a turn that waits on a question this chat shows resumes nothing", async () => {
  const seen = await follow([{ ...SYNC, turn: { turnId: "a1", questionId: "q1" } }], "ready");
  assert.deepEqual(seen, { resumes: 0, loads: 0, messages: [USER, SHOWN] });
});

test("a turn-start whose turn ended before the history was read: the history's reply stays, nothing resumed", async () => {
  // The chat holds another branch; the feed read the session again and found the turn over.
  const chat = { messages: [{ id: "x1", role: "user", parts: [] }], status: "ready", resumes: 0, resumeStream: async () => (chat.resumes += 1) };
  const shown = [];
  let loads = 0;
  const fetch = async (url) => {
    if (url.endsWith("/messages")) {
      loads += 1;
      return Response.json([{ id: "p1" }, { id: "p2" }, USER, WHOLE]);
    }
    const events = [
      { type: "turn-start", turnId: "a1", message: USER, branch: ["p1", "p2"] },
      { type: "turn-end", turnId: "a1", reason: "end_turn" },
    ];
    const text = events.map((event, i) => `id: ${String(i + 1).padStart(16, "0")}\ndata: ${JSON.stringify(event)}\n\n`).join("");
    return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(text)) }));
  };
  let done;
  const all = new Promise((resolve) => (done = resolve));
  let applied = 0;
  const feed = followSession(chat, {
    url: "https://worker.example/api/sessions/s/events",
    fetch,
    shareTabs: false,
    onEvent: () => {
      shown.push(chat.messages.map((m) => m.id));
      if (++applied === 2) done();
    },
  });
  await all;
  feed.close();
  assert.equal(chat.resumes, 0, "nothing to resume");
  assert.deepEqual(shown, [["p1", "p2", "u1", "a1"], ["p1", "p2", "u1", "a1"]], "the reply never leaves the chat");
  assert.equal(loads, 1);
});

test("a history page read while this chat sent a message of its own is never put over it: it is read again once the chat is idle", async () => {
  // The feed says the turn this chat showed was stopped: the chat loads the history. While that
  // read is slow, the chat sends its next message and streams its reply.
  const ASKED = { id: "u2", role: "user", parts: [{ type: "text", text: "Which region?" }] };
  const REPLY = { id: "a2", role: "assistant", parts: [{ type: "text", text: "Pick one", state: "done" }] };
  const chat = { status: "ready", resumeStream: async () => {}, set: [] };
  let held = [USER, SHOWN];
  Object.defineProperty(chat, "messages", {
    get: () => held,
    set: (messages) => {
      held = messages;
      chat.set.push(messages.map((m) => m.id));
    },
  });
  const pages = [];
  let read;
  const first = new Promise((resolve) => (read = resolve));
  const fetch = async (url) => {
    if (url.endsWith("/messages")) {
      const page = new Promise((resolve) => pages.push(resolve));
      if (pages.length === 1) read();
      return page;
    }
    const event = { type: "turn-end", turnId: "a1", reason: "canceled" };
    const text = `id: 0000000000000001\ndata: ${JSON.stringify(event)}\n\n`;
    return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(text)) }));
  };
  let applied;
  const done = new Promise((resolve) => (applied = resolve));
  const feed = followSession(chat, { url: "https://worker.example/api/sessions/s/events", fetch, shareTabs: false, onEvent: () => applied() });
  await first;
  // The chat's own send, then its reply, while the first read is under way.
  chat.status = "submitted";
  held = [USER, SHOWN, ASKED];
  pages[0](Response.json([USER, WHOLE]));
  await new Promise((resolve) => setTimeout(resolve, 250));
  assert.deepEqual(chat.set, [], "the page read before the send is not put over it");
  assert.equal(pages.length, 1, "no second read while the chat sends");
  held = [USER, SHOWN, ASKED, REPLY];
  chat.status = "ready";
  while (pages.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
  pages[1](Response.json([USER, WHOLE, ASKED, REPLY]));
  await done;
  feed.close();
  assert.deepEqual(chat.set, [["u1", "a1", "u2", "a2"]], "the second read, once the chat was idle, is the chat's");
  assert.deepEqual(held[1], WHOLE);
});

test("a resume that finds the turn over (a 204) and leaves the chat submitted, as ai 5.0.0 and 5.0.1 do, is set back ready and the history loaded", async () => {
  // The answer's continuation ended before this chat's resume reached the worker.
  let turnEnded;
  const ended = new Promise((resolve) => (turnEnded = resolve));
  const chat = {
    messages: [USER, SHOWN],
    status: "ready",
    resumes: 0,
    // ai 5.0.0's resumeStream on a 204: `submitted`, and back without a stream or a status.
    async resumeStream() {
      chat.resumes += 1;
      chat.status = "submitted";
      await ended;
    },
    setStatus({ status }) {
      chat.status = status;
    },
  };
  let loads = 0;
  const events = [
    { type: "turn-continue", turnId: "a1" },
    { type: "turn-end", turnId: "a1", reason: "end_turn" },
  ];
  const fetch = async (url) => {
    if (url.endsWith("/messages")) {
      loads += 1;
      return Response.json([USER, WHOLE]);
    }
    const text = events.map((event, i) => `id: ${String(i + 1).padStart(16, "0")}\ndata: ${JSON.stringify(event)}\n\n`).join("");
    return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(text)) }));
  };
  let applied = 0;
  const feed = followSession(chat, {
    url: "https://worker.example/api/sessions/s/events",
    fetch,
    shareTabs: false,
    onEvent: () => ++applied === 2 && turnEnded(),
  });
  await ended;
  // The history is loaded once the chat is idle: a chat left submitted would never be.
  for (let i = 0; i < 100 && loads === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 20));
  feed.close();
  assert.equal(chat.resumes, 1);
  assert.equal(chat.status, "ready", "not left submitted");
  assert.deepEqual(chat.messages, [USER, WHOLE], "the turn, whole, from the history");
});

test("a deleted session: the chat's messages go, and the feed is never asked again", async () => {
  const chat = { messages: [USER, WHOLE], status: "ready", resumeStream: async () => {} };
  let asked = 0;
  const fetch = async (url) => {
    if (url.endsWith("/messages")) return Response.json([USER, WHOLE]);
    asked += 1;
    const event = { type: "deleted" };
    // The feed ends after it, as the worker's does.
    return new Response(new ReadableStream({
      start: (c) => {
        c.enqueue(new TextEncoder().encode(`id: 0000000000000001\ndata: ${JSON.stringify(event)}\n\n`));
        c.close();
      },
    }));
  };
  let told;
  const deleted = new Promise((resolve) => (told = resolve));
  const feed = followSession(chat, { url: "https://worker.example/api/sessions/s/events", fetch, shareTabs: false, onEvent: (e) => e.type === "deleted" && told() });
  try {
    await deleted;
    assert.deepEqual(chat.messages, [], "nothing of the session is shown");
    await new Promise((resolve) => setTimeout(resolve, 700));
    assert.equal(asked, 1, "not followed again (a feed that ended is asked again within 0.5 s)");
  } finally {
    feed.close();
  }
});

test("a session that had nothing to follow (204) is followed again at reconnect(), not before", async () => {
  const chat = { messages: [USER, SHOWN], status: "ready", resumeStream: async () => {} };
  const asked = [];
  const fetch = async (url) => {
    if (url.endsWith("/messages")) return Response.json([USER, WHOLE]);
    asked.push(url);
    if (asked.length === 1) return new Response(null, { status: 204 });
    const event = { type: "sync", messageIds: ["u1", "a1"], turn: null };
    return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(`id: 0000000000000001\ndata: ${JSON.stringify(event)}\n\n`)) }));
  };
  let synced;
  const sync = new Promise((resolve) => (synced = resolve));
  const feed = followSession(chat, { url: "https://worker.example/api/sessions/s/events", fetch, shareTabs: false, onEvent: (e) => e.type === "sync" && synced() });
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.equal(asked.length, 1, "a 204 is not asked again at once, as a failure would be (0.5 s)");
  feed.reconnect();
  await sync;
  feed.close();
  assert.equal(asked.length, 2, "followed again");
});

test("a turn-start whose user message is null (its JSON over 16 KiB, an image: the feed carries none) loads the history page, which holds it, and resumes the turn", async () => {
  const PIC = { id: "u2", role: "user", parts: [{ type: "file", mediaType: "image/png", url: `data:image/png;base64,${"A".repeat(20_000)}` }] };
  const chat = { messages: [USER, WHOLE], status: "ready", resumes: 0, resumeStream: async () => (chat.resumes += 1) };
  let loads = 0;
  const fetch = async (url) => {
    if (url.endsWith("/messages")) {
      loads += 1;
      return Response.json([USER, WHOLE, PIC]);
    }
    const event = { type: "turn-start", turnId: "a2", message: null, branch: ["u1", "a1"] };
    const text = `id: ${"1".padStart(16, "0")}\ndata: ${JSON.stringify(event)}\n\n`;
    return new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode(text)) }));
  };
  let done;
  const applied = new Promise((resolve) => (done = resolve));
  const feed = followSession(chat, { url: "https://worker.example/api/sessions/s/events", fetch, shareTabs: false, onEvent: () => done() });
  await applied;
  feed.close();
  assert.equal(loads, 1, "the history page, for the message the feed did not carry");
  assert.deepEqual(chat.messages, [USER, WHOLE, PIC]);
  assert.equal(chat.resumes, 1, "the turn's stream resumed");
});
