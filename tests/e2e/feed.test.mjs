// The session feed, `GET /api/sessions/:id/events`, against the built worker in workerd: what it
// opens with, a turn from another client shown as it starts (its user message) and as it ends,
// a question and its answer, a stop, a regenerate's cut; a dropped feed resumed by its
// `Last-Event-ID` with no gap and no repeat; auth and scoping as the history's; the caps and their
// refusals; a burst of clients gone, whose places are freed; a token's `exp` ending the feed.
// Both agents: the embedded demo and the reference TypeScript agent in a worker of its own.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf, sleep } from "./harness.mjs";
import { hs256Jwt } from "./jwks.mjs";
import { openFeed } from "./feed.mjs";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");

for (const agent of AGENTS) {
  describe(`agent: ${agent}`, () => {
    let worker;
    before(async () => {
      worker = await startWorker({ agent });
    });
    after(() => worker?.dispose());

    test("a new feed says the session as it is; its headers keep it out of every cache", async () => {
      const session = sessionId("feed-open");
      const feed = await openFeed(worker.base, session);
      assert.equal(feed.status, 200);
      assert.equal(feed.response.headers.get("content-type"), "text/event-stream");
      assert.equal(feed.response.headers.get("cache-control"), "no-cache, no-store");
      assert.equal(feed.response.headers.get("x-vercel-ai-ui-message-stream"), null, "a feed is no chat stream");
      assert.match(feed.response.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/);
      const sync = await feed.until((e) => e.type === "sync", "sync");
      assert.deepEqual(sync.data, { type: "sync", messageIds: [], turn: null });
      assert.equal(feed.comments, 1, "it opens with a comment");
      feed.close();
    });

    test("a turn from another client: its start with the user message while it streams, then its end", async () => {
      const session = sessionId("feed-turn");
      const feed = await openFeed(worker.base, session);
      await feed.until((e) => e.type === "sync", "sync");
      const body = chatBody("/slow 20 50");
      const userId = JSON.parse(body).messages[0].id;
      const response = await postChat(worker.base, session, body);
      const start = await feed.until((e) => e.type === "turn-start", "turn-start");
      const { text } = await readAll(response);
      const streamedAt = Date.now();
      const turnId = chunksOf(text).find((c) => c.type === "start").messageId;
      assert.equal(start.data.turnId, turnId);
      assert.deepEqual(start.data.branch, []);
      assert.equal(start.data.message.id, userId, "the client's id");
      assert.equal(start.data.message.role, "user");
      assert.deepEqual(start.data.message.parts.map((p) => p.text), ["/slow 20 50"]);
      assert.ok(start.at < streamedAt - 300, "told while the turn streams, not after");
      const end = await feed.until((e) => e.type === "turn-end", "turn-end");
      assert.deepEqual(end.data, { type: "turn-end", turnId, reason: "end_turn" });
      // The history now names the same messages: the client's state and the feed's agree.
      const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
      const again = await openFeed(worker.base, session);
      const sync = await again.until((e) => e.type === "sync", "sync");
      assert.deepEqual(sync.data.messageIds, history.map((m) => m.id));
      assert.equal(sync.id, end.id, "the same state has the same name");
      feed.close();
      again.close();
    });

    test("a question waits, its answer from another client goes on, and a stop from anywhere ends the turn", { timeout: 30_000 }, async () => {
      const session = sessionId("feed-ask");
      const feed = await openFeed(worker.base, session);
      await feed.until((e) => e.type === "sync", "sync");
      const asked = await postChat(worker.base, session, chatBody("/ask Deploy now?"), { headers: { "content-type": "application/json", "x-questions": "data" } });
      const waiting = await feed.until((e) => e.type === "turn-waiting", "turn-waiting");
      const question = chunksOf((await readAll(asked)).text).find((c) => c.type === "data-question");
      assert.equal(waiting.data.questionId, question.data.questionId);
      const answer = JSON.stringify({ id: "c", messages: [{ id: "answer-1", role: "user", parts: [{ type: "data-answer", data: { questionId: waiting.data.questionId, answer: "yes" } }] }] });
      const answered = await postChat(worker.base, session, answer, { headers: { "content-type": "application/json", "x-questions": "data" } });
      await feed.until((e) => e.type === "turn-continue", "turn-continue");
      await readAll(answered);
      const ended = await feed.until((e) => e.type === "turn-end", "turn-end");
      assert.equal(ended.data.turnId, waiting.data.turnId);

      const running = postChat(worker.base, session, chatBody("/slow 100 50"));
      const start = await feed.until((e) => e.type === "turn-start", "the second turn", { from: feed.events.indexOf(ended) });
      const stop = await fetch(`${worker.base}/api/sessions/${session}/chat/stop`, { method: "POST" });
      assert.equal(stop.status, 202);
      const stopped = await feed.until((e) => e.type === "turn-end" && e.turnId === start.data.turnId, "the stopped turn's end");
      assert.equal(stopped.data.reason, "canceled");
      await readAll(await running);
      feed.close();
    });

    test("a regenerate elsewhere: the turn-start's branch cuts the conversation where the agent cut it", { timeout: 30_000 }, async () => {
      const session = sessionId("feed-regen");
      const first = chatBody("/slow 2 1");
      const user = JSON.parse(first).messages[0];
      const reply = chunksOf((await readAll(await postChat(worker.base, session, first))).text).find((c) => c.type === "start").messageId;
      const second = JSON.parse(chatBody("/slow 2 1"));
      const list = [user, { id: reply, role: "assistant", parts: [{ type: "text", text: "w1 w2" }] }, second.messages[0]];
      await readAll(await postChat(worker.base, session, JSON.stringify({ ...second, messages: list })));
      const feed = await openFeed(worker.base, session);
      const sync = await feed.until((e) => e.type === "sync", "sync");
      assert.equal(sync.data.messageIds.length, 4);
      // regenerate() of the first reply: the list up to the user message before it.
      const regen = JSON.stringify({ id: "chat-1", trigger: "regenerate-message", messageId: reply, messages: [user] });
      await readAll(await postChat(worker.base, session, regen));
      const start = await feed.until((e) => e.type === "turn-start", "turn-start");
      assert.deepEqual(start.data.branch, [], "everything after the first user message was taken back");
      assert.equal(start.data.message.id, user.id);
      const end = await feed.until((e) => e.type === "turn-end", "turn-end");
      const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
      assert.deepEqual(history.map((m) => m.id), [user.id, end.data.turnId]);
      feed.close();
    });

    // The keep-alive is the adapter's: one agent is enough.
    if (agent === "demo") test("a turn longer than the keep-alive's period: its feed, which tells none of its deltas, still writes a keep-alive 5 s after its last event", { timeout: 60_000 }, async () => {
      const session = sessionId("feed-long");
      const feed = await openFeed(worker.base, session);
      await feed.until((e) => e.type === "sync", "sync");
      const turn = postChat(worker.base, session, chatBody("/slow 80 100"));
      const start = await feed.until((e) => e.type === "turn-start", "turn-start");
      const comments = feed.comments;
      await readAll(await turn);
      const end = await feed.until((e) => e.type === "turn-end", "turn-end");
      assert.ok(end.at - start.at >= 6_000, `the turn lasted ${end.at - start.at} ms`);
      assert.ok(feed.comments > comments, "a keep-alive went out while the agent streamed its deltas");
      feed.close();
    });

    test("a dropped feed comes back by its Last-Event-ID: nothing repeated, nothing missed", { timeout: 30_000 }, async () => {
      const session = sessionId("feed-resume");
      const feed = await openFeed(worker.base, session);
      await feed.until((e) => e.type === "sync", "sync");
      await readAll(await postChat(worker.base, session, chatBody("/slow 2 1")));
      await feed.until((e) => e.type === "turn-end", "turn-end");
      feed.close();
      // Up to date: nothing but the opening comment, then the next turn as it comes.
      const current = await openFeed(worker.base, session, { lastEventId: feed.lastId });
      await sleep(300);
      assert.deepEqual(current.events, [], "nothing repeated");
      await readAll(await postChat(worker.base, session, chatBody("/slow 2 1")));
      const next = await current.until((e) => e.type === "turn-start", "the next turn");
      assert.equal(current.events[0], next);
      const midTurn = next.id;
      await current.until((e) => e.type === "turn-end", "turn-end");
      current.close();
      // Dropped at the turn's start, which ended since: one sync of the session as it is now.
      const behind = await openFeed(worker.base, session, { lastEventId: midTurn });
      const sync = await behind.until((e) => e.type === "sync", "sync");
      assert.equal(sync.data.messageIds.length, 4, "both turns, with their user messages");
      assert.equal(sync.data.turn, null);
      assert.equal(sync.id, current.lastId);
      behind.close();
    });
  });
}

const SECRET = "feed-test-secret-0123456789-0123456789";
const now = () => Math.floor(Date.now() / 1000);
const bearer = (claims) => ({ authorization: `Bearer ${hs256Jwt(SECRET, { sub: "u-1", exp: now() + 600, ...claims })}` });

describe("the feed's guard", () => {
  let worker;
  before(async () => {
    worker = await startWorker({ vars: { AUTH_MODE: "jwt", AUTH_SECRET: SECRET } });
  });
  after(() => worker?.dispose());

  test("no token: 401; another session's token: 403; both before the agent is touched", async () => {
    const session = sessionId("feed-auth");
    const none = await openFeed(worker.base, session);
    assert.equal(none.status, 401);
    assert.equal((await none.response.json()).error.code, "unauthorized");
    const other = await openFeed(worker.base, session, { headers: bearer({ sessions: ["someone-else"] }) });
    assert.equal(other.status, 403);
    assert.equal((await other.response.json()).error.code, "forbidden");
    const mine = await openFeed(worker.base, session, { headers: bearer({ sessions: [session] }) });
    assert.equal(mine.status, 200);
    mine.close();
    const logged = worker.logs.filter((l) => l.path === `/api/sessions/${session}/events`).map((l) => l.status);
    assert.deepEqual(logged.slice(0, 2), [401, 403]);
  });

  test("a feed ends when the worker would refuse its token: its exp, with the 60 s of clock skew allowed", { timeout: 20_000 }, async () => {
    const session = sessionId("feed-exp");
    // Past its exp, but inside the skew for 2 s more.
    const feed = await openFeed(worker.base, session, { headers: bearer({ sessions: [session], exp: now() - 58 }) });
    assert.equal(feed.status, 200);
    await feed.done;
    const line = worker.logs.find((l) => l.path === `/api/sessions/${session}/events`);
    assert.equal(line?.outcome, "feed_expired");
  });
});

describe("the feed's caps", () => {
  // A worker of its own: a feed whose client left holds its place until the feed next writes.
  let worker;
  before(async () => {
    worker = await startWorker({ vars: { AUTH_MODE: "jwt", AUTH_SECRET: SECRET, MAX_SESSION_FEEDS: "2", MAX_USER_FEEDS: "2", MAX_FEEDS: "3" } });
  });
  after(() => worker?.dispose());

  test("past MAX_SESSION_FEEDS 429, past MAX_FEEDS 503, each with Retry-After; a place comes back when its client goes", { timeout: 30_000 }, async () => {
    const a = sessionId("feed-cap-a");
    const b = sessionId("feed-cap-b");
    const headers = bearer({ sessions: "*" });
    const open = [await openFeed(worker.base, a, { headers }), await openFeed(worker.base, a, { headers })];
    assert.deepEqual(open.map((f) => f.status), [200, 200]);
    const third = await openFeed(worker.base, a, { headers });
    assert.equal(third.status, 429);
    assert.equal(third.response.headers.get("retry-after"), "10");
    assert.equal((await third.response.json()).error.code, "too_many_feeds");
    // Another user: u-1 holds MAX_USER_FEEDS already, and the isolate's last place is another's.
    const other = bearer({ sub: "u-2", sessions: "*" });
    open.push(await openFeed(worker.base, b, { headers: other }));
    assert.equal(open[2].status, 200);
    const full = await openFeed(worker.base, b, { headers: bearer({ sub: "u-3", sessions: "*" }) });
    assert.equal(full.status, 503);
    assert.equal(full.response.headers.get("retry-after"), "10");
    assert.equal((await full.response.json()).error.code, "feeds_full");
    // One client of session a goes; a turn there makes its feed write, and find it gone.
    await open[0].until((e) => e.type === "sync", "sync");
    open[0].close();
    await readAll(await postChat(worker.base, a, chatBody("/slow 2 1"), { headers: { ...headers, "content-type": "application/json" } }));
    await open[1].until((e) => e.type === "turn-end", "turn-end");
    let again;
    for (let i = 0; i < 50; i++) {
      again = await openFeed(worker.base, a, { headers });
      if (again.status === 200) break;
      await again.response.body?.cancel();
      await sleep(100);
    }
    assert.equal(again.status, 200, "the gone client's place was given back");
    const line = worker.logs.find((l) => l.path === `/api/sessions/${a}/events` && l.outcome === "feed_client_gone");
    assert.ok(line, "its log line says why it ended");
    for (const feed of [again, open[1], open[2]]) feed.close();
  });
});

describe("a burst of clients gone", () => {
  const FEEDS = 120;
  let worker;
  before(async () => {
    // One client's address opens them all: its cap (MAX_USER_FEEDS) is the session's.
    worker = await startWorker({ vars: { MAX_SESSION_FEEDS: String(FEEDS), MAX_USER_FEEDS: String(FEEDS), MAX_FEEDS: String(FEEDS + 1) } });
  });
  after(() => worker?.dispose());

  test(`${FEEDS} feeds on one session, their clients gone at once: a turn finds them all out, and every place is free again`, { timeout: 60_000 }, async () => {
    const session = sessionId("feed-burst");
    const feeds = await Promise.all(Array.from({ length: FEEDS }, () => openFeed(worker.base, session)));
    assert.ok(feeds.every((f) => f.status === 200));
    await Promise.all(feeds.map((f) => f.until((e) => e.type === "sync", "sync")));
    const refused = await openFeed(worker.base, session);
    assert.equal(refused.status, 429);
    for (const feed of feeds) feed.close();
    await readAll(await postChat(worker.base, session, chatBody("/slow 3 20")));
    const deadline = Date.now() + 20_000;
    while (worker.logs.filter((l) => l.outcome === "feed_client_gone").length < FEEDS && Date.now() < deadline) await sleep(100);
    assert.equal(worker.logs.filter((l) => l.outcome === "feed_client_gone").length, FEEDS, "every feed saw its client go");
    const again = await Promise.all(Array.from({ length: FEEDS }, () => openFeed(worker.base, session)));
    assert.deepEqual(again.map((f) => f.status).filter((s) => s !== 200), [], "every place was given back");
    for (const feed of again) feed.close();
  });
});
