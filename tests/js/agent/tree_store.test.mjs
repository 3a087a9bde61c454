// packages/session-agent/src/store.ts, the tree in the Durable Object's SQLite storage, on Node's
// SQLite (node:sqlite, Node 22: scripts/node-env.sh) behind the few calls of the runtime's
// `SqlStorage` the store makes: the shared cases (tests/fixtures/tree_cases.json) answered by its
// queries; pages and their bounds (./pages.ts: 200 messages, 3 MiB, the turn in flight as it is
// now, each message with its ref, parent and siblings); a branch for the model; the copy of a
// protocol-4 history on the first start, and a table of the agent's own left alone.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { CASES, librarySource, Session } from "./tree_support.mjs";

const sqlite = await import("node:sqlite").catch(() => null);
const { TreeStore, MESSAGES_TABLE, MEMOS_TABLE } = await librarySource("store");
const { listPage, listed } = await librarySource("pages");
const { MAX_PAGE_BYTES, MAX_PAGE_MESSAGES, siblings } = await librarySource("tree");

/** A database in memory, and `SqlStorage`'s `exec` (its cursor's `toArray` and `one`) on it. */
function database() {
  const db = new sqlite.DatabaseSync(":memory:");
  const sql = {
    exec(query, ...bindings) {
      const rows = db.prepare(query).all(...bindings).map((row) => ({ ...row }));
      return {
        toArray: () => rows,
        one: () => {
          if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
          return rows[0];
        },
      };
    },
  };
  const transaction = (fn) => {
    db.exec("BEGIN");
    try {
      const out = fn();
      db.exec("COMMIT");
      return out;
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
  };
  return { db, sql, transaction, store: () => new TreeStore(sql, transaction) };
}

/** A session whose tree is a TreeStore: the message bodies hold each one's id and role. */
function storeSession() {
  const { store } = database();
  const tree = store();
  tree.insert = ((insert) => (key, id, role, parent) => insert.call(tree, key, parent, { id, role, parts: [] }, true))(tree.insert);
  return new Session(tree);
}

const user = (id, text) => ({ id, role: "user", parts: [{ type: "text", text }] });
const reply = (id, text, finished = true) => ({ id, role: "assistant", parts: [{ type: "text", text }, ...(finished ? [{ type: "finish", reason: "end_turn" }] : [])] });

describe("the SQLite store", { skip: sqlite ? false : "node:sqlite needs Node 22.5 or newer (. scripts/node-env.sh)" }, () => {
  for (const { name, prompts } of CASES) {
    test(`the shared case: ${name}`, () => {
      const s = storeSession();
      for (const [at, prompt] of prompts.entries()) {
        s.turn(prompt.messageId, prompt.branch, prompt.text);
        const page = listPage(s.tree, {}, undefined);
        assert.deepEqual(page.map((m) => m.id), prompt.current, `prompt ${at + 1}: the current branch`);
        assert.deepEqual(page.map((m) => m.siblings?.length ?? 0), prompt.siblings, `prompt ${at + 1}: the siblings listed`);
        assert.deepEqual(page.map((m) => siblings(s.tree, s.tree.node(m.ref)).length), prompt.siblings, `prompt ${at + 1}: the siblings of the rules`);
        assert.equal(s.tree.count(), prompt.stored, `prompt ${at + 1}: stored`);
        if (prompt.said) assert.deepEqual(page.map((m) => s.text.get(m.ref) ?? null), prompt.said, `prompt ${at + 1}: what each says`);
      }
    });
  }

  test("a page lists each message with its ref, parent and siblings; a leaf's branch goes on to its newest descendant", () => {
    const tree = database().store();
    tree.insert("k1", null, user("u1", "hi"), true);
    tree.insert("msg_a", "k1", reply("msg_a", "A"), true);
    tree.insert("k2", "msg_a", user("u2", "more"), true);
    tree.insert("msg_c", "k2", reply("msg_c", "C"), true);
    tree.insert("msg_b", "k1", reply("msg_b", "B"), true);
    const current = listPage(tree, {}, undefined);
    assert.deepEqual(current, [
      { ...user("u1", "hi"), ref: "k1", parent: null },
      { ...reply("msg_b", "B"), ref: "msg_b", parent: "k1", siblings: ["msg_a", "msg_b"] },
    ]);
    assert.deepEqual(listPage(tree, { leaf: "msg_a" }, undefined).map((m) => m.ref), ["k1", "msg_a", "k2", "msg_c"]);
    assert.deepEqual(listPage(tree, { leaf: "msg_a" }, 2).map((m) => m.ref), ["k2", "msg_c"]);
    assert.deepEqual(listPage(tree, { before: "k2" }, 1).map((m) => m.ref), ["msg_a"]);
    assert.equal(listPage(tree, { leaf: "nope" }, undefined), undefined);
    assert.deepEqual(tree.branchTo("k2").map((m) => m.id), ["u1", "msg_a", "u2"], "the model's branch");
  });

  test("a page holds at most 200 messages and 3 MiB, the newest; the turn in flight as it is now", () => {
    const tree = database().store();
    let parent = null;
    for (let i = 1; i <= 450; i++) {
      const key = `m${i}`;
      tree.insert(key, parent, i % 2 ? user(key, "x") : reply(key, "y"), true);
      parent = key;
    }
    const page = listPage(tree, {}, 1000);
    assert.equal(page.length, MAX_PAGE_MESSAGES);
    assert.equal(page.at(-1).ref, "m450");
    assert.deepEqual(tree.lineage("m10", 3).map((n) => n.key), ["m10", "m9", "m8"]);
    assert.deepEqual(listPage(tree, { before: "m3" }, 5).map((m) => m.ref), ["m1", "m2"]);
    // Ten messages of 400 KB: the page holds the newest that fit.
    const big = database().store();
    parent = null;
    for (let i = 1; i <= 10; i++) {
      big.insert(`b${i}`, parent, user(`b${i}`, "z".repeat(400_000)), true);
      parent = `b${i}`;
    }
    const bytes = (list) => list.reduce((sum, m) => sum + Buffer.byteLength(JSON.stringify(m)), 0);
    const fitted = listPage(big, {}, undefined);
    assert.deepEqual(fitted.map((m) => m.ref), ["b4", "b5", "b6", "b7", "b8", "b9", "b10"]);
    assert.ok(bytes(fitted) <= MAX_PAGE_BYTES);
    const live = { ...reply("msg_live", "so far"), parts: [{ type: "text", text: "so far, and more" }] };
    big.insert("msg_live", "b10", reply("msg_live", "so far", false), false);
    assert.deepEqual(listed(big, [big.node("msg_live")], live)[0].parts, live.parts);
    assert.deepEqual(big.unfinished().parts, reply("msg_live", "so far", false).parts);
  });

  test("a protocol-4 history is copied in on the first start, as one branch, its waiting turn's memo with it", () => {
    const { db, store } = database();
    db.exec(`CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, finished INTEGER NOT NULL, body TEXT NOT NULL)`);
    db.exec(`CREATE TABLE memos (turn_id TEXT PRIMARY KEY, body TEXT NOT NULL)`);
    const rows = [user("client-1", "hi"), reply("msg_1", "hello"), user("client-2", "deploy"), reply("msg_2", "asking", false)];
    for (const m of rows) db.prepare(`INSERT INTO messages (id, finished, body) VALUES (?, ?, ?)`).run(m.id, m.parts.some((p) => p.type === "finish") || m.role === "user" ? 1 : 0, JSON.stringify(m));
    db.prepare(`INSERT INTO memos (turn_id, body) VALUES (?, ?)`).run("msg_2", JSON.stringify({ calls: ["c1"] }));
    const tree = store();
    const page = listPage(tree, {}, undefined);
    assert.deepEqual(page.map((m) => m.id), ["client-1", "msg_1", "client-2", "msg_2"]);
    assert.deepEqual(page.map((m) => m.parent), [null, page[0].ref, "msg_1", page[2].ref], "each follows the one before");
    assert.match(page[0].ref, /^u_[0-9a-f]{16}$/, "a user message gets a ref of its own");
    assert.deepEqual([page[1].ref, page[3].ref], ["msg_1", "msg_2"], "an assistant message's ref is its id");
    assert.equal(tree.unfinished().id, "msg_2", "the waiting turn is still waiting");
    assert.deepEqual(tree.memo("msg_2"), { calls: ["c1"] });
    // The old tables stay as they were, unread; a second start copies nothing again.
    assert.equal(db.prepare(`SELECT COUNT(*) AS n FROM messages`).get().n, 4);
    assert.equal(store().count(), 4);
    assert.notEqual(MESSAGES_TABLE, "messages");
    assert.notEqual(MEMOS_TABLE, "memos");
  });

  test("a `messages` table of the agent's own is neither copied nor touched", () => {
    const { db, store } = database();
    db.exec(`CREATE TABLE messages (seq INTEGER PRIMARY KEY, id TEXT, finished INTEGER, body TEXT)`);
    db.prepare(`INSERT INTO messages (id, finished, body) VALUES (?, ?, ?)`).run("note-1", 1, JSON.stringify({ note: "mine" }));
    assert.equal(store().count(), 0);
    const other = database();
    other.db.exec(`CREATE TABLE messages (id TEXT, text TEXT)`);
    other.db.prepare(`INSERT INTO messages (id, text) VALUES (?, ?)`).run("n1", "mine");
    assert.equal(other.store().count(), 0);
    assert.deepEqual(other.db.prepare(`SELECT id, text FROM messages`).all().map((r) => ({ ...r })), [{ id: "n1", text: "mine" }]);
  });

  test("a transaction that fails writes nothing", () => {
    const { store, transaction } = database();
    const tree = store();
    assert.throws(() =>
      transaction(() => {
        tree.insert("k1", null, user("u1", "hi"), true);
        tree.insert("k1", null, user("u1", "again"), true);
      }),
    );
    assert.equal(tree.count(), 0);
  });
});
