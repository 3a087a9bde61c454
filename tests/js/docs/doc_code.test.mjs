// The code of README.md and docs/ runs as written: every TypeScript, JavaScript or Rust block is
// a file of the repository, or a region of one between `// #region NAME` and (indented or not)
// `// #endregion NAME` (an indented region without its indent, a region inside it without its
// markers), character for character (and those files are built, typechecked and run
// by `npm test`: examples/react by the browser tests, examples/expo, examples/ai-sdk-agent and
// agents/typescript by tsc,
// examples/mount by its e2e test), unless its info string marks it a fragment (```ts fragment):
// a piece not meant to be pasted whole.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { root, read, codeBlocks } from "./docs.mjs";

/** Where a block's code may come from. */
const SOURCES = ["examples/react", "examples/expo", "examples/mount/src", "examples/ai-sdk-agent/src", "agents/typescript/src", "clients"];
const CODE = new Set(["ts", "tsx", "js", "jsx", "mjs", "rust"]);
const PAGES = ["README.md", ...readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** Every file of `dir` (not its node_modules) with its text, and each of its marked regions. */
function pieces(dir) {
  const found = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const file = path.join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) continue;
    if (statSync(path.join(root, file)).isDirectory()) {
      found.push(...pieces(file));
      continue;
    }
    if (!/\.(tsx?|jsx?|mjs|rs)$/.test(name)) continue;
    const text = readFileSync(path.join(root, file), "utf8");
    found.push({ name: file, code: text.replace(/\n+$/, "") });
    // A region may be indented (its lines are then shown without that indent) and hold another
    // (whose markers are not shown).
    for (const start of text.matchAll(/^([ \t]*)\/\/ #region (\S+)\n/gm)) {
      const [marker, indent, name] = start;
      const from = start.index + marker.length;
      const end = new RegExp(`^[ \\t]*// #endregion ${name}$`, "m").exec(text.slice(from));
      if (!end) continue;
      const body = text.slice(from, from + end.index);
      const lines = body.split("\n").filter((line) => !/^[ \t]*\/\/ #(end)?region \S+$/.test(line));
      const code = lines.map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join("\n");
      found.push({ name: `${file}#${name}`, code: code.replace(/\n+$/, "") });
    }
  }
  return found;
}

test("every code block of README.md and docs/ is a file or a region of the repository's, or marked a fragment", () => {
  const known = SOURCES.flatMap(pieces);
  let checked = 0;
  for (const page of PAGES) {
    for (const block of codeBlocks(read(page)).filter((b) => CODE.has(b.lang))) {
      if (block.tag === "fragment") continue;
      checked += 1;
      const source = known.find(({ code }) => code === block.code);
      assert.ok(source, `${page}:${block.line}: a ${block.lang} block that is no file or region of ${SOURCES.join(", ")} (mark it \`\`\`${block.lang} fragment if it is not meant to be pasted whole)`);
    }
  }
  assert.ok(checked >= 12, `blocks checked: ${checked}`);
});

test("every block marked a fragment is one: no info string but a language and `fragment`", () => {
  for (const page of PAGES) {
    for (const block of codeBlocks(read(page))) {
      if (block.tag !== undefined) assert.equal(block.tag, "fragment", `${page}:${block.line}`);
    }
  }
});
