// One test layout in the Rust crates (tests/README.md): a module's unit tests are in a file of
// their own beside it, `<module>_tests.rs` (or `<module>_<topic>_tests.rs`), named by
// `#[cfg(test)] #[path = "…"] mod tests;`; the core's properties across modules are in
// `crates/core/tests/`. No module holds an inline `mod tests { … }`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { globSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const sources = globSync(["crates/*/src/**/*.rs", "src/**/*.rs", "examples/*/src/**/*.rs"], { cwd: root });

test("no Rust module holds its tests inline", () => {
  const inline = sources.filter((file) => /^\s*mod tests\s*\{/m.test(readFileSync(path.join(root, file), "utf8")));
  assert.deepEqual(inline, [], "move them into <module>_tests.rs beside the module");
});

test("every test file is named <…>_tests.rs and reached through #[path]", () => {
  const testFiles = sources.filter((file) => /_tests\.rs$/.test(file));
  assert.ok(testFiles.length >= 30, `the test files are found (${testFiles.length})`);
  const named = new Set(
    sources.flatMap((file) =>
      [...readFileSync(path.join(root, file), "utf8").matchAll(/#\[path = "([\w/]+_tests\.rs)"\]/g)].map((m) => path.join(path.dirname(file), m[1])),
    ),
  );
  assert.deepEqual(testFiles.filter((file) => !named.has(file)), [], "a test file no module names is never compiled");
  assert.deepEqual(sources.filter((file) => path.basename(file) === "tests.rs"), [], "a bare tests.rs says nothing of what it tests");
});
