// The wording of a question is typed from the agent's tools (packages/session-agent/src/ai-sdk/
// questions.ts, `CallOf`): tests/js/agent/types/asking.ts compiles with `tsc --noEmit` on ai 6 and
// on ai 7, so the docs' `call.args.target` typechecks once `call.toolName` is checked, and a field
// a tool's input does not have, or a tool the agent does not have, is a compile error.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");

for (const [ai, config] of [["ai 6", "tsconfig.json"], ["ai 7", "tsconfig.ai7.json"]]) {
  test(`${ai}: a question's wording reads its call's args as its tool's input`, { timeout: 60_000 }, () => {
    const tsc = spawnSync(path.join(root, "node_modules/.bin/tsc"), ["-p", path.join(import.meta.dirname, "types", config)], { encoding: "utf8" });
    assert.equal(tsc.status, 0, `tsc: ${tsc.stdout}${tsc.stderr}`);
  });
}
