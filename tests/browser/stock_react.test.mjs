// A page written with stock React and @ai-sdk/react, nothing of this project's
// (tests/browser/stock_react_app.jsx, bundled here with esbuild), answers the demo agent's tool
// approval in Chromium: Approve (or Deny) on the `deploy` call's own part, the SDK's helpers post
// the answer by themselves, and the turn ends in one assistant message, the call
// `output-available` (or `output-denied`), the agent having received one answer.
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
      entryPoints: [path.join(root, "tests/browser/stock_react_app.jsx")],
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

describe("a stock @ai-sdk/react page", () => {
  test("the bundle is React's own (react-dom), not an alias", () => {
    const version = createRequire(import.meta.url)("react-dom/package.json").version;
    assert.ok(bundle.includes(`"${version}"`), `react-dom ${version} in the bundle`);
    assert.ok(!bundle.includes("preact"), "no preact");
  });

  for (const [choice, target, reply, state] of [
    ["Approve", "staging", "Deployed to staging.", "output-available"],
    ["Deny", "prod", "I did not deploy to prod.", "output-denied"],
  ]) {
    test(`${choice} on the tool part: the turn ends in one assistant message, the call ${state}`, async () => {
      const session = sessionId(`stock-${choice}`);
      const page = await setup.browser.newPage();
      const posts = [];
      page.on("request", (request) => {
        if (request.method() === "POST" && request.url().endsWith(`/api/sessions/${session}/chat`)) posts.push(request.headers()["x-questions"]);
      });
      // The page and its script on the worker's origin (its chat route same-origin, as an app's).
      await page.route(`${setup.worker.base}/stock/**`, (route) =>
        new URL(route.request().url()).pathname === "/stock/app.js"
          ? route.fulfill({ contentType: "text/javascript", body: bundle })
          : route.fulfill({ contentType: "text/html", body: PAGE }),
      );
      await page.goto(`${setup.worker.base}/stock/?session=${session}`);
      await page.getByRole("textbox", { name: "Message" }).fill(`/deploy ${target}`);
      await page.getByRole("button", { name: "Send" }).click();
      const tool = page.locator(".tool");
      await page.getByRole("button", { name: choice }).click();
      await page.getByText(reply).waitFor();
      await until(async () => (await page.locator("#status").innerText()) === "ready", "the turn's end");
      assert.equal(await page.locator(".message.user").count(), 1);
      assert.equal(await page.locator(".message.assistant").count(), 1, "one assistant message: the call, the approval, the reply");
      assert.deepEqual(await tool.evaluateAll((cards) => cards.map((card) => card.dataset.state)), [state]);
      assert.equal(await page.getByRole("button", { name: choice }).count(), 0);
      assert.deepEqual(posts, ["approvals", "approvals"], "the prompt, then the answer the SDK posted by itself");
      const answers = (await demoLog(setup.worker.base, session, "received")).filter((e) => e.frame.type === "answer");
      assert.deepEqual(answers.map((e) => e.frame.answer), [{ approved: choice === "Approve" }]);
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
});
