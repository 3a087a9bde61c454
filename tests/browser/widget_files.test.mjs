// The panel attaches files (docs/embed.md, "Attachments"): by its attach button (a file chooser),
// a paste into the message box and a drop on the conversation, each uploaded at once to the
// worker's files route (Miniflare's R2) with its progress, a thumbnail or a card, a remove button,
// errors in words (too large, with the limit; a type the worker refuses; a failed upload, with
// Retry); Send waits for them, and the message goes with their FileUIParts to the worker's own
// chat route, which the demo agent answers. Messages show their files: images inline from their
// signed URLs (or a data: image), anything else a card with its name and size; after a reload,
// the history's image loads from a URL the worker signed again. An image from elsewhere loads only
// where the site allows images, and an address of another scheme is no link: the agent's files,
// which the demo agent never sends, come from a chat POST answered here. A worker without a
// bucket (501) hides the button and says so; `attachments: false` turns it all off; an upload
// refused for its token goes again with a renewed one. The keyboard reaches every control
// (Shift+Tab from the message box). On a phone too, under a site's CSP that lists the worker, and
// axe in each state, light and dark.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { sessionId, startWorker } from "../e2e/harness.mjs";
import { siteWorkerAndBrowser, closePagesAfterEach, launchBrowser, panel, png, sendPrompt, settled, shownMessages, until, axeViolations, uiMessageStream } from "./browser.mjs";

/** The worker's MAX_FILE_BYTES here: 200 KiB, so a too-large file is small. */
const MAX_FILE_BYTES = 200 * 1024;

const PHOTO = { name: "photo.png", mimeType: "image/png", buffer: png(200, 160) }; // 94 KiB
const NOTES = { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("milk, eggs, bread\n".repeat(1000)) }; // 17.6 KiB
const EXTRA = { name: "extra.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") };
const BIG = { name: "big.png", mimeType: "image/png", buffer: png(300, 300) }; // 264 KiB
const PAGE = { name: "page.html", mimeType: "text/html", buffer: Buffer.from("<p>hello</p>") };

/** What a signed file URL of the worker looks like (docs/files.md). */
const SIGNED = /^http:\/\/127\.0\.0\.1:\d+\/api\/sessions\/[^/]+\/files\/[0-9a-f]+\?exp=\d+&sig=/;

/**
 * A site of another origin with the widget's tag (`?session=`), under a content security policy
 * that lists the worker as docs/embed.md says: scripts, requests and images (a message's files).
 */
const setup = siteWorkerAndBrowser(
  (req, res) => {
    const worker = setup.worker.base;
    const session = new URL(req.url, "http://site").searchParams.get("session");
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `default-src 'none'; script-src ${worker}; connect-src ${worker}; img-src ${worker}; style-src 'self'`,
    });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head>
<body><main><h1>Corner shop</h1></main><script src="${worker}/widget.js" data-session="${session}" async></script></body></html>`);
  },
  (origin) => ({ ALLOWED_ORIGINS: origin, MAX_FILE_BYTES: String(MAX_FILE_BYTES) }),
);
closePagesAfterEach(setup);

/** The panel's parts for files. */
function files(page) {
  return {
    attach: page.getByRole("button", { name: "Attach files" }),
    list: page.getByRole("list", { name: "Attachments" }),
    items: page.locator("session-agent-chat .attachment"),
    progress: page.getByRole("progressbar"),
    remove: (name) => page.getByRole("button", { name: `Remove ${name}` }),
  };
}

/**
 * The playground on a new session (by `label`). Its chat POSTs reach the worker, their bodies kept
 * in `bodies`; with `chunks` (a UI message stream, or a function that gives one) they are
 * answered here instead.
 */
async function playground(label, { chunks } = {}) {
  const page = await setup.browser.newPage();
  const bodies = [];
  if (chunks) {
    await page.route(/\/api\/sessions\/[^/]+\/chat$/, (route) => route.fulfill(uiMessageStream(typeof chunks === "function" ? chunks() : chunks)));
  }
  page.on("request", (request) => {
    if (request.method() === "POST" && /\/api\/sessions\/[^/]+\/chat$/.test(new URL(request.url()).pathname)) bodies.push(request.postDataJSON());
  });
  const session = sessionId(label);
  await page.goto(`${setup.worker.base}/?session=${session}`);
  await panel(page).message.waitFor();
  return { page, bodies, session };
}

/** Whether the element `locator` finds has the focus (in the panel's shadow root). */
const hasFocus = (locator) => locator.evaluate((el) => el.getRootNode().activeElement === el);

/** Presses Shift+Tab until the focus is on `target` (a locator), from wherever it is; fails after `most` presses. */
async function shiftTabTo(page, target, most = 4) {
  for (let i = 0; i < most && !(await hasFocus(target)); i++) await page.keyboard.press("Shift+Tab");
  assert.ok(await hasFocus(target), `reached by Shift+Tab: ${target}`);
}

/** Chooses `chosen` in the file chooser the attach button opens, reached and pressed by the keyboard. */
async function attachByButton(page, chosen) {
  // The message box takes the focus once the conversation shows; the button is the control before it.
  await until(() => hasFocus(panel(page).message), "the message box focused");
  await page.keyboard.press("Shift+Tab");
  assert.ok(await hasFocus(files(page).attach), "the attach button is the control before the message box");
  const opened = page.waitForEvent("filechooser");
  // Once the browser intercepts the chooser (a round trip after the listener).
  await page.evaluate(() => 0);
  const [chooser] = await Promise.all([opened, page.keyboard.press("Enter")]);
  assert.ok(chooser.isMultiple(), "several files at once");
  await chooser.setFiles(chosen);
}

/** Sends `file`'s bytes to the page, where `action(file, box, conversation)` runs with it as a File. */
function inPage(page, file, action) {
  return page.evaluate(
    ([source, { name, mimeType, base64 }]) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const root = document.querySelector("session-agent-chat").shadowRoot;
      return new Function("file", "box", "conversation", source)(
        new File([bytes], name, { type: mimeType }),
        root.querySelector("textarea"),
        root.querySelector(".conversation"),
      );
    },
    [action, { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString("base64") }],
  );
}

/** Pastes `file` into the message box, as the clipboard of a screenshot would. */
const paste = (page, file) =>
  inPage(page, file, `
    const data = new DataTransfer();
    data.items.add(file);
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));`);

/** Drags `file` over the conversation; `drop`: and drops it there. Returns the overlay's words while it was over. */
const drag = (page, file, drop = true) =>
  inPage(page, file, `
    const data = new DataTransfer();
    data.items.add(file);
    const fire = (type) => conversation.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    fire("dragenter");
    fire("dragover");
    return new Promise((resolve) => requestAnimationFrame(() => {
      const words = conversation.querySelector(".drop")?.textContent ?? null;
      ${drop ? 'fire("drop");' : 'conversation.dispatchEvent(new DragEvent("dragleave", { dataTransfer: data, bubbles: true }));'}
      resolve(words);
    }));`);

/** Resolves once no file uploads (no progress bar). */
const uploaded = (page) => until(async () => (await files(page).progress.count()) === 0 && (await files(page).items.count()) > 0, "the uploads");

/** Slows the page's uploads to `bytesPerSecond` (Chromium's network emulation), so their progress shows. */
async function slowUploads(page, bytesPerSecond) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
  return () => cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

/** Whether the image `locator` finds has loaded (its pixels came). */
const loaded = (locator) => locator.evaluate((img) => img.complete && img.naturalWidth > 0);

/** Each attachment tile's text (its name, size, and error if any), in order. */
const tiles = (page) => files(page).items.evaluateAll((items) => items.map((item) => item.innerText.replace(/\s+/g, " ").trim()));

/** Whether the Send button is off. */
const sendOff = async (page) => (await panel(page).send.getAttribute("aria-disabled")) === "true";

describe("the panel attaches files", () => {
  test("by the attach button: progress as they upload, Send waits, one removed; the message goes to the worker with their signed URLs, shows the image and the card, and the demo agent answers", async () => {
    const { page, bodies } = await playground("files-button");
    const fast = await slowUploads(page, 48 * 1024);
    await attachByButton(page, [PHOTO, NOTES, EXTRA]);
    const { list, items, progress, remove } = files(page);
    await list.waitFor();
    // While the photo's 94 KiB go up at 48 KiB/s: a bar per file, part way, and no Send.
    await until(async () => {
      const values = await progress.evaluateAll((bars) => bars.map((bar) => bar.value / bar.max));
      return values.some((v) => v > 0 && v < 1);
    }, "a progress bar part way");
    assert.ok(await page.getByRole("progressbar", { name: "Uploading photo.png" }).isVisible());
    assert.equal(await sendOff(page), true, "Send waits for the uploads");
    await panel(page).message.fill("Here is the photo");
    await page.keyboard.press("Enter");
    assert.deepEqual(await axeViolations(page), [], "uploading");
    await fast();
    await uploaded(page);
    assert.deepEqual(bodies, [], "Enter sent nothing while the files went up");
    assert.deepEqual(await tiles(page), ["photo.png 94 kB", "notes.txt 17.6 kB", "extra.pdf 15 bytes"]);
    // The photo's thumbnail is drawn from the file: some of its pixels are not blank.
    const drawn = await items.first().locator("canvas").evaluate((canvas) => {
      const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
      return data.some((v, i) => i % 4 === 3 && v > 0);
    });
    assert.ok(drawn, "the thumbnail shows the image");
    assert.equal(await items.first().locator("canvas").getAttribute("aria-label"), "photo.png");
    assert.equal(await sendOff(page), false);
    assert.deepEqual(await axeViolations(page), [], "uploaded");

    // Removed by the keyboard; the focus goes back to the message box.
    await shiftTabTo(page, remove("extra.pdf"));
    await page.keyboard.press("Enter");
    assert.deepEqual(await tiles(page), ["photo.png 94 kB", "notes.txt 17.6 kB"]);
    assert.ok(await hasFocus(panel(page).message), "the focus is back in the message box");

    await page.keyboard.press("Enter");
    await settled(page, 2);
    const sent = bodies[0].messages.at(-1);
    assert.deepEqual(
      sent.parts.map(({ url, ...rest }) => ({ ...rest, signed: SIGNED.test(url) })),
      [
        { type: "file", mediaType: "image/png", filename: "photo.png", signed: true },
        { type: "file", mediaType: "text/plain", filename: "notes.txt", signed: true },
        { type: "text", text: "Here is the photo", signed: false },
      ],
    );
    assert.equal(await list.count(), 0, "the tiles went with the message");

    // The visitor's message: the image from its signed URL, loaded; the text file a card.
    const mine = page.locator("session-agent-chat .message.user");
    const image = mine.locator("img");
    await until(() => loaded(image), "the image loaded");
    assert.deepEqual(await image.evaluate((img) => [img.src, img.alt, img.naturalWidth, img.naturalHeight]), [sent.parts[0].url, "photo.png", 200, 160]);
    const card = mine.getByRole("link", { name: "notes.txt 17.6 kB" });
    assert.equal(await card.getAttribute("href"), sent.parts[1].url);
    assert.equal(await mine.locator(".bubble").innerText(), "Here is the photo");
    // The demo agent's canned answer to the text.
    assert.match((await shownMessages(page))[1][1], /^I searched the docs for "Here is the photo"/);
    assert.deepEqual(await axeViolations(page), [], "sent");
    assert.deepEqual(page.errors, []);
  });

  test("a round trip with the demo agent, nothing answered here: the sent image shows from its signed URL; after a reload the history shows it again, from a URL signed anew", async () => {
    const { page, bodies } = await playground("files-round-trip");
    const served = [];
    page.on("response", (response) => /\/files\/[0-9a-f]+\?/.test(response.url()) && served.push([response.url(), response.status()]));
    const attachedAt = Date.now();
    await attachByButton(page, [PHOTO]);
    await uploaded(page);
    await panel(page).message.fill("What is in this photo?");
    await page.keyboard.press("Enter");
    await settled(page, 2);
    const [question, answer] = await shownMessages(page);
    assert.deepEqual(question, ["user", "What is in this photo?"]);
    assert.match(answer[1], /^I searched the docs for "What is in this photo\?"/, "the demo agent answered");
    const sentUrl = bodies[0].messages.at(-1).parts[0].url;
    assert.match(sentUrl, SIGNED, "the upload's signed URL, not the bytes");
    const image = page.locator("session-agent-chat .message.user img");
    await until(() => loaded(image), "the sent image loaded");
    assert.deepEqual(await image.evaluate((img) => [img.src, img.alt, img.naturalWidth]), [sentUrl, "photo.png", 200]);
    assert.deepEqual(await axeViolations(page), [], "sent");

    // A second on (a signature's `exp` counts seconds), the page reloaded: the history's message
    // names the same file, by a URL the worker signed as it answered, which loads.
    await page.waitForTimeout(Math.max(0, attachedAt + 1100 - Date.now()));
    await page.reload();
    await panel(page).message.waitFor();
    await settled(page, 2);
    assert.deepEqual(await shownMessages(page), [question, answer]);
    assert.equal(await image.count(), 1, "the history's image shows inline");
    await until(() => loaded(image), "the history's image loaded");
    const [shownUrl, width] = await image.evaluate((img) => [img.src, img.naturalWidth]);
    assert.equal(width, 200);
    const [before, after] = [new URL(sentUrl), new URL(shownUrl)];
    assert.equal(after.origin + after.pathname, before.origin + before.pathname, "the same file");
    assert.ok(Number(after.searchParams.get("exp")) > Number(before.searchParams.get("exp")), `signed again, to a later exp: ${before.search} then ${after.search}`);
    assert.notEqual(after.searchParams.get("sig"), before.searchParams.get("sig"));
    assert.ok(served.some(([url, status]) => url === shownUrl && status === 200), "loaded from the worker by the new URL");
    assert.deepEqual(await axeViolations(page), [], "reloaded");
    assert.deepEqual(page.errors, []);
  });

  test("the agent's files (its stream answered here: the demo agent sends none): the worker's image and a data: image inline, the others cards that load nothing; with allowImages, an image from elsewhere inline", async () => {
    let answer = [];
    const { page, session } = await playground("files-agent", { chunks: () => answer });
    const requested = [];
    page.on("request", (request) => requested.push(request.url()));
    // A photo of the session's, uploaded as an app would.
    const upload = await fetch(`${setup.worker.base}/api/sessions/${session}/files?filename=photo.png`, {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: PHOTO.buffer,
    });
    assert.equal(upload.status, 201);
    const photo = await upload.json();
    answer = [
      { type: "start", messageId: "m-files" },
      { type: "start-step" },
      { type: "file", url: photo.url, mediaType: "image/png" },
      { type: "file", url: "https://images.example/cat.png", mediaType: "image/png" },
      { type: "file", url: "javascript:alert(1)", mediaType: "application/pdf" },
      { type: "file", url: `data:image/png;base64,${png(4, 3).toString("base64")}`, mediaType: "image/png" },
      { type: "file", url: "data:text/html;base64,PHNjcmlwdD4=", mediaType: "image/png" },
      { type: "finish-step" },
      { type: "finish" },
    ];
    await sendPrompt(page, "Your files?");
    const theirs = panel(page).answers.first();
    const images = theirs.locator("img");
    await until(async () => (await images.evaluateAll((all) => all.filter((img) => img.complete && img.naturalWidth > 0).length)) === 2, "the agent's images");
    assert.deepEqual(await images.evaluateAll((all) => all.map((img) => [img.src.slice(0, 22), img.naturalWidth])), [
      [photo.url.slice(0, 22), 200],
      ["data:image/png;base64,", 4],
    ]);
    const cards = theirs.locator(".file-card");
    assert.deepEqual(await cards.evaluateAll((all) => all.map((c) => [c.tagName, c.getAttribute("href"), c.innerText.replace(/\s+/g, " ")])), [
      ["A", "https://images.example/cat.png", "File image/png"],
      ["SPAN", null, "File application/pdf"],
      ["SPAN", null, "File image/png"],
    ]);
    assert.deepEqual(requested.filter((url) => !url.startsWith(setup.worker.base)), []);
    assert.deepEqual(await axeViolations(page), [], "the agent's files");

    // allowImages: an image file from another server shows inline, as the Markdown's images do.
    await page.evaluate((other) => AgentChat.init({ mount: "#chat", session: other, allowImages: true }), sessionId("files-agent-2"));
    answer = [
      { type: "start", messageId: "m-elsewhere" },
      { type: "start-step" },
      { type: "file", url: "https://images.example/cat.png", mediaType: "image/png" },
      { type: "finish-step" },
      { type: "finish" },
    ];
    await sendPrompt(page, "A cat?");
    const image = panel(page).answers.first().locator("img");
    await image.waitFor({ state: "attached" });
    assert.deepEqual(await image.evaluate((img) => [img.getAttribute("src"), img.alt]), ["https://images.example/cat.png", "File"]);
    assert.deepEqual(page.errors, []);
  });

  test("a paste into the message box and a drop on the conversation attach their files; a message may be files alone", async () => {
    const { page, bodies } = await playground("files-paste");
    await paste(page, PHOTO);
    await files(page).list.waitFor();
    assert.equal(await drag(page, NOTES, false), "Drop files here to attach them", "the conversation says where to drop");
    assert.equal(await page.locator("session-agent-chat .drop").count(), 0, "gone once the files left");
    assert.equal(await files(page).items.count(), 1, "a drag that left attaches nothing");
    assert.equal(await drag(page, NOTES), "Drop files here to attach them");
    await uploaded(page);
    assert.deepEqual(await tiles(page), ["photo.png 94 kB", "notes.txt 17.6 kB"]);
    assert.equal(await page.locator("session-agent-chat .drop").count(), 0);
    assert.equal(await panel(page).message.inputValue(), "", "the paste put no text in the box");
    assert.equal(await page.url().startsWith(setup.worker.base), true, "the drop did not open the file in place of the page");
    assert.deepEqual(await axeViolations(page), [], "pasted and dropped");
    await panel(page).send.click();
    await settled(page, 2);
    assert.deepEqual(bodies[0].messages.at(-1).parts.map((p) => [p.type, p.filename, SIGNED.test(p.url)]), [
      ["file", "photo.png", true],
      ["file", "notes.txt", true],
    ]);
    assert.deepEqual(page.errors, []);
  });

  test("errors in words: too large with the limit, a type the worker refuses, an upload that failed and its Retry", async () => {
    const { page } = await playground("files-errors");
    await attachByButton(page, [BIG]);
    await drag(page, PAGE);
    await until(async () => (await page.locator("session-agent-chat .attachment-error").count()) === 2, "both refused");
    assert.deepEqual(await tiles(page), [
      "big.png 264.1 kB Too large: a file may be at most 200 kB.",
      "page.html 12 bytes Files of this type (text/html) cannot be attached.",
    ]);
    assert.equal(await files(page).items.getByRole("button", { name: "Retry" }).count(), 0, "retrying them cannot help");
    assert.equal(await sendOff(page), true, "a failed file is retried or removed before a send");
    assert.deepEqual(await axeViolations(page), [], "refused");
    await page.evaluate(() => AgentChat.setTheme({ colorScheme: "dark" }));
    assert.deepEqual(await axeViolations(page), [], "refused, dark");
    await files(page).remove("big.png").click();
    await files(page).remove("page.html").click();

    // The network fails once: Retry uploads it again.
    let failures = 1;
    await page.route(/\/files\?/, (route) => (failures-- > 0 ? route.abort() : route.continue()));
    await paste(page, NOTES);
    const retry = files(page).items.getByRole("button", { name: "Retry" });
    await retry.waitFor();
    assert.deepEqual(await tiles(page), ["notes.txt 17.6 kB The upload failed. Retry"]);
    assert.equal(await sendOff(page), true);
    assert.deepEqual(await axeViolations(page), [], "failed");
    await panel(page).message.focus();
    await shiftTabTo(page, retry);
    await page.keyboard.press("Enter");
    await uploaded(page);
    assert.deepEqual(await tiles(page), ["notes.txt 17.6 kB"]);
    assert.equal(await sendOff(page), false);
    assert.deepEqual(page.errors, []);
  });

  test("a worker without a bucket (501): the first attach tells, and the button goes", async () => {
    const bare = await startWorker({ unset: ["FILES"] });
    try {
      const page = await setup.browser.newPage();
      await page.goto(`${bare.base}/?session=${sessionId("files-501")}`);
      await panel(page).message.waitFor();
      await attachByButton(page, [NOTES]);
      await page.getByRole("status").getByText("This chat does not take attachments.").waitFor();
      assert.equal(await files(page).attach.count(), 0, "no attach button");
      assert.equal(await files(page).items.count(), 0, "no tile left");
      await paste(page, PHOTO);
      assert.equal(await files(page).items.count(), 0, "a paste attaches nothing");
      assert.deepEqual(await axeViolations(page), [], "unavailable");
      await sendPrompt(page, "just text");
      assert.deepEqual(page.errors, []);
    } finally {
      await bare.dispose();
    }
  });

  test("attachments: false turns it off: no button, and a paste or a drop is text's or the page's", async () => {
    const { page } = await playground("files-off");
    await page.evaluate((session) => AgentChat.init({ mount: "#chat", session, attachments: false }), sessionId("files-off-2"));
    await panel(page).message.waitFor();
    assert.equal(await files(page).attach.count(), 0);
    await paste(page, PHOTO);
    assert.equal(await drag(page, NOTES, false), null, "no drop overlay");
    assert.equal(await files(page).items.count(), 0);
    assert.deepEqual(page.errors, []);
  });

  test("with the site's token: an upload refused for its token (401) goes again once with a renewed one", async () => {
    const secret = "files-panel-test-secret-0123456789abcdef";
    const guarded = await startWorker({ vars: { AUTH_MODE: "token", AUTH_SECRET: secret } });
    try {
      const page = await setup.browser.newPage();
      const statuses = [];
      page.on("response", (response) => /\/files\?/.test(response.url()) && statuses.push(response.status()));
      await page.goto(`${guarded.base}/?session=${sessionId("files-token")}`);
      // A token that is refused until renewed: every request of the panel's goes twice.
      await page.evaluate(
        ([session, token]) => AgentChat.init({ mount: "#chat", session, getToken: ({ renew }) => (renew ? token : "stale") }),
        [sessionId("files-token-2"), secret],
      );
      await attachByButton(page, [NOTES]);
      await uploaded(page);
      assert.deepEqual(await tiles(page), ["notes.txt 17.6 kB"]);
      assert.deepEqual(statuses, [401, 201]);
    } finally {
      await guarded.dispose();
    }
  });

  test("on a phone: the chooser offers the camera and the library, the tiles fit the full-screen panel, the message shows the image", async () => {
    const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await phone.newPage();
      const violations = [];
      page.on("console", (m) => /Content Security Policy/.test(m.text()) && violations.push(m.text()));
      await page.goto(`${setup.site}/?session=${sessionId("files-phone")}`);
      await page.getByRole("button", { name: "Open chat" }).tap();
      await panel(page).message.waitFor();
      // No `capture`: a phone's chooser offers the camera and the photo library; named types, so
      // a photo kept as HEIC comes as a JPEG.
      const input = page.locator("session-agent-chat input[type=file]");
      assert.deepEqual(await input.evaluate((el) => [el.accept, el.multiple, el.hasAttribute("capture")]), [
        "image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain",
        true,
        false,
      ]);
      const [chooser] = await Promise.all([page.waitForEvent("filechooser"), files(page).attach.tap()]);
      await chooser.setFiles([PHOTO, NOTES]);
      await uploaded(page);
      const boxes = await files(page).items.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().right));
      assert.ok(boxes.every((right) => right <= 390), `the tiles fit the screen: ${boxes}`);
      const attachBox = await files(page).attach.boundingBox();
      assert.ok(attachBox.width >= 38 && attachBox.height >= 38, "a button a finger can hit");
      assert.deepEqual(await axeViolations(page), [], "phone, attached");
      await panel(page).send.tap();
      const image = page.locator("session-agent-chat .message.user img");
      await until(() => image.evaluate((img) => img.complete && img.naturalWidth > 0), "the image loaded");
      const shown = await image.boundingBox();
      assert.ok(shown.x >= 0 && shown.x + shown.width <= 390, `the image fits: ${JSON.stringify(shown)}`);
      await panel(page).send.waitFor();
      assert.deepEqual(await axeViolations(page), [], "phone, sent");
      assert.deepEqual(violations, []);
      assert.deepEqual(page.errors, []);
    } finally {
      await phone.close();
    }
  });
});
