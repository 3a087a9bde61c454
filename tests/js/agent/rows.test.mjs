// packages/session-agent/src/rows.ts: a message within MAX_ROW_BYTES is stored as it is; a reply
// that outgrows it is stored shortened within it, with marks a reader sees (a too-large tool
// result or args as a marker saying its size, a text cut with " [… shortened]"), never failed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { librarySource } from "./tree_support.mjs";

const { fitted, jsonSize, MAX_ROW_BYTES, SHORTENED_MARK, sizeInWords } = await librarySource("rows");

const reply = (...parts) => ({ id: "msg_1", role: "assistant", parts: [...parts, { type: "finish", reason: "end_turn" }], createdAt: "2026-01-01T00:00:00.000Z" });

test("a message within the cap is stored as it is", () => {
  const message = reply({ type: "text", text: "é".repeat(1000) }, { type: "tool-call", callId: "c1", toolName: "t", status: "completed", args: { a: 1 }, result: { ok: true } });
  assert.equal(fitted(message), message);
});

test("a tool result over the cap becomes a marker saying its size; the rest is kept whole", () => {
  const big = { rows: "x".repeat(3 * 1024 * 1024) };
  const message = reply({ type: "text", text: "Here it is." }, { type: "tool-call", callId: "c1", toolName: "query", status: "completed", args: { q: "all" }, result: big });
  const stored = fitted(message);
  assert.ok(jsonSize(stored) <= MAX_ROW_BYTES);
  assert.deepEqual(stored.parts[1].result, { shortened: "too large to keep", bytes: jsonSize(big) });
  assert.deepEqual(stored.parts[1].args, { q: "all" });
  assert.equal(stored.parts[0].text, "Here it is.");
  assert.equal(message.parts[1].result, big, "the live message is not touched");
});

test("a text over the cap is cut with the mark, at a character's end, and fits", () => {
  const message = reply({ type: "reasoning", text: "r".repeat(10) }, { type: "text", text: "€".repeat(1024 * 1024) });
  const stored = fitted(message);
  assert.ok(jsonSize(stored) <= MAX_ROW_BYTES);
  assert.ok(stored.parts[1].text.endsWith(SHORTENED_MARK));
  assert.match(stored.parts[1].text.slice(0, -SHORTENED_MARK.length), /^€+$/);
  assert.equal(stored.parts[0].text, "r".repeat(10));
  assert.deepEqual(stored.parts.at(-1), { type: "finish", reason: "end_turn" });
});

test("a data part's data or a metadata object over the cap becomes a marker saying its size (protocol 6)", () => {
  const table = { cells: "y".repeat(2 * 1024 * 1024) };
  const message = reply({ type: "data", name: "table", id: "t1", data: table }, { type: "metadata", metadata: { note: "z".repeat(1024 * 1024) } }, { type: "text", text: "Done." });
  const stored = fitted(message);
  assert.ok(jsonSize(stored) <= MAX_ROW_BYTES);
  assert.deepEqual(stored.parts[0], { type: "data", name: "table", id: "t1", data: { shortened: "too large to keep", bytes: jsonSize(table) } });
  assert.equal(stored.parts[2].text, "Done.");
});

test("sizes in words: a message's rounded up, the cap's down", () => {
  assert.equal(sizeInWords(MAX_ROW_BYTES, "down"), "1.5 MB");
  assert.equal(sizeInWords(MAX_ROW_BYTES + 1, "up"), "1.6 MB");
});
