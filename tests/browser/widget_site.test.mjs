// The widget on a real site, from the visitor's side and the site's: a logout that forgets the
// visitor, sends that wait their turn, two panels on one page, a framework that re-renders
// <body>, a sentence for the visitor where the worker refuses a request, the page's `message`
// event for a question, "worked for" and "stopped" that outlive a reload, a question that comes
// while the panel is closed (unread; the page's sends wait for its turn's end), a link's
// `?session=` that names no session unless the site opts in, and no report from a strict content
// security policy through all of it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { sessionId, prompts } from "../e2e/harness.mjs";
import { panel, sendPrompt, until, squashed } from "./browser.mjs";
import { embeddingSite, eventsOf } from "./site.mjs";

/** Short, so that a prompt over it is refused (413 prompt_too_long). */
const MAX_PROMPT_CHARS = 2000;

const setup = embeddingSite((origin) => ({ ALLOWED_ORIGINS: origin, MAX_PROMPT_CHARS: String(MAX_PROMPT_CHARS) }));

/** Every key of the widget's in this page's localStorage, with its value. */
const storedKeys = (page) =>
  page.evaluate(() => Object.fromEntries(Object.keys(localStorage).filter((k) => k.startsWith("session-agent-chat:")).map((k) => [k, localStorage.getItem(k)])));

/** The text of the conversation as the visitor reads it. */
const conversation = async (page) => squashed(await page.locator("session-agent-chat .messages").first().innerText());

describe("the widget on a site", () => {
  test("logout forgets the visitor: an empty panel, after a reload too, and nothing in the browser reaches the old sessions", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: {} }));
    await page.getByRole("button", { name: "Open chat" }).waitFor();
    assert.deepEqual(await storedKeys(page), {}, "nothing stored before the visitor writes");

    await page.evaluate(() => AgentChat.send("Before login: my order 5531, my address is 12 Rue Exemple"));
    const { answers } = panel(page);
    await until(async () => (await answers.count()) === 1 && /5531/.test(await answers.first().innerText()), "the anonymous answer");
    const anonymous = (await eventsOf(page, "ready"))[0].session;
    const { "session-agent-chat:list": listKey, ...sessions } = await storedKeys(page);
    assert.deepEqual(Object.values(sessions), [anonymous], "kept once the visitor wrote");
    assert.match(listKey, /^[0-9a-f-]{36}$/, "and the key of their list of conversations beside it");

    await page.evaluate(() => AgentChat.identify({ token: "alice-token", user: { id: "alice" } }));
    await until(async () => (await eventsOf(page, "ready")).length === 2, "alice's panel");
    const alice = (await eventsOf(page, "ready"))[1].session;
    await page.evaluate(() => AgentChat.send("I am alice, card ending 4242"));
    await until(async () => (await answers.count()) === 1 && /4242/.test(await answers.first().innerText()), "alice's answer");
    assert.equal(Object.keys(await storedKeys(page)).length, 4, "both sessions kept, each with its list's key");

    await page.evaluate(() => AgentChat.logout());
    await page.evaluate(() => AgentChat.open());
    await panel(page).message.waitFor();
    await page.locator("session-agent-chat .empty").waitFor();
    assert.equal(await answers.count(), 0);
    assert.doesNotMatch(await conversation(page), /5531|4242|alice/);
    assert.deepEqual(await storedKeys(page), {}, "nothing of either session in localStorage");

    await page.reload();
    await page.evaluate(() => AgentChat.open());
    await page.locator("session-agent-chat .empty").waitFor();
    assert.equal(await answers.count(), 0, "an empty panel after a reload");
    const after = (await eventsOf(page, "ready"))[0].session;
    assert.ok(![anonymous, alice].includes(after), "a new session");

    // What the browser keeps: no storage holds either id, and offline, its HTTP cache answers
    // nothing for the old sessions' history or resume (the worker sends them no-store).
    const state = await page.context().storageState();
    const kept = JSON.stringify(state);
    for (const old of [anonymous, alice, listKey]) assert.ok(!kept.includes(old), `${old} is not in the browser's storage`);
    assert.deepEqual(await page.evaluate(() => ({ session: sessionStorage.length, cookies: document.cookie })), { session: 0, cookies: "" });
    await page.context().setOffline(true);
    try {
      const cached = await page.evaluate(
        async ({ base, sessions }) => {
          const found = [];
          for (const session of sessions) {
            for (const path of [`messages?trace=normal`, `chat/${session}/stream?trace=normal`]) {
              try {
                // force-cache: a cached answer, however old, without asking the (offline) network.
                const response = await fetch(`${base}/api/sessions/${session}/${path}`, { cache: "force-cache" });
                found.push(`${path}: ${response.status}`);
              } catch {
                // Not in the cache, and the network is off: unreachable.
              }
            }
          }
          return found;
        },
        { base: setup.worker.base, sessions: [anonymous, alice] },
      );
      assert.deepEqual(cached, [], "nothing of the old sessions in the HTTP cache");
    } finally {
      await page.context().setOffline(false);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("three sends in one tick: three answers, in order, and no error", async () => {
    const page = await setup.browser.newPage();
    const session = sessionId("burst");
    await page.goto(setup.url({ init: { session } }));
    await page.getByRole("button", { name: "Open chat" }).waitFor();
    await page.evaluate(() => {
      AgentChat.send("/slow 3 40");
      AgentChat.send("Hi");
      AgentChat.send("I need a refund");
    });
    const { answers } = panel(page);
    await until(async () => (await answers.count()) === 3, "three answers", 30_000);
    await until(async () => (await eventsOf(page, "message")).length === 3, "three message events", 20_000);
    const texts = await answers.allInnerTexts();
    assert.match(texts[0], /w1 w2 w3/);
    assert.match(texts[1], /Hi/);
    assert.match(texts[2], /I need a refund/);
    const users = await page.locator("session-agent-chat .message.user").allInnerTexts();
    assert.deepEqual(users.map((t) => t.trim()), ["/slow 3 40", "Hi", "I need a refund"]);
    assert.deepEqual((await prompts(setup.worker.base, session)).map((e) => e.frame.content), ["/slow 3 40", "Hi", "I need a refund"]);
    assert.deepEqual(await eventsOf(page, "error"), []);
    assert.equal(await page.getByRole("alert").count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a framework that re-renders <body>: open() brings the panel back, conversation and all", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { session: sessionId("rerender") } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await sendPrompt(page, "before the re-render");
    const { answers } = panel(page);
    await until(async () => (await eventsOf(page, "message")).length === 1, "the first answer");
    await page.evaluate(() => AgentChat.close());

    // As React's legacy render into <body> or htmx's hx-boost do: the body's children replaced.
    await page.evaluate(() => {
      document.body.innerHTML = "<main><h1>Another page</h1></main>";
    });
    await page.evaluate(() => AgentChat.open());
    await page.getByRole("dialog").waitFor();
    assert.match(await answers.first().innerText(), /before the re-render/, "the same conversation");
    await sendPrompt(page, "after the re-render");
    await until(async () => (await answers.count()) === 2, "an answer after it");

    // As Turbo does: a new <body> element in place of the old one.
    await page.evaluate(() => {
      AgentChat.close();
      const next = document.createElement("body");
      next.innerHTML = "<main><h1>A third page</h1></main>";
      document.documentElement.replaceChild(next, document.body);
    });
    await page.getByRole("button", { name: "Open chat" }).waitFor();
    await page.evaluate(() => AgentChat.open());
    await page.getByRole("dialog").waitFor();
    assert.equal(await answers.count(), 2);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("two widget.js tags: each is its own panel, reached by its name; events say which", async () => {
    const page = await setup.browser.newPage();
    const logged = [];
    page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    const [main, second] = [sessionId("first"), sessionId("second")];
    await page.goto(setup.url({ init: { session: main }, second: { name: "sales", mount: "#second", session: second } }));
    await until(async () => (await eventsOf(page, "ready")).length === 2, "two panels");
    assert.deepEqual((await eventsOf(page, "ready")).map((e) => [e.instance, e.session]).sort(), [["default", main], ["sales", second]].sort());

    await page.evaluate(() => AgentChat.instance("sales").send("a question for sales"));
    const inline = page.locator("session-agent-chat[inline] .message.assistant");
    await until(async () => (await inline.count()) === 1 && /for sales/.test(await inline.first().innerText()), "the inline panel's answer");
    assert.equal(await page.getByRole("dialog").isVisible(), false, "the launcher's panel stayed closed");

    await page.evaluate(() => AgentChat.send("a question for the launcher's panel"));
    await page.getByRole("dialog").waitFor();
    const popup = page.locator("session-agent-chat:not([inline]) .message.assistant");
    await until(async () => (await popup.count()) === 1, "the dialog's answer");
    assert.equal(await inline.count(), 1, "the inline panel got nothing more");
    assert.deepEqual((await prompts(setup.worker.base, second)).map((e) => e.frame.content), ["a question for sales"]);
    assert.deepEqual((await prompts(setup.worker.base, main)).map((e) => e.frame.content), ["a question for the launcher's panel"]);
    await until(async () => (await eventsOf(page, "message")).length === 2, "both message events");
    assert.deepEqual((await eventsOf(page, "message")).map((m) => m.instance).sort(), ["default", "sales"]);

    assert.equal(await page.evaluate(() => AgentChat.instance("nope")), null);
    assert.match(logged.join("\n"), /no instance "nope" \(instances: default, sales\)/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a refused request shows a sentence for the visitor; the page's error event and the console get the worker's words", async () => {
    const page = await setup.browser.newPage();
    const warned = [];
    page.on("console", (m) => warned.push(m.text()));
    await page.goto(setup.url({ init: { session: sessionId("refused") } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await panel(page).message.fill("x".repeat(MAX_PROMPT_CHARS + 1));
    await panel(page).send.click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    const shown = squashed(await alert.innerText());
    assert.match(shown, /This message is too long to send/);
    assert.doesNotMatch(shown, /MAX_PROMPT_CHARS|characters|over the limit|\d{4}/, "none of the worker's own words");
    // The event fires in the effect after the render that shows the alert.
    await until(async () => (await eventsOf(page, "error")).length > 0, "the page's error event");
    const [error] = await eventsOf(page, "error");
    assert.equal(error.code, "prompt_too_long");
    assert.match(error.message, /too long to send/);
    assert.match(error.detail, /2000/);
    assert.ok(warned.some((text) => text.includes(error.detail)), "the worker's words in the console");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("setContext refuses, in the console, what the worker would refuse; the context stays as it was", async () => {
    const page = await setup.browser.newPage();
    const logged = [];
    page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    const session = sessionId("context-limit");
    await page.goto(setup.url({ init: { session } }));
    await page.getByRole("button", { name: "Open chat" }).waitFor();
    await page.evaluate(() => {
      AgentChat.setContext({ page: "/shop/boots-42" });
      AgentChat.setContext({ notes: "n".repeat(20_000) });
      const loop = {};
      loop.self = loop;
      AgentChat.setContext(loop);
    });
    assert.match(logged.join("\n"), /setContext is \d+ bytes of JSON, over the worker's limit of 16384/);
    assert.match(logged.join("\n"), /setContext cannot be sent as JSON/);
    await page.evaluate(() => AgentChat.send("what page am I on?"));
    await until(async () => (await panel(page).answers.count()) === 1, "the answer");
    assert.deepEqual((await prompts(setup.worker.base, session)).map((e) => e.frame.context), [{ page: "/shop/boots-42" }]);
    assert.equal(await page.getByRole("alert").count(), 0, "nothing refused by the worker");
    await page.close();
  });

  test("with showUsage, the line under an answer says the tokens the agent reported, after a reload too", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { session: sessionId("usage"), showUsage: true } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const { answers } = panel(page);
    const summary = () => answers.nth(0).locator(".summary").innerText().catch(() => "");
    await sendPrompt(page, "what do you do?");
    await until(async () => /^Worked for /.test(await summary()), "its worked-for line");
    // The demo agent counts the prompt's 3 words in and a token a delta out.
    const [, tokens] = (await summary()).match(/^Worked for (?:\d+ ms|[\d.]+ s) · 1 tool · ([\d,]+) tokens$/) ?? [];
    assert.ok(Number(tokens.replaceAll(",", "")) > 3, `tokens in the line: ${await summary()}`);
    // A reload shows the same count, from the history.
    await page.reload();
    await page.evaluate(() => AgentChat.open());
    await until(async () => / tokens$/.test(await summary()), "the line after the reload");
    assert.equal((await summary()).match(/ · ([\d,]+) tokens$/)?.[1], tokens, "the count after the reload");
    await page.close();
  });

  test("worked-for and stopped lines outlive a reload; a question turn's message event carries its text", async () => {
    const page = await setup.browser.newPage();
    await page.goto(setup.url({ init: { session: sessionId("lines") } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    const { answers, stop, send } = panel(page);
    const summary = (i) => answers.nth(i).locator(".summary").innerText().catch(() => "");

    await sendPrompt(page, "what do you do?");
    await until(async () => /^Worked for /.test(await summary(0)), "its worked-for line");
    assert.match(await summary(0), /^Worked for (\d+ ms|[\d.]+ s) · 1 tool$/);

    await sendPrompt(page, "/slow 60 100");
    await until(async () => /w3/.test(await answers.nth(1).innerText().catch(() => "")), "the slow turn's first words");
    await stop.click();
    await until(async () => /^Stopped/.test(await summary(1)), "the stopped line");
    assert.match(await summary(1), /^Stopped( after (\d+ ms|[\d.]+ s))?$/);
    assert.equal((await eventsOf(page, "message")).at(-1).stopped, true, "the message event says so");

    await page.reload();
    await page.evaluate(() => AgentChat.open());
    await until(async () => (await answers.count()) === 2, "the history");
    // The history's times are the agent's, the stream's the worker's: the line, not its number.
    await until(async () => (await summary(1)) !== "", "the lines");
    assert.match(await summary(0), /^Worked for (\d+ ms|[\d.]+ s) · 1 tool$/, "worked-for after the reload");
    assert.match(await summary(1), /^Stopped after (\d+ ms|[\d.]+ s)$/, "stopped after the reload");

    await send.waitFor();
    await sendPrompt(page, "/ask Deploy now?");
    await until(async () => (await eventsOf(page, "message")).length === 1, "the question's message event");
    const [asked] = await eventsOf(page, "message");
    assert.equal(asked.text, "Deploy now?");
    assert.deepEqual(asked.question.options, ["yes", "no"]);
    assert.equal(typeof asked.question.id, "string");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a question while the panel is closed is unread and named in the message event; the page's next send waits for the answered turn", async () => {
    const page = await setup.browser.newPage();
    const session = sessionId("ask-closed");
    await page.goto(setup.url({ init: { session } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await panel(page).message.waitFor();
    // send() opens the panel: closed again at once, so the question comes unread.
    await page.evaluate(() => {
      window.keepClosed = () => AgentChat.close();
      AgentChat.close();
      AgentChat.on("open", keepClosed);
      AgentChat.send("/ask Ship it?");
      AgentChat.send("after the question");
    });
    await until(async () => (await eventsOf(page, "unread")).some((e) => e.count === 1), "the question, unread");
    const [asked] = await eventsOf(page, "message");
    assert.deepEqual(asked.question, { id: asked.question.id, text: "Ship it?", options: ["yes", "no"] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual((await prompts(setup.worker.base, session)).map((e) => e.frame.content), ["/ask Ship it?"], "the second send waits");

    await page.evaluate(() => AgentChat.off("open", keepClosed));
    await page.getByRole("button", { name: "Open chat, 1 unread answer" }).click();
    await panel(page).question.getByRole("button", { name: "no" }).click();
    await until(async () => (await eventsOf(page, "message")).length === 3, "the answered turn's end, then the next turn's");
    const [, answered, next] = await eventsOf(page, "message");
    assert.equal(answered.id, asked.id, "the same message, ended again");
    assert.equal(answered.question, undefined);
    assert.equal(answered.text, "Ship it?\n\nYou answered: no.");
    assert.notEqual(next.id, asked.id);
    assert.deepEqual((await prompts(setup.worker.base, session)).map((e) => e.frame.content), ["/ask Ship it?", "after the question"]);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("destroy() takes the panel off the page and leaves its detached turn running; init() brings it back, turn and all", async () => {
    const page = await setup.browser.newPage();
    const session = sessionId("destroy");
    await page.goto(setup.url({ init: { session } }));
    await page.getByRole("button", { name: "Open chat" }).click();
    await sendPrompt(page, "/slow 20 100");
    const { answers } = panel(page);
    await until(async () => /w2/.test(await answers.first().innerText().catch(() => "")), "the turn under way");
    await page.evaluate(() => AgentChat.destroy());
    assert.equal(await page.locator("session-agent-chat").count(), 0, "nothing of the widget's on the page");
    await page.evaluate((s) => AgentChat.init({ session: s }), session);
    await page.getByRole("button", { name: "Open chat" }).click();
    await until(async () => /w20/.test(await answers.first().innerText().catch(() => "")), "the turn, resumed to its end", 20_000);
    const received = (await prompts(setup.worker.base, session)).length;
    assert.equal(received, 1);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a link's ?session= names no session unless the site opts in (allowUrlSession, data-allow-url-session)", async () => {
    const linked = sessionId("linked");
    const page = await setup.browser.newPage();
    // A link someone sent: the site's page with ?session= of their choosing, on a site that did not opt in.
    await page.goto(`${setup.url({ init: {} })}&session=${linked}`);
    await until(async () => (await eventsOf(page, "ready")).length === 1, "the panel");
    const own = (await eventsOf(page, "ready"))[0].session;
    assert.notEqual(own, linked);
    await page.evaluate(() => AgentChat.send("my address is 12 Rue Exemple"));
    await until(async () => (await prompts(setup.worker.base, own)).length === 1, "the prompt, in the visitor's own session");
    assert.deepEqual(await prompts(setup.worker.base, linked), [], "nothing reached the link's session");

    // The site opts in (`allowUrlSession` in init; the playground's tag, data-allow-url-session,
    // is tests/browser/playground.test.mjs's): the link's session is the page's first panel's.
    const opted = await setup.browser.newPage();
    await opted.goto(`${setup.url({ init: { allowUrlSession: true } })}&session=${linked}`);
    await until(async () => (await eventsOf(opted, "ready")).length === 1, "the opted-in panel");
    assert.equal((await eventsOf(opted, "ready"))[0].session, linked);
    assert.deepEqual(opted.errors, []);
    await opted.close();

    // A second tag's opt-in reads nothing: only the page's first panel may take the address's session.
    const second = await setup.browser.newPage();
    await second.goto(`${setup.url({ init: {}, second: { name: "sales", mount: "#second", "allow-url-session": "" } })}&session=${linked}`);
    await until(async () => (await eventsOf(second, "ready")).length === 2, "two panels");
    const ready = (await eventsOf(second, "ready")).map((e) => e.session);
    assert.ok(!ready.includes(linked), JSON.stringify(ready));
    assert.deepEqual(second.errors, []);
    await second.close();
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("every page above ran under a strict nonce CSP without 'unsafe-eval': not one report", async () => {
    // Reports go out on their own schedule: give the last page's a moment.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(setup.reports, []);
  });
});
