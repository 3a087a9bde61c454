// The widget's strings (widget/src/locale.js): every shipped locale is complete, its templates
// take the same values as English's and its counts have the forms its plural rules ask for; a
// locale is found by its language; a site's labels go over the table.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { LOCALES, LABEL_NAMES, resolveLocale, format, plural } from "../../../widget/src/locale.js";

/** The `{name}`s a message takes, sorted (a count's: those of all its forms). */
function placeholders(message) {
  const text = typeof message === "string" ? message : Object.values(message).join(" ");
  return [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();
}

describe("widget locales", () => {
  for (const [name, table] of Object.entries(LOCALES)) {
    test(`${name}: every message, each with English's placeholders, every count with its other form`, () => {
      assert.deepEqual(Object.keys(table).sort(), [...LABEL_NAMES].sort());
      for (const key of LABEL_NAMES) {
        const message = table[key];
        assert.ok(typeof message === "string" ? message.trim() !== "" : typeof message === "object", `${name}.${key}`);
        // A count's forms may spell the number out ("أداة واحدة"), so only `other` must show it.
        const expected = placeholders(typeof LOCALES.en[key] === "string" ? LOCALES.en[key] : LOCALES.en[key].other);
        const got = placeholders(typeof message === "string" ? message : message.other);
        assert.deepEqual(got, expected, `${name}.${key}: ${JSON.stringify(message)}`);
        // A count falls back to its `other` form for a category it does not spell.
        if (typeof message === "object") assert.ok(message.other, `${name}.${key} has "other"`);
      }
    });
  }

  test("Arabic's counts: one form per plural category, so 1, 2, 3, 11 and 100 read right", () => {
    const { messages } = resolveLocale("ar");
    assert.deepEqual(
      [0, 1, 2, 3, 11, 100].map((n) => plural(messages.toolCount, n, "ar")),
      ["لا أدوات", "أداة واحدة", "أداتان", `${(3).toLocaleString("ar")} أدوات`, `${(11).toLocaleString("ar")} أداة`, `${(100).toLocaleString("ar")} أداة`],
    );
    for (const category of new Intl.PluralRules("ar").resolvedOptions().pluralCategories) {
      assert.ok(category in messages.toolCount, `toolCount has "${category}"`);
    }
  });

  test("a locale is found by its language; English where none is shipped; right to left for Arabic", () => {
    assert.deepEqual(
      ["fr-CA", "AR_eg", "de", "", undefined].map((l) => [resolveLocale(l).locale, resolveLocale(l).dir]),
      [["fr", "ltr"], ["ar", "rtl"], ["en", "ltr"], ["en", "ltr"], ["en", "ltr"]],
    );
  });

  test("a site's labels go over the table; an unknown one is named in the console", (t) => {
    const errors = [];
    t.mock.method(console, "error", (...args) => errors.push(args.join(" ")));
    const { messages } = resolveLocale("fr", { send: "Go", sned: "Go" });
    assert.equal(messages.send, "Go");
    assert.equal(messages.stop, "Arrêter");
    assert.match(errors.join("\n"), /unknown label sned/);
  });

  test("format fills the placeholders it has values for and leaves the others", () => {
    assert.equal(format("Running {tool}… {other}", { tool: "grep" }), "Running grep… {other}");
    assert.equal(plural(LOCALES.en.toolCount, 1, "en"), "1 tool");
    assert.equal(plural(LOCALES.en.toolCount, 1200, "en"), "1,200 tools");
  });
});
