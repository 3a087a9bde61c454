// The SessionAgent library's limits and failures (packages/session-agent), in workerd, on the
// reference TypeScript agent behind the real adapter:
//
// - a user message over the library's row cap (MAX_ROW_BYTES, src/rows.ts: a 3 MB data URL) is
//   refused at once in words (`error`, code `message_too_large`), nothing is stored, and the
//   session goes on;
// - three turns with a 1.5 MB image each are stored within the cap, and the session stays
//   readable (`init`, the history route) and goes on;
// - a storage failure ends what it touches with words and loses nothing stored before: a
//   regenerate and an edit (a take-back) whose store throws get `error` and leave the tree as it
//   was; a reply whose final save throws still ends (`message.finalize` `error`, `complete`), and
//   so does a turn whose question, or whose answer, cannot be stored; the next prompt works.
//
// The store is broken on purpose by the test agent's `test.break-store` frame
// (tests/fixtures/agents/recording.ts); the sessions are driven over check-agent's probe socket as
// the adapter drives them, and through the adapter's chat route.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import WebSocket from "ws";
import { startWorker, sessionId, chatBody, postChat, readAll, sseEvents } from "./harness.mjs";
import { prompt, stored } from "./agent_probe.mjs";
import { Conn } from "../../check-agent/conn.mjs";

let worker;
before(async () => {
  // Without the files' bucket: a data: URL then reaches the agent as it came (docs/files.md),
  // which is what the library's caps are for.
  worker = await startWorker({ agent: "typescript", probe: true, unset: ["FILES"] });
});
after(async () => {
  await worker?.dispose();
});

const open = (session) => Conn.open(new WebSocket(`${worker.probe.replace("http", "ws")}/sessions/${session}/agent`));

/** A data URL of about `bytes` bytes (base64 of nothing in particular). */
const dataUrl = (bytes) => `data:image/png;base64,${"A".repeat(bytes - bytes % 4)}`;

/** A chat POST's body: one user message with `text` and, if given, a file of `url`. */
function withFile(text, url) {
  const body = JSON.parse(chatBody(text));
  if (url) body.messages[0].parts.push({ type: "file", mediaType: "image/png", url });
  return JSON.stringify(body);
}

/** The UI chunks of an SSE body. */
const chunks = (text) => sseEvents(text).filter((e) => e.startsWith("data: {")).map((e) => JSON.parse(e.slice(6)));

/** What a new socket's init lists (its messages and their refs), and the size of its frame. */
async function init(session) {
  const conn = await open(session);
  conn.close();
  return { refs: conn.init.messages.map((m) => m.ref), messages: conn.init.messages, bytes: JSON.stringify(conn.init).length };
}

/** Breaks the session's store: of the next writes of `op`, `after` go through, then one throws. */
async function breakStore(conn, op, after = 0) {
  const from = conn.frames.length;
  conn.send({ type: "test.break-store", op, after, count: 1 });
  assert.ok(await conn.waitFor((f) => f.type === "test.break-store", 10_000, from));
}

test("a 3 MB user message is refused at once in words (message_too_large), nothing is stored, and the session goes on", { timeout: 60_000 }, async () => {
  const session = sessionId("too-large");
  const first = await readAll(await postChat(worker.base, session, chatBody("/slow 2 5")));
  assert.ok(chunks(first.text).some((c) => c.type === "finish"));
  const conn = await open(session);
  try {
    const before = await stored(conn);
    const started = Date.now();
    const { text } = await readAll(await postChat(worker.base, session, withFile("look at this", dataUrl(3_000_000))));
    assert.ok(Date.now() - started < 10_000, `answered at once, not after a timeout (${Date.now() - started} ms)`);
    const error = chunks(text).find((c) => c.type === "error");
    assert.match(error?.errorText ?? "", /too large/, "refused in words");
    assert.equal(await stored(conn), before, "nothing stored");

    const refused = await prompt(conn, "x".repeat(3_000_000), "big-1", []);
    assert.equal(refused.error?.code, "message_too_large", "the agent's code");
    assert.match(refused.error.message, /too large/);
    assert.equal(await stored(conn), before, "nothing stored");
  } finally {
    conn.close();
  }
  const next = await readAll(await postChat(worker.base, session, chatBody("/slow 3 5")));
  assert.ok(chunks(next.text).some((c) => c.type === "text-delta"), "the next prompt is answered");
});

test("three turns with a 1.5 MB image each are stored, and the session stays readable and goes on", { timeout: 90_000 }, async () => {
  const session = sessionId("big-turns");
  for (let turn = 1; turn <= 3; turn++) {
    const { text } = await readAll(await postChat(worker.base, session, withFile(`/slow 1 5 image ${turn}`, dataUrl(1_500_000))));
    const said = chunks(text);
    assert.ok(said.some((c) => c.type === "finish") && !said.some((c) => c.type === "error"), `turn ${turn} ends well: ${text.slice(0, 300)}`);
  }
  const conn = await open(session);
  try {
    assert.equal(await stored(conn), 6, "three user messages and three replies");
    assert.ok(conn.init.messages.length >= 1, "init lists the newest messages");
  } finally {
    conn.close();
  }
  const { bytes } = await init(session);
  assert.ok(bytes < 4 * 1024 * 1024, `init fits in one frame the adapter accepts (${bytes} bytes)`);
  const history = await fetch(`${worker.base}/api/sessions/${session}/messages`);
  assert.equal(history.status, 200);
  const page = await history.json();
  assert.ok(page.length >= 1 && page.at(-1).role === "assistant", "the history's newest page");
  const next = await readAll(await postChat(worker.base, session, chatBody("/slow 3 5")));
  assert.ok(chunks(next.text).some((c) => c.type === "text-delta"), "the next prompt is answered");
});

test("a regenerate and an edit whose store throws get an error in words, lose nothing stored before, and the next prompt works", { timeout: 60_000 }, async () => {
  const session = sessionId("take-back");
  const conn = await open(session);
  try {
    const u1 = await prompt(conn, "/slow 2 5", "u1", []);
    const u2 = await prompt(conn, "/slow 2 5", "u2", ["u1", u1.turnId]);
    assert.ok(u2.turnId);
    const kept = await init(session);
    const count = await stored(conn);

    await breakStore(conn, "insert");
    const regenerate = await prompt(conn, "/slow 2 5", "u2", ["u1", u1.turnId]);
    assert.equal(regenerate.error?.type, "error", "the regenerate is refused");
    assert.match(regenerate.error.message, /could not/);
    // The edit's user message is written, then its reply's row fails: the first is taken back too.
    await breakStore(conn, "insert", 1);
    const edit = await prompt(conn, "/slow 3 5", "u2", ["u1", u1.turnId]);
    assert.equal(edit.error?.type, "error", "the edit is refused");
    assert.equal(await stored(conn), count, "nothing half-stored");
    assert.deepEqual((await init(session)).refs, kept.refs, "the tree as it was");

    const again = await prompt(conn, "/slow 2 5", "u3", ["u1", u1.turnId, "u2", u2.turnId]);
    assert.equal(again.finalize?.reason, "end_turn", "the next prompt works");
  } finally {
    conn.close();
  }
});

test("a reply whose final save throws still ends (finalize error, complete), keeps what was stored, and the next prompt works", { timeout: 60_000 }, async () => {
  const session = sessionId("save-fails");
  const conn = await open(session);
  try {
    const u1 = await prompt(conn, "/slow 2 5", "u1", []);
    const kept = await init(session);
    await breakStore(conn, "save");
    const failed = await prompt(conn, "/slow 2 5", "u2", ["u1", u1.turnId]);
    assert.equal(failed.finalize?.reason, "error", "the turn ends in error");
    assert.match(failed.finalize.error, /could not/);
    const after = await init(session);
    assert.deepEqual(after.refs.slice(0, kept.refs.length), kept.refs, "what was stored before is kept");
    const ended = after.messages.find((m) => m.ref === failed.turnId);
    assert.deepEqual(ended?.parts.at(-1), { type: "finish", reason: "error" }, "the reply is stored ended, in error");
    assert.match(ended.parts.at(-2)?.message ?? "", /could not store/);
    const next = await prompt(conn, "/slow 2 5", "u3", ["u1", u1.turnId]);
    assert.equal(next.finalize?.reason, "end_turn", "the next prompt works");
  } finally {
    conn.close();
  }
});

test("a question whose save throws, and an answer whose save throws, end the turn in words (finalize error, complete); the session goes on", { timeout: 60_000 }, async () => {
  const session = sessionId("ask-fails");
  const conn = await open(session);
  try {
    await breakStore(conn, "save");
    const asked = await prompt(conn, "/ask Go on?", "u1", []);
    assert.equal(asked.finalize?.reason, "error", "the question is never asked: the turn ends");
    assert.match(asked.finalize.error, /could not store its question/);
    assert.ok(!conn.frames.some((f) => f.type === "question"), "no question sent");

    const from = conn.frames.length;
    conn.send({ type: "prompt", content: "/ask Go on?", requestId: "r-u2", messageId: "u2", branch: ["u1", asked.turnId] });
    const question = await conn.waitFor((f) => f.type === "question", 10_000, from);
    assert.ok(question, "a question asked when storage works");
    await breakStore(conn, "save");
    const at = conn.frames.length;
    conn.send({ type: "answer", questionId: question.questionId, answer: "yes", onDisconnect: "abort" });
    const finalize = await conn.waitFor((f) => f.type === "message.finalize", 10_000, at);
    assert.equal(finalize?.reason, "error", "the answer's turn ends");
    assert.match(finalize.error, /could not store the answer/);
    assert.ok(await conn.waitFor((f) => f.type === "complete", 10_000, at));

    const next = await prompt(conn, "/slow 2 5", "u3", []);
    assert.equal(next.finalize?.reason, "end_turn", "the next prompt works");
  } finally {
    conn.close();
  }
});
