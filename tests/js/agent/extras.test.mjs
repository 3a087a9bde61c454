// Protocol 6 in the SessionAgent library (packages/session-agent/src/protocol.ts): the frames its
// emitter sends for data parts, sources and metadata are the contract's (check-agent's R-extras
// finds no fault in them); the names and keys it refuses are the adapter's
// (crates/core/src/v2/extras/parts.rs) and check-agent's; and a stored message holding such parts gives
// the model its text only (toModelMessages).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { librarySource } from "./tree_support.mjs";
import { extraFault } from "../../../check-agent/extras.mjs";

const root = path.resolve(import.meta.dirname, "../../..");
const { frames, dataNameFault, RESERVED_DATA_NAMES, RESERVED_METADATA_KEYS } = await librarySource("protocol");
const { toModelMessages } = await librarySource("ai-sdk/messages");

test("the library's frames for data parts, sources and metadata keep the contract's shape", () => {
  const sent = [
    frames.data("t1", "weather", { temperature: 18 }, "w1"),
    frames.data("t1", "progress", { step: 1 }, undefined, true),
    frames.data("t1", "nothing", undefined),
    frames.source("t1", { sourceId: "s1", url: "https://example.com/a", title: "A" }),
    frames.source("t1", { sourceId: "s2", mediaType: "application/pdf", title: "Doc" }),
    frames.metadata("t1", { app: { lang: "en" } }),
  ];
  assert.deepEqual(sent.map(extraFault), [null, null, null, null, null, null]);
  assert.deepEqual(sent[1], { type: "message.part.data", turnId: "t1", name: "progress", data: { step: 1 }, transient: true });
  assert.deepEqual(sent[2], { type: "message.part.data", turnId: "t1", name: "nothing", data: null });
});

test("the names and keys the library refuses are the adapter's and check-agent's", () => {
  const core = readFileSync(path.join(root, "crates/core/src/v2/extras/parts.rs"), "utf8");
  const list = (name) => [...core.split(`pub const ${name}`)[1].split("];")[0].matchAll(/"([^"]+)"/g)].map(([, s]) => s);
  assert.deepEqual(RESERVED_DATA_NAMES, list("RESERVED_DATA_NAMES"));
  assert.deepEqual(RESERVED_METADATA_KEYS, list("RESERVED_METADATA_KEYS"));
  for (const name of ["weather", "a.b:c-d_9", "x".repeat(64)]) {
    assert.equal(dataNameFault(name), null, name);
    assert.equal(extraFault({ type: "message.part.data", turnId: "t", name, data: 1 }), null, name);
  }
  for (const name of [...RESERVED_DATA_NAMES, "", "a b", "wéather", "x".repeat(65)]) {
    assert.notEqual(dataNameFault(name), null, name);
    assert.notEqual(extraFault({ type: "message.part.data", turnId: "t", name, data: 1 }), null, name);
  }
  for (const key of RESERVED_METADATA_KEYS) assert.notEqual(extraFault({ type: "message.metadata", turnId: "t", metadata: { [key]: 1 } }), null, key);
});

test("a stored reply with data parts, sources and metadata gives the model its text only", () => {
  const history = [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Weather?" }] },
    {
      id: "t1",
      role: "assistant",
      parts: [
        { type: "text", text: "Looking. " },
        { type: "data", name: "weather", id: "w1", data: { temperature: 18 } },
        { type: "source", sourceId: "s1", url: "https://example.com/a" },
        { type: "metadata", metadata: { app: { lang: "en" } } },
        { type: "text", text: "18 degrees." },
        { type: "finish", reason: "end_turn" },
      ],
    },
  ];
  const messages = toModelMessages(history);
  assert.equal(messages.length, 2);
  assert.deepEqual(JSON.stringify(messages[1]).match(/"text":"[^"]*"/g), ['"text":"Looking. "', '"text":"18 degrees."']);
});

test("the library's title (protocol 7): its bound is the core's, and what it refuses check-agent's R-title refuses", async () => {
  const { frames: f, titleFault, MAX_TITLE_CHARS } = await librarySource("protocol");
  const { titleFault: checkFault } = await import("../../../check-agent/title.mjs");
  const core = readFileSync(path.join(root, "crates/core/src/v2/title.rs"), "utf8");
  assert.equal(MAX_TITLE_CHARS, Number(core.match(/^pub const MAX_TITLE_CHARS: usize = (\d+);/m)[1]));
  for (const good of ["Paris weather", "  trimmed  ", "é".repeat(200)]) {
    assert.equal(titleFault(good), null, good);
    assert.equal(checkFault(f.title(good)), null, good);
  }
  for (const bad of ["", "   ", "é".repeat(201), 7, null]) {
    assert.notEqual(titleFault(bad), null, String(bad));
    assert.notEqual(checkFault({ type: "title", title: bad }), null, String(bad));
  }
  assert.deepEqual(f.title("Paris"), { type: "title", title: "Paris" });
});
