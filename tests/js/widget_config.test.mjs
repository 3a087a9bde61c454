// The widget's settings from its script tag (widget/src/config.js): each data-attribute docs/embed.md
// lists becomes its option, flags read as flags, and the theme's shorthands fold into the theme.
import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptOptions, themeOf, requestedLocale, labelsOf } from "../../widget/src/config.js";

test("every documented data-attribute becomes its option", () => {
  const dataset = {
    name: "sales", session: "s1", api: "https://chat.example", token: "t", trace: "full", title: "Help", mount: "#chat",
    locale: "ar", colorScheme: "dark", position: "left", accent: "#0f766e", traceSwitch: "", allowImages: "", hideLauncher: "",
  };
  assert.deepEqual(scriptOptions({ dataset }), {
    name: "sales", session: "s1", api: "https://chat.example", token: "t", trace: "full", title: "Help", mount: "#chat",
    locale: "ar", colorScheme: "dark", position: "left", theme: { accent: "#0f766e" }, traceSwitch: true, allowImages: true,
    hideLauncher: true,
  });
});

test("a flag that says false is off, an absent one is not set", () => {
  assert.deepEqual(scriptOptions({ dataset: { traceSwitch: "false" } }), {});
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
