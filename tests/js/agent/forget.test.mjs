// Protocol 7 in the SessionAgent library (packages/session-agent/src/session.ts): the adapter's
// `forget` (docs/agent-protocol.md, "`forget`", R-forget, R-forget-notify) on the library's own
// session, driven through the Durable Object's entry points on a stand-in of the runtime: a
// SQLite-backed object's storage on Node's SQLite (its KV beside it, `deleteAll` emptying both),
// hibernatable sockets that record what they are sent, and a restart as the runtime makes one (a
// new session on the same storage and sockets). Every other socket hears `forgotten` before the
// turn in flight ends as an abort ends it; the asking socket hears it once nothing is stored; from
// then on `init` lists nothing, also after a restart, and a prompt starts from nothing under ids
// never given before; a forget without a string requestId is ignored, and a storage failure is
// answered `forget_failed`, and logged.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { librarySource } from "./tree_support.mjs";

const sqlite = await import("node:sqlite").catch(() => null);
const { Session } = await librarySource("session");
const { parseIncoming, PROTOCOL, FORGET, FORGOTTEN } = await librarySource("protocol");
const { TreeStore } = await librarySource("store");

/** A hibernatable socket, the agent's end: every frame it was sent (parsed), and its attachment. */
class AgentSocket {
  sent = [];
  #attachment = null;
  /** Called with each frame as it is sent, before the next one is (to look at storage then). */
  onSend = () => {};

  send(text) {
    const frame = JSON.parse(text);
    this.onSend(frame);
    this.sent.push(frame);
  }

  serializeAttachment(value) {
    this.#attachment = structuredClone(value);
  }

  deserializeAttachment() {
    return this.#attachment;
  }

  close() {}
}

// What the session takes from the Workers runtime: a socket pair, the ping's auto-response, and an
// upgrade's answer (Node's own Response refuses status 101).
globalThis.WebSocketPair = class {
  constructor() {
    this[0] = new AgentSocket();
    this[1] = new AgentSocket();
    // The client's end names the agent's, on which the session sends.
    this[0].peer = this[1];
  }
};
globalThis.WebSocketRequestResponsePair = class {
  constructor(request, response) {
    Object.assign(this, { request, response });
  }
};
globalThis.Response = class UpgradeAnswer {
  constructor(body, init = {}) {
    Object.assign(this, { body, status: init.status ?? 200, webSocket: init.webSocket, headers: new Headers(init.headers ?? {}) });
  }

  static json(value, init) {
    return new UpgradeAnswer(JSON.stringify(value), init);
  }
};

/** A model for the tests, by the prompt's text: `hold` streams, opens a tool, and runs until it is
 * stopped; `ask` asks a question, keeping a memo; anything else is echoed. */
async function respond(input, emit, signal) {
  if (input.prompt === "hold") {
    emit.text("working");
    emit.tool({ callId: "c1", toolName: "search", status: "running", args: { q: "x" } });
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    return { done: true };
  }
  if (input.prompt === "ask") return { done: false, question: { text: "Which region?", options: ["eu", "us"] }, memo: { step: 1 } };
  emit.text(`echo: ${input.prompt}`);
  return { done: true };
}

/** A SQLite-backed Durable Object: its storage and sockets, which outlive a restart. `session()`
 * builds the library's session on it (the object's first call, or its first after a restart). */
function durableObject({ minimal = false } = {}) {
  let db = new sqlite.DatabaseSync(":memory:");
  const kv = new Map();
  const sockets = [];
  let depth = 0;
  const object = {
    /** Makes `deleteAll` fail, as a storage failure would. */
    failDeleteAll: false,
    storage: {
      kv,
      sql: {
        exec(query, ...bindings) {
          const rows = db
            .prepare(query)
            .all(...bindings)
            .map((row) => ({ ...row }));
          return {
            toArray: () => rows,
            one: () => {
              if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
              return rows[0];
            },
          };
        },
      },
      // Nested, as the runtime's: a savepoint each.
      transactionSync(fn) {
        const name = `t${depth++}`;
        db.exec(`SAVEPOINT ${name}`);
        try {
          const out = fn();
          db.exec(`RELEASE ${name}`);
          return out;
        } catch (err) {
          db.exec(`ROLLBACK TO ${name}`);
          db.exec(`RELEASE ${name}`);
          throw err;
        } finally {
          depth--;
        }
      },
      // A SQLite-backed object's deleteAll: its SQL tables and its KV, all gone.
      async deleteAll() {
        await Promise.resolve();
        if (object.failDeleteAll) throw new Error("storage is unavailable");
        db.close();
        db = new sqlite.DatabaseSync(":memory:");
        kv.clear();
      },
    },
    ctx: {
      acceptWebSocket: (ws) => sockets.push(ws),
      getWebSockets: () => [...sockets],
      setWebSocketAutoResponse: () => {},
    },
    /** What the object stores: its tables (SQLite's own left out) and its KV keys. */
    stored() {
      const tables = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
        .all()
        .map((row) => row.name);
      return { tables, kv: [...kv.keys()] };
    },
    /** The rows of `table`. */
    rows: (table) => db.prepare(`SELECT * FROM ${table}`).all(),
    session: () => new Session({ ...object.ctx, storage: object.storage }, respond, { minimal }),
  };
  return object;
}

/** A new socket on `session`, as the adapter opens one: the agent's end, and the upgrade's answer. */
async function connect(session) {
  const answer = await session.fetch({ headers: new Headers({ upgrade: "websocket" }) });
  assert.equal(answer.status, 101);
  return { ws: answer.webSocket.peer, answer };
}

const send = (session, ws, frame) => session.webSocketMessage(ws, JSON.stringify(frame));

/** Waits until `ws` was sent a frame `matches` (the model runs on after the frame that started it). */
async function until(ws, matches, what) {
  for (let i = 0; i < 200; i++) {
    if (ws.sent.some(matches)) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail(`never sent: ${what}`);
}

const isComplete = (f) => f.type === "complete";
const isForgotten = (id) => (f) => f.type === FORGOTTEN && f.requestId === id;

/** Runs one prompt on `ws` to its end. */
async function turn(session, ws, content, messageId, branch = []) {
  const from = ws.sent.length;
  await send(session, ws, { type: "prompt", content, requestId: `r-${messageId}`, messageId, branch, onDisconnect: "detach" });
  await until(ws, (f) => isComplete(f) && ws.sent.indexOf(f) >= from, `the end of the turn of ${JSON.stringify(content)}`);
  return ws.sent.slice(from).find((f) => f.type === "message.create");
}

/** The ids the agent gave in `frames`: turn ids, refs, question ids (the client's own ids left out). */
function agentIds(frames) {
  const ids = new Set();
  for (const f of frames) {
    if (f.type === "message.create") [f.turnId, f.message?.ref].filter(Boolean).forEach((id) => ids.add(id));
    if (f.type === "question") ids.add(f.questionId);
    if (f.type === "init" || f.type === "history") for (const m of f.messages) ids.add(m.ref);
  }
  return ids;
}

/** The index of the first frame of `ws` that `matches`, failing when none does. */
function indexOf(ws, matches, what) {
  const at = ws.sent.findIndex(matches);
  assert.notEqual(at, -1, `sent: ${what}`);
  return at;
}

describe("forget (protocol 7)", { skip: sqlite ? false : "node:sqlite needs Node 22.5 or newer (. scripts/node-env.sh)" }, () => {
  test("the library says protocol 7 in its init and on the upgrade's answer, and reads a forget with a string requestId only", async () => {
    assert.equal(PROTOCOL, 7);
    assert.deepEqual([FORGET, FORGOTTEN], ["forget", "forgotten"]);
    const { ws, answer } = await connect(durableObject().session());
    assert.equal(answer.headers.get("X-Agent-Protocol"), "7");
    assert.deepEqual(ws.sent, [{ type: "init", protocol: 7, messages: [] }]);
    assert.deepEqual(parseIncoming('{"type":"forget","requestId":"f1","extra":1}'), { type: "forget", requestId: "f1" });
    for (const text of ['{"type":"forget"}', '{"type":"forget","requestId":7}', '{"type":"forget","requestId":null}']) assert.equal(parseIncoming(text), null, text);
  });

  test("every other socket hears forgotten before the turn in flight ends canceled; the asking socket hears it once nothing is stored", async () => {
    const object = durableObject();
    const session = object.session();
    const { ws: streaming } = await connect(session);
    const { ws: feed } = await connect(session);
    // What an agent's own code stored beside the library's tables: the object is the session.
    object.storage.sql.exec("CREATE TABLE agent_notes (note TEXT)");
    object.storage.kv.set("agent:setting", "on");
    await turn(session, streaming, "hello", "u1");
    await send(session, streaming, { type: "prompt", content: "hold", requestId: "r2", messageId: "u2", branch: ["u1"], onDisconnect: "detach" });
    await until(streaming, (f) => f.type === "message.part.tool-update", "the held turn's tool");
    const turnId = streaming.sent.findLast((f) => f.type === "message.create").turnId;

    const { ws: asking } = await connect(session);
    let storedAtAnswer;
    asking.onSend = (frame) => {
      if (isForgotten("f1")(frame)) storedAtAnswer = object.stored();
    };
    await send(session, asking, { type: FORGET, requestId: "f1" });

    assert.deepEqual(asking.sent.at(-1), { type: "forgotten", requestId: "f1" }, "the answer comes last");
    assert.equal(asking.sent.filter((f) => f.type === FORGOTTEN).length, 1, "one forgotten on the asking socket: its answer");
    assert.deepEqual(storedAtAnswer, { tables: [], kv: [] }, "nothing stored when the answer is sent");
    for (const [name, ws] of [
      ["the streaming socket", streaming],
      ["the feed", feed],
    ]) {
      const heard = indexOf(ws, isForgotten("f1"), `${name}: forgotten`);
      const finalize = indexOf(ws, (f) => f.type === "message.finalize" && f.turnId === turnId, `${name}: the held turn's finalize`);
      const toolEnded = indexOf(ws, (f) => f.type === "message.part.tool-update" && f.status === "error", `${name}: its open tool ended`);
      assert.ok(heard < toolEnded && heard < finalize, `${name}: forgotten (${heard}) before the turn ends (${toolEnded}, ${finalize})`);
      assert.equal(ws.sent[finalize].reason, "canceled", `${name}: ended as an abort ends it`);
      assert.equal(ws.sent[toolEnded].error, "Canceled");
      assert.equal(ws.sent.filter((f) => f.type === FORGOTTEN).length, 1, `${name}: one notice`);
    }
  });

  test("after a forget, init lists nothing, an old ref is not_found, and a prompt starts from nothing under new ids", async () => {
    const object = durableObject();
    const session = object.session();
    const { ws } = await connect(session);
    await turn(session, ws, "hello", "u1");
    const second = await turn(session, ws, "more", "u2", ["u1"]);
    await send(session, ws, { type: "prompt", content: "ask", requestId: "r3", messageId: "u3", branch: ["u1", "u2"], onDisconnect: "detach" });
    await until(ws, (f) => f.type === "question", "the question");
    const before = agentIds([...ws.sent, (await connect(session)).ws.sent[0]]);

    await send(session, ws, { type: FORGET, requestId: "f2" });
    assert.deepEqual(ws.sent.at(-1), { type: "forgotten", requestId: "f2" });
    assert.ok(ws.sent.some((f) => f.type === "message.finalize" && f.reason === "canceled"), "the waiting turn ended canceled");

    const { ws: fresh } = await connect(session);
    assert.deepEqual(fresh.sent, [{ type: "init", protocol: 7, messages: [] }], "no message, no turn in flight");
    await send(session, fresh, { type: "history", requestId: "h1", leaf: second.message.ref });
    assert.equal(fresh.sent.at(-1).code, "not_found", "a ref from before");
    await send(session, fresh, { type: "answer", questionId: ws.sent.find((f) => f.type === "question").questionId, answer: "eu" });
    assert.equal(fresh.sent.at(-1).code, "question_not_pending", "the question went with the rest");

    const create = await turn(session, fresh, "again", "u1");
    assert.equal(create.message.parent, null, "a conversation from nothing");
    assert.ok(!before.has(create.turnId) && !before.has(create.message.ref), `new ids: ${create.turnId}, ${create.message.ref}`);
    const { ws: after } = await connect(session);
    const listed = after.sent[0].messages;
    assert.deepEqual(
      listed.map((m) => [m.role, m.parts.find((p) => p.type === "text").text]),
      [
        ["user", "again"],
        ["assistant", "echo: again"],
      ],
    );
    assert.deepEqual(object.rows("session_agent_memos"), [], "no memo kept");
  });

  test("a turn waiting on a question across a restart is ended by a forget; after another restart init is empty and ids are new", async () => {
    const object = durableObject();
    let session = object.session();
    const { ws: first } = await connect(session);
    await turn(session, first, "hello", "u1");
    await send(session, first, { type: "prompt", content: "ask", requestId: "r2", messageId: "u2", branch: ["u1"], onDisconnect: "detach" });
    await until(first, (f) => f.type === "question", "the question");
    const before = agentIds(first.sent);
    const waiting = first.sent.findLast((f) => f.type === "message.create").turnId;

    session = object.session(); // the object hibernated: memory gone, storage and sockets kept
    const { ws: asking } = await connect(session);
    assert.equal(asking.sent[0].messages.at(-1).id, waiting, "the waiting turn is listed after the restart");
    await send(session, asking, { type: FORGET, requestId: "f3" });
    const heard = indexOf(first, isForgotten("f3"), "forgotten on the other socket");
    const finalize = indexOf(first, (f) => f.type === "message.finalize" && f.turnId === waiting, "the waiting turn's finalize");
    assert.ok(heard < finalize);
    assert.equal(first.sent[finalize].reason, "canceled");
    assert.deepEqual(asking.sent.at(-1), { type: "forgotten", requestId: "f3" });
    assert.deepEqual(object.stored(), { tables: [], kv: [] });

    session = object.session();
    const { ws: fresh } = await connect(session);
    assert.deepEqual(fresh.sent, [{ type: "init", protocol: 7, messages: [] }], "nothing after a restart either");
    const create = await turn(session, fresh, "again", "u9");
    assert.equal(create.message.parent, null);
    assert.ok(!before.has(create.turnId) && !before.has(create.message.ref), `new ids: ${create.turnId}, ${create.message.ref}`);
  });

  test("a forget when nothing is stored is answered all the same", async () => {
    const session = durableObject().session();
    const { ws } = await connect(session);
    await send(session, ws, { type: FORGET, requestId: "f4" });
    assert.deepEqual(ws.sent.at(-1), { type: "forgotten", requestId: "f4" });
  });

  test("a forget without a string requestId is ignored: nothing sent, nothing deleted, the turn goes on", async () => {
    const object = durableObject();
    const session = object.session();
    const { ws } = await connect(session);
    const { ws: other } = await connect(session);
    await turn(session, ws, "hello", "u1");
    await send(session, ws, { type: "prompt", content: "hold", requestId: "r2", messageId: "u2", branch: ["u1"], onDisconnect: "detach" });
    await until(ws, (f) => f.type === "message.part.tool-update", "the held turn's tool");
    const sent = [ws.sent.length, other.sent.length];
    for (const frame of [{ type: FORGET }, { type: FORGET, requestId: 7 }, { type: FORGET, requestId: null }]) await send(session, ws, frame);
    assert.deepEqual([ws.sent.length, other.sent.length], sent, "no frame to any socket");
    assert.equal(object.rows("session_agent_messages").length, 4, "the session is kept");
    await send(session, ws, { type: "abort", requestId: "r2" });
    assert.equal(ws.sent.find((f) => f.type === "message.finalize" && f.reason === "canceled")?.type, "message.finalize", "the turn was still running");
  });

  test("a storage failure is answered forget_failed on the asking socket, logged as one JSON line; a forget asked again succeeds", async (t) => {
    const object = durableObject();
    const session = object.session();
    const { ws } = await connect(session);
    await turn(session, ws, "hello", "u1");
    object.failDeleteAll = true;
    const logged = t.mock.method(console, "error", () => {});
    await send(session, ws, { type: FORGET, requestId: "f5" });
    const answer = ws.sent.at(-1);
    assert.equal(answer.type, "error");
    assert.equal(answer.code, "forget_failed");
    assert.equal(answer.requestId, "f5");
    assert.match(answer.message, /storage is unavailable/);
    assert.ok(!ws.sent.some(isForgotten("f5")), "never said forgotten");
    assert.equal(logged.mock.callCount(), 1);
    const line = JSON.parse(logged.mock.calls[0].arguments[0]);
    assert.equal(line.event, "session_agent.forget_failed");
    assert.match(line.error, /storage is unavailable/);
    assert.equal((await connect(session)).ws.sent[0].messages.length, 2, "the conversation is still kept");

    object.failDeleteAll = false;
    await send(session, ws, { type: FORGET, requestId: "f6" });
    assert.deepEqual(ws.sent.at(-1), { type: "forgotten", requestId: "f6" });
    assert.deepEqual((await connect(session)).ws.sent[0].messages, []);
  });

  test("the store makes its tables again on its first use after a forget, outside a transaction that may be taken back", async () => {
    const object = durableObject();
    const tree = new TreeStore(object.storage.sql, (fn) => object.storage.transactionSync(fn));
    await object.storage.deleteAll();
    tree.tablesDropped();
    assert.deepEqual(object.stored().tables, [], "nothing made before a use");
    const taken = () =>
      tree.transaction(() => {
        tree.insert("k1", null, { id: "u1", role: "user", parts: [] }, true);
        throw new Error("taken back");
      });
    assert.throws(taken, /taken back/);
    assert.equal(tree.count(), 0, "the tables outlived the transaction taken back");
    assert.deepEqual(object.stored().tables, ["session_agent_memos", "session_agent_messages"]);
  });

  test("the minimal mode (an agent of protocol 3) knows no forget, and ignores it", async () => {
    const object = durableObject({ minimal: true });
    const session = object.session();
    const { ws } = await connect(session);
    await turn(session, ws, "hello", "u1");
    const sent = ws.sent.length;
    await send(session, ws, { type: FORGET, requestId: "f7" });
    assert.equal(ws.sent.length, sent);
    assert.equal(object.rows("session_agent_messages").length, 2);
  });
});
