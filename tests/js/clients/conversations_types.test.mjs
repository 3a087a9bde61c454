// clients/conversations.d.ts typechecks as an app uses it: tests/js/clients/types/conversations.ts
// compiles with `tsc --noEmit` (each answer typed; a wrong argument, marked, is an error).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");

test("an app's use of the conversations helper typechecks, and its mistakes do not", { timeout: 60_000 }, () => {
  const tsc = spawnSync(path.join(root, "node_modules/.bin/tsc"), ["-p", path.join(import.meta.dirname, "types")], { encoding: "utf8" });
  assert.equal(tsc.status, 0, `tsc: ${tsc.stdout}${tsc.stderr}`);
});
