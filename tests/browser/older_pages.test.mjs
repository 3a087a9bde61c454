// A long conversation in the panel against the worker and its demo agent (protocol 5: docs/embed.md,
// "Long conversations"): a session of 602 messages (the demo agent's `/grow 300`) opens on its
// newest page, 100 messages; a scroll of the wheel to the top loads the page before, and the
// message the reader saw at the top stays where it was; "Load older messages", by keyboard, loads
// the rest a page a press, to the first message, then goes, the focus left in the list; a send
// then carries the newest 200 messages only, and its turn follows the conversation shown. A turn
// of another tab that follows messages this one never saw (`/grow` there) moves it to the newest
// page of the long conversation, with the way back to the older ones.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { sessionId } from "../e2e/harness.mjs";
import { workerAndBrowser, panel, sendPrompt, until, shownMessages, settled, openPlayground, twoTabs, closePagesAfterEach } from "./browser.mjs";

const setup = workerAndBrowser();
// One test at a time, its pages closed after it: each open panel holds a feed, one of the six
// connections a browser keeps to the worker, and a test short of them would wait on its requests.
closePagesAfterEach(setup);

/** The texts the panel shows, in order. */
const texts = async (page) => (await shownMessages(page)).map(([, text]) => text);

/** The newest page of the session's history: its texts, and whether older messages exist. */
async function newestPage(session) {
  const response = await fetch(`${setup.worker.base}/api/sessions/${session}/messages`);
  const messages = await response.json();
  return { texts: messages.map((m) => m.parts.filter((p) => p.type === "text").map((p) => p.text).join("").trim()), older: response.headers.has("x-history-before") };
}

describe("older pages in the panel", () => {
  test("a session of 602 messages: the newest page, the page before on a scroll to the top (what was read stays put), the rest by keyboard, a send of 200", { timeout: 90_000 }, async () => {
    const session = sessionId("older-pages");
    const page = await openPlayground(setup, session);
    await sendPrompt(page, "/grow 300");
    await until(async () => /^Grew the conversation by 300 exchanges/.test((await texts(page))[1] ?? ""), "the conversation grown");
    await settled(page, 2);

    // Opened again: the newest page (the route's default of 100 messages), and the way to more.
    await page.reload();
    await panel(page).message.waitFor();
    await settled(page, 100);
    assert.equal((await texts(page))[0], "g252");
    const older = page.getByRole("button", { name: "Load older messages" });
    assert.equal(await older.count(), 1);

    // The wheel to the top: the page before, held until the reader's view is measured.
    let release;
    const held = new Promise((resolve) => (release = resolve));
    let asked = 0;
    await page.route(/\/messages\?.*before=/, async (route) => {
      asked += 1;
      await held;
      await route.continue();
    });
    const list = page.locator("session-agent-chat .messages");
    await list.hover();
    await page.mouse.wheel(0, -100_000);
    await until(async () => asked === 1, "the page before asked for");
    await page.waitForTimeout(200);
    const [first] = await shownMessages(page);
    assert.deepEqual(first, ["user", "g252"], "the message at the top");
    const read = page.locator("session-agent-chat .message .bubble").getByText("g252", { exact: true });
    const top = (await read.boundingBox()).y;
    release();
    await settled(page, 200);
    await page.unroute(/\/messages\?.*before=/);
    assert.deepEqual([(await texts(page))[0], (await texts(page))[100]], ["g202", "g252"]);
    assert.equal((await read.boundingBox()).y, top, "the message read stays where it was");

    // By keyboard: the button, a page a press, to the first message; then it goes.
    await older.focus();
    for (let presses = 0; (await older.count()) === 1; presses++) {
      assert.ok(presses < 10, "a page a press");
      await until(async () => (await list.getAttribute("aria-busy")) === null, "no page on its way");
      if ((await older.count()) === 0) break;
      const before = (await texts(page)).length;
      await page.keyboard.press("Enter");
      await until(async () => (await texts(page)).length > before || (await older.count()) === 0, "a page more");
    }
    const all = await texts(page);
    assert.equal(all.length, 602);
    assert.deepEqual(all.slice(0, 3), ["g1", "r1", "g2"]);
    const active = await page.evaluate(() => document.querySelector("session-agent-chat").shadowRoot.activeElement?.className);
    assert.equal(active, "messages", "the focus left in the list");

    // A send carries the newest 200 messages; its turn follows the conversation shown.
    const posted = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith(`/api/sessions/${session}/chat`)) posted.push(request.postDataJSON().messages);
    });
    await sendPrompt(page, "/slow 1 5");
    await settled(page, 604);
    assert.equal(posted.length, 1);
    const sent = posted[0].map((m) => m.parts.filter((p) => p.type === "text").map((p) => p.text).join("").trim());
    assert.deepEqual(sent, [...all.slice(-199), "/slow 1 5"], "the newest 200: what was shown last, and the message");
    const newest = await newestPage(session);
    assert.deepEqual(newest.texts.slice(-5), ["r300", "/grow 300", all.at(-1), "/slow 1 5", "w1"]);
    assert.equal(newest.texts.length, 100);
    assert.equal(newest.older, true);
    assert.deepEqual(page.errors, []);
  });

  test("another tab's turn that moves this one to a long conversation brings the way to its older messages", { timeout: 60_000 }, async () => {
    const [a, b] = await twoTabs(setup, "older-followed");
    const older = a.getByRole("button", { name: "Load older messages" });
    assert.equal(await older.count(), 0, "an empty session: nothing older");
    // b's turn follows 600 messages a has never seen: a loads the newest page, and can go back.
    await sendPrompt(b, "/grow 300");
    await until(async () => /^Grew the conversation/.test((await texts(a)).at(-1)) && (await panel(a).send.count()) === 1, "the turn in a");
    // The turn had ended when a read the page: its reply stays (a resume would take it out first).
    await a.waitForTimeout(300);
    assert.deepEqual((await texts(a)).slice(-3, -1), ["r300", "/grow 300"], "the turn's message after the messages it follows");
    assert.match((await texts(a)).at(-1), /^Grew the conversation/, "and its reply still there");
    assert.deepEqual((await texts(a)).slice(-3, -1), ["r300", "/grow 300"], "the turn's message after the messages it follows");
    await until(async () => (await older.count()) === 1, "Load older messages in a");
    const shown = (await texts(a)).length;
    await older.click();
    await until(async () => (await texts(a)).length > shown, "an older page in a");
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });
});
