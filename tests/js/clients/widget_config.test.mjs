// The widget's settings from its script tag (widget/src/config.js): each data-attribute docs/embed.md
// lists becomes its option, flags read as flags, and the theme's shorthands fold into the theme;
// the session a panel uses, and the page's `?session=` read only where the site opts in.
import { afterEach, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { fakeLocalStorage } from "./fake_storage.mjs";
import { makeConfig, scriptOptions, themeOf, requestedLocale, labelsOf } from "../../../widget/src/config.js";

test("every documented data-attribute becomes its option", () => {
  const dataset = {
    name: "sales", session: "s1", api: "https://chat.example", token: "t", trace: "full", title: "Help", mount: "#chat",
    locale: "ar", colorScheme: "dark", position: "left", accent: "#0f766e", traceSwitch: "", allowImages: "", allowUrlSession: "",
    hideLauncher: "", attachments: "", conversations: "",
  };
  assert.deepEqual(scriptOptions({ dataset }), {
    name: "sales", session: "s1", api: "https://chat.example", token: "t", trace: "full", title: "Help", mount: "#chat",
    locale: "ar", colorScheme: "dark", position: "left", theme: { accent: "#0f766e" }, traceSwitch: true, allowImages: true,
    allowUrlSession: true, hideLauncher: true, attachments: true, conversations: true,
  });
});

test("attachments are on unless the site says false, in JavaScript or on the tag", () => {
  const script = { src: "https://chat.example/widget.js" };
  const page = { href: "https://shop.example/", search: "" };
  assert.equal(makeConfig({ session: "s" }, script, page).attachments, true);
  assert.equal(makeConfig({ session: "s", attachments: false }, script, page).attachments, false);
  assert.deepEqual(scriptOptions({ dataset: { attachments: "false" } }), { attachments: false });
  assert.equal(makeConfig({ session: "s", ...scriptOptions({ dataset: { attachments: "false" } }) }, script, page).attachments, false);
});

test("a flag that says false is off, an absent one is not set", () => {
  assert.deepEqual(scriptOptions({ dataset: { traceSwitch: "false", allowUrlSession: "false" } }), {});
  assert.deepEqual(scriptOptions(null), {});
});

test("colorScheme and position fold into the theme, over its own keys", () => {
  assert.deepEqual(themeOf({ theme: { accent: "red", colorScheme: "light" }, colorScheme: "dark", position: "left" }), {
    accent: "red", colorScheme: "dark", position: "left",
  });
  assert.deepEqual(themeOf({}), {});
});

test("the locale: the option, else the page's language, else English", () => {
  const page = (lang) => ({ documentElement: { lang } });
  assert.equal(requestedLocale({ locale: "ar" }, page("fr")), "ar");
  assert.equal(requestedLocale({}, page("fr-CA")), "fr-CA");
  assert.equal(requestedLocale({}, page("")), "en");
});

test("the title is a label: over the site's labels, and absent when not given", () => {
  assert.deepEqual(labelsOf({ title: "Help", labels: { send: "Go", title: "Other" } }), { send: "Go", title: "Help" });
  assert.deepEqual(labelsOf({ labels: { send: "Go" } }), { send: "Go" });
  assert.equal(labelsOf({}), undefined);
});

describe("the session: the page's ?session= only where the site opts in", () => {
  const KEPT = "session-agent-chat:session";
  const script = { src: "https://chat.example/widget.js" };
  /** A page whose address someone else may have written: `?session=x`. */
  const linked = { href: "https://shop.example/?session=x", search: "?session=x" };
  let store;
  beforeEach(() => {
    store = new Map();
    globalThis.localStorage = fakeLocalStorage(store);
  });
  afterEach(() => {
    delete globalThis.localStorage;
  });

  test("without the opt-in, a link's ?session= is ignored: a fresh id, kept once the visitor writes", () => {
    const config = makeConfig({}, script, linked);
    assert.notEqual(config.session, "x");
    assert.match(config.session, /^web-[0-9a-f-]{36}$/);
    config.keepSession();
    assert.equal(store.get(KEPT), config.session);
  });

  test("without the opt-in, a link's ?session= is ignored: the session this browser keeps is used", () => {
    store.set(KEPT, "kept-1");
    assert.equal(makeConfig({}, script, linked).session, "kept-1");
    // A flag that is not `true` (a data-attribute reads as true or absent) opts in to nothing.
    assert.equal(makeConfig({ allowUrlSession: "yes" }, script, linked).session, "kept-1");
    assert.equal(makeConfig(scriptOptions({ dataset: { allowUrlSession: "false" } }), script, linked).session, "kept-1");
  });

  test("with the opt-in (data-allow-url-session, or allowUrlSession), the page's first panel uses ?session=", () => {
    const config = makeConfig({ allowUrlSession: true }, script, linked);
    assert.equal(config.session, "x");
    // The link's choice, never kept as this browser's session.
    config.keepSession();
    assert.equal(store.get(KEPT), undefined);
    // Over the session this browser keeps, too.
    store.set(KEPT, "kept-1");
    assert.equal(makeConfig(scriptOptions({ dataset: { allowUrlSession: "" } }), script, linked).session, "x");
  });

  test("with the opt-in: the site's session wins over ?session=, and only the first panel reads it", () => {
    assert.equal(makeConfig({ allowUrlSession: true, session: "site-1" }, script, linked).session, "site-1");
    const other = makeConfig({ allowUrlSession: true }, script, linked, { instance: "orders", first: false });
    assert.notEqual(other.session, "x");
    // A page without ?session= gives a fresh id as before.
    const plain = makeConfig({ allowUrlSession: true }, script, { href: "https://shop.example/", search: "" });
    assert.match(plain.session, /^web-/);
  });
});

describe("the Conversations view's sessions and list key (docs/embed.md, Conversations)", () => {
  const script = { src: "https://chat.example/widget.js" };
  const page = { href: "https://shop.example/", search: "" };
  let store;
  let sent;
  beforeEach(() => {
    store = new Map();
    sent = [];
    globalThis.localStorage = fakeLocalStorage(store);
    globalThis.fetch = async (url, init) => {
      sent.push(new Headers(init.headers));
      return new Response("{}");
    };
  });
  afterEach(() => {
    delete globalThis.localStorage;
    delete globalThis.fetch;
  });

  test("a list key per panel and user, sent with every request, kept from the visitor's first message", async () => {
    const config = makeConfig({ user: "ada" }, script, page);
    await config.fetch("https://chat.example/api/sessions", { headers: { "x-questions": "approvals" } });
    const key = sent[0].get("x-conversations-key");
    assert.match(key, /^[0-9a-f-]{36}$/);
    assert.equal(sent[0].get("x-questions"), "approvals", "the request's own headers kept");
    assert.equal(store.size, 0, "nothing kept before the visitor writes");
    config.keepSession();
    assert.equal(store.get("session-agent-chat:list:ada"), key);
    assert.equal(store.get("session-agent-chat:session:ada"), config.session);
    // The same key comes back; another user, or another panel, has its own.
    assert.equal(await keyOf(makeConfig({ user: "ada" }, script, page)), key);
    assert.notEqual(await keyOf(makeConfig({ user: "bob" }, script, page)), key);
    assert.notEqual(await keyOf(makeConfig({ user: "ada" }, script, page, { instance: "orders", first: false })), key);
  });

  async function keyOf(config) {
    await config.fetch("https://chat.example/x", {});
    return sent.at(-1).get("x-conversations-key");
  }

  test("conversations: false keeps and sends no key", async () => {
    const config = makeConfig({ conversations: false }, script, page);
    assert.equal(config.conversations, false);
    assert.equal(await keyOf(config), null);
    config.keepSession();
    assert.deepEqual([...store.keys()], ["session-agent-chat:session"]);
    assert.deepEqual(scriptOptions({ dataset: { conversations: "false" } }), { conversations: false });
  });

  test("a session opened is kept, a deleted one forgotten; the site's own is never kept", () => {
    const config = makeConfig({}, script, page);
    config.keepSession("other-1");
    assert.equal(store.get("session-agent-chat:session"), "other-1");
    config.forgetSession("not-kept");
    assert.equal(store.get("session-agent-chat:session"), "other-1");
    config.forgetSession("other-1");
    assert.equal(store.get("session-agent-chat:session"), undefined);
    assert.match(config.newSession(), /^web-[0-9a-f-]{36}$/);
    const site = makeConfig({ session: "site-1" }, script, page);
    site.keepSession();
    assert.equal(store.get("session-agent-chat:session"), undefined, "the site's session is the site's");
    site.keepSession("chosen-1");
    assert.equal(store.get("session-agent-chat:session"), "chosen-1", "one the visitor chose is kept");
  });
});
