// Fails (exit 1) when the module graph of a crate has a circle: a file that imports, directly or
// through others, from a file that imports from it.
//
// What counts as an edge, from file A to file B: A names a path that resolves to B's module,
// * in a `use` (`pub use` too; grouped `use a::{b, c::d}` forms are expanded), or
// * written out in code (`crate::v2::Frame`, `super::pump::run`, `engine::start(...)`),
// where the path starts with `crate`, `super`, `self` or the name of a module A declares with
// `mod x;`. A path resolves to the deepest module FILE it names (src/a/b.rs or src/a/b/mod.rs): an
// item's path to the file of the module holding or re-exporting it.
// Not edges: `mod x;` itself (a parent declaring its child), paths in comments and strings,
// `pub(in path)`, a file naming itself, a path through a name the crate root imports from another
// crate (`use session_agent_core::config;` makes `crate::config::Config` another crate's), and
// anything said by test code: the files `tests.rs` and `*_tests.rs` and inline
// `#[cfg(test)] mod x { ... }` blocks (tests import what they test). `src/bin/` holds other
// crates (they reach this one by its name), so it is left out.
//
// Folders too: the files of each top-level module (`a.rs`, `a/…`) taken as one, no two of them
// may import from each other, directly or through others (a folder loop has no file circle when
// the files it passes through differ).
//
// Usage: node scripts/check-circles.mjs [dir …]; without one, every crate of the workspace
// (`src`, `crates/*/src`).
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";

/** A file of tests (`tests.rs`, `*_tests.rs`): what it imports makes no edge, and it is no module. */
export const isTestFile = (file) => /(^|[/\\])(tests|\w+_tests)\.rs$/.test(file);

/** Every `.rs` file under `dir`, relative to it, with `/` separators. */
function rustFiles(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return rustFiles(path, base);
    return entry.name.endsWith(".rs") ? [relative(base, path).split(sep).join("/")] : [];
  });
}

/** The module path of a file: "lib.rs" → [], "a/b.rs" and "a/b/mod.rs" → ["a", "b"]. */
function modulePath(file) {
  const parts = file.replace(/\.rs$/, "").split("/");
  if (parts.at(-1) === "mod" || (parts.length === 1 && parts[0] === "lib")) parts.pop();
  return parts;
}

/** The source with comments, strings and char literals blanked (line breaks kept). */
function stripNoise(text) {
  const blank = (s) => s.replace(/[^\n]/g, " ");
  return text.replace(
    // `//…`, `/*…*/`, r#"…"#, "…", and a char literal ('"', '\'', not a lifetime 'a).
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|b?r(#*)"[\s\S]*?"\1|b?"(?:\\[\s\S]|[^"\\])*"|b?'(?:\\[^']+|[^'\\])'/g,
    blank,
  );
}

/** Blanks each `#[cfg(test)] mod x { ... }` block, braces matched. */
function stripTestModules(code) {
  const start = /#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{/g;
  let out = code;
  for (let m; (m = start.exec(out)); ) {
    let depth = 1;
    let end = start.lastIndex;
    while (depth > 0 && end < out.length) depth += { "{": 1, "}": -1 }[out[end++]] ?? 0;
    out = out.slice(0, m.index) + out.slice(m.index, end).replace(/[^\n]/g, " ") + out.slice(end);
  }
  return out;
}

/** The paths of a use tree: "a::{b, c::{d, self}}" → ["a::b", "a::c::d", "a::c"]. */
function expandUse(tree) {
  tree = tree.replace(/\s+as\s+\w+/g, "").replace(/\s+/g, "").replace(/::\*$/, "");
  const brace = tree.indexOf("{");
  if (brace < 0) return [tree];
  const prefix = tree.slice(0, brace).replace(/::$/, "");
  const parts = [""];
  let depth = 0;
  for (const c of tree.slice(brace + 1, tree.lastIndexOf("}"))) {
    depth += { "{": 1, "}": -1 }[c] ?? 0;
    if (c === "," && depth === 0) parts.push("");
    else parts[parts.length - 1] += c;
  }
  const under = (p) => (p === "self" || !p ? prefix : prefix ? `${prefix}::${p}` : p);
  return parts.filter(Boolean).flatMap((part) => expandUse(part).map(under));
}

/**
 * The file graph of the crate in `srcDir`: a Map from each file (relative to srcDir) to a Map
 * from each file it imports from to the first line that does, `{ line, path }`.
 */
export function buildGraph(srcDir) {
  const files = rustFiles(srcDir).filter((f) => !f.startsWith("bin/"));
  const imported = importedAtRoot(readFileSync(join(srcDir, "lib.rs"), "utf8"));
  const byModule = new Map(files.map((f) => [modulePath(f).join("::"), f]));
  const graph = new Map(files.map((f) => [f, new Map()]));
  for (const file of files) {
    if (isTestFile(file)) continue;
    const here = modulePath(file);
    const code = stripTestModules(stripNoise(readFileSync(join(srcDir, file), "utf8")))
      .replace(/\bpub\s*\(\s*in\s+[\w:]+\s*\)/g, (m) => m.replace(/[^\n]/g, " "));
    const children = new Set([...code.matchAll(/\bmod\s+(\w+)\s*;/g)].map((m) => m[1]));
    const lineOf = (index) => code.slice(0, index).split("\n").length;

    /** The file a path names, or undefined when it starts elsewhere (std, a crate, a local). */
    const resolve = (path) => {
      const [head, ...segs] = path.split("::");
      let mod;
      if (head === "crate" && imported.has(segs[0])) return undefined;
      if (head === "crate") mod = [];
      else if (head === "self") mod = here;
      else if (head === "super") mod = here.slice(0, -1);
      else if (children.has(head)) (mod = here), segs.unshift(head);
      else return undefined;
      while (segs[0] === "super") (mod = mod.slice(0, -1)), segs.shift();
      const full = [...mod, ...segs];
      for (let n = full.length; n >= 0; n--) {
        const target = byModule.get(full.slice(0, n).join("::"));
        if (target !== undefined) return target;
      }
      return undefined;
    };
    const add = (path, index) => {
      const target = resolve(path);
      const edges = graph.get(file);
      if (target && target !== file && !edges.has(target)) {
        edges.set(target, { line: lineOf(index), path });
      }
    };

    // `use` trees first, then blanked so that the scan of code does not see them again.
    const uses = /\buse\s+([^;]+);/g;
    const rest = code.replace(uses, (m, tree, index) => {
      for (const path of expandUse(tree)) add(path, index);
      return m.replace(/[^\n]/g, " ");
    });
    const heads = ["crate", "super", "self", ...children].join("|");
    const qualified = new RegExp(`(?<![\\w$:.])(?:${heads})(?:::\\w+)+`, "g");
    for (const m of rest.matchAll(qualified)) add(m[0], m.index);
  }
  return graph;
}

/** The names a crate root's `use` items bring in from other crates (`use x::{a, b as c};` → a, c). */
function importedAtRoot(text) {
  const names = new Set();
  const code = stripTestModules(stripNoise(text));
  for (const [, tree] of code.matchAll(/\buse\s+([^;]+);/g)) {
    const head = tree.trim().split(/::|\s/)[0];
    if (["crate", "self", "super", "std", "core", "alloc"].includes(head)) continue;
    for (const leaf of tree.split(/[{},]/)) {
      const alias = leaf.match(/\bas\s+(\w+)\s*$/);
      const name = alias ? alias[1] : leaf.trim().split("::").at(-1);
      if (name && /^\w+$/.test(name) && name !== "self") names.add(name);
    }
  }
  return names;
}

/** The top-level module a file belongs to: "a.rs", "a/mod.rs" and "a/b.rs" → "a". */
const topModule = (file) => file.split("/")[0].replace(/\.rs$/, "");

/**
 * The folder graph: the file graph with each top-level module's files taken as one node, and
 * the first file edge between two of them kept as theirs.
 */
export function folderGraph(graph) {
  const folders = new Map([...graph.keys()].map((file) => [topModule(file), new Map()]));
  for (const [file, edges] of graph) {
    for (const [target, where] of edges) {
      const [from, to] = [topModule(file), topModule(target)];
      if (from !== to && !folders.get(from).has(to)) {
        folders.get(from).set(to, { line: `${file}:${where.line} → ${target}`, path: where.path });
      }
    }
  }
  return folders;
}

/** The strongly connected components of more than one file (Tarjan), each sorted, in order. */
export function findCircles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const circles = [];
  const visit = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    for (const w of graph.get(v).keys()) {
      if (!index.has(w)) visit(w), low.set(v, Math.min(low.get(v), low.get(w)));
      else if (stack.includes(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = stack.splice(stack.indexOf(v));
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return circles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** A circle as lines: its shortest loop through its first file, then its other edges. */
export function describe(graph, circle) {
  const inCircle = new Set(circle);
  const from = new Map([[circle[0], null]]);
  let last; // breadth first to the nearest file that imports from circle[0]
  for (const queue = [circle[0]]; last === undefined; ) {
    const v = queue.shift();
    if (graph.get(v).has(circle[0])) last = v;
    for (const w of graph.get(v).keys()) {
      if (inCircle.has(w) && !from.has(w)) from.set(w, v), queue.push(w);
    }
  }
  const loop = [circle[0]];
  for (let v = last; v !== null; v = from.get(v)) loop.unshift(v);
  const edge = (a, b) => {
    const { line, path } = graph.get(a).get(b);
    return `    ${a}:${line} → ${b}   (${path})`;
  };
  const onLoop = loop.slice(1).map((b, i) => edge(loop[i], b));
  const others = circle.flatMap((a) =>
    [...graph.get(a).keys()].filter((b) => inCircle.has(b)).map((b) => edge(a, b)),
  ).filter((line) => !onLoop.includes(line));
  const also = others.length ? ["   and also:", ...others] : [];
  return [`  ${loop.join(" → ")}`, ...onLoop, ...also];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dirs = process.argv.length > 2
    ? process.argv.slice(2)
    : ["src", ...readdirSync("crates").map((name) => join("crates", name, "src"))];
  for (const srcDir of dirs) {
    if (!existsSync(join(srcDir, "lib.rs"))) {
      console.error(`check-circles: no ${join(srcDir, "lib.rs")}`);
      process.exit(2);
    }
    const graph = buildGraph(srcDir);
    const folders = folderGraph(graph);
    const found = [
      ["file", graph, findCircles(graph)],
      ["folder", folders, findCircles(folders)],
    ];
    if (found.every(([, , circles]) => circles.length === 0)) {
      console.log(`check-circles: no circles among the ${graph.size} files and ${folders.size} folders under ${srcDir}/`);
      continue;
    }
    for (const [kind, g, circles] of found) {
      if (circles.length === 0) continue;
      const count = `${circles.length} ${kind} circle${circles.length > 1 ? "s" : ""}`;
      console.log(`check-circles: ${count} under ${srcDir}/ (${kind === "file" ? "file:line" : "folder: file:line"} → what it imports from)`);
      for (const circle of circles) console.log(describe(g, circle).join("\n"));
    }
    process.exitCode = 1;
  }
}
