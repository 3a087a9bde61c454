// The widget's JavaScript handle as a site uses it: `window.AgentChat`, called through the embed
// snippet's stub before the script has loaded, with a token function that mints short-lived JWTs
// (the worker in `jwt` mode): a token that expires mid-session is renewed without the visitor
// noticing; `identify` and `logout` change who the panel is for; `ready` and `error` events fire;
// two devices of one user follow one session live, their tokens renewed as they expire.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { sessionId, prompts } from "../e2e/harness.mjs";
import { siteWorkerAndBrowser, launchBrowser, panel, sendPrompt, until, axeViolations } from "./browser.mjs";

const SECRET = "widget-api-secret-0123456789-0123456789";
/** The worker tolerates 60 s of clock skew on `exp` (CLOCK_SKEW_SECS in crates/core/src/auth/jwt.rs). */
const SKEW_SECS = 60;
/** How long a minted token is accepted: short, so that one expires within the test. */
const TOKEN_LIFE_SECS = 3;

/** An HS256 JWT the worker accepts for `TOKEN_LIFE_SECS` from now, for any session. */
function mint(sub) {
  const enc = (v) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const exp = Math.floor(Date.now() / 1000) + TOKEN_LIFE_SECS - SKEW_SECS;
  const input = `${enc({ alg: "HS256", typ: "JWT" })}.${enc({ sub, sessions: "*", exp })}`;
  return `${input}.${createHmac("sha256", SECRET).update(input).digest("base64url")}`;
}

/**
 * The site's own script: the embed snippet's stub, then what a site does with it before the
 * widget has loaded. `window.site` records what the page saw. `getToken` caches the site's token
 * and fetches a new one only when asked to renew (or has none), as a site's token code does.
 */
const SITE_JS = `
window.AgentChat = window.AgentChat || function () { (AgentChat.q = AgentChat.q || []).push(arguments); };
window.site = { ready: [], errors: [], renewals: 0, events: [] };
for (const name of ["open", "close", "message", "unread"]) AgentChat("on", name, (e) => site.events.push([name, e]));
let cached;
async function getToken({ renew }) {
  if (renew) site.renewals += 1;
  if (!cached || renew) cached = await (await fetch("/token?sub=" + encodeURIComponent(site.user || "anon"))).text();
  return cached;
}
window.siteGetToken = getToken;
AgentChat("on", "ready", (e) => site.ready.push(e.session));
AgentChat("on", "error", (e) => site.errors.push(e.message));
const params = new URLSearchParams(location.search);
if (params.get("mode") === "function") AgentChat("init", { session: params.get("session"), getToken, title: "Shop help" });
if (params.get("send")) AgentChat("send", params.get("send"));
if (params.get("mode") === "expired") AgentChat("init", { session: params.get("session"), token: params.get("token") });
if (params.get("mode") === "user") {
  site.user = "ada";
  AgentChat("identify", { getToken, user: { id: "ada" } });
}
`;

const minted = [];

const setup = siteWorkerAndBrowser((req, res) => {
  const url = new URL(req.url, "http://site");
  if (url.pathname === "/token") {
    minted.push(url.searchParams.get("sub"));
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(mint(url.searchParams.get("sub")));
    return;
  }
  if (url.pathname === "/site.js") {
    res.writeHead(200, { "content-type": "text/javascript" });
    res.end(SITE_JS);
    return;
  }
  res.writeHead(200, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `default-src 'none'; script-src 'self' ${setup.worker.base}; connect-src 'self' ${setup.worker.base}`,
  });
  // The site's script first, the widget's after it, loaded async: calls made before it are queued.
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site</title></head><body>
<script src="/site.js"></script><script src="${setup.worker.base}/widget.js" async></script></body></html>`);
}, (origin) => ({ AUTH_MODE: "jwt", AUTH_SECRET: SECRET, ALLOWED_ORIGINS: origin }));

async function openPanel(page) {
  await page.getByRole("button", { name: "Open chat" }).click();
  await panel(page).message.waitFor();
}

describe("widget API", () => {
  test("a token that expires mid-session is renewed: the visitor sees both answers and no error", async () => {
    const session = sessionId("renew");
    const page = await setup.browser.newPage();
    const before = minted.length;
    await page.goto(`${setup.site}/?mode=function&session=${session}`);
    await openPanel(page);
    // The queued `on("ready")` and `init` ran once the script loaded, in that order.
    assert.deepEqual(await page.evaluate(() => site.ready), [session]);

    const { answers } = panel(page);
    await sendPrompt(page, "first question");
    await until(async () => (await answers.count()) === 1 && /first question/.test(await answers.first().innerText()), "the first answer");

    // Past the token's life: the next request is refused (401), the function renews, it is sent again.
    await new Promise((resolve) => setTimeout(resolve, (TOKEN_LIFE_SECS + 1) * 1000));
    await sendPrompt(page, "second question");
    await until(async () => (await answers.count()) === 2 && /second question/.test(await answers.nth(1).innerText()), "the second answer");

    assert.equal(await page.getByRole("alert").count(), 0, "no error shown");
    const seen = await page.evaluate(() => ({ renewals: site.renewals, errors: site.errors }));
    // At least the second question's 401 renewed it (a slow machine may take the first turn
    // past a token's life too); every token but the first was minted on a renewal.
    assert.ok(seen.renewals >= 1, "renewed after the 401");
    assert.deepEqual(seen.errors, []);
    assert.equal(minted.length - before, 1 + seen.renewals, "a new token only when the last was refused");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("two devices of one user on one session, each with tokens that expire as it goes: a turn from either shows live in the other", { timeout: 60_000 }, async () => {
    const session = sessionId("devices");
    const phone = await launchBrowser({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const open = async (browser) => {
        const page = await browser.newPage();
        // The same user ("anon", the site's token function) on both, with a token that lives 3 s.
        await page.goto(`${setup.site}/?mode=function&session=${session}`);
        await openPanel(page);
        return page;
      };
      const [laptop, mobile] = [await open(setup.browser), await open(phone)];
      // Each message's words (not the line under a reply, whose "Worked for" each stream times).
      const texts = (page) =>
        page.evaluate(() =>
          [...document.querySelector("session-agent-chat").shadowRoot.querySelectorAll(".message")].map((m) =>
            (m.querySelector(".bubble") ?? m.querySelector(".markdown") ?? m).innerText.trim(),
          ),
        );
      await sendPrompt(laptop, "/slow 30 100");
      await until(async () => {
        const shown = await texts(mobile);
        return shown.length === 2 && /\/slow 30 100/.test(shown[0]) && /w1/.test(shown[1]);
      }, "the laptop's turn on the phone, streaming");
      assert.equal(await panel(mobile).stop.count(), 1, "the phone shows Stop while it runs");
      await until(async () => (await panel(laptop).send.count()) === 1 && (await panel(mobile).send.count()) === 1, "the turn's end on both");
      // Past a token's life: the feed ended and came back with a renewed token.
      await new Promise((resolve) => setTimeout(resolve, (TOKEN_LIFE_SECS + 1) * 1000));
      await sendPrompt(mobile, "/slow 3 20");
      await until(async () => (await texts(laptop)).length === 4 && (await panel(laptop).send.count()) === 1, "the phone's turn on the laptop");
      assert.deepEqual(await texts(laptop), await texts(mobile));
      for (const page of [laptop, mobile]) {
        assert.equal(await page.getByRole("alert").count(), 0, "no error shown");
        assert.deepEqual(page.errors, []);
      }
      await laptop.close();
    } finally {
      await phone.close();
    }
  });

  test("a fixed token that has expired is not retried: the error shows, and the error event fires", async () => {
    const session = sessionId("fixed");
    const page = await setup.browser.newPage();
    const expired = mint("anon");
    await new Promise((resolve) => setTimeout(resolve, (TOKEN_LIFE_SECS + 1) * 1000));
    await page.goto(`${setup.site}/?mode=expired&session=${session}&token=${encodeURIComponent(expired)}`);
    await page.getByRole("button", { name: "Open chat" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    assert.match(await alert.innerText(), /expired/);
    await until(async () => (await page.evaluate(() => site.errors.length)) > 0, "the error event");
    assert.match((await page.evaluate(() => site.errors))[0], /expired/);
    await page.close();
  });

  test("identify gives a user their own session; logout forgets it and starts anew", async () => {
    const page = await setup.browser.newPage();
    await page.goto(`${setup.site}/?mode=user`);
    await openPanel(page);
    const first = await page.evaluate(() => site.ready[0]);
    const kept = () => page.evaluate(() => localStorage.getItem("session-agent-chat:session:ada"));
    assert.equal(await kept(), null, "nothing is kept before ada writes");
    await sendPrompt(page, "hello from ada");
    await until(async () => (await panel(page).answers.count()) === 1, "ada's answer");
    assert.equal(await kept(), first, "the session is kept under the user's key");
    assert.ok(minted.includes("ada"), "the token function minted ada's token");

    // A reload comes back to ada's session, with her history.
    await page.reload();
    await openPanel(page);
    assert.equal(await page.evaluate(() => site.ready[0]), first);
    await until(async () => (await panel(page).answers.count()) === 1, "ada's history after a reload");

    await page.evaluate(() => AgentChat.logout());
    assert.equal(await page.evaluate(() => localStorage.getItem("session-agent-chat:session:ada")), null);
    await until(async () => (await page.evaluate(() => site.ready.length)) === 2, "a new panel");
    const after = await page.evaluate(() => site.ready[1]);
    assert.notEqual(after, first, "a new session after logout");
    // Without ada's token the new panel asks the worker with none: refused, and it says so.
    await page.getByRole("button", { name: "Open chat" }).click();
    await until(async () => (await page.evaluate(() => site.errors.length)) > 0, "the refusal without a token");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("an unknown method or option is named in the console, and nothing breaks", async () => {
    const page = await setup.browser.newPage();
    const logged = [];
    page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    await page.goto(`${setup.site}/?mode=function&session=${sessionId("unknown")}`);
    await page.getByRole("button", { name: "Open chat" }).waitFor();
    await page.evaluate(() => {
      AgentChat("fly");
      AgentChat.init({ session: "x", colour: "red", getToken: siteGetToken });
    });
    await until(async () => logged.length >= 2, "two console errors");
    assert.match(logged.join("\n"), /no method "fly"/);
    assert.match(logged.join("\n"), /unknown option colour/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("open, close, toggle and send from the page; message and unread events; a send queued before load", async () => {
    const page = await setup.browser.newPage();
    // Queued before the script loaded: the panel opens and sends it once the history is in.
    await page.goto(`${setup.site}/?mode=function&session=${sessionId("calls")}&send=${encodeURIComponent("queued hello")}`);
    const { answers } = panel(page);
    await until(async () => (await answers.count()) === 1 && /queued hello/.test(await answers.first().innerText()), "the queued send's answer");
    await until(async () => (await page.evaluate(() => site.events.some(([n]) => n === "message"))), "the message event");
    const events = await page.evaluate(() => site.events);
    assert.deepEqual(events[0], ["open", { instance: "default" }]);
    const message = events.find(([n]) => n === "message")[1];
    assert.match(message.text, /queued hello/);
    assert.equal(typeof message.id, "string");

    await page.evaluate(() => AgentChat.close());
    await until(async () => !(await page.getByRole("dialog").isVisible()), "closed");
    // A turn that finishes while the panel is closed is unread, until it opens.
    await page.evaluate(() => {
      site.events.length = 0;
      AgentChat.send("/slow 4 150");
      AgentChat.toggle(); // send opened it; toggle closes it again while the turn streams
    });
    await until(async () => (await page.evaluate(() => site.events.some(([n]) => n === "unread"))), "the unread event", 20_000);
    assert.deepEqual((await page.evaluate(() => site.events)).filter(([n]) => n === "unread"), [["unread", { count: 1, instance: "default" }]]);
    await page.evaluate(() => AgentChat.open());
    await until(async () => (await page.evaluate(() => site.events.filter(([n]) => n === "unread").length)) === 2, "unread back to 0");
    assert.deepEqual((await page.evaluate(() => site.events)).filter(([n]) => n === "unread").at(-1), ["unread", { count: 0, instance: "default" }]);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the launcher opens a dialog that Escape closes, giving the focus back; axe finds no violation", async () => {
    const page = await setup.browser.newPage();
    await page.goto(`${setup.site}/?mode=function&session=${sessionId("keys")}`);
    const launcher = page.getByRole("button", { name: "Open chat" });
    assert.equal(await launcher.getAttribute("aria-expanded"), "false");
    await launcher.click();
    const dialog = page.getByRole("dialog", { name: "Shop help" });
    await dialog.waitFor();
    await panel(page).message.waitFor();
    await sendPrompt(page, "check me");
    await until(async () => (await panel(page).answers.count()) === 1, "an answer");
    // A turn under way, so the status line shows too (axeViolations holds its animation at its
    // dimmest frame): axe then judges the panel at its worst moment, not a random one.
    await until(async () => !(await panel(page).stop.isVisible()), "the first turn's end");
    // A turn that streams nothing (the page's close ends it): its first text would take the line
    // away (widget/src/status.js), which a loaded run could see before this read.
    await sendPrompt(page, "/hang");
    await page.getByRole("status").waitFor();
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], violations.join("\n"));

    await panel(page).message.press("Escape");
    await until(async () => !(await dialog.isVisible()), "Escape closes the dialog");
    const focused = () => page.evaluate(() => document.querySelector("session-agent-chat").shadowRoot.activeElement?.getAttribute("aria-label"));
    await until(async () => (await focused()) === "Open chat", "the focus back on the launcher");
    assert.equal(await launcher.getAttribute("aria-expanded"), "false");
    await launcher.click();
    await dialog.waitFor();
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the status line does not pulse for a reader who asked for less motion", async () => {
    const page = await setup.browser.newPage();
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${setup.site}/?mode=function&session=${sessionId("motion")}`);
    await page.getByRole("button", { name: "Open chat" }).click();
    await panel(page).message.waitFor();
    // A turn that streams nothing until it is stopped (the page's close ends it): its status line
    // ("Working…") stays for every check, however slowly a loaded machine goes; a turn's text
    // would take the line away (widget/src/status.js), and with it the dot read below.
    await sendPrompt(page, "/hang");
    const status = page.getByRole("status");
    await status.waitFor();
    // The pulse is the status line's dot (its ::before); the text itself never dims. The line is
    // live (its words change as the turn goes), so each state is waited for, not read once: a
    // read between two renders finds no dot at all.
    const dot = async (want) => {
      const deadline = Date.now() + 2_000;
      let seen;
      do {
        // The locator reaches into the panel's shadow root, and finds the line as it is now.
        seen = await status.evaluate((el) => getComputedStyle(el, "::before").animationName).catch(() => null);
        if (seen === want) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      } while (Date.now() < deadline);
      assert.equal(seen, want, "the status line's dot");
    };
    await dot("none");
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await dot("pulse");
    await page.close();
  });

  test("the visitor's trace switch shows only where the site allows it; a choice made elsewhere is not taken", async () => {
    const page = await setup.browser.newPage();
    await page.goto(`${setup.site}/?mode=function&session=${sessionId("switch")}`);
    // A choice this browser remembers from a page that allowed it.
    await page.evaluate(() => localStorage.setItem("session-agent-chat:trace", "full"));
    await page.reload();
    await openPanel(page);
    assert.equal(await page.getByRole("combobox", { name: "Trace" }).count(), 0, "no switch by default");
    await sendPrompt(page, "how do tools show?");
    await until(async () => (await panel(page).answers.count()) === 1, "an answer");
    // The site's mode (normal: each tool by its name and state), not the remembered full.
    await until(async () => (await panel(page).tools.count()) === 1, "the tool card");
    assert.equal(await panel(page).tools.first().locator("pre").count(), 0, "no input or output, as normal shows it");

    await page.evaluate(() => AgentChat.init({ session: site.ready[0], getToken: siteGetToken, traceSwitch: true }));
    await openPanel(page);
    const select = page.getByRole("combobox", { name: "Trace" });
    await select.waitFor();
    assert.equal(await select.inputValue(), "full", "allowed, the visitor's remembered choice");
    await page.close();
  });

  test("setContext: the page's context goes with each later prompt to the agent; null clears it", async () => {
    const session = sessionId("context");
    const page = await setup.browser.newPage();
    await page.goto(`${setup.site}/?mode=function&session=${session}`);
    await openPanel(page);
    const { answers } = panel(page);
    await page.evaluate(() => AgentChat.setContext({ page: "/shop/boots-42", cart: { items: 2 } }));
    await sendPrompt(page, "is this in stock?");
    await until(async () => (await answers.count()) === 1, "the first answer");
    await page.evaluate(() => AgentChat.setContext(null));
    await sendPrompt(page, "thanks");
    await until(async () => (await answers.count()) === 2, "the second answer");

    const received = await prompts(setup.worker.base, session, { authorization: `Bearer ${mint("test")}` });
    assert.deepEqual(
      received.map((e) => [e.frame.content, e.frame.context]),
      [
        ["is this in stock?", { page: "/shop/boots-42", cart: { items: 2 } }],
        ["thanks", undefined],
      ],
    );
    // Not an object: refused in the console, and nothing changes.
    const logged = [];
    page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    await page.evaluate(() => AgentChat.setContext("just a string"));
    await until(async () => logged.length > 0, "the console error");
    assert.match(logged[0], /setContext needs a plain object/);
    await page.close();
  });
});

