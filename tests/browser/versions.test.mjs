// The panel's versions against the worker and its demo agent (protocol 5: docs/embed.md, "Retry
// and edit"): Try again and an edit keep what they redo, as another branch, and the message shows
// a picker ("‹ 2/2 ›") with the right count and place; each arrow shows the other branch's text,
// and a send from a branch shown goes on that branch (the history afterwards is it plus the new
// turn) while the other stays one click away. The picker keeps its place, hidden, while a turn
// runs, and its arrows do not move as the count changes. By keyboard from the message box, with
// the focus kept on the arrow pressed; named in English, French and Arabic, whose arrows point the
// reading way; axe finds nothing. Two tabs: a retry in one moves the other to the new reply, with
// its picker, and a send from another branch in the other moves the first there.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { sessionId } from "../e2e/harness.mjs";
import { workerAndBrowser, panel, sendPrompt, until, axeViolations, shownMessages, settled, openPlayground, exchange, twoTabs, closePagesAfterEach } from "./browser.mjs";

const setup = workerAndBrowser();
// One test at a time, its pages closed after it: each open panel holds a feed, one of the six
// connections a browser keeps to the worker, and a test short of them would wait on its requests.
closePagesAfterEach(setup);

/** The edit's text: longer than the message it edits ("/slow 2 5"), and the same turn (the demo
 * agent reads the command's first two words). */
const EDITED = "/slow 3 5 (a longer version)";

/** The two replies of `retried`. */
const [YES, NO] = ["You answered: yes.", "You answered: no."];

/** The playground on a session of its own. */
async function open(label) {
  const session = sessionId(label);
  return { page: await openPlayground(setup, session), session };
}

/** The texts the panel shows, in order. */
const texts = async (page) => (await shownMessages(page)).map(([, text]) => text);

/** The texts of the session's history (`query`: `?leaf=…`), in order. */
async function historyTexts(session, query = "") {
  const messages = await (await fetch(`${setup.worker.base}/api/sessions/${session}/messages${query}`)).json();
  return messages.map((m) => m.parts.filter((p) => p.type === "text").map((p) => p.text).join("").trim());
}

/** The picker of the panel's `i`th message, and its arrows. */
function picker(page, i) {
  const group = page.locator(".message").nth(i).locator(".branches");
  return {
    group,
    prev: group.getByRole("button", { name: "Previous version" }),
    next: group.getByRole("button", { name: "Next version" }),
    /** Its accessible name ("Version 2 of 3"), or null while the message has none. */
    name: () => group.evaluateAll((found) => found[0]?.getAttribute("aria-label") ?? null),
  };
}

/** Resolves once the panel shows `expected` (texts) and no turn runs. */
async function showing(page, expected) {
  await until(async () => JSON.stringify(await texts(page)) === JSON.stringify(expected) && (await panel(page).send.count()) === 1, JSON.stringify(expected)).catch(async (error) => {
    throw new Error(`${error.message}: ${JSON.stringify(await texts(page))}`);
  });
}

/** A question answered "yes", then Try again, answered "no": the new reply shown. */
async function retried(page) {
  await sendPrompt(page, "/ask Which one?");
  await panel(page).question.getByRole("button", { name: "yes" }).click();
  await showing(page, ["/ask Which one?", "You answered: yes."]);
  await page.getByRole("button", { name: "Try again" }).click();
  await panel(page).question.getByRole("button", { name: "no" }).click();
  await showing(page, ["/ask Which one?", "You answered: no."]);
}

/** What has the focus inside the panel: its accessible name, or its class. */
const focused = (page) =>
  page.evaluate(() => {
    const active = document.querySelector("session-agent-chat").shadowRoot.activeElement;
    return active?.getAttribute("aria-label") ?? active?.className;
  });

/**
 * Whether the arrow `button` draws points right: its screenshot decoded (on a blank page of the
 * browser's own), a chevron's tip (its middle row of ink) is right of its arms' ends (its first and
 * last rows).
 */
async function pointsRight(page, button) {
  const png = (await button.screenshot()).toString("base64");
  const scratch = await page.context().newPage();
  try {
    return await scratch.evaluate(async (png) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      [canvas.width, canvas.height] = [image.width, image.height];
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      const { data, width, height } = context.getImageData(0, 0, image.width, image.height);
      // Ink: far from the corner's colour (the panel's background: the button has none).
      const ink = (i) => Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 150;
      const rows = [];
      for (let y = 0; y < height; y++) {
        const xs = [];
        for (let x = 0; x < width; x++) if (ink((y * width + x) * 4)) xs.push(x);
        if (xs.length > 0) rows.push(xs.reduce((a, b) => a + b) / xs.length);
      }
      return rows[Math.floor(rows.length / 2)] > (rows[0] + rows.at(-1)) / 2;
    }, png);
  } finally {
    await scratch.close();
  }
}

/** An element's top in the list's content (its scroll left out). */
const topInList = (locator) =>
  locator.evaluate((el) => {
    const list = el.closest(".messages");
    return el.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  });

describe("versions in the panel", () => {
  test("Try again keeps the old reply: 2/2 on the new one, ‹ and › show each, a send from the first goes on it", async () => {
    const { page, session } = await open("versions-retry");
    await retried(page);
    const reply = picker(page, 1);
    await until(async () => (await reply.name()) === "Version 2 of 2", "the picker on the new reply");
    assert.equal(await reply.group.innerText(), "2/2");
    assert.equal(await picker(page, 0).group.count(), 0, "none on the visitor's message: it has one version");
    await reply.prev.click();
    await showing(page, ["/ask Which one?", YES]);
    assert.equal(await reply.name(), "Version 1 of 2");
    await reply.next.click();
    await showing(page, ["/ask Which one?", NO]);
    await reply.prev.click();
    await showing(page, ["/ask Which one?", YES]);

    // A send from the first reply goes on it: the history is that branch and the new turn.
    await sendPrompt(page, "/slow 1 5");
    await showing(page, ["/ask Which one?", YES, "/slow 1 5", "w1"]);
    assert.deepEqual(await historyTexts(session), ["/ask Which one?", YES, "/slow 1 5", "w1"]);
    // The second reply is still there, one click away, and a reload shows the newest turn's branch.
    await until(async () => (await reply.name()) === "Version 1 of 2", "the picker, after the turn");
    await reply.next.click();
    await showing(page, ["/ask Which one?", NO]);
    await page.reload();
    await showing(page, ["/ask Which one?", YES, "/slow 1 5", "w1"]);
    assert.equal(await picker(page, 1).name(), "Version 1 of 2");
    assert.deepEqual(page.errors, []);
  });

  test("an edit keeps the old version: 2/2 on the message, each version with its reply, a send goes on the one shown; the picker holds still", async () => {
    const { page, session } = await open("versions-edit");
    await exchange(page, "/slow 1 5", "/slow 2 5");
    await page.getByRole("button", { name: "Edit message" }).click();
    // The box holds the message's text before the visitor changes it.
    await until(async () => (await panel(page).message.inputValue()) === "/slow 2 5", "the text in the box");
    await panel(page).message.fill(EDITED);
    await page.keyboard.press("Enter");
    await showing(page, ["/slow 1 5", "w1", EDITED, "w1 w2 w3"]);
    const edited = picker(page, 2);
    await until(async () => (await edited.name()) === "Version 2 of 2", "the picker on the edited message");
    assert.equal(await picker(page, 3).group.count(), 0, "none on the reply: the new version has one");

    // The arrows stay under the pointer as the version, and its width, changes.
    const arrows = async () => [await edited.prev.boundingBox(), await edited.next.boundingBox()];
    const before = await arrows();
    await edited.prev.click();
    await showing(page, ["/slow 1 5", "w1", "/slow 2 5", "w1 w2"]);
    assert.equal(await edited.name(), "Version 1 of 2");
    assert.deepEqual(await arrows(), before);

    // While a turn runs the picker is hidden (no arrow to press) and keeps its place.
    const replyTop = await topInList(page.locator(".message").nth(3));
    await sendPrompt(page, "/slow 20 40");
    await until(async () => (await texts(page)).length === 6 && (await panel(page).stop.count()) === 1, "the turn running");
    assert.equal(await edited.prev.count(), 0, "no arrow while the turn runs");
    assert.equal(await edited.group.isVisible(), false);
    assert.equal(await topInList(page.locator(".message").nth(3)), replyTop, "nothing moved");
    await settled(page, 6);
    const after = await texts(page);
    assert.deepEqual(after.slice(0, 5), ["/slow 1 5", "w1", "/slow 2 5", "w1 w2", "/slow 20 40"]);
    assert.match(after[5], /^w1 .* w20$/);
    assert.deepEqual(await historyTexts(session), after, "the history: the version shown, then the new turn");

    // The edit is still there.
    await edited.next.click();
    await showing(page, ["/slow 1 5", "w1", EDITED, "w1 w2 w3"]);
    assert.deepEqual(page.errors, []);
  });

  test("by keyboard from the message box, the focus kept on the arrow pressed; named in French and Arabic, whose arrows point the reading way; axe finds nothing", async () => {
    const { page } = await open("versions-keys");
    await retried(page);
    const reply = picker(page, 1);
    await until(async () => (await reply.name()) === "Version 2 of 2", "the picker");
    // Back from the message box: the attach button, Try again, then the picker's arrows.
    await panel(page).message.focus();
    for (const name of ["Attach files", "Try again", "Next version", "Previous version"]) {
      await page.keyboard.press("Shift+Tab");
      assert.equal(await focused(page), name);
    }
    assert.deepEqual(await axeViolations(page), [], "axe, the picker focused");
    await page.keyboard.press("Enter");
    await showing(page, ["/ask Which one?", YES]);
    await until(async () => (await focused(page)) === "Previous version", "the focus on the arrow pressed");
    assert.equal(await reply.name(), "Version 1 of 2");
    assert.equal(await reply.prev.getAttribute("aria-disabled"), "true", "the first: nothing before it");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await showing(page, ["/ask Which one?", NO]);
    await until(async () => (await focused(page)) === "Next version", "the focus on the arrow pressed");
    // Enter on an arrow at the end does nothing.
    await page.keyboard.press("Enter");
    await page.waitForTimeout(200);
    assert.deepEqual(await texts(page), ["/ask Which one?", NO]);
    assert.equal(await pointsRight(page, reply.next), true, "English: › points right");
    assert.equal(await pointsRight(page, reply.prev), false);

    await page.evaluate(() => AgentChat.setLocale("fr"));
    const group = page.locator(".message").nth(1).getByRole("group", { name: "Version 2 sur 2" });
    assert.equal(await group.getByRole("button", { name: "Version précédente" }).count(), 1);
    assert.equal(await group.getByRole("button", { name: "Version suivante" }).count(), 1);

    await page.evaluate(() => AgentChat.setLocale("ar"));
    const two = await page.evaluate(() => (2).toLocaleString("ar"));
    const rtl = page.locator(".message").nth(1).getByRole("group", { name: `النسخة ${two} من ${two}` });
    const [prev, next] = [rtl.getByRole("button", { name: "النسخة السابقة" }), rtl.getByRole("button", { name: "النسخة التالية" })];
    // Neither arrow hovered nor focused: each drawn as it rests.
    await page.mouse.move(0, 0);
    await page.locator("session-agent-chat textarea").focus();
    // Right to left: the previous version on the right, pointing right; the next on the left.
    assert.ok((await prev.boundingBox()).x > (await next.boundingBox()).x, "previous on the right");
    assert.equal(await pointsRight(page, prev), true, "Arabic: the previous arrow points right");
    assert.equal(await pointsRight(page, next), false, "Arabic: the next arrow points left");
    assert.deepEqual(await axeViolations(page), [], "axe, Arabic");
    assert.deepEqual(page.errors, []);
  });

  test("two tabs: a retry in one moves the other to the new reply, with its picker; a send from the first reply in the other moves the first there", { timeout: 60_000 }, async () => {
    const [a, b] = await twoTabs(setup, "versions-tabs");
    await retried(a);
    await showing(b, ["/ask Which one?", NO]);
    await until(async () => (await picker(b, 1).name()) === "Version 2 of 2", "the picker in the other tab");
    // Switching is the tab's own: the other stays where it is.
    await picker(b, 1).prev.click();
    await showing(b, ["/ask Which one?", YES]);
    await a.waitForTimeout(300);
    assert.deepEqual(await texts(a), ["/ask Which one?", NO]);
    // A turn is the session's: every tab moves to the newest turn's branch.
    await sendPrompt(b, "/slow 1 5");
    await showing(b, ["/ask Which one?", YES, "/slow 1 5", "w1"]);
    await showing(a, ["/ask Which one?", YES, "/slow 1 5", "w1"]);
    await until(async () => (await picker(a, 1).name()) === "Version 1 of 2", "the picker in the first tab");
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  });
});
