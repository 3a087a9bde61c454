// Every tab and device on a session shows the same conversation live, in the panel (the
// playground's, on the session feed: docs/embed.md, "Every tab and device"): two pages of one
// browser (two tabs of a visitor), then two browsers (two devices of one person, the same session).
// A turn from either shows in the other as it streams, its user message first; a Stop in the
// other stops it (each shows Stop while it runs); a question asked in one is answered in the
// other, and both go on; axe finds nothing on the follower while it streams. Tabs of one browser
// share one feed. A conversation deleted elsewhere says so in every panel, which offers the ways on.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { sessionId } from "../e2e/harness.mjs";
import { workerAndBrowser, launchBrowser, panel, sendPrompt, exchange, until, axeViolations, shownMessages as shown } from "./browser.mjs";
import { focused } from "./site.mjs";

const setup = workerAndBrowser();
let other;
before(async () => {
  other = await launchBrowser();
});
after(() => other?.close());

/** The playground on `session` in a new page of `browser`. */
async function open(browser, session) {
  const page = await browser.newPage();
  page.feeds = 0;
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith("/events")) page.feeds += 1;
  });
  await page.goto(`${setup.worker.base}/?session=${session}`);
  await panel(page).message.waitFor();
  return page;
}

/** Both pages idle (Send shown) with the same conversation of `n` messages. */
async function same(a, b, n) {
  await until(async () => (await panel(a).send.count()) === 1 && (await panel(b).send.count()) === 1, "both idle");
  await until(async () => JSON.stringify(await shown(a)) === JSON.stringify(await shown(b)) && (await shown(a)).length === n, `both showing the same ${n} messages`).catch(async (error) => {
    throw new Error(`${error.message}: ${JSON.stringify(await shown(a))} against ${JSON.stringify(await shown(b))}`);
  });
}

async function scenario(first, second, sameBrowser) {
  const session = sessionId("live");
  const a = await open(first, session);
  const b = await open(second, session);
  // Let both feeds connect (each page's first sync).
  await a.waitForTimeout(500);

  // A turn from a: in b while it streams, its user message first; both show Stop.
  await sendPrompt(a, "/slow 40 50");
  await until(async () => {
    const messages = await shown(b);
    return messages.length === 2 && messages[0][1] === "/slow 40 50" && messages[1][1].startsWith("w1");
  }, "the turn in b, streaming");
  assert.equal(await panel(a).stop.count(), 1, "a still streams");
  assert.equal(await panel(b).stop.count(), 1, "b shows Stop while the turn runs");
  assert.deepEqual(await axeViolations(b), []);
  await same(a, b, 2);

  // A turn from b, in a.
  await sendPrompt(b, "/slow 3 20");
  await same(a, b, 4);
  assert.equal((await shown(a))[2][1], "/slow 3 20");

  // b's Stop stops a's turn.
  await sendPrompt(a, "/slow 300 50");
  await until(async () => (await panel(b).stop.count()) === 1 && (await shown(b)).length === 6, "the long turn in b");
  await panel(b).stop.click();
  await same(a, b, 6);
  assert.ok(!(await shown(a))[5][1].includes("w300"), "stopped before its end");

  // A question asked in a's turn, answered in b: both go on.
  await sendPrompt(a, "/ask Which region?");
  await panel(b).question.waitFor();
  await panel(b).question.getByRole("button", { name: "yes" }).click();
  await until(async () => (await shown(a)).at(-1)?.[1].includes("You answered: yes."), "the rest of the turn in a");
  await same(a, b, 8);
  assert.equal(await panel(a).question.getByRole("button", { name: "yes" }).count(), 0, "the question is answered in a too: its buttons gone");
  // Tabs of one browser share one feed (a browser holds 6 connections to an origin over HTTP/1.1):
  // the first tab reads it and hands its events to the other; two devices read one each.
  if (sameBrowser) assert.equal(b.feeds, 0, "the second tab opened no feed of its own");
  else assert.ok(a.feeds >= 1 && b.feeds >= 1, "each device reads the feed");
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.close();
  await b.close();
}

describe("live in every tab and device", () => {
  test("a feed that cannot connect changes nothing the visitor sees, and is tried again later", { timeout: 60_000 }, async () => {
    const page = await setup.browser.newPage();
    const refused = [];
    const warnings = [];
    page.on("console", (message) => {
      if (message.type() === "warning" || message.type() === "error") warnings.push(message.text());
    });
    await page.route(/\/api\/sessions\/[^/]+\/events$/, (route) => {
      refused.push(Date.now());
      return route.fulfill({ status: 503, headers: { "retry-after": "1" }, json: { error: { code: "feeds_full", message: "full" } } });
    });
    await page.goto(`${setup.worker.base}/?session=${sessionId("live-refused")}`);
    await panel(page).message.waitFor();
    await sendPrompt(page, "/slow 3 20");
    await until(async () => (await shown(page)).length === 2 && (await panel(page).send.count()) === 1, "the turn, as without a feed");
    await until(async () => refused.length >= 2, "the feed tried again");
    assert.equal(await page.getByRole("alert").count(), 0, "nothing alarming");
    assert.deepEqual(warnings.filter((w) => !/status of 503/.test(w)), [], "nothing in the console but the browser's own line for the refused request");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("two tabs of one browser", { timeout: 90_000 }, () => scenario(setup.browser, setup.browser, true));
  test("two devices: two browsers on the same session", { timeout: 90_000 }, () => scenario(setup.browser, other, false));

  // Delete means gone (docs/sessions.md, "Your conversations"): a conversation deleted elsewhere
  // (here, by an app with the list's key) leaves every panel open on it saying so, with none of
  // its messages, while a turn streams in one of them; its New conversation (by the keyboard)
  // moves a panel on to a new one that works, and its Conversations opens the view.
  test("a conversation deleted elsewhere: every panel on it says so and shows none of it, then moves on", { timeout: 90_000 }, async () => {
    const session = sessionId("deleted");
    const key = { "x-conversations-key": `browser-deleted-${process.pid}-${Date.now()}` };
    // An app's turn names the session in its list.
    const turn = await fetch(`${setup.worker.base}/api/sessions/${session}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", ...key },
      body: JSON.stringify({ messages: [{ id: "u-app", role: "user", parts: [{ type: "text", text: "/slow 1 1" }] }] }),
    });
    await turn.text();
    const a = await open(setup.browser, session);
    const b = await open(other, session);
    await same(a, b, 2);
    await sendPrompt(a, "/slow 200 50");
    await until(async () => (await shown(b)).length === 4, "the turn in b, streaming");
    let gone;
    await until(async () => {
      gone = await fetch(`${setup.worker.base}/api/sessions/${session}`, { method: "DELETE", headers: key });
      return gone.status !== 404;
    }, "listed");
    assert.equal(gone.status, 204);
    for (const [name, page] of [["a", a], ["b", b]]) {
      await until(async () => (await page.getByText("This conversation was deleted.").count()) === 1, `${name} says it was deleted`);
      await until(async () => (await shown(page)).length === 0, `${name} shows none of its messages`);
      assert.deepEqual(await axeViolations(page), [], name);
    }

    // The way on, by the keyboard: New conversation, reached by Shift+Tab from the message box
    // (past the paperclip and Conversations), opens a new, empty conversation, its message box
    // focused, that works; the other panel stays on the deleted one.
    await a.evaluate(() => AgentChat("on", "conversation", ({ session: id }) => (window.movedTo = id)));
    await panel(a).message.focus();
    for (let i = 0; i < 4 && (await focused(a)) !== "widget: New conversation"; i += 1) await a.keyboard.press("Shift+Tab");
    assert.equal(await focused(a), "widget: New conversation", "New conversation reached by Tab");
    await a.keyboard.press("Enter");
    await until(async () => (await a.getByText("This conversation was deleted.").count()) === 0, "a's notice gone");
    await a.getByText("Ask the agent anything.").waitFor();
    await until(async () => (await focused(a)) === "widget: Message", "the new conversation's message box focused");
    const movedTo = await a.evaluate(() => window.movedTo);
    assert.ok(movedTo && movedTo !== session, `a new session: ${movedTo}`);
    await exchange(a, "Hello again");
    const [[, asked], [role, reply]] = await shown(a);
    assert.deepEqual([asked, role], ["Hello again", "assistant"]);
    assert.ok(reply.length > 0, "the demo agent's answer");
    assert.deepEqual(await axeViolations(a), [], "a, on its new conversation");
    assert.equal((await shown(b)).length, 0, "b, still on the deleted one, shows none of it");
    // Its Conversations button opens the view, its heading focused.
    await b.locator(".deleted").getByRole("button", { name: "Conversations" }).click();
    await b.getByRole("heading", { name: "Conversations" }).waitFor();
    assert.equal(await b.evaluate(() => document.querySelector("session-agent-chat").shadowRoot.activeElement?.tagName), "H3");
    await a.close();
    await b.close();
  });
});
