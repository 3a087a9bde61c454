// The requests the docs show, sent for real (docs that cannot rot silently): every
// `curl` of README.md and docs/, its path, headers and body, to the demo worker; each must stream
// a turn. Where a page shows what comes back (the ```text block after the request), the stream
// must begin with those chunks, `…` standing for what changes from run to run.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, readAll, chunksOf } from "./harness.mjs";
import { PAGES, read, codeBlocks } from "../js/docs/docs.mjs";

/** A curl command line's URL, headers and body (the forms the docs use: -H '…', -d '…'). */
function parseCurl(command) {
  const line = command.replace(/\\\n/g, " ");
  const url = line.match(/curl\s+(?:-\w\s+)*(\S+)/)[1];
  const headers = Object.fromEntries(
    [...line.matchAll(/-H\s+(['"])(.*?)\1/g)].map(([, , header]) => header.split(/:\s*/, 2).map((s) => s.trim())),
  );
  const body = line.match(/-d\s+'([^']*)'/)?.[1];
  return { url, headers, body };
}

/** The requests, each with the ```text block that follows it on its page, if any. */
const requests = PAGES.flatMap((page) => {
  const blocks = codeBlocks(read(page));
  return blocks.flatMap((block, i) =>
    block.lang === "sh" && block.code.trimStart().startsWith("curl")
      ? [{ page, line: block.line, ...parseCurl(block.code), shown: blocks[i + 1]?.lang === "text" ? blocks[i + 1].code : null }]
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
