// packages/session-agent/src/file-url.ts, the library's check of the file parts it gives the
// model: the URLs the adapter accepts and refuses (tests/fixtures/file-urls.json, the cases
// crates/core/src/request/files_tests.rs runs too), a prompt's attachments the adapter would have
// refused left out, and a stored history's file part whose URL is refused (`https:` alone, which
// `new URL` throws on; an internal address) left out of the model's messages instead of ending
// every later turn.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { librarySource } from "./tree_support.mjs";

const root = path.resolve(import.meta.dirname, "../../..");
const { fileUrlFault, fileFault } = await librarySource("file-url");
const { parseIncoming } = await librarySource("protocol");
const { toModelMessages } = await librarySource("ai-sdk/messages");

const cases = JSON.parse(readFileSync(path.join(root, "tests/fixtures/file-urls.json"), "utf8"));

test("the URLs the adapter accepts pass, and those it refuses do not, each with a reason", () => {
  for (const url of cases.accepted) assert.equal(fileUrlFault(url), null, url);
  for (const url of cases.refused) assert.equal(typeof fileUrlFault(url), "string", JSON.stringify(url));
  assert.match(fileUrlFault("https://169.254.169.254/latest/meta-data/"), /not public/);
  assert.match(fileUrlFault("https:"), /without \/\/ and a host/);
});

test("media types and file names over 255 bytes are refused", () => {
  const url = "https://files.example/a.png";
  assert.equal(fileFault({ url, mediaType: `${"a".repeat(127)}/${"b".repeat(127)}`, filename: "é".repeat(127) }), null);
  assert.match(fileFault({ url, mediaType: "a".repeat(256) }), /mediaType/);
  assert.match(fileFault({ url, mediaType: "image/png", filename: "é".repeat(128) }), /filename/);
});

test("a prompt's attachments the adapter would refuse are left out", () => {
  const frame = parseIncoming(JSON.stringify({
    type: "prompt", content: "look", requestId: "r1",
    attachments: [
      { mediaType: "image/png", url: "https://files.example/a.png", filename: "a.png" },
      { mediaType: "image/png", url: "https:" },
      { mediaType: "image/png", url: "https://127.0.0.1:8787/x" },
      { mediaType: "text/html", url: "DATA:text/html,<script>alert(1)</script>" },
      { mediaType: "image/png", url: "data:image/png;base64,iVBORw0KGgo=", filename: "n".repeat(300) },
      { mediaType: "image/png", url: "data:image/png;base64,iVBORw0KGgo=" },
    ],
  }));
  assert.deepEqual(frame.attachments.map((a) => a.url), ["https://files.example/a.png", "data:image/png;base64,iVBORw0KGgo="]);
});

test("a stored file part whose URL is refused is left out of the model's messages, never thrown on", () => {
  const history = [
    { id: "u1", role: "user", parts: [
      { type: "text", text: "Look" },
      { type: "file", mediaType: "image/png", url: "https:" },
      { type: "file", mediaType: "image/png", url: "https://169.254.169.254/latest/meta-data/" },
      { type: "file", mediaType: "image/png", url: "https://files.example/a.png", filename: "a.png" },
    ] },
    { id: "u2", role: "user", parts: [{ type: "file", mediaType: "image/png", url: "https:" }] },
  ];
  const messages = toModelMessages(history);
  assert.equal(messages.length, 1, "a message left with nothing is left out");
  assert.deepEqual(messages[0].content.map((c) => (c.type === "file" ? c.data.href : c.text)), ["Look", "https://files.example/a.png"]);
});
