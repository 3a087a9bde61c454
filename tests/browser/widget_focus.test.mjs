// The launcher a site controls and the focus that stays where the visitor is: a hidden launcher
// with the site's own button, the unread count on the default launcher, the focus after Stop, a
// send held while the panel asks whether a turn is in flight, the focus after a site's close(), a
// phone's dialog that keeps Tab inside it, and axe-core with no violation of any impact in every
// state of the panel (a question and a tool approval waiting and answered among them), light and
// dark.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { sessionId } from "../e2e/harness.mjs";
import { launchBrowser, panel, sendPrompt, until, axeViolations, uiMessageStream } from "./browser.mjs";
import { embeddingSite, eventsOf, focused } from "./site.mjs";

const setup = embeddingSite();

/**
 * Closes the launcher's panel, and closes it again whenever it opens (`send` opens it), then
 * runs `calls` in the page: its answers finish unread. `AgentChat.off("open", keepClosed)` ends it.
 */
async function keepClosedWhile(page, calls) {
  await page.evaluate(() => {
    window.keepClosed = () => AgentChat.close();
    AgentChat.close();
    AgentChat.on("open", keepClosed);
  });
  await page.evaluate(calls);
}

describe("the launcher a site controls", () => {
  test("hideLauncher: no launcher; the site's own button opens the panel, and Escape gives it the focus back", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { session: sessionId("own-button"), hideLauncher: true } }));
    await until(async () => (await eventsOf(page, "ready")).length === 1, "the panel");
    assert.equal(await page.getByRole("button", { name: /Open chat/ }).count(), 0, "no launcher");
    await page.locator("#help").focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").waitFor();
    await panel(page).message.waitFor();
    await until(async () => (await focused(page)) === "widget: Message", "the message box focused");
    await page.keyboard.press("Escape");
    await until(async () => !(await page.getByRole("dialog").isVisible()), "closed");
    assert.equal(await focused(page), "#help", "back on the site's button");
    assert.deepEqual((await eventsOf(page, "open")).length, 1);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the unread count shows on the launcher and in its name, and goes when the panel opens", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { session: sessionId("badge") } }));
    const badge = page.locator("session-agent-chat .badge");
    await page.getByRole("button", { name: "Open chat" }).waitFor();
    assert.equal(await badge.isVisible(), false, "no count before anything is unread");
    // Drawn once, then kept closed while two answers stream (send() opens the panel: closed again).
    await page.getByRole("button", { name: "Open chat" }).click();
    await panel(page).message.waitFor();
    await keepClosedWhile(page, () => {
      AgentChat.send("/slow 3 100");
      AgentChat.send("/slow 2 100");
    });
    await until(async () => (await eventsOf(page, "unread")).some((e) => e.count === 2), "two unread", 20_000);
    const launcher = page.getByRole("button", { name: "Open chat, 2 unread answers" });
    await launcher.waitFor();
    assert.equal(await badge.innerText(), "2");
    assert.equal(await badge.getAttribute("aria-hidden"), "true", "the count is in the name, not read twice");
    await page.evaluate(() => AgentChat.off("open", keepClosed));
    await launcher.click();
    await page.getByRole("dialog").waitFor();
    await page.evaluate(() => AgentChat.close());
    await page.getByRole("button", { name: "Open chat" }).waitFor();
    assert.equal(await badge.isVisible(), false, "read");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("focus", () => {
  test("Enter on Stop stops the turn and leaves the focus in the message box", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { session: sessionId("stop-focus") } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await sendPrompt(page, "/slow 60 100");
    const { stop, send } = panel(page);
    await stop.waitFor();
    await stop.focus();
    await page.keyboard.press("Enter");
    await send.waitFor();
    assert.equal(await focused(page), "widget: Message");
    // A turn that ends by itself while the visitor is on Stop: the same button, now Send, keeps it.
    await sendPrompt(page, "/slow 3 100");
    await stop.focus();
    await send.waitFor({ timeout: 10_000 });
    assert.equal(await focused(page), "widget: Send");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a send while the panel still asks whether a turn is in flight is held, its text in the box, and goes once it knows; a turn in flight keeps the text in the box", async () => {
    const resume = /\/api\/sessions\/[^/]+\/chat\/[^/]+\/stream(\?.*)?$/;
    /** A page whose resume waits for the test's `release(route)`; its chat POSTs are counted. */
    const heldPage = async (name) => {
      const page = await setup.browser.newPage();
      const posts = [];
      page.on("request", (r) => r.method() === "POST" && /\/chat$/.test(r.url()) && posts.push(r.url()));
      let release;
      const asked = new Promise((resolve) => (release = resolve));
      await page.route(resume, async (route) => (await asked)(route));
      await page.goto(setup.url({ init: { session: sessionId(name) } }));
      await page.getByRole("button", { name: "Open chat" }).click();
      return { page, posts, release };
    };

    // Nothing in flight: the Enter is held until the worker says so, then the turn goes.
    {
      const { page, posts, release } = await heldPage("held-send");
      const { message, send, answers } = panel(page);
      await message.fill("/slow 2 10");
      await message.press("Enter");
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(posts, [], "nothing posted before the resume settled");
      assert.equal(await message.inputValue(), "/slow 2 10", "the text waits in the box");
      await send.waitFor({ timeout: 1_000 });
      release((route) => route.continue());
      await until(async () => (await answers.count()) === 1 && (await send.isVisible()), "the held send's answer");
      assert.equal(posts.length, 1);
      assert.equal(await message.inputValue(), "");
      assert.equal(await page.locator(".message.user").innerText(), "/slow 2 10");
      assert.deepEqual(page.errors, []);
      await page.close();
    }

    // Changed while held: what goes is what the visitor sends, so nothing goes by itself.
    {
      const { page, posts, release } = await heldPage("held-changed");
      const { message, send } = panel(page);
      await message.fill("first thought");
      await message.press("Enter");
      await message.fill("second thought");
      const settled = page.waitForResponse(resume);
      release((route) => route.continue());
      await settled;
      await send.waitFor();
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(posts, [], "the text as held is gone, the text as changed is not sent");
      assert.equal(await message.inputValue(), "second thought");
      await message.press("Enter");
      await until(async () => posts.length === 1, "the visitor's own send");
      await page.close();
    }

    // A turn in flight: the resume streams it, and the visitor's text stays theirs to send after.
    {
      const { page, posts, release } = await heldPage("held-busy");
      const { message, send, answers } = panel(page);
      await message.fill("after it");
      await message.press("Enter");
      const chunks = [
        { type: "start", messageId: "m-flight" },
        { type: "start-step" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "already running" },
        { type: "text-end", id: "t" },
        { type: "finish-step" },
        { type: "finish" },
      ];
      release((route) => route.fulfill(uiMessageStream(chunks)));
      await page.getByText("already running").waitFor();
      await send.waitFor();
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(posts, [], "the turn in flight was not followed by the held text");
      assert.equal(await answers.count(), 1);
      assert.equal(await message.inputValue(), "after it", "the text is still the visitor's");
      assert.deepEqual(page.errors, []);
      await page.close();
    }
  });

  test("a close() of the site's leaves the focus in the site's field; the visitor's own close returns it to the launcher", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { session: sessionId("close-focus") } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await panel(page).message.waitFor();
    await page.locator("#note").click();
    await page.keyboard.type("my ord");
    await page.evaluate(() => AgentChat.close());
    await until(async () => !(await page.getByRole("dialog").isVisible()), "closed");
    await page.keyboard.type("er 5531");
    assert.equal(await page.locator("#note").inputValue(), "my order 5531", "the visitor typed on, undisturbed");
    assert.equal(await focused(page), "#note");

    await page.evaluate(() => AgentChat.open());
    await panel(page).message.waitFor();
    await page.getByRole("button", { name: "Close chat" }).click();
    await until(async () => (await focused(page)) === "widget: Open chat", "the focus on the launcher");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("on a phone (390×844)", () => {
  let phone;
  before(async () => {
    phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  });
  after(() => phone?.close());

  test("the dialog covers the page: it is modal, and Tab and Shift+Tab stay inside it", async () => {
    const page = await phone.newPage();
    await page.goto(setup.url({ init: { session: sessionId("trap"), traceSwitch: true } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    await panel(page).message.waitFor();
    assert.equal(await dialog.getAttribute("aria-modal"), "true");
    const seen = new Set();
    for (const key of [...Array(8).fill("Tab"), ...Array(8).fill("Shift+Tab")]) {
      await page.keyboard.press(key);
      const where = await focused(page);
      assert.match(where, /^widget: /, `${key} reached ${where}`);
      seen.add(where);
    }
    // Every control of the dialog was reached: the trace switch, Close, the message box, Send.
    for (const control of ["widget: Trace", "widget: Close chat", "widget: Message", "widget: Send"]) assert.ok(seen.has(control), `${control} in ${[...seen]}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("axe-core: no violation of any impact, in every state, light and dark", () => {
  for (const scheme of ["light", "dark"]) {
    test(`${scheme}: closed with unread answers, open, streaming, a tool card open, stopped, a question waiting and answered, an approval waiting and given`, async () => {
      const page = await setup.browser.newPage();
      const states = {};
      await page.goto(setup.url({ init: { session: sessionId(`axe-${scheme}`), colorScheme: scheme, trace: "full", traceSwitch: true } }));
      await page.getByRole("button", { name: "Open chat" }).waitFor();
      states.closed = await axeViolations(page);

      await page.getByRole("button", { name: "Open chat" }).click();
      await panel(page).message.waitFor();
      states.open = await axeViolations(page);
      await keepClosedWhile(page, () => AgentChat.send("how do tools show?"));
      await page.getByRole("button", { name: /unread/ }).waitFor({ timeout: 20_000 });
      states.unread = await axeViolations(page);

      await page.evaluate(() => AgentChat.off("open", keepClosed));
      await page.getByRole("button", { name: /Open chat/ }).click();
      const { answers, tools, stop, send, question } = panel(page);
      await tools.first().waitFor();
      assert.equal(await tools.first().getAttribute("open"), "", "the tool card open, its JSON shown");
      states.toolOpen = await axeViolations(page);

      // A turn that streams nothing until it is stopped: its status line ("Working…") stays until
      // the Stop below, however slowly a loaded machine goes (a turn's first text takes the line
      // away, widget/src/status.js, and a read after it would wait for nothing).
      await sendPrompt(page, "/hang");
      await page.getByRole("status").waitFor();
      states.streaming = await axeViolations(page);
      await stop.click();
      await until(async () => /^Stopped/.test(await answers.nth(1).locator(".summary").innerText().catch(() => "")), "stopped");
      states.stopped = await axeViolations(page);

      await send.waitFor();
      await sendPrompt(page, "/ask Deploy now?");
      await question.getByRole("button", { name: "yes" }).waitFor();
      states.question = await axeViolations(page);
      await question.getByRole("button", { name: "yes" }).click();
      await send.waitFor();
      states.answered = await axeViolations(page);

      await sendPrompt(page, "/deploy staging");
      const approve = tools.getByRole("group", { name: "Allow deploy to run?" }).getByRole("button", { name: "Approve" });
      await approve.waitFor();
      states.approval = await axeViolations(page);
      await approve.click();
      await page.getByText("Deployed to staging.").waitFor();
      await send.waitFor();
      states.approved = await axeViolations(page);

      for (const [state, violations] of Object.entries(states)) assert.deepEqual(violations, [], `${scheme}, ${state}:\n${violations.join("\n")}`);
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
});
