// Screenshots for the README and docs/embed.md. The playground, after a question answered with
// its button (one message: the question, its answer, the reply): docs/playground-streaming.png (mid-turn: a finished tool card, the answer
// streaming, Stop) and docs/playground-finished.png. The widget on a site's page, opened from its
// launcher after one turn: docs/widget-light.png, docs/widget-dark.png (a teal accent, on the
// left), docs/widget-phone.png (390×844, the panel full-screen); docs/widget-files.png, a photo
// sent and answered, another attached to the next message; docs/widget-conversations.png, the
// Conversations view with the three conversations of a visitor's; each of the last two again on a
// phone in the dark (docs/widget-files-phone-dark.png, docs/widget-conversations-phone-dark.png). Needs the built worker
// (scripts/build.sh) and Chromium (scripts/ensure-tools.sh): `npm run screenshots`.
import http from "node:http";
import path from "node:path";
import { startWorker, sessionId, root } from "../tests/e2e/harness.mjs";
import { launchBrowser, panel, png, sendPrompt, until } from "../tests/browser/browser.mjs";

/** A site's page with the widget, its `init` options from `?init=` (JSON). */
const site = http.createServer((req, res) => {
  const init = new URL(req.url, "http://site").searchParams.get("init") ?? "{}";
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Corner shop</title>
<style>body { font: 16px/1.5 Georgia, serif; margin: 40px; max-width: 520px; color: #333 }</style></head>
<body><h1>Corner shop</h1><p>Fresh bread every morning, and a chat with our agent in the corner.</p>
<script>window.AgentChat=window.AgentChat||function(){(AgentChat.q=AgentChat.q||[]).push(arguments)};
AgentChat("init", ${init});</script>
<script src="${worker.base}/widget.js" async></script></body></html>`);
});
await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
const siteOrigin = `http://127.0.0.1:${site.address().port}`;

const worker = await startWorker({ vars: { ALLOWED_ORIGINS: siteOrigin } });
const browser = await launchBrowser();
const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** The widget on the site's page with `init`, opened, after one turn: a screenshot to `file`. */
async function widgetShot(context, init, file) {
  const page = await context.newPage();
  const options = { session: sessionId("screenshots-widget"), title: "Shop help", ...init };
  await page.goto(`${siteOrigin}/?init=${encodeURIComponent(JSON.stringify(options))}`);
  await page.getByRole("button", { name: "Open chat" }).click();
  await panel(page).message.waitFor();
  await sendPrompt(page, "Do you deliver on Sundays?");
  await page.locator("session-agent-chat .summary").waitFor({ timeout: 20_000 });
  await page.screenshot({ path: path.join(root, file) });
  await page.close();
  return file;
}

/** Two photos, drawn: a sunset, and a sea under a sky. */
const SUNSET = png(240, 160, (x, y) =>
  Math.hypot(x - 165, y - 100) < 28 ? [255, 236, 170] : [Math.round(250 - 60 * (y / 160)), Math.round(150 - 80 * (y / 160)), Math.round(90 + 60 * (y / 160))],
);
const SEA = png(240, 160, (x, y) => (y < 72 ? [170, 205, 235] : [Math.round(40 + 20 * Math.sin(x / 6 + y / 4)), Math.round(110 + 30 * Math.sin(x / 9)), 160]));

/** The widget on the site's page, opened: a photo sent and answered, another attached to the next message. */
async function filesShot(context, init, file) {
  const page = await context.newPage();
  const options = { session: sessionId("screenshots-files"), title: "Shop help", ...init };
  await page.goto(`${siteOrigin}/?init=${encodeURIComponent(JSON.stringify(options))}`);
  await page.getByRole("button", { name: "Open chat" }).click();
  await panel(page).message.waitFor();
  const attach = async (name, buffer) => {
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Attach files" }).click()]);
    await chooser.setFiles({ name, mimeType: "image/png", buffer });
    await until(async () => (await page.getByRole("progressbar").count()) === 0 && (await page.locator("session-agent-chat .attachment").count()) > 0, "the upload");
  };
  await attach("sunset.png", SUNSET);
  await sendPrompt(page, "Can you print this one on a card?");
  await page.locator("session-agent-chat .summary").waitFor({ timeout: 20_000 });
  const sent = page.locator("session-agent-chat .message.user img");
  await until(() => sent.evaluate((img) => img.complete && img.naturalWidth > 0), "the sent photo");
  await attach("sea.png", SEA);
  await panel(page).message.fill("And this one?");
  // The sent photo at the top of the conversation, the answer under it.
  await sent.evaluate((img) => img.closest(".message").scrollIntoView({ block: "start" }));
  await page.screenshot({ path: path.join(root, file) });
  await page.close();
  return file;
}

/**
 * The widget on the site's page, opened: three conversations, each of one turn, begun from the
 * Conversations view's New conversation, then the view, once the worker lists all three.
 */
async function conversationsShot(context, init, file) {
  const page = await context.newPage();
  const options = { user: sessionId("screenshots-visitor"), title: "Shop help", ...init };
  await page.goto(`${siteOrigin}/?init=${encodeURIComponent(JSON.stringify(options))}`);
  await page.getByRole("button", { name: "Open chat" }).click();
  const toggle = page.getByRole("button", { name: "Conversations", exact: true });
  const prompts = ["Do you deliver on Sundays?", "Can I order a birthday cake?", "Which breads have no gluten?"];
  for (const [i, prompt] of prompts.entries()) {
    if (i > 0) {
      await toggle.click();
      await page.getByRole("button", { name: "New conversation" }).click();
    }
    await panel(page).message.waitFor();
    await sendPrompt(page, prompt);
    await page.locator("session-agent-chat .summary").waitFor({ timeout: 20_000 });
  }
  // Each turn's row (and the demo agent's title) lands just after it: the view reads the list as it opens.
  const heading = page.getByRole("heading", { name: "Conversations" });
  await until(async () => {
    if (await heading.isVisible()) await toggle.click();
    await toggle.click();
    await page.locator("session-agent-chat .conversations .list:not([aria-busy])").waitFor();
    const titles = await page.locator("session-agent-chat .conversations .row-title").allInnerTexts();
    return titles.length === 3 && titles.every((title) => title.startsWith("Docs search:"));
  }, "three conversations listed, titled");
  await page.screenshot({ path: path.join(root, file) });
  await page.close();
  return file;
}

try {
  const page = await browser.newPage();
  await page.goto(`${worker.base}/?session=${sessionId("screenshots")}`);
  const { stop, send, answers, question } = panel(page);
  // A question answered first, so both pictures show one.
  await sendPrompt(page, "/ask Publish the docs site?");
  await question.getByRole("button", { name: "yes" }).click();
  await page.getByText("You answered: yes.").waitFor();
  await send.waitFor();
  await sendPrompt(page, "What can you do?");
  await until(
    async () => (await stop.isVisible()) && (await answers.count()) === 2 && (await answers.last().innerText()).length > 60,
    "the answer half-way",
  );
  const streaming = path.join(root, "docs/playground-streaming.png");
  await page.screenshot({ path: streaming });
  await send.waitFor({ timeout: 20_000 });
  const finished = path.join(root, "docs/playground-finished.png");
  await page.screenshot({ path: finished });
  const widgets = [
    await widgetShot(browser, {}, "docs/widget-light.png"),
    await widgetShot(browser, { colorScheme: "dark", position: "left", theme: { accent: "#0f766e" } }, "docs/widget-dark.png"),
    await widgetShot(phone, {}, "docs/widget-phone.png"),
    await filesShot(browser, {}, "docs/widget-files.png"),
    await filesShot(phone, { colorScheme: "dark" }, "docs/widget-files-phone-dark.png"),
    await conversationsShot(browser, {}, "docs/widget-conversations.png"),
    await conversationsShot(phone, { colorScheme: "dark" }, "docs/widget-conversations-phone-dark.png"),
  ];
  console.log(`screenshots: ${[path.relative(root, streaming), path.relative(root, finished), ...widgets].join(", ")}`);
} finally {
  await phone.close();
  await browser.close();
  await worker.dispose();
  site.close();
}
