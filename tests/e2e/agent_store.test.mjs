// The reference TypeScript agent's store (packages/session-agent), in workerd:
//
// - a full session (MAX_SESSION_MESSAGES, 10,000 messages; docs/agent-protocol.md, "A full
//   store"): a prompt whose turn would pass the cap gets `error` `session_full` on its socket, and
//   nothing is stored; a regenerate (one message more) fits where a send (two) does not; nothing is
//   deleted to make room, the conversation stays readable, and a client through the adapter sees
//   the sentence;
// - a session kept by the protocol-4 library (its `messages` table) is copied into the tree when the
//   object starts again: one branch, under the same ids, and the next turn after it (what the model
//   is given: the copied conversation).
//
// The sessions are filled by the test agent's `test.fill` and `test.legacy` frames
// (tests/fixtures/agents/recording.ts), then driven over check-agent's probe socket as the adapter
// drives them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { startWorker, sessionId, chatBody, postChat, readAll } from "./harness.mjs";
import { prompt, stored } from "./agent_probe.mjs";
import { Conn } from "../../check-agent/conn.mjs";

/** The library's cap (packages/session-agent/src/tree.ts, MAX_SESSION_MESSAGES). */
const CAP = 10_000;

let worker;
const persist = mkdtempSync(path.join(os.tmpdir(), "agent-store-"));
before(async () => {
  worker = await startWorker({ agent: "typescript", probe: true, persist });
});
after(async () => {
  await worker?.dispose();
  rmSync(persist, { recursive: true, force: true });
});

const open = (session) => Conn.open(new WebSocket(`${worker.probe.replace("http", "ws")}/sessions/${session}/agent`));

/** The refs a new socket's init lists. */
async function initRefs(session) {
  const conn = await open(session);
  conn.close();
  return conn.init.messages.map((m) => m.ref);
}

test("a send past the cap is refused session_full and stores nothing; a regenerate still fits, then is refused too", { timeout: 60_000 }, async () => {
  const session = sessionId("full");
  const a = await open(session);
  try {
    assert.equal(await stored(a, CAP - 5), CAP - 5);
    const u1 = await prompt(a, "/slow 1 5", "u1", []);
    const u2 = await prompt(a, "/slow 2 5", "u2", ["u1", u1.turnId]);
    assert.ok(u2.turnId, "two turns fit: 9,999 messages");
    assert.equal(await stored(a), CAP - 1);
    const before = await initRefs(session);

    const refused = await prompt(a, "/slow 3 5", "u3", ["u1", u1.turnId, "u2", u2.turnId]);
    assert.equal(refused.error?.code, "session_full");
    assert.match(refused.error.message, /full/);
    assert.equal(await stored(a), CAP - 1, "nothing stored");
    assert.deepEqual(await initRefs(session), before, "nothing moved");

    const again = await prompt(a, "/slow 2 5", "u2", ["u1", u1.turnId]);
    assert.ok(again.turnId, "a regenerate stores its reply only: it fits");
    assert.equal(await stored(a), CAP);
    const last = await prompt(a, "/slow 2 5", "u2", ["u1", u1.turnId]);
    assert.equal(last.error?.code, "session_full");
    assert.equal(await stored(a), CAP);
  } finally {
    a.close();
  }

  // Through the adapter: the stream ends with the sentence; the history is still read.
  const { text } = await readAll(await postChat(worker.base, session, chatBody("/slow 1 5")));
  assert.match(text, /This conversation is full/);
  const history = await fetch(`${worker.base}/api/sessions/${session}/messages`);
  assert.equal(history.status, 200);
  assert.equal((await history.json()).length, 100, "the newest page");
  assert.ok(history.headers.get("x-history-before"), "older pages named");
});

test("a protocol-4 history is copied into the tree when the object starts again: one branch, its ids, the next turn after it", { timeout: 60_000 }, async () => {
  const session = sessionId("legacy");
  const user = (id, text) => ({ id, role: "user", parts: [{ type: "text", text }] });
  const reply = (id, text) => ({ id, role: "assistant", parts: [{ type: "text", text }, { type: "finish", reason: "end_turn" }] });
  const kept = [user("client-1", "hi"), reply("msg_0000000000000001", "hello"), user("client-2", "more"), reply("msg_0000000000000002", "sure")];
  const a = await open(session);
  const from = a.frames.length;
  a.send({ type: "test.legacy", messages: kept });
  assert.ok(await a.waitFor((f) => f.type === "test.legacy", 10_000, from));
  a.close();
  await worker.restart();

  const b = await open(session);
  try {
    const listed = b.init.messages;
    assert.deepEqual(listed.map((m) => m.id), kept.map((m) => m.id), "the same messages, under the same ids");
    assert.deepEqual(listed.map((m) => m.parent), [null, ...listed.slice(0, -1).map((m) => m.ref)], "one branch");
    assert.deepEqual([listed[1].ref, listed[3].ref], ["msg_0000000000000001", "msg_0000000000000002"]);
    const next = await prompt(b, "/seen", "client-3", kept.map((m) => m.id));
    assert.ok(next.turnId);
    const seen = JSON.parse(b.frames.filter((f) => f.type === "message.part.text-delta" && f.turnId === next.turnId).map((f) => f.delta).join(""));
    assert.deepEqual(seen.map((m) => m.id), [...kept.map((m) => m.id), "client-3"], "the model is given the copied conversation");
  } finally {
    b.close();
  }
});
