// Retry and edit in the panel against the worker and its demo agent (protocol 5): Retry after an
// error, Try again on a finished reply, and an edit of the visitor's last message (the pencil on it,
// reached by keyboard; Escape or Cancel ends an edit), each followed by a reload, which must show
// the newest turn's branch: the visitor's message once, then the new reply only (docs/embed.md,
// "Retry and edit"; what each set aside, and its picker: versions.test.mjs). axe finds nothing in
// the editing state.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { sessionId, demoLog } from "../e2e/harness.mjs";
import { workerAndBrowser, panel, sendPrompt, until, axeViolations, shownMessages as shown, settled, openPlayground, exchange } from "./browser.mjs";

const setup = workerAndBrowser();

/** The playground on a session of its own. */
async function open(label) {
  const session = sessionId(label);
  return { page: await openPlayground(setup, session), session };
}

/** Reloads the page and resolves to what the panel shows once the history is in. */
async function reloaded(page, n) {
  await page.reload();
  await panel(page).message.waitFor();
  await settled(page, n);
  return shown(page);
}

describe("Retry and edit", { concurrency: true }, () => {
  test("Retry after an error replaces the failed reply: after a reload, one message of the visitor's and one reply", async () => {
    const { page, session } = await open("retry-error");
    await sendPrompt(page, "/error boom");
    const alert = page.getByRole("alert");
    await alert.getByText("boom").waitFor();
    await alert.getByRole("button", { name: "Retry" }).click();
    await until(async () => (await demoLog(setup.worker.base, session, "received")).filter((e) => e.frame.type === "prompt").length === 2, "the second prompt");
    await alert.getByText("boom").waitFor();
    const after = await reloaded(page, 2);
    assert.deepEqual(after.map(([role]) => role), ["user", "assistant"]);
    assert.equal(after[0][1], "/error boom");
    // The failed reply says what went wrong, as it did live.
    assert.match(after[1][1], /boom/);
    assert.deepEqual(page.errors, []);
  });

  test("Try again on the last reply asks for a new one in its place; the reload shows the new one only", async () => {
    const { page, session } = await open("retry-reply");
    await sendPrompt(page, "/slow 2 5");
    await settled(page, 2);
    const turns = async () => (await demoLog(setup.worker.base, session, "sent")).map((e) => e.frame).filter((f) => f.type === "message.create").map((f) => f.turnId);
    const again = page.getByRole("button", { name: "Try again" });
    assert.equal(await again.count(), 1, "on the last reply");
    await again.click();
    await until(async () => (await turns()).length === 2, "a second turn");
    await settled(page, 2);
    const [first, second] = await turns();
    assert.notEqual(second, first);
    const history = await (await fetch(`${setup.worker.base}/api/sessions/${session}/messages`)).json();
    assert.deepEqual(history.map((m) => m.role), ["user", "assistant"]);
    assert.equal(history[1].id, second, "the new reply only");
    assert.deepEqual((await reloaded(page, 2)).map(([role]) => role), ["user", "assistant"]);
    assert.deepEqual(page.errors, []);
  });

  test("the pencil edits the visitor's last message by keyboard; Escape cancels; the reload shows the edited conversation", async () => {
    const { page, session } = await open("edit");
    await exchange(page, "/slow 1 5", "/slow 2 5");
    const pencil = page.getByRole("button", { name: "Edit message" });
    assert.equal(await pencil.count(), 1, "on the last message only");
    // Keyboard: Tab reaches the pencil, Enter starts the edit, the box holds the text.
    await pencil.focus();
    await page.keyboard.press("Enter");
    await until(async () => (await panel(page).message.inputValue()) === "/slow 2 5", "the text in the box");
    assert.equal(await page.getByText("Editing your message").count(), 1);
    assert.deepEqual(await axeViolations(page), [], "axe, editing");
    await page.keyboard.press("Escape");
    assert.equal(await page.getByText("Editing your message").count(), 0);
    assert.equal(await panel(page).message.inputValue(), "");
    // Again, then a new text sent in its place.
    await pencil.click();
    await until(async () => (await panel(page).message.inputValue()) === "/slow 2 5", "the text in the box again");
    await panel(page).message.fill("/slow 3 5");
    await page.keyboard.press("Enter");
    await until(async () => (await shown(page)).at(-1)?.[1] === "w1 w2 w3", "the new reply");
    await settled(page, 4);
    const texts = (await shown(page)).map(([, text]) => text);
    assert.deepEqual(texts, ["/slow 1 5", "w1", "/slow 3 5", "w1 w2 w3"]);
    assert.deepEqual((await reloaded(page, 4)).map(([, text]) => text), texts);
    const history = await (await fetch(`${setup.worker.base}/api/sessions/${session}/messages`)).json();
    assert.equal(history.length, 4);
    assert.deepEqual(await axeViolations(page), [], "axe, after the reload");
    assert.deepEqual(page.errors, []);
  });
});
