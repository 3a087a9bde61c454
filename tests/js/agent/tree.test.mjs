// packages/session-agent/src/tree.ts, the tree's rules of protocol 5, on a store in memory: the
// cases of the Rust core's crates/core/src/tree/attach_tests.rs and page_tests.rs, one for one
// (the current branches and sibling counts of the attach cases are also in
// tests/fixtures/tree_cases.json, which tree_cases.test.mjs runs); a ref's shape; the session's
// cap; a page's bytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { MemTree, Session, tree } from "./tree_support.mjs";

const { attach, isRef, newestWithin, page, roomFor, siblings, MAX_PAGE_MESSAGES, MAX_SESSION_MESSAGES } = tree;
const keys = (found) => found.nodes.map((n) => n.key);

test("a stale device's send makes a branch and loses nothing", () => {
  const s = new Session();
  s.turn("u1", [], "hi");
  s.turn("u2", ["u1", "a1"], "from b");
  const { user } = s.turn("u3", ["u1", "a1"], "from a");
  assert.deepEqual(s.current(), ["u1", "a1", "u3", "a3"]);
  assert.equal(s.tree.nodes.length, 6, "every message kept");
  assert.equal(siblings(s.tree, s.tree.node(user)).length, 2, "u2 is one step away");
});

test("a stale regenerate is a new reply beside the old one; the old branch is a leaf page away", () => {
  const s = new Session();
  s.turn("u1", [], "hi");
  s.turn("u2", ["u1", "a1"], "from b");
  const { user } = s.turn("u1", [], "hi");
  assert.equal(user, "k1", "the same user message");
  assert.deepEqual(s.current(), ["u1", "a3"]);
  assert.deepEqual(siblings(s.tree, s.tree.node("a3")), ["a1", "a3"]);
  assert.deepEqual(page(s.tree, { leaf: "a1" }, 200).nodes.map((n) => n.id), ["u1", "a1", "u2", "a2"]);
});

test("a regenerate is a new reply to the same user message; an edit a new user message beside it", () => {
  const s = new Session();
  s.turn("u1", [], "hi");
  s.turn("u2", ["u1", "a1"], "second");
  const { user } = s.turn("u2", ["u1", "a1"], "second");
  assert.equal(s.tree.node(user).id, "u2");
  const { user: edited } = s.turn("u2", ["u1", "a1"], "second, better");
  assert.notEqual(edited, user);
  assert.equal(siblings(s.tree, s.tree.node(edited)).length, 2);
});

test("an id of another role replaces nothing: the reply stays, the user message is stored", () => {
  const s = new Session();
  s.turn("u1", [], "hi");
  // Even to a store that finds the reply's content the same, only a user message is a turn's own.
  assert.deepEqual(attach(s.tree, { messageId: "a1", branch: ["u1"] }, () => true), { parent: "k1" });
  const { user } = s.turn("a1", ["u1"], "mine");
  assert.equal(s.tree.node(user).role, "user");
  assert.equal(s.tree.node("a1").role, "assistant", "the reply stays");
  assert.equal(s.tree.nodes.length, 4);
});

test("a client that sends only its last message regenerates it: the same user message", () => {
  const s = new Session();
  s.turn("u1", [], "hi");
  s.turn("u2", [], "two");
  assert.equal(s.turn("u2", [], "two").user, "k3");
});

test("of two edits with one id, a list ending at it follows the newest", () => {
  const s = new Session();
  s.turn("u1", [], "hi");
  s.turn("u2", ["u1", "a1"], "first");
  s.turn("u2", ["u1", "a1"], "second");
  const { reply } = s.turn("u5", ["u1", "a1", "u2"], "after u2");
  const follows = s.tree.node(s.tree.node(reply).parent).parent;
  assert.equal(s.text.get(follows), "second");
});

test("ancestors decide between messages of one id, though the other is newer", () => {
  const s = new Session();
  s.turn("1", [], "one");
  s.turn("2", ["1", "a1"], "two");
  s.turn("1", [], "uno");
  s.turn("2", ["1", "a3"], "dos");
  const { reply } = s.turn("3", ["1", "a1", "2"], "three");
  const follows = s.tree.node(s.tree.node(reply).parent).parent;
  assert.equal(s.text.get(follows), "two");
});

test("an empty store starts a conversation, with or without a place", () => {
  const store = new MemTree();
  assert.deepEqual(attach(store, { messageId: "u1", branch: ["welcome"] }, () => true), { parent: null });
  assert.deepEqual(attach(store, {}, () => true), { parent: null });
});

/** A straight conversation of `n` messages, keys `m1` … `mn`. */
function straight(n) {
  const store = new MemTree();
  for (let i = 1; i <= n; i++) store.insert(`m${i}`, `m${i}`, i % 2 ? "user" : "assistant", i > 1 ? `m${i - 1}` : null);
  return store;
}

test("the newest page comes first, then older ones before it", () => {
  const store = straight(7);
  const first = page(store, {}, 3);
  assert.deepEqual([keys(first), first.more], [["m5", "m6", "m7"], true]);
  const second = page(store, { before: "m5" }, 3);
  assert.deepEqual([keys(second), second.more], [["m2", "m3", "m4"], true]);
  const last = page(store, { before: "m2" }, 3);
  assert.deepEqual([keys(last), last.more], [["m1"], false]);
  assert.deepEqual(page(store, { before: "m1" }, 3), { nodes: [], more: false });
});

test("a page is never larger than the bound, whatever is asked", () => {
  const store = straight(450);
  const asked = page(store, {}, 10_000);
  assert.equal(asked.nodes.length, MAX_PAGE_MESSAGES);
  assert.ok(asked.more);
  assert.equal(page(store, {}, 0).nodes.length, 1);
  assert.equal(page(store, {}, Number.NaN).nodes.length, MAX_PAGE_MESSAGES, "no number: the bound");
  assert.equal(page(store, {}).nodes.length, MAX_PAGE_MESSAGES, "no limit: the bound");
});

test("an unknown message is no page; an empty store an empty page", () => {
  const store = straight(3);
  assert.equal(page(store, { leaf: "nope" }, 10), undefined);
  assert.equal(page(store, { before: "nope" }, 10), undefined);
  assert.deepEqual(page(new MemTree(), {}, 10), { nodes: [], more: false });
});

test("a branch through a message goes on to its newest descendant; siblings oldest first", () => {
  const store = straight(4);
  store.insert("m2b", "m2b", "assistant", "m1");
  store.insert("m3b", "m3b", "user", "m2b");
  store.insert("m4b", "m4b", "assistant", "m3b");
  store.insert("m4c", "m4c", "assistant", "m3");
  assert.deepEqual(keys(page(store, {}, 10)), ["m1", "m2", "m3", "m4c"]);
  assert.deepEqual(keys(page(store, { leaf: "m2b" }, 10)), ["m1", "m2b", "m3b", "m4b"]);
  assert.deepEqual(keys(page(store, { leaf: "m4" }, 10)), ["m1", "m2", "m3", "m4"]);
  assert.deepEqual(keys(page(store, { leaf: "m1" }, 10)), ["m1", "m2", "m3", "m4c"]);
  assert.deepEqual(siblings(store, store.node("m2")), ["m2", "m2b"]);
  assert.deepEqual(siblings(store, store.node("m4c")), ["m4", "m4c"]);
  assert.deepEqual(siblings(store, store.node("m3")), [], "no picker");
});

test("first messages are siblings of each other", () => {
  const store = straight(2);
  store.insert("r2", "m1", "user", null);
  assert.deepEqual(siblings(store, store.node("r2")), ["m1", "r2"]);
  assert.deepEqual(keys(page(store, {}, 10)), ["r2"]);
});

test("a ref is URL-safe and bounded", () => {
  for (const good of ["msg_0a1b2c3d4e5f6a7b", "u.1:2~3-4", "x".repeat(128)]) assert.ok(isRef(good), good);
  for (const bad of ["", "a b", "a/b", "a?b", "é", "x".repeat(129)]) assert.ok(!isRef(bad), bad);
});

test("the session's cap: a turn needs room for its reply, and for its user message when it is new", () => {
  const existing = { existing: { key: "k1", id: "u1", role: "user", parent: null, seq: 1 } };
  assert.ok(roomFor(MAX_SESSION_MESSAGES - 2, { parent: null }));
  assert.ok(!roomFor(MAX_SESSION_MESSAGES - 1, { parent: null }));
  assert.ok(roomFor(MAX_SESSION_MESSAGES - 1, existing));
  assert.ok(!roomFor(MAX_SESSION_MESSAGES, existing));
});

test("a page's bytes: the newest messages within the bound, the newest alone when it is larger", () => {
  const sizes = [5, 4, 3, 2];
  const size = (n) => n;
  assert.deepEqual(newestWithin(sizes, size, 5), [3, 2]);
  assert.deepEqual(newestWithin(sizes, size, 14), sizes);
  assert.deepEqual(newestWithin(sizes, size, 13), [4, 3, 2]);
  assert.deepEqual(newestWithin([9, 8], size, 5), [8]);
  assert.deepEqual(newestWithin([], size, 5), []);
});
