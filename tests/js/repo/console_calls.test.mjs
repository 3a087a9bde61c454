// Every line the worker logs is one JSON object, whatever an agent or a client sends: the Rust
// code of the worker (src/, crates/adapter, crates/platform, crates/demo) writes to the console
// only through crates/platform/src/log.rs (the lines of crates/core/src/diagnostic.rs) and the
// request line of crates/adapter/src/exchange.rs, never with workers-rs' console_* macros, whose
// text would go out as it is; the JavaScript beside it writes only JSON.stringify's output.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const DIRS = ["src", "crates/adapter/src", "crates/platform/src", "crates/demo/src"];
/** The files that may call the console themselves: the writer of the other lines, and the request line's. */
const WRITERS = ["crates/platform/src/log.rs", "crates/adapter/src/exchange.rs"];

/** Every file under `dir` (relative to the root) whose name ends with one of `exts`. */
function files(dir, exts) {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && exts.some((ext) => entry.name.endsWith(ext)))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

test("the worker's Rust writes to the console only through its log writers", () => {
  const rust = DIRS.flatMap((dir) => files(dir, [".rs"]));
  assert.ok(rust.length > 50, "the sources are found");
  const found = [];
  for (const file of rust) {
    const text = readFileSync(path.join(root, file), "utf8");
    for (const [i, line] of text.split("\n").entries()) {
      if (line.trimStart().startsWith("//")) continue;
      const macro = /\bconsole_(log|warn|error|debug)!/.test(line);
      const direct = /\bconsole::(log|warn|error|debug|info)_/.test(line) && !WRITERS.includes(file);
      if (macro || direct) found.push(`${file}:${i + 1}: ${line.trim()}`);
    }
  }
  assert.deepEqual(found, []);
});

test("the worker's JavaScript logs JSON objects only", () => {
  const js = DIRS.flatMap((dir) => files(dir, [".js"]));
  assert.ok(js.length >= 4, "the sources are found");
  const found = [];
  for (const file of js) {
    const text = readFileSync(path.join(root, file), "utf8");
    for (const [, method, args] of text.matchAll(/console\.(\w+)\(([^\n]*)/g)) {
      if (!args.startsWith("JSON.stringify(")) found.push(`${file}: console.${method}(${args}`);
    }
  }
  assert.deepEqual(found, []);
});
