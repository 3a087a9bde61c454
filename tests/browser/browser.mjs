// Shared by the browser tests: Debian's Chromium (scripts/ensure-tools.sh installs it), headless,
// offline, with a fresh profile, driven by playwright-core; and the panel's accessible parts.
import { mkdtempSync, rmSync, existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { before, after, afterEach } from "node:test";
import { chromium } from "playwright-core";
import { startWorker, sessionId } from "../e2e/harness.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Starts Chromium with a profile of its own, a 1100×720 desktop unless `device` says otherwise
 * (playwright's context options: `viewport`, `isMobile`, `hasTouch`). Returns
 * { context, newPage, close }; every page collects its uncaught errors in `page.errors`.
 */
export async function launchBrowser(device = {}) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (as root: apt-get install -y chromium, ` +
        "which scripts/ensure-tools.sh does) or set CHROMIUM_PATH",
    );
  }
  const profile = mkdtempSync(path.join(os.tmpdir(), "session-agent-chat-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1100, height: 720 },
    ...device,
  });
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      page.errors = [];
      page.on("pageerror", (error) => page.errors.push(error));
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Registers the hooks of a test file that runs against one worker (the demo environment) in one
 * browser; returns { worker, browser }, filled in before the first test.
 */
export function workerAndBrowser() {
  const setup = { worker: undefined, browser: undefined };
  before(async () => {
    setup.worker = await startWorker();
    setup.browser = await launchBrowser();
  });
  after(async () => {
    await setup.browser?.close();
    await setup.worker?.dispose();
  });
  return setup;
}

/**
 * Registers the hooks of a test file whose pages come from a site of its own, on another origin
 * than the worker's: `serve(req, res)` answers the site's requests; `vars(siteOrigin)` are the
 * worker's settings (by default, the site's origin allowed by CORS). Returns
 * { site, worker, browser } (`site`: the site's origin), filled in before the first test.
 */
export function siteWorkerAndBrowser(serve, vars = (origin) => ({ ALLOWED_ORIGINS: origin })) {
  const setup = { site: undefined, worker: undefined, browser: undefined };
  let server;
  before(async () => {
    server = http.createServer(serve);
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    setup.site = `http://127.0.0.1:${server.address().port}`;
    setup.worker = await startWorker({ vars: vars(setup.site) });
    setup.browser = await launchBrowser();
  });
  after(async () => {
    await setup.browser?.close();
    await setup.worker?.dispose();
    server?.close();
  });
  return setup;
}

/**
 * Closes every page of the file's browser after each test, for a file whose tests run one at a
 * time: each open panel holds its session's feed, one of the 6 connections a browser keeps to an
 * origin over HTTP/1.1 (the local worker's), and pages left open on sessions of their own would
 * use them all up.
 */
export function closePagesAfterEach(setup) {
  afterEach(async () => {
    for (const page of setup.browser.context.pages()) await page.close();
  });
}

/** The panel's controls, by the accessible names a screen reader hears. */
export function panel(page) {
  return {
    message: page.getByRole("textbox", { name: "Message" }),
    send: page.getByRole("button", { name: "Send" }),
    stop: page.getByRole("button", { name: "Stop" }),
    /** The agent's messages (the user's are .message.user). */
    answers: page.locator(".message.assistant"),
    /** Tool cards: a `details` that opens onto the input and output, or (normal trace mode) a plain card. */
    tools: page.locator(".tool"),
    question: page.getByRole("group", { name: "Question from the agent" }),
  };
}

/** What the panel shows: each message's role and text (its bubble's, or its Markdown's), in order. */
export function shownMessages(page) {
  return page.evaluate(() =>
    [...document.querySelector("session-agent-chat").shadowRoot.querySelectorAll(".message")].map((m) => [
      m.classList.contains("user") ? "user" : "assistant",
      (m.querySelector(".bubble") ?? m.querySelector(".markdown") ?? m).innerText.trim(),
    ]),
  );
}

/** Resolves once the panel shows `n` messages and no turn runs (Send is back). */
export async function settled(page, n) {
  await until(async () => (await shownMessages(page)).length === n && (await panel(page).send.count()) === 1, `${n} messages, idle`);
}

/** The worker's playground (the panel inline) on `session`, in a new page of `browser`. */
export async function openPlayground(setup, session, browser = setup.browser) {
  const page = await browser.newPage();
  await page.goto(`${setup.worker.base}/?session=${session}`);
  await panel(page).message.waitFor();
  return page;
}

/** Two tabs of the playground on one new session (by `label`), once both follow its feed. */
export async function twoTabs(setup, label) {
  const session = sessionId(label);
  const tabs = [await openPlayground(setup, session), await openPlayground(setup, session)];
  // Let both feeds connect (each page's first sync).
  await tabs[0].waitForTimeout(500);
  return tabs;
}

/** Sends each of `prompts`, each once the turn before it has ended; resolves once the last has. */
export async function exchange(page, ...prompts) {
  const start = (await shownMessages(page)).length;
  for (const [i, prompt] of prompts.entries()) {
    await sendPrompt(page, prompt);
    await settled(page, start + 2 * (i + 1));
  }
}

/** Types `text` into the message box and sends it with the Send button. */
export async function sendPrompt(page, text) {
  const { message, send } = panel(page);
  await message.fill(text);
  await send.click();
}

/** A `route.fulfill` answer that streams `chunks` (UI message stream chunks) as the worker would, then `[DONE]`. */
export const uiMessageStream = (chunks) => ({
  status: 200,
  headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" },
  body: chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n",
});

/** Resolves once `check()` returns true (polled every 100 ms: each poll is a round of the
 * browser's protocol, and every 25 ms cost a file about a tenth more CPU), or fails after `ms`. */
export async function until(check, what, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Text with runs of white space made one space, trimmed: what a reader sees, as a string. */
export const squashed = (text) => text.replace(/\s+/g, " ").trim();

/**
 * axe-core's violations of any impact on `page`, its widget's shadow roots included, as
 * "rule (impact): targets" lines. The page's animations are held at their dimmest frame first
 * (the status line's pulse: half of its 1.4 s), so axe judges the panel at its worst moment.
 * axe runs in the page through the browser's protocol, which the page's CSP does not govern.
 */
export async function axeViolations(page) {
  const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  return page.evaluate(async () => {
    for (const host of document.querySelectorAll("session-agent-chat")) {
      for (const animation of host.shadowRoot?.getAnimations() ?? []) {
        animation.pause();
        animation.currentTime = 700;
      }
    }
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/**
 * A PNG of `width`×`height` pixels, stored uncompressed (its size about 3 bytes a pixel), each
 * pixel `color(x, y)` (`[r, g, b]`, 0 to 255; by default a pattern of the coordinates).
 */
export function png(width, height, color = (x, y) => [(x * 5) % 256, (y * 3) % 256, 160]) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(color(x, y), y * (width * 3 + 1) + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", zlib.deflateSync(raw, { level: 0 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
