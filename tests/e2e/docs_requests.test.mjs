// The requests the docs show, sent for real (docs that cannot rot silently): every
// `curl` of README.md and docs/, its path, headers and body, to the demo worker; each chat request
// must stream a turn. Where a page shows what comes back (the ```text block after the request), the
// stream must begin with those chunks, `…` standing for what changes from run to run. An upload
// (`--data-binary @file`) sends a small file of the type its `Content-Type` says, and must answer
// `201` with the JSON the page shows after it (```json), each `…` standing for what changes.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, readAll, chunksOf } from "./harness.mjs";
import { PAGES, read, codeBlocks } from "../js/docs/docs.mjs";

/** A curl command line's URL, headers and body (the forms the docs use: -X METHOD, -H '…', -d '…',
 * --data-binary @file). */
function parseCurl(command) {
  const line = command.replace(/\\\n/g, " ");
  const url = line.match(/curl\s+(?:-X\s+\w+\s+|-\w\s+)*'?([^\s']+)/)[1];
  const upload = line.match(/--data-binary\s+@(\S+)/)?.[1];
  const headers = Object.fromEntries(
    [...line.matchAll(/-H\s+(['"])(.*?)\1/g)].map(([, , header]) => header.split(/:\s*/, 2).map((s) => s.trim())),
  );
  const body = line.match(/-d\s+'([^']*)'/)?.[1];
  return { url, headers, body, upload };
}

/** A small file of `type` for an upload the docs show: a 1×1 PNG, or some text. */
const PNG_1PX = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const sample = (type) => (type === "image/png" ? PNG_1PX : Buffer.from(`a file of ${type}`));

/** The requests, each with the ```text block that follows it on its page, if any. */
const requests = PAGES.flatMap((page) => {
  const blocks = codeBlocks(read(page));
  return blocks.flatMap((block, i) =>
    block.lang === "sh" && block.code.trimStart().startsWith("curl")
      ? [{ page, line: block.line, ...parseCurl(block.code), shown: blocks[i + 1]?.lang === "text" ? blocks[i + 1].code : null, shownJson: blocks[i + 1]?.lang === "json" ? blocks[i + 1].code : null }]
      : [],
  );
});

let worker;
before(async () => {
  worker = await startWorker();
});
after(() => worker?.dispose());

describe("the docs' requests, sent", () => {
  test("the docs show requests", () => assert.ok(requests.length >= 2, JSON.stringify(requests)));

  for (const request of requests) {
    test(`${request.page}:${request.line}: ${new URL(request.url).pathname}`, { timeout: 30_000 }, async () => {
      const url = new URL(request.url);
      // Placeholders for the reader's own values (a token) are left out; the demo needs none.
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([, value]) => !value.includes("$")));
      if (request.upload) {
        const type = headers["content-type"];
        const response = await fetch(`${worker.base}${url.pathname}${url.search}`, { method: "POST", headers, body: sample(type) });
        const text = await response.text();
        assert.equal(response.status, 201, text);
        assert.ok(request.shownJson, `${request.page}: the upload shows what it answers`);
        // The shown JSON with the worker's origin and each `…` (a run's own id, expiry, signature, size) as anything.
        const shown = request.shownJson.trim().replaceAll("http://127.0.0.1:8787", worker.base);
        const pattern = new RegExp(`^${shown.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^\"]*")}$`.replace(/"size":\d+/, '"size":\\d+'));
        assert.match(text, pattern, `${request.page}: the answer the page shows`);
        const part = JSON.parse(text);
        const back = await fetch(part.url);
        assert.deepEqual(Buffer.from(await back.arrayBuffer()), sample(type), "its URL gives the file back");
        return;
      }
      const response = await fetch(`${worker.base}${url.pathname}${url.search}`, {
        method: request.body === undefined ? "GET" : "POST",
        headers,
        body: request.body,
      });
      assert.equal(response.status, 200, await response.clone().text());
      assert.equal(response.headers.get("x-vercel-ai-ui-message-stream"), "v1");
      const { text } = await readAll(response);
      const chunks = chunksOf(text);
      assert.equal(chunks.at(-1).type, "finish");
      if (request.shown) {
        const shown = request.shown.split("\n").filter((l) => l.startsWith("data: {"));
        const got = text.split("\n").filter((l) => l.startsWith("data: {"));
        shown.forEach((line, i) => {
          const pattern = new RegExp(`^${line.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+")}$`);
          // The shown lines are the stream's first ones, then its last (after a `…` line).
          const actual = i < shown.length - 1 ? got[i] : got.at(-1);
          assert.match(actual, pattern, `${request.page}: line ${i + 1} of the example`);
        });
      }
    });
  }
});
