// The project's Markdown pages as data, for the tests that keep them true: the pages, their
// links and headings, and their fenced code blocks with the language each is tagged with.
import { readFileSync, existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Every page a reader of the repository is sent to. */
export const PAGES = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
  "bench/README.md",
  "tests/README.md",
  "agents/typescript/README.md",
  "vendor/README.md",
].filter((page) => existsSync(path.join(root, page)));

export const read = (page) => readFileSync(path.join(root, page), "utf8");

/** The fenced code blocks of `text`: { lang, code, line } (line: the fence's, from 1). */
export function codeBlocks(text) {
  const blocks = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    // An info string is the language, and may say `fragment` after it (docs/README's convention:
    // a block not meant to be pasted whole).
    const open = lines[i].match(/^```(\w*)(?:\s+([\w-]+))?\s*$/);
    if (!open) continue;
    const start = i;
    const body = [];
    for (i += 1; i < lines.length && !lines[i].startsWith("```"); i++) body.push(lines[i]);
    blocks.push({ lang: open[1], tag: open[2], code: body.join("\n"), line: start + 1 });
  }
  return blocks;
}

/** `text` without its fenced code blocks (links and headings are read from the rest). */
function prose(text) {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of `text`'s headings. */
export function anchors(text) {
  return new Set(
    prose(text)
      .split("\n")
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, "").replace(/`/g, ""))),
  );
}

/** The relative links of `text` (web addresses left out): { target, anchor }. */
export function links(text) {
  const found = [];
  for (const match of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = match[1];
    if (/^(https?|mailto):/.test(href)) continue;
    const [target, anchor] = href.split("#");
    found.push({ target, anchor });
  }
  return found;
}
