// The page docs/sessions.md shows, as a reader pastes it: examples/react/chat.tsx (with its
// entry, main.tsx) bundled with esbuild, stock React and @ai-sdk/react, nothing of this
// project's. In Chromium against the demo agent: a message sent, a question answered by its
// option, a question without options answered in words, a tool call approved and one denied on
// its own part (the SDK's helpers posting each answer by themselves, one assistant message a
// turn), and a reload that shows the same conversation from the history, its questions as the
// parts they streamed as. Then branches (clients/branches.js): Try again shows "‹ 2/2 ›" on the new
// reply, switching shows the old one, and a send from there goes on on it; another device's edit
// shows the picker on the edited message; a long session loads its older messages by pages. And
// files (clients/upload-files.js): uploaded once, sent as their signed URLs, the image shown, and
// again after a reload, from the URL the history signed anew; a refused file in the worker's words.
// And the conversations beside the chat (clients/conversations.js): listed, renamed, deleted, new.
import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { createRequire } from "node:module";
import { build } from "esbuild";
import { root, sessionId, demoLog, chatBody, postChat, readAll } from "../e2e/harness.mjs";
import { workerAndBrowser, png, until } from "./browser.mjs";

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
async function open(session, { listKey } = {}) {
  const page = await setup.browser.newPage();
  // A list of conversations of this page's own (the tests' pages may share a browser's storage).
  if (listKey) await page.addInitScript((key) => localStorage.setItem("conversations-key", key), listKey);
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

/** What a signed file URL of the worker looks like (docs/files.md). */
const SIGNED = /^http:\/\/127\.0\.0\.1:\d+\/api\/sessions\/[^/]+\/files\/[0-9a-f]+\?exp=\d+&sig=/;

/** Whether the image `locator` finds has loaded (its pixels came). */
const loaded = (locator) => locator.evaluate((img) => img.complete && img.naturalWidth > 0);

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

  test("files: uploaded once, sent as their signed URLs, the image shown; after a reload from a URL signed anew; a refused file says why", { timeout: 60_000 }, async () => {
    const session = sessionId("react-files");
    const { page } = await open(session);
    const bodies = [];
    const uploads = [];
    page.on("request", (request) => {
      if (request.method() !== "POST") return;
      if (request.url().endsWith(`/api/sessions/${session}/chat`)) bodies.push(request.postDataJSON());
      if (new URL(request.url()).pathname === `/api/sessions/${session}/files`) uploads.push(new URL(request.url()).searchParams.get("filename"));
    });
    const chooser = page.getByLabel("Attach files");

    // A type the worker does not take: its words, and nothing sent.
    await chooser.setInputFiles({ name: "page.html", mimeType: "text/html", buffer: Buffer.from("<p>hello</p>") });
    await page.getByRole("textbox", { name: "Message" }).fill("A page");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    assert.equal(await alert.innerText(), "page.html: This type of file cannot be uploaded here (its Content-Type).");
    assert.deepEqual(bodies, []);

    // A photo and a text file.
    const attachedAt = Date.now();
    await chooser.setInputFiles([
      { name: "dot.png", mimeType: "image/png", buffer: png(40, 30) },
      { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("milk, eggs\n") },
    ]);
    await send(page, "/slow 2 5");
    await page.getByText("w1 w2").waitFor();
    assert.equal(await alert.count(), 0, "the failure's words went");
    assert.deepEqual(uploads, ["page.html", "dot.png", "notes.txt"], "each file uploaded once");
    const parts = bodies[0].messages.at(-1).parts;
    assert.deepEqual(
      parts.map(({ url, ...rest }) => ({ ...rest, signed: url === undefined ? undefined : SIGNED.test(url) })),
      [
        { type: "file", mediaType: "image/png", filename: "dot.png", signed: true },
        { type: "file", mediaType: "text/plain", filename: "notes.txt", signed: true },
        { type: "text", text: "/slow 2 5", signed: undefined },
      ],
    );
    const image = page.locator(".message.user img");
    await until(() => loaded(image), "the image loaded");
    assert.deepEqual(await image.evaluate((img) => [img.src, img.alt]), [parts[0].url, "dot.png"]);
    assert.equal(await page.locator(".message.user a").getAttribute("href"), parts[1].url);
    assert.equal(await chooser.evaluate((input) => input.files.length), 0, "the chooser emptied");

    // A second on (`exp` counts seconds), a reload: the history's URL, signed again, loads.
    await page.waitForTimeout(Math.max(0, attachedAt + 1100 - Date.now()));
    await page.reload();
    await page.getByText("w1 w2").waitFor();
    await until(() => loaded(image), "the history's image loaded");
    const [before, after] = [new URL(parts[0].url), new URL(await image.evaluate((img) => img.src))];
    assert.equal(after.pathname, before.pathname, "the same file");
    assert.ok(Number(after.searchParams.get("exp")) > Number(before.searchParams.get("exp")), `signed again: ${before.search} then ${after.search}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  /** The session's history, by `query`. */
  const history = async (session, query = "") => (await fetch(`${setup.worker.base}/api/sessions/${session}/messages${query}`)).json();
  /** The picker of the `n`th message (from 0), as its text ("1/2"), or null. */
  const picker = (page, n) => page.locator(".message").nth(n).locator(".branches span").textContent({ timeout: 5_000 }).catch(() => null);

  test("the conversations beside the chat: listed from a turn, newest first; open, rename, delete (asked first), new", { timeout: 60_000 }, async () => {
    const [first, second] = [sessionId("react-list-1"), sessionId("react-list-2")];
    const { page } = await open(first, { listKey: `react-list-${Date.now()}-${Math.random()}` });
    await send(page, "Plan a trip to Lisbon");
    await page.goto(`${setup.worker.base}/stock/?session=${second}`);
    await send(page, "Second thoughts");
    const nav = page.getByRole("navigation", { name: "Conversations" });
    const titles = async () => (await nav.getByRole("link").allInnerTexts()).join(" | ");
    // The demo agent names each conversation from its first exchange; the live list shows it.
    await until(async () => (await titles()) === "Docs search: Second thoughts | Docs search: Plan a trip to Lisbon", "both listed, newest first");
    assert.equal(await nav.locator('[aria-current="page"]').innerText(), "Docs search: Second thoughts");

    page.once("dialog", (dialog) => dialog.accept("Lisbon in May"));
    await nav.getByRole("button", { name: "Rename Docs search: Plan a trip to Lisbon" }).click();
    await until(async () => (await titles()) === "Docs search: Second thoughts | Lisbon in May", "the rename");

    // Deleting the open one asks first, then opens a new conversation.
    page.once("dialog", (dialog) => dialog.dismiss());
    await nav.getByRole("button", { name: "Delete Docs search: Second thoughts" }).click();
    await page.waitForTimeout(200);
    assert.equal(await titles(), "Docs search: Second thoughts | Lisbon in May", "a dismissed question deletes nothing");
    page.once("dialog", (dialog) => dialog.accept());
    await nav.getByRole("button", { name: "Delete Docs search: Second thoughts" }).click();
    await page.waitForURL((url) => !url.search.includes(second));
    await until(async () => (await titles()) === "Lisbon in May", "the list without it");
    assert.equal((await (await fetch(`${setup.worker.base}/api/sessions`, { headers: { "x-conversations-key": await page.evaluate(() => localStorage["conversations-key"]) } })).json()).sessions.length, 1);

    await nav.getByRole("link", { name: "Lisbon in May" }).click();
    await page.waitForURL((url) => url.search.includes(first));
    await page.getByRole("main").getByText("Plan a trip to Lisbon", { exact: true }).waitFor();
    await nav.getByRole("button", { name: "New conversation" }).click();
    await page.waitForURL((url) => !url.search.includes(first));
    assert.deepEqual(await shown(page), [], "a new conversation is empty");
    await page.close();
  });

  test("two tabs, one list, live: a conversation one makes, renames and deletes shows in the other's sidebar without a reload", { timeout: 60_000 }, async () => {
    const listKey = `react-live-${Date.now()}-${Math.random()}`;
    const [mine, theirs] = [sessionId("react-live-a"), sessionId("react-live-b")];
    const { page: other } = await open(theirs, { listKey });
    const { page } = await open(mine, { listKey });
    const sidebar = (p) => p.getByRole("navigation", { name: "Conversations" });
    const titles = async (p) => (await sidebar(p).getByRole("link").allInnerTexts()).join(" | ");
    await send(page, "Weather in Porto");
    await until(async () => (await titles(other)) === "Docs search: Weather in Porto", "the new conversation in the other tab");
    await until(async () => (await titles(page)) === "Docs search: Weather in Porto", "and in its own");
    page.once("dialog", (dialog) => dialog.accept("Porto trip"));
    await sidebar(page).getByRole("button", { name: "Rename Docs search: Weather in Porto" }).click();
    await until(async () => (await titles(other)) === "Porto trip", "the rename in the other tab");
    await send(other, "/slow 2 1");
    await until(async () => (await titles(page)) === "/slow 2 1 | Porto trip", "the other tab's conversation here, newest first");
    await until(async () => (await titles(other)) === "/slow 2 1 | Porto trip", "and in its own");
    // A delete here of the conversation open in the other tab (deleting this tab's own would
    // navigate it to a new one, which the chat test above covers).
    page.once("dialog", (dialog) => dialog.accept());
    await sidebar(page).getByRole("button", { name: "Delete /slow 2 1" }).click();
    await until(async () => (await titles(other)) === "Porto trip", "the delete in the other tab");
    // The other tab's chat, on the deleted conversation, is emptied and says so.
    await until(async () => (await other.getByRole("status").allInnerTexts()).some((text) => text.includes("This conversation was deleted.")), "the other tab's words for its deleted conversation");
    assert.equal(await other.locator(".message").count(), 0, "its messages gone");
    await page.close();
    await other.close();
  });

  test("Try again makes a branch: a picker on the reply, the old reply one click away, a send from it goes on there", { timeout: 60_000 }, async () => {
    const session = sessionId("react-branches");
    const { page } = await open(session);
    await send(page, "/slow 2 5");
    await page.getByText("w1 w2").waitFor();
    const [first] = (await history(session)).slice(-1);
    await page.getByRole("button", { name: "Try again" }).click();
    await until(async () => (await picker(page, 1)) === "2/2", "the picker on the new reply");
    const versions = page.getByRole("navigation", { name: "Versions of this message" });
    assert.equal(await versions.count(), 1, "on the reply only");
    // Keyboard: the previous version, by Tab and Enter.
    await versions.getByRole("button", { name: "Previous version" }).focus();
    await page.keyboard.press("Enter");
    await until(async () => (await picker(page, 1)) === "1/2", "the old reply shown");
    // A send from the old branch goes on on it: the history's current branch is through it.
    await send(page, "/slow 3 5");
    await page.getByText("w1 w2 w3").waitFor();
    const now = await history(session);
    assert.equal(now.length, 4);
    assert.equal(now[1].id, first.id, "the turn followed the reply the page showed");
    assert.equal(now[1].metadata.siblings.count, 2, "and the other reply is still one click away");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("another device's edit: the page moves to it, with a picker on the edited message", { timeout: 60_000 }, async () => {
    const session = sessionId("react-edit");
    const { page } = await open(session);
    await send(page, "/slow 2 5");
    await page.getByText("w1 w2").waitFor();
    // Another device edits the first message (the same id, other text).
    const [user] = await history(session);
    const body = JSON.parse(chatBody("/slow 4 5"));
    body.messages[0].id = user.id;
    body.messageId = user.id;
    await readAll(await postChat(setup.worker.base, session, JSON.stringify(body)));
    await page.getByText("w1 w2 w3 w4").waitFor();
    await until(async () => (await picker(page, 0)) === "2/2", "the picker on the edited message");
    await page.locator(".message").nth(0).getByRole("button", { name: "Previous version" }).click();
    await page.getByRole("main").getByText("/slow 2 5").waitFor();
    assert.deepEqual((await shown(page)).map(([role]) => role), ["user", "assistant"]);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a long session: the newest page first, older messages a page at a time", { timeout: 60_000 }, async () => {
    const session = sessionId("react-long");
    await readAll(await postChat(setup.worker.base, session, chatBody("/grow 149")));
    const { page } = await open(session);
    await until(async () => (await page.locator(".message").count()) === 100, "the newest page");
    await page.getByRole("button", { name: "Load older messages" }).click();
    await until(async () => (await page.locator(".message").count()) === 200, "an older page");
    await page.getByRole("button", { name: "Load older messages" }).click();
    await until(async () => (await page.locator(".message").count()) === 300, "the oldest page");
    assert.equal(await page.getByRole("button", { name: "Load older messages" }).count(), 0, "nothing older");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
