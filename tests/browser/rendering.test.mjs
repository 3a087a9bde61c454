// What the panel makes of a stream, whatever agent sent it: the chat POST is answered here with
// a fixed UI message stream (the worker still serves the page, history and resume). Markdown is
// sanitised, reasoning collapsed, a failed tool shows its error, the finish metadata becomes
// "Worked for …", an error gets a Retry, a question without options a free-text answer (its
// tool's output, posted back in the assistant's message), an old `data-question` of a history
// shows, every request carries the trace mode, onDisconnect "detach" and `X-Questions:
// approvals`, and on load the history and a resumed turn show each message once.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { sessionId } from "../e2e/harness.mjs";
import { workerAndBrowser, panel, sendPrompt, squashed, until, closePagesAfterEach, uiMessageStream } from "./browser.mjs";

const setup = workerAndBrowser();
closePagesAfterEach(setup);

const tool = { toolCallId: "c1", toolName: "grep", providerExecuted: true, dynamic: true };
const ask = { toolCallId: "q1", toolName: "askUser", providerExecuted: false, dynamic: false };
const HOSTILE_TEXT =
  '**Bold** <img src="x" onerror="window.__xss = 1"><script>window.__xss = 2</script> ' +
  "[bad](javascript:window.__xss=3) [docs](https://example.com/docs)";

const STREAMS = {
  full: [
    { type: "start", messageId: "m-full", messageMetadata: { turnId: "t1", createdAt: 1 } },
    { type: "start-step" },
    { type: "reasoning-start", id: "r1" },
    { type: "reasoning-delta", id: "r1", delta: "Let me look." },
    { type: "reasoning-end", id: "r1" },
    { type: "tool-input-start", ...tool },
    { type: "tool-input-available", ...tool, input: { pattern: "todo" } },
    { type: "tool-output-error", toolCallId: "c1", errorText: "no such file", providerExecuted: true, dynamic: true },
    { type: "text-start", id: "x1" },
    { type: "text-delta", id: "x1", delta: HOSTILE_TEXT },
    { type: "text-end", id: "x1" },
    { type: "finish-step" },
    { type: "finish", messageMetadata: { turnId: "t1", durationMs: 12_300, toolCalls: 3, toolErrors: 1 } },
  ],
  error: [
    { type: "start", messageId: "m-error" },
    { type: "start-step" },
    { type: "finish-step" },
    { type: "error", errorText: "rate limited" },
    { type: "finish" },
  ],
  question: [
    { type: "start", messageId: "m-question" },
    { type: "start-step" },
    { type: "tool-input-start", ...ask },
    { type: "tool-input-available", ...ask, input: { questionId: "q1", text: "Which branch?" } },
    { type: "finish-step" },
    { type: "finish" },
  ],
  // The rest of the turn, after the answer: the same message.
  answered: [
    { type: "start", messageId: "m-question" },
    { type: "start-step" },
    { type: "text-start", id: "x2" },
    { type: "text-delta", id: "x2", delta: "On main." },
    { type: "text-end", id: "x2" },
    { type: "finish-step" },
    { type: "finish" },
  ],
  image: [
    { type: "start", messageId: "m-image" },
    { type: "start-step" },
    { type: "text-start", id: "x1" },
    { type: "text-delta", id: "x1", delta: 'A cat: ![a grey cat](https://images.example/cat.png) <img src="https://images.example/raw.png">' },
    { type: "text-end", id: "x1" },
    { type: "finish-step" },
    { type: "finish" },
  ],
  thanks: [
    { type: "start", messageId: "m-thanks" },
    { type: "start-step" },
    { type: "text-start", id: "x1" },
    { type: "text-delta", id: "x1", delta: "Thanks." },
    { type: "text-end", id: "x1" },
    { type: "finish-step" },
    { type: "finish" },
  ],
};

/**
 * The playground, its chat POSTs answered with `streams` in turn. Returns { page, bodies, heads }:
 * the JSON body and the headers of each POST.
 */
async function playgroundWith(streams) {
  const page = await setup.browser.newPage();
  // Every test starts in the normal trace mode (the visitor's choice on the playground, whose
  // own is verbose), whatever an earlier one chose.
  await page.addInitScript(() => localStorage.setItem("session-agent-chat:trace", "normal"));
  const bodies = [];
  const heads = [];
  await page.route(/\/api\/sessions\/[^/]+\/chat$/, (route) => {
    bodies.push(route.request().postDataJSON());
    heads.push(route.request().headers());
    const chunks = STREAMS[streams[bodies.length - 1]];
    route.fulfill(uiMessageStream(chunks));
  });
  await page.goto(`${setup.worker.base}/?session=${sessionId("render")}`);
  await panel(page).message.waitFor();
  return { page, bodies, heads };
}

describe("rendering", () => {
  test("Markdown is rendered and sanitised; reasoning collapsed; a failed tool and the work summary", async () => {
    const { page, bodies } = await playgroundWith(["full"]);
    await sendPrompt(page, "Find the TODOs");
    const answer = panel(page).answers.first();
    await answer.locator(".summary").waitFor();
    assert.equal(await answer.locator(".markdown strong").first().innerText(), "Bold");
    // HTML in the agent's text shows as text: no element of its making, no handler, no script URL.
    const made = await answer.locator(".markdown *").evaluateAll((elements) =>
      elements.map((el) => [el.tagName, ...[...el.attributes].map((a) => `${a.name}=${a.value}`)].join(" ")),
    );
    assert.deepEqual(made.filter((e) => /^(IMG|SCRIPT)|\bon\w+=|javascript:/i.test(e)), [], made.join("\n"));
    assert.match(await answer.locator(".markdown").innerText(), /<script>window\.\S*xss = 2<\/script>/);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    const bad = answer.locator(".markdown a", { hasText: "bad" });
    assert.equal(await bad.getAttribute("href"), null, "a javascript: link has no address");
    const link = answer.locator(".markdown a", { hasText: "docs" });
    assert.equal(await link.getAttribute("href"), "https://example.com/docs");
    assert.equal(await link.getAttribute("target"), "_blank");
    assert.equal(await link.getAttribute("rel"), "noopener noreferrer");

    const reasoning = answer.locator("details.reasoning");
    assert.equal(await reasoning.getAttribute("open"), null);
    assert.equal(await reasoning.locator("summary").innerText(), "Reasoning");
    const card = answer.locator("details.tool");
    assert.equal(squashed(await card.locator("summary").innerText()).toLowerCase(), "grep failed no such file");
    assert.equal(await answer.locator(".summary").innerText(), "Worked for 12 s · 3 tools · 1 failed");

    assert.equal(bodies[0].onDisconnect, "detach");
    assert.equal(bodies[0].trace, "normal");
    assert.deepEqual(page.errors, []);
  });

  test("images in the agent's Markdown show only where the site allows it; elsewhere a link, and no request", async () => {
    const { page } = await playgroundWith(["image", "image"]);
    const fetched = [];
    page.on("request", (request) => request.url().startsWith("https://images.example/") && fetched.push(request.url()));
    await sendPrompt(page, "Show me");
    const answer = panel(page).answers.first();
    await answer.getByText("A cat:").waitFor();
    assert.equal(await answer.locator("img").count(), 0);
    const link = answer.getByRole("link", { name: "Image: a grey cat" });
    assert.equal(await link.getAttribute("href"), "https://images.example/cat.png");
    assert.deepEqual(fetched, []);

    // The site allows them (the playground's panel mounted again, with `allowImages`).
    await page.evaluate((session) => AgentChat.init({ mount: "#chat", session, allowImages: true }), `${sessionId("render")}-images`);
    await panel(page).message.waitFor();
    await sendPrompt(page, "Show me again");
    const shown = panel(page).answers.first().locator("img");
    await until(async () => (await shown.count()) === 1, "the Markdown image");
    assert.deepEqual(await shown.evaluate((image) => [image.getAttribute("src"), image.alt]), ["https://images.example/cat.png", "a grey cat"]);
    // HTML in the text is text, allowed images or not.
    assert.match(await panel(page).answers.first().innerText(), /<img src="https:\/\/images.example\/raw.png">/);
    assert.deepEqual(page.errors, []);
  });

  test("an error shows as a line with Retry, which sends the message again", async () => {
    const { page, bodies } = await playgroundWith(["error", "thanks"]);
    await page.getByRole("combobox", { name: "Trace" }).selectOption("minimal");
    await sendPrompt(page, "Hello");
    const alert = page.getByRole("alert");
    await alert.getByText("rate limited").waitFor();
    await alert.getByRole("button", { name: "Retry" }).click();
    await page.getByText("Thanks.").waitFor();
    assert.equal(await alert.count(), 0);
    assert.deepEqual(
      bodies.map((b) => [b.trace, b.messages.at(-1).role, b.messages.at(-1).parts.at(-1).text]),
      [
        ["minimal", "user", "Hello"],
        ["minimal", "user", "Hello"],
      ],
    );
  });

  test("a question without options takes a free-text answer: the askUser tool's output, posted by itself", async () => {
    const { page, bodies, heads } = await playgroundWith(["question", "answered"]);
    await sendPrompt(page, "Deploy");
    const question = panel(page).question;
    await question.getByText("Which branch?").waitFor();
    await question.getByRole("textbox", { name: "Answer" }).fill("main");
    await question.getByRole("button", { name: "Answer" }).click();
    await page.getByText("On main.").waitFor();
    // The assistant's message sent back, its question answered; no message of the visitor's.
    const [user, assistant] = bodies[1].messages;
    assert.equal(bodies[1].messages.length, 2);
    assert.equal(user.role, "user");
    assert.equal(assistant.role, "assistant");
    const answered = assistant.parts.find((part) => part.type === "tool-askUser");
    assert.deepEqual([answered.state, answered.toolCallId, answered.output], ["output-available", "q1", "main"]);
    assert.deepEqual(heads.map((h) => h["x-questions"]), ["approvals", "approvals"]);
    assert.equal(await question.getByRole("textbox", { name: "Answer" }).count(), 0);
    assert.equal(await question.locator(".question-answer").innerText(), "Answered: main");
    assert.equal(await panel(page).answers.count(), 1);
  });

  test("an old data-question part in the history shows, with its answer, and asks nothing", async () => {
    const page = await setup.browser.newPage();
    const history = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "Deploy" }] },
      { id: "a1", role: "assistant", parts: [{ type: "data-question", id: "q0", data: { questionId: "q0", text: "Which branch?", options: ["main", "dev"], answer: "dev" } }] },
    ];
    await page.route(/\/api\/sessions\/[^/]+\/messages(\?.*)?$/, (route) => route.fulfill({ json: history }));
    await page.goto(`${setup.worker.base}/?session=${sessionId("render-old-question")}`);
    const question = panel(page).question;
    await question.getByText("Which branch?").waitFor();
    assert.equal(await question.locator(".question-answer").innerText(), "Answered: dev");
    assert.equal(await question.getByRole("button").count(), 0);
    await panel(page).send.waitFor();
  });

  test("on load, the history then the resumed turn in flight, each message once", async () => {
    const page = await setup.browser.newPage();
    // The playground's own trace mode, whatever an earlier test chose.
    await page.addInitScript(() => localStorage.removeItem("session-agent-chat:trace"));
    const user = (id, text) => ({ id, role: "user", parts: [{ type: "text", text }] });
    const history = [
      user("u1", "Hi"),
      { id: "a1", role: "assistant", parts: [{ type: "text", text: "Hello." }] },
      user("u2", "Count"),
    ];
    const replay = [
      { type: "start", messageId: "t2" },
      { type: "start-step" },
      { type: "text-start", id: "x1" },
      { type: "text-delta", id: "x1", delta: "one two" },
      { type: "text-end", id: "x1" },
      { type: "finish-step" },
      { type: "finish" },
    ];
    const asked = [];
    await page.route(/\/api\/sessions\/[^/]+\/messages(\?.*)?$/, (route) => {
      asked.push(`history ${route.request().headers()["x-questions"]}`);
      return route.fulfill({ json: history });
    });
    // The history and the resume are this test's; the session's feed, which would tell the
    // worker's own (empty) session, is not reached.
    await page.route(/\/api\/sessions\/[^/]+\/events$/, (route) => route.abort());
    const resumed = [];
    await page.route(/\/api\/sessions\/[^/]+\/chat\/[^/]+\/stream(\?.*)?$/, (route) => {
      resumed.push(new URL(route.request().url()).searchParams.get("trace"));
      asked.push(`resume ${route.request().headers()["x-questions"]}`);
      return route.fulfill(uiMessageStream(replay));
    });
    await page.goto(`${setup.worker.base}/?session=${sessionId("render-resume")}`);
    await page.getByText("one two").waitFor();
    await panel(page).send.waitFor();
    assert.deepEqual(resumed, ["full"], "the resume asks for the panel's trace mode (the playground's: verbose)");
    assert.deepEqual(asked, ["history approvals", "resume approvals"], "a waiting question would come as the POST's parts");
    const shown = await page.locator(".message").allInnerTexts();
    assert.deepEqual(shown.map(squashed), ["Hi", "Hello.", "Count", "one two"]);
  });
});

test("a history the worker refuses for now (503 agent_not_ready, Retry-After) shows why, never an empty conversation, and loads by itself", async () => {
  const page = await setup.browser.newPage();
  const history = [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] },
    { id: "a1", role: "assistant", parts: [{ type: "text", text: "Hello." }] },
  ];
  let asked = 0;
  await page.route(/\/api\/sessions\/[^/]+\/messages(\?.*)?$/, (route) => {
    asked += 1;
    if (asked > 1) return route.fulfill({ json: history });
    return route.fulfill({
      status: 503,
      headers: { "retry-after": "0", "content-type": "application/json" },
      body: JSON.stringify({ error: { code: "agent_not_ready", message: "The agent closed the connection before it said what this conversation holds (it may be restarting). Try again in a moment." } }),
    });
  });
  await page.route(/\/api\/sessions\/[^/]+\/events$/, (route) => route.abort());
  await page.goto(`${setup.worker.base}/?session=${sessionId("render-not-ready")}`);
  const alert = page.getByRole("alert");
  await alert.waitFor();
  assert.match(await alert.innerText(), /The agent is not ready yet\. Trying again in a moment…/);
  assert.equal(await panel(page).message.count(), 0, "no conversation (and no message box) while the history is not loaded");
  assert.equal(await page.locator(".message").count(), 0);
  // Asked again by itself (no click): the conversation, and the alert gone.
  await page.getByText("Hello.").waitFor({ timeout: 10_000 });
  await panel(page).message.waitFor();
  assert.equal(asked, 2);
  assert.equal(await page.getByRole("alert").count(), 0);
});
