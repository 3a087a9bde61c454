// The playground (GET /) in headless Chromium against the worker and its demo agent: a prompt's
// streamed answer and tool card, Stop mid-turn, a question answered with a button, a reload
// mid-turn that resumes, and the trace mode switch. The agent's questions (`X-Questions:
// approvals`, on every request): a free question answered and a tool call approved or denied on
// its card, each turn one assistant message with one `answer` to the agent; an approval that
// waits through a reload; the minimal mode's approval question; Stop while a question waits.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, demoLog, sleep } from "../e2e/harness.mjs";
import { workerAndBrowser, panel, sendPrompt, until, squashed, axeViolations, closePagesAfterEach } from "./browser.mjs";
import { focused } from "./site.mjs";

const setup = workerAndBrowser();
closePagesAfterEach(setup);

/**
 * The playground on a session of its own, its history loaded; `requests` fills with the page's
 * requests to the session's history, chat and resume routes: "METHOD route X-Questions" (the
 * history's page through a message, which brings the versions up to date when a turn ends, as
 * "GET /messages?leaf").
 */
async function openPlayground(label) {
  const session = sessionId(label);
  const page = await setup.browser.newPage();
  const requests = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    const route = url.pathname.replace(`/api/sessions/${session}`, "");
    if (route === "/messages" || route === "/chat" || route.endsWith("/stream")) {
      const leaf = url.searchParams.has("leaf") ? "?leaf" : "";
      requests.push(`${request.method()} ${route.replace(/\/chat\/[^/]+\/stream$/, "/chat/:id/stream")}${leaf} ${request.headers()["x-questions"]}`);
    }
  });
  await page.goto(`${setup.worker.base}/?session=${session}`);
  await panel(page).message.waitFor();
  return { page, session, requests };
}

/** The `answer` frames the demo agent received in `session`: their answers. */
const answersReceived = async (session) => (await frames(session, "received")).filter((f) => f.type === "answer").map((f) => f.answer);

const frames = async (session, log) => (await demoLog(setup.worker.base, session, log)).map((e) => e.frame);

/** The text the demo agent streamed in a session, deltas joined. */
async function streamedText(session) {
  return (await frames(session, "sent"))
    .filter((f) => f.type === "message.part.text-delta")
    .map((f) => f.delta)
    .join("");
}

/**
 * In the page: records the panel's status line, its answers' text and whether a turn runs, at
 * every change of the panel (a MutationObserver), into `window.turnSamples`. Every state the
 * panel renders is seen, however slowly a loaded machine runs the test: a state polled from the
 * test's side could come and go between two reads (the demo's "Thinking…" lasts 300 ms).
 */
function recordTurn() {
  const root = document.querySelector("session-agent-chat").shadowRoot;
  const sample = () => ({
    status: root.querySelector(".status")?.textContent ?? null,
    text: [...root.querySelectorAll(".message.assistant .markdown")].map((e) => e.textContent).join(""),
    running: [...root.querySelectorAll("button")].some((b) => b.textContent === "Stop"),
  });
  window.turnSamples = [sample()];
  new MutationObserver(() => window.turnSamples.push(sample())).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
}

const answerText = async (page, i = 0) => squashed(await panel(page).answers.nth(i).locator(".markdown").allInnerTexts().then((t) => t.join(" ")));

describe("playground", () => {
  test("GET / serves the page, with a strict content security policy", async () => {
    const response = await fetch(`${setup.worker.base}/`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type"), /^text\/html/);
    assert.match(response.headers.get("content-security-policy"), /script-src 'self'/);
    assert.match(await response.text(), /<script src="\/widget\.js" data-mount="#chat"/);
  });

  test("without the demo agent there is no playground, but the widget is served", async () => {
    const off = await startWorker({ vars: { DEMO_AGENT: "off" } });
    try {
      const page = await fetch(`${off.base}/`);
      assert.equal(page.status, 404);
      assert.equal((await page.json()).error.code, "not_found");
      const widget = await fetch(`${off.base}/widget.js`);
      assert.equal(widget.status, 200);
      assert.match(widget.headers.get("content-type"), /javascript/);
      assert.ok((await widget.text()).length > 10_000);
    } finally {
      await off.dispose();
    }
  });

  test("a prompt shows the status line, then the answer as it streams, complete, and a finished tool card", async () => {
    const { page, session } = await openPlayground("pg-answer");
    const { answers, tools } = panel(page);
    // Recorded all through the turn: the status line, the answer's text, whether Stop shows.
    await page.evaluate(recordTurn);
    await sendPrompt(page, "What can you do?");
    let samples = [];
    await until(async () => {
      samples = await page.evaluate(() => window.turnSamples);
      return !samples.at(-1).running && samples.at(-1).text.length > 0;
    }, "the end of the turn", 20_000);
    const statuses = new Set(samples.map((s) => s.status).filter(Boolean));
    assert.ok(statuses.has("Thinking…") && statuses.has("Running search_docs…"), [...statuses].join(", "));
    assert.ok(samples.some((s) => s.running && s.text.length > 0), "part of the answer shows while the turn runs");
    assert.deepEqual(samples.filter((s) => s.text.length > 0 && s.status), [], "the status line goes when text streams");
    assert.equal(await answers.count(), 1);
    assert.equal(await answerText(page), squashed(await streamedText(session)));
    assert.equal(await tools.count(), 1);
    assert.equal(squashed(await tools.first().locator(".tool-summary").innerText()).toLowerCase(), "search_docs done");
    // The finish chunk's metadata, under the answer.
    assert.match(await answers.first().locator(".summary").innerText(), /^Worked for (\d+ ms|\d+\.\d s) · 1 tool$/);
    // Open in the playground's verbose trace mode, with its input.
    assert.equal(await tools.first().getAttribute("open"), "");
    assert.match(await tools.first().locator("pre").first().innerText(), /What can you do\?/);
    assert.deepEqual(page.errors, []);
  });

  test("Stop mid-turn ends the turn and the agent receives exactly one abort", async () => {
    const { page, session } = await openPlayground("pg-stop");
    const { stop, send } = panel(page);
    await sendPrompt(page, "/slow 100 100");
    await until(async () => (await answerText(page)).includes("w3"), "the first words");
    await stop.click();
    await send.waitFor({ timeout: 5_000 });
    const shown = await answerText(page);
    await sleep(700);
    assert.equal(await answerText(page), shown, "no word after the stop");
    assert.ok(!shown.includes("w100"), shown);
    const aborts = (await frames(session, "received")).filter((f) => f.type === "abort");
    assert.equal(aborts.length, 1, JSON.stringify(aborts));
    assert.deepEqual(page.errors, []);
  });

  test("/ask: the options as buttons; yes answers the agent once, and the turn ends in the same message", async () => {
    const { page, session, requests } = await openPlayground("pg-ask");
    const { question, send, stop, answers } = panel(page);
    await sendPrompt(page, "/ask Deploy now?");
    await question.getByText("Deploy now?").waitFor();
    const options = question.getByRole("button");
    assert.deepEqual(await options.allInnerTexts(), ["yes", "no"]);
    // The turn waits for the visitor: it still runs (Stop), and a prompt would be refused.
    await stop.waitFor();
    await question.getByRole("button", { name: "yes" }).click();
    assert.equal(await focused(page), "widget: Message", "the answered buttons go: the focus to the message box");
    await page.getByText("You answered: yes.").waitFor();
    await send.waitFor();
    assert.equal(await options.count(), 0, "an answered question has no buttons");
    assert.equal(await question.locator(".question-answer").innerText(), "Answered: yes");
    assert.equal(await answers.count(), 1, "the question and the rest of the turn: one assistant message");
    assert.match(squashed(await answers.first().innerText()), /^Deploy now\? Answered: yes You answered: yes\. Worked for /);
    assert.deepEqual(await answersReceived(session), ["yes"]);
    // The turn's end brings its versions up to date (the question's wait does not: the turn goes on).
    await until(async () => requests.length >= 5, "the versions brought up to date");
    assert.deepEqual(requests, ["GET /messages approvals", "GET /chat/:id/stream approvals", "POST /chat approvals", "POST /chat approvals", "GET /messages?leaf approvals"]);
    assert.deepEqual(page.errors, []);
  });

  for (const [choice, target, reply, card] of [
    ["Approve", "staging", "Deployed to staging.", "deploy done Approved"],
    ["Deny", "prod", "I did not deploy to prod.", "deploy denied"],
  ]) {
    test(`/deploy: ${choice} on the tool card; axe-core clean while it waits and after; one message`, async () => {
      const { page, session } = await openPlayground(`pg-${choice}`);
      const { tools, answers, send } = panel(page);
      await sendPrompt(page, `/deploy ${target}`);
      const approval = tools.getByRole("group", { name: "Allow deploy to run?" });
      await approval.getByRole("button", { name: choice }).waitFor();
      assert.equal(await tools.count(), 1);
      assert.equal(squashed(await tools.first().locator(".tool-summary").innerText()).toLowerCase(), "deploy awaiting approval");
      assert.match(await tools.first().locator("pre").innerText(), new RegExp(`"target": "${target}"`), "what is approved shows");
      assert.deepEqual(await approval.getByRole("button").allInnerTexts(), ["Approve", "Deny"]);
      assert.equal(await answers.first().locator(".summary").count(), 0, "no worked-for line: the turn goes on");
      assert.deepEqual(await axeViolations(page), [], "an approval waiting");
      await approval.getByRole("button", { name: choice }).click();
      await page.getByText(reply).waitFor();
      await send.waitFor();
      assert.equal(await approval.count(), 0, "no buttons once answered");
      assert.equal(await tools.count(), 1, "the same call's card, moved on");
      assert.equal(squashed(await tools.first().locator(".tool-summary").innerText()).toLowerCase(), card.toLowerCase());
      assert.equal(await answers.count(), 1);
      assert.deepEqual(await answersReceived(session), [{ approved: choice === "Approve" }]);
      assert.deepEqual(await axeViolations(page), [], "answered");
      assert.deepEqual(page.errors, []);
    });
  }

  test("a reload while an approval waits shows Approve and Deny again, and approving finishes the turn", async () => {
    const { page, session, requests } = await openPlayground("pg-approve-reload");
    const { tools, answers, send } = panel(page);
    const approval = tools.getByRole("group", { name: "Allow deploy to run?" });
    await sendPrompt(page, "/deploy staging");
    await approval.getByRole("button", { name: "Approve" }).waitFor();
    requests.length = 0;
    await page.reload();
    await approval.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Deployed to staging.").waitFor();
    await send.waitFor();
    assert.equal(await page.locator(".message.user").count(), 1);
    assert.equal(await answers.count(), 1);
    assert.equal(await tools.count(), 1);
    assert.equal(squashed(await tools.first().locator(".tool-summary").innerText()).toLowerCase(), "deploy done approved");
    assert.deepEqual(await answersReceived(session), [{ approved: true }]);
    await until(async () => requests.length >= 4, "the versions brought up to date");
    assert.deepEqual(requests, ["GET /messages approvals", "GET /chat/:id/stream approvals", "POST /chat approvals", "GET /messages?leaf approvals"]);
    assert.deepEqual(page.errors, []);
  });

  test("the minimal mode, with no tool card, asks the approval as a question with the tool's name", async () => {
    const { page, session } = await openPlayground("pg-approve-minimal");
    const { question, tools, answers, send } = panel(page);
    const trace = page.getByRole("combobox", { name: "Trace" });
    await trace.selectOption("minimal");
    await sendPrompt(page, "/deploy qa");
    await question.getByRole("button", { name: "Approve" }).waitFor();
    assert.equal(squashed(await question.innerText()), "deploy Deploy to qa? Approve Deny");
    await question.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Deployed to qa.").waitFor();
    await send.waitFor();
    assert.equal(await question.locator(".question-answer").innerText(), "Approved");
    assert.equal(await tools.count(), 0);
    assert.equal(await answers.count(), 1);
    assert.deepEqual(await answersReceived(session), [{ approved: true }]);
    assert.deepEqual(page.errors, []);
    await trace.selectOption("full"); // remembered by the browser: the playground's own again
  });

  test("Stop while a question waits ends the turn: its buttons go, and the next prompt is a new turn", async () => {
    const { page, session } = await openPlayground("pg-ask-stop");
    const { question, stop, send, answers } = panel(page);
    await sendPrompt(page, "/ask Go on?");
    await question.getByRole("button", { name: "yes" }).waitFor();
    await stop.click();
    await send.waitFor();
    assert.equal(await question.getByRole("button").count(), 0);
    assert.equal(await question.locator(".question-answer").innerText(), "Canceled");
    // Then as the history says it (the session feed brings the stopped turn's end): "Stopped after … ms".
    const summary = answers.first().locator(".summary");
    await until(async () => /^Stopped after \d/.test(await summary.innerText()), "the stopped turn as the history has it");
    const stopped = await summary.innerText();
    await sendPrompt(page, "/slow 2 10");
    await until(async () => (await answers.count()) === 2 && /w2/.test(await answers.nth(1).innerText()), "the next turn");
    // (The `history` frames that bring the versions up to date after each turn left out.)
    const received = (await frames(session, "received")).map((f) => f.type).filter((type) => type !== "history");
    assert.deepEqual(received, ["prompt", "abort", "prompt"]);
    // The history says the same of the stopped question.
    await page.reload();
    await until(async () => (await answers.count()) === 2, "the history");
    assert.equal(await question.getByRole("button").count(), 0);
    assert.equal(await question.locator(".question-answer").innerText(), "Canceled");
    assert.equal(await answers.first().locator(".summary").innerText(), stopped, "live and reloaded alike");
    assert.deepEqual(page.errors, []);
  });

  test("a reload mid-turn resumes to the complete answer, no part twice", async () => {
    const { page } = await openPlayground("pg-reload");
    const { send, answers } = panel(page);
    await sendPrompt(page, "/slow 30 100");
    await until(async () => (await answerText(page)).includes("w5"), "the first words");
    await page.reload();
    await until(async () => (await answerText(page).catch(() => "")).includes("w30"), "the last word");
    await send.waitFor();
    const words = Array.from({ length: 30 }, (_, i) => `w${i + 1}`).join(" ");
    assert.equal(await page.locator(".message.user").count(), 1);
    assert.equal(await answers.count(), 1);
    assert.equal(await answers.first().locator(".markdown").count(), 1);
    assert.equal(await answerText(page), words);
    assert.deepEqual(page.errors, []);
  });

  test("the trace mode: minimal hides the tool card, normal shows it without its data, verbose opens it; the choice survives a reload", async () => {
    const { page } = await openPlayground("pg-trace");
    const { tools, send } = panel(page);
    const trace = page.getByRole("combobox", { name: "Trace" });
    await sendPrompt(page, "Show me a tool");
    await send.waitFor({ timeout: 20_000 });
    await until(async () => (await tools.count()) === 1, "the tool card");
    assert.equal(await trace.inputValue(), "full", "the playground's mode");
    await trace.selectOption("minimal");
    assert.equal(await tools.count(), 0);
    // Normal: the turn after the choice streams each tool by its name and state, no input or output.
    await trace.selectOption("normal");
    await sendPrompt(page, "Show me another");
    await send.waitFor({ timeout: 20_000 });
    await until(async () => (await tools.count()) === 2, "both tool cards");
    const plain = tools.nth(1);
    assert.equal(await plain.evaluate((el) => el.tagName), "DIV", "nothing to expand");
    assert.equal(squashed(await plain.innerText()).toLowerCase(), "search_docs done");
    assert.equal(await plain.locator("pre").count(), 0);
    await trace.selectOption("full");
    assert.equal(await tools.first().getAttribute("open"), "");
    await page.reload();
    await tools.first().waitFor();
    assert.equal(await trace.inputValue(), "full");
    assert.equal(await tools.first().getAttribute("open"), "");
    assert.deepEqual(page.errors, []);
  });
});
