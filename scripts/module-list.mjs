// ARCHITECTURE.md's list of every module of the workspace (`crates/*/src/`, `src/`), one line each: its path and the first
// sentence of its `//!` comment, generated from the sources so that it cannot fall behind them.
// `node scripts/module-list.mjs` prints the list; `--write` puts it into ARCHITECTURE.md between
// its `<!-- modules:start -->` and `<!-- modules:end -->` lines (tests/js/docs/docs.test.mjs checks
// that it is up to date).
import { readFileSync, writeFileSync, globSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isTestFile } from "./check-circles.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- modules:start -->";
const END = "<!-- modules:end -->";

/** The first sentence of a file's `//!` comment (its opening lines, joined), to its first period. */
function purpose(file) {
  const lines = readFileSync(path.join(root, file), "utf8").split("\n");
  const doc = [];
  for (const line of lines) {
    if (!line.startsWith("//!")) break;
    const text = line.slice(3).trim();
    if (text === "") break;
    doc.push(text);
  }
  const joined = doc.join(" ");
  const end = joined.search(/\.(\s|$)/);
  return (end === -1 ? joined : joined.slice(0, end)).replace(/\|/g, "\\|");
}

/** The Markdown table of every module (test files left out). */
export function moduleList() {
  const files = globSync(["crates/*/src/**/*.rs", "src/**/*.rs"], { cwd: root })
    .filter((file) => !isTestFile(file))
    .sort();
  const rows = files.map((file) => `| \`${file}\` | ${purpose(file)} |`);
  return ["| module | what it is |", "| --- | --- |", ...rows].join("\n");
}

/** ARCHITECTURE.md with its list replaced by `list`. */
export function withList(text, list) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`ARCHITECTURE.md has no ${START} … ${END} section`);
  return `${text.slice(0, start + START.length)}\n${list}\n${text.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const list = moduleList();
  if (process.argv.includes("--write")) {
    const file = path.join(root, "ARCHITECTURE.md");
    writeFileSync(file, withList(readFileSync(file, "utf8"), list));
  } else console.log(list);
}
