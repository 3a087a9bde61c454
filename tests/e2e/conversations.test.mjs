// A user's conversations (docs/sessions.md, "Your conversations") in workerd, on the index's own
// Durable Object (SESSION_INDEX): a turn lists its session, titled from its first message; the
// list pages newest activity first with no repeat or gap while turns move sessions; a rename wins
// over later turns; a delete takes the row out; every refusal of the routes; who sees what (a
// key per browser without a JWT, a JWT's `sub` with one: two users each see, rename and delete
// only their own); the clients' helper (clients/conversations.js) on them; and without the
// binding, 501 while turns go on unlisted.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { hs256Jwt, nowS } from "./jwks.mjs";
import { startWorker, sessionId, chatBody, postChat, readAll, chunksOf, until } from "./harness.mjs";
import { conversations, ConversationsError } from "../../clients/conversations.js";

const ORIGIN = "https://app.example";
const AUTH_SECRET = "conversations-test-secret-0123456789abcdef";

const workers = [];
after(() => Promise.all(workers.map((w) => w.dispose())));
async function start(options) {
  const worker = await startWorker(options);
  workers.push(worker);
  return worker;
}

/** A browser's key (`X-Conversations-Key`), one list each. */
let keys = 0;
const newKey = () => `browser-${process.pid}-${(keys += 1)}-${Date.now()}`;

/** A turn of `session` (`/slow 1 1`: one word at once, unless `text` says otherwise), read to its end. */
async function turn(base, session, headers, text = "/slow 1 1") {
  const response = await postChat(base, session, chatBody(text), { headers: { "content-type": "application/json", ...headers } });
  assert.equal(response.status, 200, `${session}: ${response.status}`);
  const chunks = chunksOf((await readAll(response)).text);
  assert.equal(chunks.at(-1).type, "finish");
}

/** `GET /api/sessions` with `query` and `headers`. */
const get = (base, headers, query = "") => fetch(`${base}/api/sessions${query}`, { headers });

/** `GET /api/sessions` with `query` and `headers`: { status, body, headers }. */
async function list(base, headers, query = "") {
  const response = await get(base, headers, query);
  return { status: response.status, body: await response.json(), headers: response.headers };
}

/** Every page of the list, `limit` at a time (`between(pages)` called after each page but the
 * last, not waited for): the ids in order. */
async function walk(base, headers, limit, between = async () => {}) {
  const ids = [];
  let cursor = null;
  let pages = 0;
  do {
    const page = await list(base, headers, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.ok(page.body.sessions.length <= limit);
    ids.push(...page.body.sessions.map((s) => s.id));
    cursor = page.body.next;
    pages += 1;
    if (cursor !== null) between(pages);
  } while (cursor !== null);
  return ids;
}

/** Resolves once `headers`' list (its first page, up to 100) satisfies `check(sessions)`. */
async function listed(base, headers, check, what) {
  let last;
  const deadline = Date.now() + 5000;
  for (;;) {
    last = (await list(base, headers, "?limit=100")).body.sessions;
    if (check(last)) return last;
    if (Date.now() > deadline) assert.fail(`${what}: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function patch(base, session, headers, body, type = "application/json") {
  return fetch(`${base}/api/sessions/${session}`, { method: "PATCH", headers: { "content-type": type, ...headers }, body });
}

function remove(base, session, headers) {
  return fetch(`${base}/api/sessions/${session}`, { method: "DELETE", headers });
}

async function assertError(response, status, code) {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.equal(JSON.parse(text).error.code, code, text);
}

describe("without a JWT: a list per browser, by its key", () => {
  let worker;
  before(async () => {
    worker = await start({ vars: { ALLOWED_ORIGINS: ORIGIN } });
  });

  test("a turn lists its session, titled from its first message's first line; the list is newest activity first", { timeout: 20_000 }, async () => {
    const me = { "x-conversations-key": newKey() };
    const [a, b, c] = [sessionId("conv-a"), sessionId("conv-b"), sessionId("conv-c")];
    const empty = await list(worker.base, me);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { sessions: [], next: null });
    assert.equal(empty.headers.get("cache-control"), "no-store");
    // A prompt whose turn the client leaves at its first bytes: listed all the same.
    const long = `  Plan a trip to Lisbon in May for a family of four, with a day in Sintra and one by the sea  \nsecond line`;
    const response = await postChat(worker.base, a, chatBody(long), { headers: { "content-type": "application/json", ...me } });
    assert.equal(response.status, 200);
    await response.body.cancel();
    await turn(worker.base, b, me);
    await turn(worker.base, c, me);
    const sessions = await listed(worker.base, me, (s) => s.length === 3, "three sessions");
    assert.deepEqual(sessions.map((s) => s.id), [c, b, a]);
    const title = sessions[2].title;
    assert.equal(title, "Plan a trip to Lisbon in May for a family of four, with a day in Sintra and one…");
    assert.equal([...title].length, 80);
    for (const s of sessions) {
      assert.deepEqual(Object.keys(s), ["id", "title", "createdAt", "updatedAt"]);
      assert.equal(s.createdAt, s.updatedAt);
      assert.ok(Math.abs(s.createdAt - Date.now()) < 60_000);
    }
    assert.ok(sessions[0].updatedAt > sessions[1].updatedAt && sessions[1].updatedAt > sessions[2].updatedAt);
    // A turn moves its session to the top; its title and createdAt stay.
    await turn(worker.base, a, me);
    const moved = await listed(worker.base, me, (s) => s[0].id === a, "a moved to the top");
    assert.deepEqual(moved.map((s) => s.id), [a, c, b]);
    assert.equal(moved[0].title, title);
    assert.equal(moved[0].createdAt, sessions[2].createdAt);
    assert.ok(moved[0].updatedAt > sessions[0].updatedAt);
    // Another browser's list is its own, and a request without a key has none.
    const other = await list(worker.base, { "x-conversations-key": newKey() });
    assert.deepEqual(other.body.sessions, []);
    await assertError(await fetch(`${worker.base}/api/sessions`), 403, "no_user");
    // A turn without a key goes on, unlisted.
    await turn(worker.base, sessionId("conv-keyless"), {});
  });

  test("pages give every session once, newest first, while turns move sessions and make new ones between pages", { timeout: 30_000 }, async () => {
    const me = { "x-conversations-key": newKey() };
    const ids = Array.from({ length: 24 }, (_, i) => sessionId(`page-${String(i).padStart(2, "0")}`));
    for (const id of ids) await turn(worker.base, id, me);
    await listed(worker.base, me, (s) => s.length === ids.length, "all listed");
    assert.deepEqual(await walk(worker.base, me, 5), [...ids].reverse(), "a quiet list, page by page");
    // After each page, at once with the next page's request: a turn on a session not given yet,
    // one on a session given already, and a new session's first.
    const made = [];
    const turns = [];
    const seen = await walk(worker.base, me, 5, (page) => {
      const notYet = ids[ids.length - 1 - (page * 5 + 3)];
      const given = ids[ids.length - 1 - (page - 1) * 5];
      const fresh = sessionId(`page-new-${page}`);
      made.push(fresh);
      turns.push(notYet && turn(worker.base, notYet, me), turn(worker.base, given, me), turn(worker.base, fresh, me));
    });
    await Promise.all(turns);
    await listed(worker.base, me, (s) => s.length === ids.length + made.length, "the new sessions listed");
    assert.equal(new Set(seen).size, seen.length, `no repeats: ${seen}`);
    assert.deepEqual([...seen].sort(), [...ids].sort(), "every session there at the first page, none made later");
    // A new walk has them in their new order: the sessions the turns moved, and the new ones, first.
    const fresh = await walk(worker.base, me, 100);
    assert.equal(fresh.length, ids.length + made.length);
    assert.equal(fresh[0], made.at(-1));
  });

  test("a rename answers the session and wins over later turns; a delete takes it out", { timeout: 20_000 }, async () => {
    const me = { "x-conversations-key": newKey() };
    const [s1, s2] = [sessionId("rename-1"), sessionId("rename-2")];
    await turn(worker.base, s1, me);
    await turn(worker.base, s2, me);
    await listed(worker.base, me, (s) => s.length === 2, "two sessions");
    const renamed = await patch(worker.base, s1, me, JSON.stringify({ title: "  Trip to Lisbon 🇵🇹  " }));
    assert.equal(renamed.status, 200);
    assert.equal(renamed.headers.get("cache-control"), "no-store");
    const session = await renamed.json();
    assert.equal(session.id, s1);
    assert.equal(session.title, "Trip to Lisbon 🇵🇹");
    const before = await list(worker.base, me);
    assert.deepEqual(before.body.sessions.map((s) => s.id), [s2, s1], "a rename is no activity");
    await turn(worker.base, s1, me, "/slow 1 1");
    const after = await listed(worker.base, me, (s) => s[0].id === s1, "s1's turn moved it");
    assert.equal(after[0].title, "Trip to Lisbon 🇵🇹", "the rename wins over the turn after it");
    const longest = "é".repeat(200);
    assert.equal((await (await patch(worker.base, s1, me, JSON.stringify({ title: longest }))).json()).title, longest);
    const gone = await remove(worker.base, s2, me);
    assert.equal(gone.status, 204);
    assert.equal(await gone.text(), "");
    assert.deepEqual((await list(worker.base, me)).body.sessions.map((s) => s.id), [s1]);
    await assertError(await remove(worker.base, s2, me), 404, "session_not_found");
    // A new turn on the same id lists it anew, from that turn.
    await turn(worker.base, s2, me, "/slow 1 1");
    await listed(worker.base, me, (s) => s.length === 2 && s[0].id === s2, "s2 listed again");
  });

  test("the agent's title (protocol 7's `title`) replaces the first message's, never a rename's; a garbled one is skipped and logged; an agent that says nothing keeps the first message's", { timeout: 30_000 }, async () => {
    const me = { "x-conversations-key": newKey() };
    const [docs, plain] = [sessionId("conv-titled"), sessionId("conv-untitled")];
    // The demo agent titles a session from its first exchange (a docs search), just before its
    // finalize; a command's turn (`/slow`) says nothing.
    await turn(worker.base, docs, me, "weather in Paris tomorrow\nand the day after");
    await turn(worker.base, plain, me);
    const titles = async () => Object.fromEntries((await list(worker.base, me)).body.sessions.map((s) => [s.id, s.title]));
    await listed(worker.base, me, (s) => s.some((x) => x.id === docs && x.title === "Docs search: weather in Paris tomorrow and the day after"), "the agent's title");
    assert.equal((await titles())[plain], "/slow 1 1", "an agent that says nothing: the first message's title");
    // A later exchange does not title it again.
    await turn(worker.base, docs, me, "something else");
    assert.equal((await titles())[docs], "Docs search: weather in Paris tomorrow and the day after");
    // Any turn's title frame counts, the latest good one; a garbled one is skipped with a line.
    const replay = async (session, ...titled) => {
      const turnId = `t-${session}-${Math.random().toString(36).slice(2)}`;
      const frames = [{ type: "message.create", turnId }, ...titled.map((title) => ({ type: "title", title })), { type: "message.finalize", turnId, reason: "end_turn" }];
      const response = await postChat(worker.base, session, chatBody(`/replay\n${frames.map((f) => JSON.stringify(f)).join("\n")}`), { headers: { "content-type": "application/json", ...me } });
      assert.equal(response.status, 200);
      await readAll(response);
      return response.headers.get("x-request-id");
    };
    const garbled = await replay(plain, "  Named by the agent  ", "", 7, "x".repeat(201));
    await listed(worker.base, me, (s) => s.some((x) => x.id === plain && x.title === "Named by the agent"), "the latest good title");
    await until(() => worker.diagnostics.filter((d) => d.request === garbled && d.event === "frame_skipped").length === 3, "three lines for three garbled titles");
    // A rename wins over every title the agent gives after it.
    assert.equal((await patch(worker.base, plain, me, JSON.stringify({ title: "Mine" }))).status, 200);
    await replay(plain, "The agent's again");
    await turn(worker.base, plain, me);
    assert.equal((await titles())[plain], "Mine");
  });

  test("live (`?live=1`, the helper's follow): another client's new session, its move, a rename, the agent's title and a delete, as they happen; 16 at most a list; refusals", { timeout: 60_000 }, async () => {
    const me = { "x-conversations-key": newKey() };
    const list = conversations({ baseUrl: worker.base, headers: me });
    const heard = [];
    const stop = new AbortController();
    const opened = (options) => {
      let open;
      const ready = new Promise((resolve) => (open = resolve));
      return { ready, options: { ...options, onOpen: open } };
    };
    const main = opened({ signal: stop.signal });
    const following = list.follow((event) => heard.push(event), main.options);
    const others = new AbortController();
    const more = Array.from({ length: 15 }, () => opened({ signal: others.signal }));
    const followers = more.map(({ options }) => list.follow(() => {}, options));
    await Promise.all([main.ready, ...more.map(({ ready }) => ready)]);
    const seen = async (check, what) => {
      for (const deadline = Date.now() + 10_000; !heard.some(check); await new Promise((r) => setTimeout(r, 20))) {
        assert.ok(Date.now() < deadline, `${what}: ${JSON.stringify(heard)}`);
      }
      return heard.find(check);
    };
    const refused = await list.follow(() => {}).then(() => assert.fail("a 17th feed opened"), (error) => error);
    assert.equal(refused.status, 429);
    assert.equal(refused.code, "too_many_feeds");
    const [docs, plain] = [sessionId("live-docs"), sessionId("live-plain")];
    await turn(worker.base, plain, me);
    const made = await seen((e) => e.type === "session" && e.session.id === plain, "a new session");
    assert.deepEqual(Object.keys(made.session), ["id", "title", "createdAt", "updatedAt"]);
    assert.equal(made.session.title, "/slow 1 1");
    await turn(worker.base, docs, me, "weather in Lisbon");
    await seen((e) => e.type === "session" && e.session.id === docs && e.session.title === "Docs search: weather in Lisbon", "the agent's title");
    await turn(worker.base, plain, me);
    await seen((e) => e.type === "session" && e.session.id === plain && e.session.updatedAt > made.session.updatedAt, "a move");
    await list.rename(plain, "Renamed elsewhere");
    await seen((e) => e.type === "session" && e.session.title === "Renamed elsewhere", "a rename");
    await list.remove(docs);
    await seen((e) => e.type === "deleted" && e.id === docs, "a delete");
    // Another list's changes are not this one's.
    await turn(worker.base, sessionId("live-other"), { "x-conversations-key": newKey() });
    stop.abort();
    others.abort();
    await following;
    await Promise.allSettled(followers);
    assert.ok(heard.every((e) => e.type === "deleted" || [docs, plain].includes(e.session.id)), JSON.stringify(heard));
    // Their clients gone, the 16 places of the list come back (the worker learns of each at its
    // next keep-alive, ends it, and the object counts its socket closed): 16 open again.
    const again = new AbortController();
    let open = 0;
    for (const deadline = Date.now() + 25_000; open < 16 && Date.now() < deadline; ) {
      const tries = Array.from({ length: 16 - open }, () => opened({ signal: again.signal }));
      const results = tries.map(({ options }) => list.follow(() => {}, options).catch((error) => error));
      open += (await Promise.all(tries.map(({ ready }, i) => Promise.race([ready.then(() => true), results[i].then(() => false)])))).filter(Boolean).length;
      if (open < 16) await new Promise((r) => setTimeout(r, 500));
    }
    again.abort();
    assert.equal(open, 16, "the list's 16 places, free again once their clients went");
    // Refusals: a live list has no pages, `live` is 1, a list needs its key.
    for (const query of ["?live=1&limit=5", "?live=yes"]) await assertError(await get(worker.base, me, query), 400, "invalid_query");
    await assertError(await get(worker.base, {}, "?live=1"), 403, "no_user");
  });

  test("the clients' helper (clients/conversations.js): every page, a rename and a delete, and a refusal in its words", { timeout: 20_000 }, async () => {
    const me = { "x-conversations-key": newKey() };
    const ids = [sessionId("helper-1"), sessionId("helper-2"), sessionId("helper-3")];
    for (const id of ids) await turn(worker.base, id, me);
    await listed(worker.base, me, (s) => s.length === 3, "three sessions");
    const list = conversations({ baseUrl: worker.base, headers: async () => me });
    const walked = [];
    for await (const session of list.all({ limit: 2 })) walked.push(session.id);
    assert.deepEqual(walked, [...ids].reverse(), "newest activity first, each once, over two pages");
    assert.equal((await list.rename(ids[0], "Lisbon")).title, "Lisbon");
    await list.remove(ids[1]);
    assert.deepEqual((await list.page()).sessions.map((s) => [s.id, s.title]), [[ids[2], "/slow 1 1"], [ids[0], "Lisbon"]]);
    const refused = await list.remove(ids[1]).catch((error) => error);
    assert.ok(refused instanceof ConversationsError, String(refused));
    assert.deepEqual([refused.status, refused.code], [404, "session_not_found"]);
  });

  test("an answer to the agent's question is the same turn going on: it moves nothing", { timeout: 20_000 }, async () => {
    const me = { "x-conversations-key": newKey() };
    const [asked, other] = [sessionId("asked"), sessionId("other")];
    const question = await postChat(worker.base, asked, chatBody("/ask Which?"), { headers: { "content-type": "application/json", ...me } });
    const text = (await readAll(question)).text;
    const turnId = /"messageId":"(msg_[0-9a-f]+)"/.exec(text)[1];
    const questionId = /"toolCallId":"([^"]+)"/.exec(text)[1];
    const [before] = await listed(worker.base, me, (s) => s.length === 1, "the asking session");
    const body = JSON.stringify({
      id: "chat-1",
      trigger: "submit-message",
      messages: [
        { id: "u-asked", role: "user", parts: [{ type: "text", text: "/ask Which?" }] },
        { id: turnId, role: "assistant", parts: [{ type: "tool-askUser", toolCallId: questionId, state: "output-available", input: { questionId, text: "Which?" }, output: "this one" }] },
      ],
    });
    const answered = await postChat(worker.base, asked, body, { headers: { "content-type": "application/json", ...me } });
    assert.equal(answered.status, 200);
    assert.equal(chunksOf((await readAll(answered)).text).at(-1).type, "finish");
    // A turn after it, listed: the index has had every write before it.
    await turn(worker.base, other, me);
    const after = await listed(worker.base, me, (s) => s.length === 2, "the other session");
    assert.deepEqual(after.find((s) => s.id === asked), before, "the answer moved nothing");
  });

  test("refusals: 404 for a session not in the list (nobody's or another's alike), 400s, 413, 415, 405", { timeout: 20_000 }, async () => {
    const me = { "x-conversations-key": newKey() };
    const them = { "x-conversations-key": newKey() };
    const theirs = sessionId("theirs");
    await turn(worker.base, theirs, them);
    await listed(worker.base, them, (s) => s.length === 1, "theirs listed");
    const title = JSON.stringify({ title: "mine now" });
    const nobody = await patch(worker.base, sessionId("nobody"), me, title);
    const another = await patch(worker.base, theirs, me, title);
    assert.equal(nobody.status, 404);
    assert.equal(another.status, 404);
    assert.deepEqual((await another.json()).error, (await nobody.json()).error, "the same answer: ids cannot be probed");
    await assertError(await remove(worker.base, theirs, me), 404, "session_not_found");
    assert.equal((await list(worker.base, them)).body.sessions[0].title, "/slow 1 1", "theirs untouched");
    for (const body of ['{"title":""}', '{"title":"   "}', '{"title":7}', "{}", JSON.stringify({ title: "x".repeat(201) })]) {
      await assertError(await patch(worker.base, theirs, them, body), 400, "invalid_title");
    }
    await assertError(await patch(worker.base, theirs, them, "{not json"), 400, "invalid_json");
    await assertError(await patch(worker.base, theirs, them, '["title"]'), 400, "invalid_body");
    await assertError(await patch(worker.base, theirs, them, title, "text/plain"), 415, "unsupported_media_type");
    await assertError(await patch(worker.base, theirs, them, JSON.stringify({ title: "x", pad: "y".repeat(9000) })), 413, "body_too_large");
    await assertError(await patch(worker.base, "bad id", them, title), 400, "invalid_session_id");
    for (const query of ["?limit=0", "?limit=101", "?limit=x", "?cursor=forged"]) {
      await assertError(await get(worker.base, me, query), 400, "invalid_query");
    }
    // A cursor changed by one character.
    for (const id of [sessionId("c1"), sessionId("c2")]) await turn(worker.base, id, me);
    await listed(worker.base, me, (s) => s.length === 2, "two listed");
    const { next } = (await list(worker.base, me, "?limit=1")).body;
    assert.equal(typeof next, "string");
    assert.equal((await list(worker.base, me, `?limit=1&cursor=${next}`)).status, 200);
    const changed = next.slice(0, 5) + (next[5] === "A" ? "B" : "A") + next.slice(6);
    await assertError(await get(worker.base, me, `?limit=1&cursor=${changed}`), 400, "invalid_query");
    await assertError(await get(worker.base, { "x-conversations-key": "short" }), 400, "invalid_field");
    await assertError(await fetch(`${worker.base}/api/sessions`, { method: "POST" }), 405, "method_not_allowed");
    const notAllowed = await fetch(`${worker.base}/api/sessions/${theirs}`, { method: "GET" });
    assert.equal(notAllowed.headers.get("allow"), "PATCH, DELETE, OPTIONS");
    await assertError(notAllowed, 405, "method_not_allowed");
  });

  test("CORS: the preflights name each route's methods; answers carry the origin", { timeout: 20_000 }, async () => {
    for (const [path, methods] of [["/api/sessions", "GET, OPTIONS"], ["/api/sessions/s1", "PATCH, DELETE, OPTIONS"]]) {
      const preflight = await fetch(`${worker.base}${path}`, {
        method: "OPTIONS",
        headers: { origin: ORIGIN, "access-control-request-method": "PATCH", "access-control-request-headers": "content-type, x-conversations-key" },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get("access-control-allow-origin"), ORIGIN);
      assert.equal(preflight.headers.get("access-control-allow-methods"), methods);
      assert.match(preflight.headers.get("access-control-allow-headers"), /x-conversations-key/);
    }
    const answered = await list(worker.base, { origin: ORIGIN, "x-conversations-key": newKey() });
    assert.equal(answered.headers.get("access-control-allow-origin"), ORIGIN);
    const logged = worker.logs.filter((l) => l.path === "/api/sessions" && l.status === 200);
    assert.ok(logged.every((l) => l.outcome === "sessions_listed"), JSON.stringify(logged.at(-1)));
  });
});

describe("with JWTs: the list is the token's `sub`'s", () => {
  let worker;
  const token = (claims) => ({ authorization: `Bearer ${hs256Jwt(AUTH_SECRET, { exp: nowS() + 600, sessions: "*", ...claims })}` });
  before(async () => {
    worker = await start({ vars: { AUTH_MODE: "jwt", AUTH_SECRET } });
  });

  test("a live list is its user's own, and ends when its token does", { timeout: 30_000 }, async () => {
    const [annSub, bobSub] = [`ann-live-${Date.now()}`, `bob-live-${Date.now()}`];
    // Refused past its exp once the worker's minute of clock skew is spent: 2 s from now.
    const short = { authorization: `Bearer ${hs256Jwt(AUTH_SECRET, { sub: annSub, exp: nowS() - 58, sessions: "*" })}` };
    const heard = [];
    let open;
    const opened = new Promise((resolve) => (open = resolve));
    const started = Date.now();
    const following = conversations({ baseUrl: worker.base, headers: short }).follow((event) => heard.push(event), { onOpen: open });
    await opened;
    const [annS, bobS] = [sessionId("ann-live"), sessionId("bob-live")];
    await turn(worker.base, bobS, token({ sub: bobSub }));
    await turn(worker.base, annS, token({ sub: annSub }));
    await following; // ends by itself
    assert.ok(Date.now() - started < 20_000, "within seconds of the token's end");
    assert.deepEqual(heard.map((e) => e.session.id), [annS], "ann's turn, never bob's");
    // The token is refused from then on (within the second the worker reads `exp` in).
    for (const deadline = Date.now() + 3000; (await get(worker.base, short, "?live=1")).status !== 401; await new Promise((r) => setTimeout(r, 100))) {
      assert.ok(Date.now() < deadline, "the token refused");
    }
  });

  test("two users each list, rename and delete only their own", { timeout: 20_000 }, async () => {
    const [ann, bob] = [token({ sub: `ann-${Date.now()}` }), token({ sub: `bob-${Date.now()}` })];
    const [annS, bobS] = [sessionId("ann"), sessionId("bob")];
    await turn(worker.base, annS, ann);
    await turn(worker.base, bobS, bob);
    await listed(worker.base, ann, (s) => s.length === 1, "ann's");
    await listed(worker.base, bob, (s) => s.length === 1, "bob's");
    assert.deepEqual((await list(worker.base, ann)).body.sessions.map((s) => s.id), [annS]);
    assert.deepEqual((await list(worker.base, bob)).body.sessions.map((s) => s.id), [bobS]);
    // Under a JWT the header names nothing: ann's key is still ann's list.
    assert.deepEqual((await list(worker.base, { ...ann, "x-conversations-key": newKey() })).body.sessions.map((s) => s.id), [annS]);
    await assertError(await patch(worker.base, bobS, ann, JSON.stringify({ title: "ann's now" })), 404, "session_not_found");
    await assertError(await remove(worker.base, bobS, ann), 404, "session_not_found");
    assert.equal((await list(worker.base, bob)).body.sessions[0].title, "/slow 1 1", "bob's untouched");
    assert.equal((await patch(worker.base, annS, ann, JSON.stringify({ title: "Ann's" }))).status, 200);
    assert.equal((await remove(worker.base, bobS, bob)).status, 204);
    assert.deepEqual((await list(worker.base, bob)).body.sessions, []);
    assert.equal((await list(worker.base, ann)).body.sessions[0].title, "Ann's");
  });

  test("no token, a token without `sub`, one for some sessions only", { timeout: 20_000 }, async () => {
    await assertError(await get(worker.base, {}), 401, "unauthorized");
    const nobody = token({});
    await assertError(await get(worker.base, nobody), 403, "no_user");
    await assertError(await remove(worker.base, sessionId("x"), nobody), 403, "no_user");
    await turn(worker.base, sessionId("no-sub"), nobody);
    const some = sessionId("some");
    const scoped = token({ sub: `carol-${Date.now()}`, sessions: [some] });
    const refused = await get(worker.base, scoped);
    const body = await refused.clone().json();
    await assertError(refused, 403, "forbidden");
    assert.match(body.error.message, /"\*"/);
    // Its turns are listed all the same (the sub's), for a token that may list them.
    await turn(worker.base, some, scoped);
    await assertError(await patch(worker.base, sessionId("other"), scoped, "{}"), 403, "forbidden");
  });
});

test("the conversations routes spend the caller's rate limit, as the session routes do", { timeout: 20_000 }, async () => {
  const worker = await start({ ratelimits: { RATE_LIMITER: { namespace_id: "1001", simple: { limit: 2, period: 60 } } } });
  const me = { "x-conversations-key": newKey(), "cf-connecting-ip": "203.0.113.69" };
  assert.equal((await get(worker.base, me)).status, 200);
  assert.equal((await remove(worker.base, sessionId("nobody"), me)).status, 404);
  const limited = await get(worker.base, me);
  assert.equal(limited.headers.get("retry-after"), "60");
  await assertError(limited, 429, "rate_limited");
});

describe("closed by default", () => {
  test("without SESSION_INDEX the routes answer 501 and turns go on unlisted, logged once", { timeout: 20_000 }, async () => {
    const worker = await start({ unset: ["SESSION_INDEX"] });
    const me = { "x-conversations-key": newKey() };
    await assertError(await get(worker.base, me), 501, "index_not_configured");
    await assertError(await patch(worker.base, "s1", me, '{"title":"x"}'), 501, "index_not_configured");
    await assertError(await remove(worker.base, "s1", me), 501, "index_not_configured");
    await turn(worker.base, sessionId("unlisted"), me);
    await turn(worker.base, sessionId("unlisted"), me);
    const lines = worker.diagnostics.filter((d) => d.event === "index" && d.level === "warn");
    assert.equal(lines.length, 1, JSON.stringify(worker.diagnostics));
    assert.match(lines[0].detail, /no SESSION_INDEX binding/);
  });

  test("an index that fails is a log line, never the turn's", { timeout: 20_000 }, async () => {
    // Bound to an object that is no index: the demo agent answers its operations 404.
    const worker = await start({ bind: { SESSION_INDEX: { className: "DemoSessionAgent", useSQLite: true } } });
    const me = { "x-conversations-key": newKey() };
    await turn(worker.base, sessionId("failing-index"), me);
    await until(() => worker.diagnostics.some((d) => d.event === "index_write"), "the failed write's line");
    const line = worker.diagnostics.find((d) => d.event === "index_write");
    assert.equal(line.level, "error");
    assert.match(line.detail, /the index answered 404/);
    assert.ok(worker.logs.some((l) => l.requestId === line.request && l.path.endsWith("/chat")), "the line names its turn's request");
  });
});
