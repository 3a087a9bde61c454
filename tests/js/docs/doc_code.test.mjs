// The code of README.md and docs/ runs as written: every TypeScript, JavaScript or Rust block is
// a file of the repository, or a region of one between `// #region NAME` and (indented or not)
// `// #endregion NAME`, character for character (and those files are built, typechecked and run
// by `npm test`: examples/react by the browser tests, examples/expo and agents/typescript by tsc,
// examples/mount by its e2e test), unless its info string marks it a fragment (```ts fragment):
// a piece not meant to be pasted whole.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { root, read, codeBlocks } from "./docs.mjs";

/** Where a block's code may come from. */
const SOURCES = ["examples/react", "examples/expo", "examples/mount/src", "agents/typescript/src"];
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
    for (const match of text.matchAll(/^\/\/ #region (\S+)\n([\s\S]*?)^[ \t]*\/\/ #endregion \1$/gm)) {
      found.push({ name: `${file}#${match[1]}`, code: match[2].replace(/\n+$/, "") });
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
