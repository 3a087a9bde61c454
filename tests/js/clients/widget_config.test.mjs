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
    hideLauncher: "", attachments: "",
  };
  assert.deepEqual(scriptOptions({ dataset }), {
    name: "sales", session: "s1", api: "https://chat.example", token: "t", trace: "full", title: "Help", mount: "#chat",
    locale: "ar", colorScheme: "dark", position: "left", theme: { accent: "#0f766e" }, traceSwitch: true, allowImages: true,
    allowUrlSession: true, hideLauncher: true, attachments: true,
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
