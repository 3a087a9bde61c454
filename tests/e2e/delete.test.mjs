// "Delete means gone" (docs/sessions.md, "Your conversations"; docs/agent-protocol.md, `forget`):
// `DELETE /api/sessions/:id` in workerd, against the demo agent and the reference TypeScript agent
// (both of protocol 7). The agent forgets every message (the history is empty, a new turn on the
// id starts from nothing), a turn streaming on the session ends saying so (a stream every AI SDK
// reads), a feed open on it hears `deleted` and ends, and the row leaves the list. An agent that
// cannot forget (protocol 4) gets 409 `agent_cannot_forget`, and nothing is removed; another
// user's session is a 404 that never reaches its agent.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf, demoLog } from "./harness.mjs";
import { openFeed } from "./feed.mjs";
import { parseSse, checkSequence } from "../sdk/sse.mjs";

/** The stream's `errorText` when the session is deleted mid-turn (crates/core/src/translator/ending.rs). */
const FORGOTTEN = "this conversation was deleted";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");

/** A browser's list (`X-Conversations-Key`): one per test. */
let keys = 0;
const newKey = () => ({ "x-conversations-key": `delete-${process.pid}-${(keys += 1)}-${Date.now()}` });

/** A turn of `session`, read to its end; its stream's text. */
async function turn(base, session, headers, text = "/slow 1 1") {
  const response = await postChat(base, session, chatBody(text), { headers: { "content-type": "application/json", ...headers } });
  assert.equal(response.status, 200, `${session}: ${response.status}`);
  const { text: body } = await readAll(response);
  assert.equal(chunksOf(body).at(-1).type, "finish", body);
  return body;
}

const history = async (base, session, headers = {}) => {
  const response = await fetch(`${base}/api/sessions/${session}/messages`, { headers });
  assert.equal(response.status, 200);
  return response.json();
};

const listIds = async (base, headers) =>
  (await (await fetch(`${base}/api/sessions?limit=100`, { headers })).json()).sessions.map((s) => s.id);

const remove = (base, session, headers) => fetch(`${base}/api/sessions/${session}`, { method: "DELETE", headers });

/** Resolves once `check()` holds (the index is written after a turn's answer). */
async function eventually(check, what) {
  const deadline = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(what);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const agent of AGENTS) {
  describe(`agent: ${agent}`, () => {
    let worker;
    before(async () => {
      worker = await startWorker({ agent });
    });
    after(() => worker?.dispose());

    test("a delete forgets every message: the history is empty, the list drops it, a new turn starts from nothing", { timeout: 30_000 }, async () => {
      const me = newKey();
      const session = sessionId("delete-gone");
      await turn(worker.base, session, me, "/slow 1 1");
      await turn(worker.base, session, me, "/slow 2 1");
      assert.equal((await history(worker.base, session)).length, 4);
      await eventually(async () => (await listIds(worker.base, me)).includes(session), "listed");
      const gone = await remove(worker.base, session, me);
      assert.equal(gone.status, 204, await gone.text());
      assert.deepEqual(await history(worker.base, session), [], "nothing of the session is kept");
      assert.deepEqual(await listIds(worker.base, me), []);
      // A new turn on the same id: a conversation of one exchange, listed anew.
      await turn(worker.base, session, me, "/slow 1 1");
      const after = await history(worker.base, session);
      assert.deepEqual(after.map((m) => m.role), ["user", "assistant"]);
      await eventually(async () => (await listIds(worker.base, me)).includes(session), "listed again");
      if (agent === "demo") {
        const received = await demoLog(worker.base, session, "received");
        assert.ok(received.some((e) => e.frame?.type === "forget"), "the agent was asked to forget");
        // Its log of what it received went with the session: the prompts before the forget too.
        const prompts = received.filter((e) => e.frame?.type === "prompt").map((e) => e.frame.content);
        assert.deepEqual(prompts, ["/slow 1 1"], "only the turn after the delete");
      }
    });

    test("a turn streaming on the session ends saying so, in a stream every AI SDK reads; an open feed hears `deleted` and ends", { timeout: 30_000 }, async () => {
      const me = newKey();
      const session = sessionId("delete-live");
      await turn(worker.base, session, me);
      const feed = await openFeed(worker.base, session);
      await feed.until((e) => e.type === "sync", "sync");
      const streaming = await postChat(worker.base, session, chatBody("/slow 200 50"), { headers: { "content-type": "application/json", ...me } });
      assert.equal(streaming.status, 200);
      const reading = readAll(streaming);
      await feed.until((e) => e.type === "turn-start", "turn-start");
      const gone = await remove(worker.base, session, me);
      assert.equal(gone.status, 204, await gone.text());
      const { text } = await reading;
      const { chunks, problems } = parseSse(text);
      assert.deepEqual(problems, [], text);
      assert.deepEqual(checkSequence(chunks), [], text);
      assert.equal(chunks.find((c) => c.type === "error")?.errorText, FORGOTTEN, text);
      assert.equal(chunks.filter((c) => ["finish", "abort"].includes(c.type)).length, 1, "one ending");
      const deleted = await feed.until((e) => e.type === "deleted", "deleted");
      assert.deepEqual(deleted.data, { type: "deleted" });
      await feed.done;
      assert.equal(feed.ended, true, "the feed ends");
      assert.equal(feed.events.at(-1).data.type, "deleted", "nothing after it");
      assert.ok(worker.logs.some((l) => l.path === `/api/sessions/${session}/events` && l.outcome === "feed_deleted"), "the feed's line says why it ended");
      assert.deepEqual(await history(worker.base, session), []);
    });
  });
}

describe("what a delete never removes", () => {
  let worker;
  before(async () => {
    worker = await startWorker();
  });
  after(() => worker?.dispose());

  test("an agent that cannot forget (protocol 4): 409 agent_cannot_forget, and the list, the messages and the agent's memory stay", { timeout: 30_000 }, async () => {
    const me = newKey();
    const session = sessionId("proto4-delete");
    await turn(worker.base, session, me);
    await eventually(async () => (await listIds(worker.base, me)).includes(session), "listed");
    const refused = await remove(worker.base, session, me);
    assert.equal(refused.status, 409);
    assert.equal((await refused.json()).error.code, "agent_cannot_forget");
    assert.deepEqual(await listIds(worker.base, me), [session]);
    assert.equal((await history(worker.base, session)).length, 2);
    const received = await demoLog(worker.base, session, "received");
    assert.ok(!received.some((e) => e.frame?.type === "forget"), "nothing sent to an agent that cannot take it");
  });

  test("another browser's session: 404 session_not_found, and its agent is never asked", { timeout: 30_000 }, async () => {
    const [mine, theirs] = [newKey(), newKey()];
    const session = sessionId("delete-theirs");
    await turn(worker.base, session, theirs);
    await eventually(async () => (await listIds(worker.base, theirs)).includes(session), "listed");
    const refused = await remove(worker.base, session, mine);
    assert.equal(refused.status, 404);
    assert.equal((await refused.json()).error.code, "session_not_found");
    assert.equal((await history(worker.base, session)).length, 2, "their messages stay");
    const received = await demoLog(worker.base, session, "received");
    assert.ok(!received.some((e) => e.frame?.type === "forget"));
  });
});
