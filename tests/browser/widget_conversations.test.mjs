// The panel's Conversations view (docs/embed.md, "Conversations") on a site of the tests' own,
// against the worker and its demo agent (AUTH_MODE none: the panel names its list with a key it
// keeps): a new conversation, the list newest first, a switch, a rename (Enter saves, Escape
// cancels, the worker's refusal in words) and a delete asked first, the open one's too, all by
// the keyboard; a list longer than a page, loaded as it scrolls and by its button; two tabs, what
// one makes, renames or deletes shown live in the other's view; the page's calls and the
// `conversation` event, `conversations: false`, and `logout` forgetting the list; Arabic; and on
// a 390×844 phone, Tab kept inside. axe-core finds nothing in any state.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { chatBody, postChat, readAll, sleep } from "../e2e/harness.mjs";
import { launchBrowser, closePagesAfterEach, panel, sendPrompt, shownMessages, settled, until, axeViolations } from "./browser.mjs";
import { embeddingSite, eventsOf, focused } from "./site.mjs";

const setup = embeddingSite();
closePagesAfterEach(setup);

/** A user of the panel's own for each test: its session and its list are kept under it. */
let users = 0;
const newUser = (label) => `${label}-${process.pid}-${(users += 1)}-${Date.now()}`;

/** The site's page with the panel for `user` (more `init` options in `init`), opened from its launcher. */
async function openPanel(browser, user, init = {}) {
  const page = await browser.newPage();
  await page.goto(setup.url({ init: { user, ...init } }));
  await page.getByRole("button", { name: "Open chat" }).click();
  await panel(page).message.waitFor();
  return page;
}

/** The view's parts, by what a screen reader hears. */
function view(page) {
  return {
    toggle: page.getByRole("button", { name: "Conversations", exact: true }),
    heading: page.getByRole("heading", { name: "Conversations" }),
    back: page.getByRole("button", { name: "Back", exact: true }),
    create: page.getByRole("button", { name: "New conversation" }),
    more: page.getByRole("button", { name: "Show more" }),
    rows: page.locator(".conversations .row"),
    status: page.locator(".conversations .said"),
  };
}

/** The titles the list shows, in order. */
const titles = (page) => page.locator(".conversations .row-title").allInnerTexts();

/**
 * Opens the view until its list shows `expected` (each turn's index write lands just after the
 * turn: the view reads the list each time it opens).
 */
async function listed(page, expected) {
  const { toggle, heading } = view(page);
  await until(async () => {
    if (await heading.isVisible()) await toggle.click();
    await toggle.click();
    await page.locator(".conversations .list:not([aria-busy])").waitFor();
    return JSON.stringify(await titles(page)) === JSON.stringify(expected);
  }, `the list ${JSON.stringify(expected)}`);
}

/** The panel's kept session for `user` (config.js: `session-agent-chat:session:<user>`), and its list key. */
const kept = (page, user) =>
  page.evaluate((u) => ({ session: localStorage[`session-agent-chat:session:${u}`], list: localStorage[`session-agent-chat:list:${u}`] }), user);

/** The tag of what has the focus in the panel's shadow root. */
const focusedTag = (page) => page.evaluate(() => document.querySelector("session-agent-chat").shadowRoot.activeElement?.tagName);

/** The worker's list for `key`: the titles, newest first. */
async function workerTitles(key) {
  const response = await fetch(`${setup.worker.base}/api/sessions?limit=100`, { headers: { "x-conversations-key": key } });
  return (await response.json()).sessions.map((s) => s.title);
}

/**
 * The worker's titles for `key` once it lists `n` sessions and they hold still: a turn's row is
 * written just after it, and the agent may title its session at its first exchange (the demo
 * agent does, "Docs search: …"), so the tests read the titles rather than guess them.
 */
async function stableTitles(key, n) {
  let last = null;
  await until(async () => {
    const now = JSON.stringify(await workerTitles(key));
    const still = now === last && JSON.parse(now).length === n;
    last = now;
    if (!still) await sleep(300);
    return still;
  }, `${n} titles at the worker, holding still`);
  return JSON.parse(last);
}

/** Sends `text` and waits for its turn's end (`n` messages then shown). */
async function exchange(page, text, n) {
  await sendPrompt(page, text);
  await settled(page, n);
}

describe("the Conversations view", () => {
  test("new, the list newest first, switch, rename and delete (asked first), by the keyboard; axe in each state", { timeout: 90_000 }, async () => {
    const user = newUser("convs");
    const page = await openPanel(setup.browser, user);
    const { toggle, heading, back, create, rows, status } = view(page);
    const states = {};
    await exchange(page, "First topic", 2);
    const first = (await kept(page, user)).session;
    assert.ok(first, "the session kept once the visitor wrote");
    const key = (await kept(page, user)).list;
    assert.match(key, /^[0-9a-f-]{36}$/, "the list's key kept beside it");

    // The view opens from the header, its heading focused; the open conversation is marked.
    const [firstTitle] = await stableTitles(key, 1);
    await listed(page, [firstTitle]);
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    assert.equal(await focusedTag(page), "H3", "the focus on the view's heading");
    assert.equal(await rows.first().locator(".open").getAttribute("aria-current"), "true");
    states.list = await axeViolations(page);
    // Escape leaves the view (not the dialog), the focus back on its button.
    await page.keyboard.press("Escape");
    await heading.waitFor({ state: "detached" });
    assert.equal(await page.getByRole("dialog").isVisible(), true, "the dialog stays open");
    assert.deepEqual([await focusedTag(page), await focused(page)], ["BUTTON", "widget: Conversations"]);
    assert.equal((await shownMessages(page)).length, 2, "the same conversation");

    // New conversation, from the keyboard: an empty conversation, its message box focused.
    await page.keyboard.press("Enter");
    await heading.waitFor();
    await create.focus();
    await page.keyboard.press("Enter");
    await page.getByText("Ask the agent anything.").waitFor();
    await until(async () => (await focused(page)) === "widget: Message", "the message box focused");
    const [event] = await eventsOf(page, "conversation");
    assert.ok(event && event.session !== first && /^web-/.test(event.session), `a new session: ${JSON.stringify(event)}`);
    assert.equal((await kept(page, user)).session, first, "a new conversation is kept once the visitor writes");
    await exchange(page, "Second topic", 2);
    assert.equal((await kept(page, user)).session, event.session);
    const [secondTitle] = await stableTitles(key, 2);
    await listed(page, [secondTitle, firstTitle]);

    // Switch to the first: its messages show, the page hears it, a reload comes back to it.
    await rows.nth(1).locator(".open").click();
    await until(async () => (await shownMessages(page))[0]?.[1] === "First topic", "the first conversation shown");
    assert.equal((await eventsOf(page, "conversation")).at(-1).session, first);
    await page.reload();
    await page.getByRole("button", { name: "Open chat" }).click();
    await until(async () => (await shownMessages(page))[0]?.[1] === "First topic", "the first conversation after a reload");

    // Rename by the keyboard: Escape cancels, a blank title is refused in words, Enter saves.
    await listed(page, [secondTitle, firstTitle]);
    const rename = page.getByRole("button", { name: `Rename ${firstTitle}` });
    await rename.focus();
    await page.keyboard.press("Enter");
    const field = page.getByRole("textbox", { name: "Title" });
    await field.waitFor();
    assert.equal(await focused(page), "widget: Title");
    assert.equal(await field.evaluate((el) => el.value.slice(el.selectionStart, el.selectionEnd)), firstTitle, "the title selected");
    assert.equal(await field.getAttribute("maxlength"), "200");
    await page.keyboard.type("Not this");
    await page.keyboard.press("Escape");
    await rename.waitFor();
    assert.equal(await focused(page), `widget: Rename ${firstTitle}`, "cancelled, the focus back on Rename");
    assert.equal(await heading.isVisible(), true, "Escape in the field leaves the view open");
    await page.keyboard.press("Enter");
    await field.fill("   ");
    await page.keyboard.press("Enter");
    await page.getByRole("alert").filter({ hasText: "A title is 1 to 200 characters long." }).waitFor();
    assert.equal(await field.getAttribute("aria-invalid"), "true");
    states.renameRefused = await axeViolations(page);
    await field.fill("Trip plans");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Rename Trip plans" }).waitFor();
    assert.deepEqual(await titles(page), [secondTitle, "Trip plans"]);
    assert.equal(await focused(page), "widget: Rename Trip plans");
    assert.deepEqual(await workerTitles(key), [secondTitle, "Trip plans"], "renamed at the worker");

    // Delete asks first: Escape (or Cancel) deletes nothing.
    const deleteSecond = page.getByRole("button", { name: `Delete ${secondTitle}` });
    await deleteSecond.click();
    const ask = page.getByRole("group", { name: `Delete “${secondTitle}”? This cannot be undone.` });
    await ask.waitFor();
    assert.equal(await focused(page), "widget: Cancel", "the focus on the harmless choice");
    states.confirm = await axeViolations(page);
    await page.keyboard.press("Escape");
    await ask.waitFor({ state: "detached" });
    assert.equal(await focused(page), `widget: Delete ${secondTitle}`);
    await page.keyboard.press("Enter");
    await ask.getByRole("button", { name: "Cancel" }).click();
    assert.deepEqual(await workerTitles(key), [secondTitle, "Trip plans"], "nothing deleted");
    // Confirmed: gone here and at the worker, said, the focus on the next row.
    await deleteSecond.click();
    await ask.getByRole("button", { name: "Delete", exact: true }).click();
    await until(async () => JSON.stringify(await titles(page)) === '["Trip plans"]', "the row gone");
    await until(async () => (await status.innerText()) === `“${secondTitle}” was deleted.`, "the status line");
    assert.match(await focused(page), /^widget: Trip plans /, "the focus on the next row");
    assert.deepEqual(await workerTitles(key), ["Trip plans"]);

    // The open one deleted: the panel moves to a new conversation, which nothing keeps yet.
    const before = (await eventsOf(page, "conversation")).length;
    await page.getByRole("button", { name: "Delete Trip plans" }).click();
    await page.getByRole("group", { name: "Delete “Trip plans”? This cannot be undone." }).getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("No conversations yet.").waitFor();
    assert.equal(await focused(page), "widget: New conversation");
    const moved = await eventsOf(page, "conversation");
    assert.equal(moved.length, before + 1);
    assert.notEqual(moved.at(-1).session, first);
    assert.equal((await kept(page, user)).session, undefined, "the deleted session no longer kept");
    states.empty = await axeViolations(page);
    await back.click();
    await page.getByText("Ask the agent anything.").waitFor();
    assert.deepEqual(await workerTitles(key), []);

    for (const [state, violations] of Object.entries(states)) assert.deepEqual(violations, [], `${state}:\n${violations.join("\n")}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a list longer than a page: 20 first, the rest as it scrolls and by Show more, each once", { timeout: 90_000 }, async () => {
    const user = newUser("pages");
    const key = `pages-${process.pid}-${Date.now()}-list`;
    // 45 conversations of this list, made by the worker's chat route as the panel's turns are (a
    // quick command each, titled by its message: "/slow 1 1 topic 7").
    for (let i = 1; i <= 45; i += 1) {
      const response = await postChat(setup.worker.base, `pages-${process.pid}-${Date.now()}-${i}`, chatBody(`/slow 1 1 topic ${i}`), {
        headers: { "content-type": "application/json", "x-conversations-key": key },
      });
      await readAll(response);
    }
    const all = await stableTitles(key, 45);
    assert.deepEqual(all, Array.from({ length: 45 }, (_, i) => `/slow 1 1 topic ${45 - i}`), "the newest first");
    const page = await setup.browser.newPage();
    await page.addInitScript(([u, k]) => localStorage.setItem(`session-agent-chat:list:${u}`, k), [user, key]);
    await page.goto(setup.url({ init: { user } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await panel(page).message.waitFor();
    const { toggle, more, rows } = view(page);
    await toggle.click();
    await until(async () => (await rows.count()) === 20, "the first page");
    assert.deepEqual(await titles(page), all.slice(0, 20));
    // A scroll to the end loads the next page.
    await page.locator(".conversations .list").evaluate((el) => (el.scrollTop = el.scrollHeight));
    await until(async () => (await rows.count()) === 40, "the second page, by a scroll");
    // Show more, by the keyboard: the last page, the focus on its first row.
    await more.focus();
    await page.keyboard.press("Enter");
    await until(async () => (await rows.count()) === 45, "the last page, by Show more");
    assert.equal(await more.count(), 0, "nothing more");
    assert.match(await focused(page), /^widget: \/slow 1 1 topic 5 /, "the focus on the page's first row");
    assert.deepEqual(await titles(page), all, "each once, in order");
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the page's calls: newConversation, openConversation, showConversations; the conversation event; conversations: false; logout forgets the list", { timeout: 60_000 }, async () => {
    const user = newUser("api");
    const page = await openPanel(setup.browser, user);
    await exchange(page, "Kept topic", 2);
    const first = (await kept(page, user)).session;
    const { heading, toggle } = view(page);

    await page.evaluate(() => AgentChat.newConversation());
    await page.getByText("Ask the agent anything.").waitFor();
    const created = (await eventsOf(page, "conversation")).at(-1);
    assert.notEqual(created.session, first);
    assert.equal(created.instance, "default");

    // Closed, then called: the panel opens on the conversation named.
    await page.evaluate(() => AgentChat.close());
    await page.evaluate((id) => AgentChat.openConversation(id), first);
    await page.getByRole("dialog").waitFor();
    await until(async () => (await shownMessages(page))[0]?.[1] === "Kept topic", "the conversation named");
    assert.equal((await eventsOf(page, "conversation")).at(-1).session, first);
    assert.equal((await kept(page, user)).session, first);

    await page.evaluate(() => AgentChat.close());
    await page.evaluate(() => AgentChat.showConversations());
    await heading.waitFor();
    await until(async () => (await titles(page)).length === 1, "listed");

    // Each request of the panel's names its list; logout forgets it with the rest.
    const requests = [];
    page.on("request", (request) => request.url().startsWith(setup.worker.base) && requests.push(request.headers()["x-conversations-key"]));
    await toggle.click();
    await toggle.click();
    await until(async () => requests.length > 0, "a list request");
    const key = (await kept(page, user)).list;
    assert.ok(requests.every((sent) => sent === key), `every request with the key: ${requests}`);
    await page.evaluate(() => AgentChat.logout());
    const forgotten = await kept(page, user);
    assert.ok(forgotten.session === undefined && forgotten.list === undefined, JSON.stringify(forgotten));
    await page.getByRole("button", { name: "Open chat" }).click();
    await toggle.click();
    await page.getByText("No conversations yet.").waitFor();
    assert.deepEqual(page.errors, []);
    await page.close();

    // conversations: false: no button, no key sent; showConversations says why in the console.
    const off = await openPanel(setup.browser, newUser("off"), { conversations: false });
    const errors = [];
    off.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    const sent = [];
    off.on("request", (request) => request.url().startsWith(setup.worker.base) && sent.push(request.headers()["x-conversations-key"]));
    await exchange(off, "Unlisted", 2);
    assert.equal(await view(off).toggle.count(), 0, "no Conversations button");
    assert.ok(sent.length > 0 && sent.every((header) => header === undefined), "no list key sent");
    await off.evaluate(() => AgentChat.showConversations());
    await until(async () => errors.some((e) => /Conversations view is off/.test(e)), "the console says why");
    assert.equal(await view(off).heading.count(), 0);
    await off.close();
  });

  test("two tabs, live: a conversation made, renamed or deleted in one shows in the other's open view", { timeout: 90_000 }, async () => {
    const user = newUser("tabs");
    const one = await openPanel(setup.browser, user);
    await exchange(one, "First topic", 2);
    const key = (await kept(one, user)).list;
    const [first] = await stableTitles(key, 1);
    // The other tab: the same visitor, so the same list (and the same conversation at first).
    const two = await openPanel(setup.browser, user);
    const live = one.waitForResponse((response) => response.url().endsWith("/api/sessions?live=1") && response.status() === 200);
    await view(one).toggle.click();
    await live;
    const shows = (expected, what) => until(async () => JSON.stringify(await titles(one)) === JSON.stringify(expected), what);
    await shows([first], "the list in tab one");

    // Made in tab two: on top in tab one, without a reload.
    await two.evaluate(() => AgentChat.newConversation());
    await two.getByText("Ask the agent anything.").waitFor();
    await exchange(two, "/slow 2 5", 2);
    const [made] = await stableTitles(key, 2);
    await shows([made, first], "made in tab two");
    // Renamed in tab two.
    await listed(two, [made, first]);
    await two.getByRole("button", { name: `Rename ${first}` }).click();
    await two.getByRole("textbox", { name: "Title" }).fill("Renamed in tab two");
    await two.keyboard.press("Enter");
    await shows([made, "Renamed in tab two"], "renamed in tab two");
    // Deleted in tab two (its open one).
    await two.getByRole("button", { name: `Delete ${made}` }).click();
    await two.getByRole("group", { name: `Delete “${made}”? This cannot be undone.` }).getByRole("button", { name: "Delete", exact: true }).click();
    await shows(["Renamed in tab two"], "deleted in tab two");
    assert.deepEqual(await axeViolations(one), []);
    assert.deepEqual([...one.errors, ...two.errors], []);
  });

  test("Arabic, right to left: the view's words, and axe", { timeout: 60_000 }, async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { user: newUser("ar"), locale: "ar" } }));
    await page.getByRole("button", { name: "افتح المحادثة" }).click();
    await page.getByRole("textbox", { name: "الرسالة" }).waitFor();
    await page.getByRole("button", { name: "المحادثات", exact: true }).click();
    await page.getByRole("heading", { name: "المحادثات" }).waitFor();
    await page.getByRole("button", { name: "محادثة جديدة" }).waitFor();
    await page.getByText("لا محادثات بعد.").waitFor();
    assert.deepEqual(await axeViolations(page), []);
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

  test("the view fills the dialog; Tab and Shift+Tab go round its controls; a conversation opens; axe, light and dark", { timeout: 60_000 }, async () => {
    const user = newUser("phone");
    const page = await openPanel(phone, user, { colorScheme: "dark" });
    await exchange(page, "Phone topic", 2);
    const [title] = await stableTitles((await kept(page, user)).list, 1);
    await listed(page, [title]);
    const box = await page.locator(".conversations").boundingBox();
    assert.ok(box.width >= 380, `the view is the screen's width: ${JSON.stringify(box)}`);
    const seen = new Set();
    for (const key of [...Array(10).fill("Tab"), ...Array(10).fill("Shift+Tab")]) {
      await page.keyboard.press(key);
      const where = await focused(page);
      assert.match(where, /^widget: /, `${key} reached ${where}`);
      seen.add(where);
    }
    for (const control of ["widget: Conversations", "widget: Close chat", "widget: Back", "widget: New conversation", `widget: Rename ${title}`, `widget: Delete ${title}`]) {
      assert.ok(seen.has(control), `${control} in ${[...seen]}`);
    }
    assert.ok(!seen.has("widget: Message") && !seen.has("widget: Attach files"), `the conversation under the view out of reach: ${[...seen]}`);
    const dark = await axeViolations(page);
    assert.deepEqual(dark, [], dark.join("\n"));
    await page.evaluate(() => AgentChat.setTheme({ colorScheme: "light" }));
    const light = await axeViolations(page);
    assert.deepEqual(light, [], light.join("\n"));
    await view(page).create.tap();
    await page.getByText("Ask the agent anything.").waitFor();
    await view(page).toggle.tap();
    await page.locator(".conversations .row .open").first().tap();
    await until(async () => (await shownMessages(page))[0]?.[1] === "Phone topic", "the conversation opened");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
