// Screenshots of the playground for the README, after a question answered with its button:
// docs/playground-streaming.png (mid-turn: a finished tool card, the answer streaming, Stop)
// and docs/playground-finished.png. Needs the
// built worker (scripts/build.sh) and Chromium (scripts/ensure-tools.sh): `npm run screenshots`.
import path from "node:path";
import { startWorker, sessionId, root } from "../tests/e2e/harness.mjs";
import { launchBrowser, panel, sendPrompt, until } from "../tests/browser/browser.mjs";

const worker = await startWorker();
const browser = await launchBrowser();
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
    async () => (await stop.isVisible()) && (await answers.last().innerText()).length > 60,
    "the answer half-way",
  );
  const streaming = path.join(root, "docs/playground-streaming.png");
  await page.screenshot({ path: streaming });
  await send.waitFor({ timeout: 20_000 });
  const finished = path.join(root, "docs/playground-finished.png");
  await page.screenshot({ path: finished });
  console.log(`screenshots: ${path.relative(root, streaming)}, ${path.relative(root, finished)}`);
} finally {
  await browser.close();
  await worker.dispose();
}
