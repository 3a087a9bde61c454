// tests/fixtures/tree_cases.json, the cases of the tree's rules that the Rust core runs too
// (crates/core/tests/tree_cases.rs), run here on the TypeScript library's rules
// (packages/session-agent/src/tree.ts, on a store in memory) and on check-agent's model of the
// contract's words (check-agent/tree_model.mjs): after each prompt, the current branch's ids, each
// of its messages' sibling count and how many messages are stored.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CASES, Session, tree } from "./tree_support.mjs";
import { currentBranch, expectedAttach, siblingsOf } from "../../../check-agent/tree_model.mjs";

test("the cases are there", () => {
  assert.ok(CASES.length >= 12);
  for (const c of CASES) for (const p of c.prompts) assert.equal(p.current.length, p.siblings.length, c.name);
});

for (const { name, prompts } of CASES) {
  test(`the library: ${name}`, () => {
    const s = new Session();
    for (const [at, prompt] of prompts.entries()) {
      s.turn(prompt.messageId, prompt.branch, prompt.text);
      const what = `prompt ${at + 1}`;
      const current = tree.page(s.tree, {}, 200).nodes;
      assert.deepEqual(current.map((n) => n.id), prompt.current, `${what}: the current branch`);
      assert.deepEqual(current.map((n) => tree.siblings(s.tree, n).length), prompt.siblings, `${what}: the siblings`);
      assert.equal(s.tree.nodes.length, prompt.stored, `${what}: stored`);
      if (prompt.said) assert.deepEqual(current.map((n) => s.text.get(n.key) ?? null), prompt.said, `${what}: what each says`);
    }
  });

  test(`check-agent's model: ${name}`, () => {
    const model = [];
    for (const [at, prompt] of prompts.entries()) {
      const attached = expectedAttach(model, prompt);
      let user = attached.existing;
      if (user === undefined) {
        user = `k${model.length + 1}`;
        model.push({ ref: user, id: prompt.messageId, role: "user", parent: attached.parent, seq: model.length + 1, text: prompt.text });
      }
      const reply = `a${prompts.slice(0, at + 1).length}`;
      model.push({ ref: reply, id: reply, role: "assistant", parent: user, seq: model.length + 1 });
      const what = `prompt ${at + 1}`;
      const current = currentBranch(model);
      assert.deepEqual(current.map((m) => m.id), prompt.current, `${what}: the current branch`);
      assert.deepEqual(current.map((m) => siblingsOf(model, m).length), prompt.siblings, `${what}: the siblings`);
      assert.equal(model.length, prompt.stored, `${what}: stored`);
      if (prompt.said) assert.deepEqual(current.map((m) => m.text ?? null), prompt.said, `${what}: what each says`);
    }
  });
}
