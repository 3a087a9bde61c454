// The widget's JavaScript handle as a site uses it: `window.AgentChat`, called through the embed
// snippet's stub before the script has loaded, with a token function that mints short-lived JWTs
// (the worker in `jwt` mode): a token that expires mid-session is renewed without the visitor
// noticing; `identify` and `logout` change who the panel is for; `ready` and `error` events fire.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import http from "node:http";
import { startWorker, sessionId } from "../e2e/harness.mjs";
import { launchBrowser, panel, sendPrompt, until } from "./browser.mjs";

const SECRET = "widget-api-secret";
/** The worker tolerates 60 s of clock skew on `exp` (CLOCK_SKEW_SECS in src/auth/jwt.rs). */
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
window.site = { ready: [], errors: [], renewals: 0 };
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
if (params.get("mode") === "function") AgentChat("init", { session: params.get("session"), getToken });
if (params.get("mode") === "expired") AgentChat("init", { session: params.get("session"), token: params.get("token") });
if (params.get("mode") === "user") {
  site.user = "ada";
  AgentChat("identify", { getToken, user: { id: "ada" } });
}
`;

let worker;
let browser;
let site;
let siteOrigin;
const minted = [];

before(async () => {
  site = http.createServer((req, res) => {
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
      "content-security-policy": `default-src 'none'; script-src 'self' ${worker.base}; connect-src 'self' ${worker.base}`,
    });
    // The site's script first, the widget's after it, loaded async: calls made before it are queued.
    res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Site</title></head><body>
<script src="/site.js"></script><script src="${worker.base}/widget.js" async></script></body></html>`);
  });
  await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteOrigin = `http://127.0.0.1:${site.address().port}`;
  worker = await startWorker({ vars: { AUTH_MODE: "jwt", AUTH_SECRET: SECRET, ALLOWED_ORIGINS: siteOrigin } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await worker?.dispose();
  site?.close();
});

async function openPanel(page) {
  await page.getByRole("button", { name: "Open chat" }).click();
  await panel(page).message.waitFor();
}

describe("widget API", () => {
  test("a token that expires mid-session is renewed: the visitor sees both answers and no error", async () => {
    const session = sessionId("renew");
    const page = await browser.newPage();
    const before = minted.length;
    await page.goto(`${siteOrigin}/?mode=function&session=${session}`);
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
    assert.equal(seen.renewals, 1, "renewed once, after the 401");
    assert.deepEqual(seen.errors, []);
    assert.equal(minted.length - before, 2, "one token for the history and first turn, one after the 401");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a fixed token that has expired is not retried: the error shows, and the error event fires", async () => {
    const session = sessionId("fixed");
    const page = await browser.newPage();
    const expired = mint("anon");
    await new Promise((resolve) => setTimeout(resolve, (TOKEN_LIFE_SECS + 1) * 1000));
    await page.goto(`${siteOrigin}/?mode=expired&session=${session}&token=${encodeURIComponent(expired)}`);
    await page.getByRole("button", { name: "Open chat" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    assert.match(await alert.innerText(), /expired/);
    await until(async () => (await page.evaluate(() => site.errors.length)) > 0, "the error event");
    assert.match((await page.evaluate(() => site.errors))[0], /expired/);
    await page.close();
  });

  test("identify gives a user their own session; logout forgets it and starts anew", async () => {
    const page = await browser.newPage();
    await page.goto(`${siteOrigin}/?mode=user`);
    await openPanel(page);
    const first = await page.evaluate(() => site.ready[0]);
    const kept = await page.evaluate(() => localStorage.getItem("session-agent-chat:session:ada"));
    assert.equal(kept, first, "the session is kept under the user's key");
    await sendPrompt(page, "hello from ada");
    await until(async () => (await panel(page).answers.count()) === 1, "ada's answer");
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
    const page = await browser.newPage();
    const logged = [];
    page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
    await page.goto(`${siteOrigin}/?mode=function&session=${sessionId("unknown")}`);
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
});
