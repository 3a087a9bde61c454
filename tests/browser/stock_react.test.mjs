// The page docs/sessions.md shows, as a reader pastes it: examples/react/chat.tsx (with its
// entry, main.tsx) bundled with esbuild, stock React and @ai-sdk/react, nothing of this
// project's. In Chromium against the demo agent: a message sent, a question answered by its
// option, a question without options answered in words, a tool call approved and one denied on
// its own part (the SDK's helpers posting each answer by themselves, one assistant message a
// turn), and a reload that shows the same conversation from the history, its questions as the
// parts they streamed as.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createRequire } from "node:module";
import { build } from "esbuild";
import { root, sessionId, demoLog } from "../e2e/harness.mjs";
import { workerAndBrowser, until } from "./browser.mjs";

const setup = workerAndBrowser();

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stock useChat</title></head>
<body><div id="root"></div><script src="/stock/app.js"></script></body></html>`;

let bundle;
before(async () => {
  const [out] = (
    await build({
      entryPoints: [path.join(root, "examples/react/main.tsx")],
      bundle: true,
      format: "iife",
      jsx: "automatic",
      define: { "process.env.NODE_ENV": '"production"' },
      write: false,
      logLevel: "warning",
    })
  ).outputFiles;
  bundle = out.text;
});

/** The page on the worker's origin (its chat route same-origin, as an app's), on `session`;
 * `posts` fills with each chat POST's X-Questions header. */
async function open(session) {
  const page = await setup.browser.newPage();
  const posts = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith(`/api/sessions/${session}/chat`)) posts.push(request.headers()["x-questions"]);
  });
  await page.route(`${setup.worker.base}/stock/**`, (route) =>
    new URL(route.request().url()).pathname === "/stock/app.js"
      ? route.fulfill({ contentType: "text/javascript", body: bundle })
      : route.fulfill({ contentType: "text/html", body: PAGE }),
  );
  await page.goto(`${setup.worker.base}/stock/?session=${session}`);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  return { page, posts };
}

/** Sends `text` and waits until the turn has ended (Send is back). */
async function send(page, text) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("button", { name: "Stop" }).waitFor({ state: "detached" }).catch(() => {});
}

/** What the page shows: each message's role and text. */
const shown = (page) =>
  page.locator(".message").evaluateAll((messages) => messages.map((m) => [m.classList.contains("user") ? "user" : "assistant", m.innerText.replace(/\s+/g, " ").trim()]));

describe("the docs' React page, as pasted", () => {
  test("the bundle is React's own (react-dom), not an alias", () => {
    const version = createRequire(import.meta.url)("react-dom/package.json").version;
    assert.ok(bundle.includes(`"${version}"`), `react-dom ${version} in the bundle`);
    assert.ok(!bundle.includes("preact"), "no preact");
  });

  test("send, answer by option and in words, approve, deny; a reload shows the same conversation", { timeout: 60_000 }, async () => {
    const session = sessionId("react-page");
    const { page, posts } = await open(session);
    await send(page, "/slow 2 5");
    await page.getByText("w1 w2").waitFor();

    await send(page, "/ask Which one?");
    await page.getByRole("button", { name: "yes" }).click();
    await page.getByText("You answered: yes.").waitFor();

    await send(page, "/ask-free Your name?");
    await page.getByRole("textbox", { name: "Answer" }).fill("Ada");
    await page.getByRole("button", { name: "Answer" }).click();
    await page.getByText("You answered: Ada.").waitFor();

    await send(page, "/deploy staging");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Deployed to staging.").waitFor();

    await send(page, "/deploy prod");
    await page.getByRole("button", { name: "Deny" }).click();
    await page.getByText("I did not deploy to prod.").waitFor();
    await until(async () => (await page.getByRole("button", { name: "Send" }).count()) === 1, "the last turn's end");

    const before = await shown(page);
    assert.deepEqual(before.map(([role]) => role), ["user", "assistant", "user", "assistant", "user", "assistant", "user", "assistant", "user", "assistant"], "one assistant message a turn");
    assert.deepEqual(await page.locator(".tool").evaluateAll((cards) => cards.map((card) => card.dataset.state)), ["output-available", "output-denied"]);
    // Each question's answer posted once, by the SDK, with the transport's header.
    assert.deepEqual(posts, Array(9).fill("approvals"), "five prompts and four answers");
    const answers = (await demoLog(setup.worker.base, session, "received")).filter((e) => e.frame.type === "answer");
    assert.deepEqual(answers.map((e) => e.frame.answer), ["yes", "Ada", { approved: true }, { approved: false }]);

    // A reload: the history (with the same X-Questions) shows the same conversation.
    await page.reload();
    await page.getByText("I did not deploy to prod.").waitFor();
    assert.deepEqual(await shown(page), before);
    assert.deepEqual(await page.locator(".tool").evaluateAll((cards) => cards.map((card) => card.dataset.state)), ["output-available", "output-denied"]);
    assert.equal(await page.getByRole("button", { name: "Approve" }).count(), 0, "no question waits again");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
