// docs/mobile.md's TypeScript is the Expo example's: every ts or tsx block on the page is one of
// examples/expo's files, or a region of one between `// #region NAME` and `// #endregion NAME`,
// character for character; `npm test` typechecks those files (tsc -p examples/expo).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { root, read, codeBlocks } from "./docs.mjs";

const EXAMPLE = "examples/expo";

/** Every piece of the example a block may copy: its files' text, and their marked regions. */
function sources() {
  const found = [];
  for (const file of readdirSync(path.join(root, EXAMPLE)).filter((f) => /\.tsx?$/.test(f))) {
    const text = readFileSync(path.join(root, EXAMPLE, file), "utf8");
    found.push({ name: file, code: text.replace(/\n+$/, "") });
    for (const match of text.matchAll(/^\/\/ #region (\S+)\n([\s\S]*?)^\/\/ #endregion \1$/gm)) {
      found.push({ name: `${file}#${match[1]}`, code: match[2].replace(/\n+$/, "") });
    }
  }
  return found;
}

test("every TypeScript block of docs/mobile.md is a file of examples/expo, or a marked region of one", () => {
  const blocks = codeBlocks(read("docs/mobile.md")).filter((b) => b.lang === "ts" || b.lang === "tsx");
  assert.ok(blocks.length >= 7, `the page's blocks are found (${blocks.length})`);
  const known = sources();
  for (const block of blocks) {
    const source = known.find(({ code }) => code === block.code);
    if (source) continue;
    // Name the closest source (the most lines in common, for its length) and its first differing line.
    const lines = block.code.split("\n");
    const likeness = (code) => {
      const theirs = code.split("\n");
      return theirs.filter((line) => lines.includes(line)).length / Math.max(theirs.length, lines.length);
    };
    const closest = known.map((s) => ({ ...s, score: likeness(s.code) })).sort((a, b) => b.score - a.score)[0];
    const theirs = closest.code.split("\n");
    const at = lines.findIndex((line, i) => line !== theirs[i]);
    assert.fail(
      `docs/mobile.md:${block.line}: the block is no file of ${EXAMPLE} nor a region of one; ` +
        `closest ${closest.name}, which differs at its line ${at + 1}:\n  page: ${lines[at]}\n  file: ${theirs[at]}`,
    );
  }
});

test("every file of the example that the page copies whole is on it, and each region", () => {
  const text = read("docs/mobile.md");
  const copied = sources().filter(({ code }) => text.includes(code)).map(({ name }) => name);
  for (const name of ["polyfills.ts", "index.ts", "config.ts", "auth.ts", "foreground.ts", "chat.ts", "session.ts#transport", "session.ts#history"]) {
    assert.ok(copied.includes(name), `docs/mobile.md shows ${name}`);
  }
});
