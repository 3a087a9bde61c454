// What the operator caps holds in the panel, whatever the site or the visitor asks: with the
// worker's TRACE_MAX at normal or minimal, the trace switch offers no mode above it (a choice
// remembered from elsewhere is lowered to it), and the panel shows no tool data the worker did
// not send. And the widget's files: the loader cached for minutes, the panel under its version
// for a year, and a loader of an earlier deploy, whose panel is gone, still opens the current one.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { sessionId, startWorker } from "../e2e/harness.mjs";
import { panel, sendPrompt, until } from "./browser.mjs";
import { embeddingSite } from "./site.mjs";

const setup = embeddingSite((origin) => ({ ALLOWED_ORIGINS: origin, TRACE_MAX: "normal" }));


/** The trace switch's options as the visitor reads them. */
const switchOptions = (page) => page.getByRole("combobox", { name: "Trace" }).locator("option").allInnerTexts();

describe("TRACE_MAX in the panel", () => {
  /** A second worker, capped at minimal, for the same site. */
  let minimal;
  before(async () => {
    minimal = await startWorker({ vars: { ALLOWED_ORIGINS: setup.site, TRACE_MAX: "minimal" } });
  });
  after(() => minimal?.dispose());

  test("normal: the switch offers Minimal and Normal; a remembered Verbose is lowered; tools show without data", async () => {
    const page = await setup.browser.newPage();
    await page.addInitScript(() => localStorage.setItem("session-agent-chat:trace", "full"));
    await page.goto(setup.url({ init: { session: sessionId("cap-normal"), trace: "full", traceSwitch: true } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const select = page.getByRole("combobox", { name: "Trace" });
    await select.waitFor();
    assert.deepEqual(await switchOptions(page), ["Minimal", "Normal"]);
    assert.equal(await select.inputValue(), "normal", "the remembered full, lowered to the cap");
    await sendPrompt(page, "how do tools show?");
    const { tools, send } = panel(page);
    await until(async () => (await tools.count()) === 1, "the tool card");
    await send.waitFor({ timeout: 20_000 });
    assert.equal(await tools.first().locator("pre").count(), 0, "no input or output shown");
    assert.equal(await tools.first().evaluate((el) => el.tagName), "DIV", "nothing to expand");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("minimal: the switch offers Minimal only, and no tool card shows", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { session: sessionId("cap-minimal"), api: minimal.base, trace: "full", traceSwitch: true } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const select = page.getByRole("combobox", { name: "Trace" });
    await select.waitFor();
    assert.deepEqual(await switchOptions(page), ["Minimal"]);
    await sendPrompt(page, "how do tools show?");
    const { answers, tools, send } = panel(page);
    await until(async () => (await answers.count()) === 1 && (await answers.first().innerText()).length > 20, "the answer");
    await send.waitFor({ timeout: 20_000 });
    assert.equal(await tools.count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("the widget's files", () => {
  test("the loader is cached for minutes, its panel for a year under its version; the current panel is revalidated", async () => {
    const loader = await fetch(`${setup.worker.base}/widget.js`);
    assert.equal(loader.headers.get("cache-control"), "public, max-age=300");
    const source = await loader.text();
    const [file] = source.match(/widget\/panel-[0-9a-f]{12}\.js/) ?? [];
    assert.ok(file, "the loader names its versioned panel");
    const versioned = await fetch(`${setup.worker.base}/${file}`);
    assert.equal(versioned.status, 200);
    assert.equal(versioned.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const current = await fetch(`${setup.worker.base}/widget-panel.js`);
    assert.equal(current.headers.get("cache-control"), "public, max-age=0, must-revalidate");
    assert.equal(await current.text(), await versioned.text(), "the same panel under both names");
    assert.equal((await fetch(`${setup.worker.base}/_headers`)).status, 404, "the rules are not served");
  });

  test("a loader of an earlier deploy, whose panel this deploy does not have, opens the current one", async () => {
    const page = await setup.browser.newPage();
    const requested = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    // widget.js as a browser kept it from the deploy before: it names a panel that is gone.
    await page.route(`${setup.worker.base}/widget.js`, async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace(/widget\/panel-[0-9a-f]{12}\.js/, "widget/panel-000000000000.js");
      await route.fulfill({ response, body });
    });
    await page.goto(setup.url({ init: { session: sessionId("old-loader") } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await panel(page).message.waitFor();
    await sendPrompt(page, "still here?");
    await until(async () => (await panel(page).answers.count()) === 1, "an answer");
    assert.equal((await fetch(`${setup.worker.base}/widget/panel-000000000000.js`)).status, 404, "that panel is gone");
    const panels = requested.filter((path) => /panel/.test(path));
    assert.deepEqual(panels, ["/widget/panel-000000000000.js", "/widget-panel.js"], "its own panel asked first, then the current one");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
