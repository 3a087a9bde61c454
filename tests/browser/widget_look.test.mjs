// The widget as a site styles and translates it, on a desktop and on a phone: the loader alone
// until the visitor reaches for the launcher; dark mode, a custom accent and the left corner seen
// in a screenshot; the reader's scheme (auto) and the site's own CSS properties; Arabic, right to
// left; French from the page's language, setLocale and a site's label; a 390×844 phone, whose
// dialog fills the screen, follows the visual viewport when zoomed, and keeps the message box in
// view as the keyboard takes half of it.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { sessionId } from "../e2e/harness.mjs";
import { siteWorkerAndBrowser, launchBrowser, panel, sendPrompt, until, axeViolations } from "./browser.mjs";

/** The loader's goal (docs/embed.md): what every page view pays, whether or not the chat is opened. */
const LOADER_MAX_GZIP_BYTES = 15 * 1024;

/**
 * The site: its script queues `init` with the options of `?init=` (JSON), its CSS (when
 * `?css=1`) sets the accent on the widget's host element, its `<html lang>` is `?lang=`.
 */
const SITE_JS = `
window.AgentChat = window.AgentChat || function () { (AgentChat.q = AgentChat.q || []).push(arguments); };
const params = new URLSearchParams(location.search);
AgentChat("init", { session: params.get("session"), ...JSON.parse(params.get("init") || "{}") });
`;
const SITE_CSS = "session-agent-chat { --agent-chat-accent: rgb(190, 18, 60); }";


const setup = siteWorkerAndBrowser((req, res) => {
  const url = new URL(req.url, "http://site");
  if (url.pathname === "/site.js" || url.pathname === "/site.css") {
    res.writeHead(200, { "content-type": url.pathname.endsWith(".js") ? "text/javascript" : "text/css" });
    res.end(url.pathname.endsWith(".js") ? SITE_JS : SITE_CSS);
    return;
  }
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `default-src 'none'; style-src 'self'; script-src 'self' ${setup.worker.base}; connect-src ${setup.worker.base}`,
  });
  const css = url.searchParams.get("css") ? '<link rel="stylesheet" href="/site.css">' : "";
  res.end(`<!doctype html><html lang="${url.searchParams.get("lang") ?? "en"}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Site</title>${css}</head>
<body><main><h1>A shop</h1></main><script src="/site.js"></script><script src="${setup.worker.base}/widget.js" async></script></body></html>`);
});

function pageUrl({ init = {}, lang, css } = {}) {
  const params = new URLSearchParams({ session: sessionId("look"), init: JSON.stringify(init) });
  if (lang) params.set("lang", lang);
  if (css) params.set("css", "1");
  return `${setup.site}/?${params}`;
}

const host = (page) => page.locator("session-agent-chat");
/** A computed style of the first element matching `selector` in the widget. */
const styleOf = (page, selector, property) =>
  page.locator(`session-agent-chat ${selector}`).first().evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

/**
 * The colour of the screenshot's pixel in `locator`'s box, at `at` of its width and height (the
 * middle by default), as "r,g,b" (decoded by the browser, on a blank page of its own: the site's
 * CSP allows no data: image).
 */
async function pixelAt(page, locator, at = [0.5, 0.5]) {
  const box = await locator.boundingBox();
  const png = (await page.screenshot()).toString("base64");
  const scratch = await page.context().newPage();
  const pixel = await scratch.evaluate(
    async ({ png, x, y }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext("2d");
      context.drawImage(image, 0, 0);
      return [...context.getImageData(x, y, 1, 1).data.slice(0, 3)].join(",");
    },
    { png, x: Math.round(box.x + box.width * at[0]), y: Math.round(box.y + box.height * at[1]) },
  );
  await scratch.close();
  return pixel;
}

/** axe-core's serious and critical violations in the page and the panel's shadow root. */
async function openAndAsk(page, text, launcherName = "Open chat") {
  await page.getByRole("button", { name: launcherName }).click();
  // The message box by its element: its accessible name is the locale's.
  const box = page.locator("session-agent-chat textarea");
  await box.waitFor();
  const answers = panel(page).answers;
  const before = await answers.count();
  await box.fill(text);
  await box.press("Enter");
  await until(async () => (await answers.count()) > before && (await page.locator("session-agent-chat .summary").count()) > before, "the answer");
}

describe("widget look, language and phone", () => {
  test("a page view loads the small loader only; the panel comes when the visitor reaches for the launcher", async () => {
    const page = await setup.browser.newPage();
    const requested = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(pageUrl());
    const launcher = page.getByRole("button", { name: "Open chat" });
    await launcher.waitFor();
    // The history is the panel's: nothing but the loader has been fetched from the setup.worker.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(requested.filter((p) => p.startsWith("/widget") || p.startsWith("/api")), ["/widget.js"]);
    await launcher.hover();
    // This build's panel, by its versioned name.
    await until(async () => requested.some((p) => /^\/widget\/panel-[0-9a-f]{12}\.js$/.test(p)), "the panel fetched on hover");
    // Its script only: the worker is asked nothing until the visitor opens it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(requested.filter((p) => p.startsWith("/api")), []);
    await launcher.click();
    await page.getByRole("dialog").waitFor();
    await panel(page).message.waitFor();

    const loader = Buffer.from(await (await fetch(`${setup.worker.base}/widget.js`)).arrayBuffer());
    const gzipped = gzipSync(loader, { level: 9 }).length;
    assert.ok(gzipped <= LOADER_MAX_GZIP_BYTES, `widget.js is ${gzipped} bytes gzipped, over ${LOADER_MAX_GZIP_BYTES}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("dark mode, a custom accent and the left corner, seen in a screenshot; axe finds no serious violation", async () => {
    const page = await setup.browser.newPage();
    await page.goto(pageUrl({ init: { colorScheme: "dark", position: "left", theme: { accent: "#0f766e" } } }));
    const launcher = page.getByRole("button", { name: "Open chat" });
    const box = await launcher.boundingBox();
    assert.ok(box.x < 100, `the launcher sits on the left (x = ${box.x})`);
    // Beside its icon, which is white.
  assert.equal(await pixelAt(page, launcher, [0.2, 0.5]), "15,118,110", "the launcher in the accent");
    await openAndAsk(page, "how do tools show?");
    mkdirSync("build/screenshots", { recursive: true });
    await page.screenshot({ path: "build/screenshots/widget-dark.png" });
    assert.equal(await pixelAt(page, page.locator("session-agent-chat .message.user .bubble"), [0.03, 0.5]), "15,118,110", "the visitor's bubble in the accent");
    assert.equal(await pixelAt(page, page.locator("session-agent-chat .conversation .empty, session-agent-chat .messages").first()), "13,17,23", "the dark background");
    const dialog = await page.getByRole("dialog").boundingBox();
    assert.ok(dialog.x < 100, "the dialog opens on the left too");
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("auto follows the reader's scheme; the site's CSS sets a property; setTheme changes a live panel", async () => {
    const page = await setup.browser.newPage();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(pageUrl({ init: { colorScheme: "auto" }, css: true }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await panel(page).message.waitFor();
    assert.equal(await styleOf(page, ".panel", "background-color"), "rgb(13, 17, 23)");
    // The system switches to light: the loader hears it (a `change` event) and follows.
    await page.emulateMedia({ colorScheme: "light" });
    await until(async () => (await styleOf(page, ".panel", "background-color")) === "rgb(255, 255, 255)", "the light panel");
    // The site's stylesheet: `session-agent-chat { --agent-chat-accent: rgb(190, 18, 60) }`.
    await panel(page).message.fill("x");
    assert.equal(await styleOf(page, ".send", "background-color"), "rgb(190, 18, 60)");

    await page.evaluate(() => AgentChat.setTheme({ colorScheme: "dark", accent: "rgb(20, 83, 45)", radius: "4px" }));
    assert.equal(await styleOf(page, ".panel", "background-color"), "rgb(13, 17, 23)");
    assert.equal(await styleOf(page, ".send", "background-color"), "rgb(20, 83, 45)", "setTheme's accent over the site's CSS");
    assert.equal(await styleOf(page, ".popup", "border-top-left-radius"), "4px");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("Arabic: right to left, every string from its table, plurals as Arabic has them", async () => {
    const page = await setup.browser.newPage();
    await page.goto(pageUrl({ init: { locale: "ar" } }));
    assert.equal(await host(page).getAttribute("dir"), "rtl");
    assert.equal(await host(page).getAttribute("lang"), "ar");
    await openAndAsk(page, "كيف تظهر الأدوات؟", "افتح المحادثة");
    await page.getByRole("dialog", { name: "المساعد" }).waitFor();
    await page.getByRole("button", { name: "أرسل" }).waitFor();
    await page.getByRole("button", { name: "أغلق المحادثة" }).waitFor();
    const summary = await page.locator("session-agent-chat .summary").first().innerText();
    assert.match(summary, /^عمل لمدة .+ · أداة واحدة$/u, summary);
    // Right to left: the visitor's bubble sits on the left of the conversation, the tool card's
    // arrow points left.
    const bubble = await page.locator("session-agent-chat .message.user").boundingBox();
    const list = await page.locator("session-agent-chat .messages").boundingBox();
    assert.ok(bubble.x - list.x < 30, `the bubble starts at the left edge (${bubble.x - list.x} px in)`);
    // What someone wrote keeps its own direction: an English line in this panel ends with its "?".
    for (const selector of [".message.user .bubble", ".markdown p", ".question-text"]) {
      if ((await page.locator(`session-agent-chat ${selector}`).count()) === 0) continue;
      assert.equal(await styleOf(page, selector, "unicode-bidi"), "plaintext", selector);
    }
    // No English is left in what the visitor reads (the agent's own words aside).
    const chrome = await page.locator("session-agent-chat header, session-agent-chat .composer, session-agent-chat .summary, session-agent-chat .tool summary").allInnerTexts();
    const shown = chrome.join(" ").replaceAll("search_docs", "");
    assert.doesNotMatch(shown, /[A-Za-z]{2,}/, chrome.join(" | "));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the page's language is the default; setLocale and a site's label change a live panel", async () => {
    const page = await setup.browser.newPage();
    await page.goto(pageUrl({ lang: "fr-CA" }));
    await openAndAsk(page, "bonjour", "Ouvrir la discussion");
    await page.getByRole("button", { name: "Envoyer" }).waitFor();
    assert.match(await page.locator("session-agent-chat .summary").first().innerText(), /^A travaillé \d/);

    await page.evaluate(() => AgentChat.setLocale("ar", { send: "إرسال الآن" }));
    assert.equal(await host(page).getAttribute("dir"), "rtl");
    await page.getByRole("button", { name: "إرسال الآن" }).waitFor();
    assert.match(await page.locator("session-agent-chat .summary").first().innerText(), /^عمل لمدة/u);
    await page.evaluate(() => AgentChat.setLocale("en"));
    assert.equal(await host(page).getAttribute("dir"), "ltr");
    // The labels stay the site's until it sets others.
    await page.getByRole("button", { name: "إرسال الآن" }).waitFor();
    await page.getByRole("button", { name: "Close chat" }).waitFor();

    const logged = [];
    page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    await page.evaluate(() => AgentChat.setLocale("en", { sned: "Go" }));
    await until(async () => logged.some((line) => /unknown label sned/.test(line)), "the console names the unknown label");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("widget on a phone (390×844)", () => {
  let phone;
  before(async () => {
    phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  });
  after(async () => phone?.close());

  test("the dialog fills the screen, its fields are 16 px, and the message box stays in view over a keyboard", async () => {
    const page = await phone.newPage();
    await page.goto(pageUrl());
    const launcher = page.getByRole("button", { name: "Open chat" });
    const box = await launcher.boundingBox();
    assert.ok(box.x + box.width <= 390 && box.y + box.height <= 844, "the launcher is on screen");
    await launcher.tap();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await panel(page).message.waitFor();
    assert.deepEqual(await dialog.boundingBox(), { x: 0, y: 0, width: 390, height: 844 });
    assert.equal(await styleOf(page, ".composer textarea", "font-size"), "16px");
    await sendPrompt(page, "hello from a phone");
    await until(async () => (await page.locator("session-agent-chat .summary").count()) === 1, "the answer");
    mkdirSync("build/screenshots", { recursive: true });
    await page.screenshot({ path: "build/screenshots/widget-phone.png" });

    // Zoomed in (as by a pinch), the visual viewport is a part of the page: the dialog follows it
    // (viewport.js), as it follows a keyboard that covers part of the screen without resizing it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setPageScaleFactor", { pageScaleFactor: 2 });
    await until(async () => {
      const [visual, box] = await page.evaluate(() => {
        const popup = document.querySelector("session-agent-chat").shadowRoot.querySelector(".popup").getBoundingClientRect();
        return [[visualViewport.offsetTop, visualViewport.height], [popup.top, popup.height]];
      });
      return visual[1] < 500 && Math.abs(box[0] - visual[0]) < 1 && Math.abs(box[1] - visual[1]) < 1;
    }, "the dialog over the zoomed visual viewport");
    await cdp.send("Emulation.setPageScaleFactor", { pageScaleFactor: 1 });
    await until(async () => page.evaluate(() => visualViewport.scale === 1), "zoomed out again");

    // The on-screen keyboard: the visible height drops to 500 px; the message box follows it.
    await page.setViewportSize({ width: 390, height: 500 });
    await until(async () => {
      const composer = await page.locator("session-agent-chat .composer").boundingBox();
      return composer.y + composer.height <= 500 && composer.y > 300;
    }, "the message box above the keyboard");
    await panel(page).message.fill("still here");
    assert.equal(await panel(page).send.isEnabled(), true);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
