// Docs that cannot rot silently: every link between the pages reaches its file and
// heading; every JSON block parses, and an error body names a code the worker has; every TOML
// block parses and names only settings the worker reads; every command names a script, file,
// binary or secret that exists; the embed snippets run against a stand-in `AgentChat` and use only
// options, labels and attributes the widget knows, and docs/embed.md's tables name every option,
// call and event it has; the CSS names only the widget's properties;
// the client snippet imports what the AI SDK exports. The requests (curl) are sent for real by
// tests/e2e/docs_requests.test.mjs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, globSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { parse as parseToml } from "smol-toml";
import { PAGES, read, root, codeBlocks, links, anchors } from "./docs.mjs";
import { OPTION_NAMES, scriptOptions } from "../../../widget/src/config.js";
import { LABEL_NAMES } from "../../../widget/src/locale.js";
import { THEME_PROPERTIES } from "../../../widget/src/appearance.js";
import { EVENT_NAMES } from "../../../widget/src/events.js";
import { createInstance } from "../../../widget/src/instance.js";
import { moduleList, withList } from "../../../scripts/module-list.mjs";

/** Every Rust source of the worker, joined: a setting, code or secret the docs name must be in it. */
const RUST = globSync(["crates/*/src/**/*.rs", "src/**/*.rs"], { cwd: root })
  .map((file) => readFileSync(path.join(root, file), "utf8"))
  .join("\n");
const AGENT_TS = globSync("agents/typescript/src/*.ts", { cwd: root })
  .map((file) => readFileSync(path.join(root, file), "utf8"))
  .join("\n");
const pkg = (dir) => JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
/** wrangler.toml's binding and table names, which a TOML snippet may also use. */
const WRANGLER_KEYS = new Set(["name", "class_name", "script_name", "namespace_id", "simple", "limit", "period", "binding", "dataset", "enabled", "head_sampling_rate", "invocation_logs", "tag", "new_sqlite_classes"]);

const blocks = PAGES.flatMap((page) => codeBlocks(read(page)).map((block) => ({ ...block, page })));
const where = (block) => `${block.page}:${block.line}`;

describe("docs: links", () => {
  for (const page of PAGES) {
    test(`${page}: every relative link reaches its file, and its heading`, () => {
      for (const { target, anchor } of links(read(page))) {
        const file = target === "" ? page : path.normalize(path.join(path.dirname(page), target));
        assert.ok(existsSync(path.join(root, file)), `${page} links to ${target}, which does not exist`);
        if (anchor && file.endsWith(".md")) {
          assert.ok(anchors(read(file)).has(anchor), `${page} links to ${file}#${anchor}: no such heading`);
        }
      }
    });
  }
});

describe("docs: the files they name", () => {
  const PATH = /`((?:src|tests|scripts|widget|bench|agents|check-agent|docs|vendor|examples)\/[\w./-]*[\w/])`/g;
  for (const page of PAGES) {
    test(`${page}: every file it names exists, and a name said to be in a file is there`, () => {
      const text = read(page);
      for (const [, named] of text.matchAll(PATH)) {
        if (named.includes("*")) continue;
        // A package's README names its own files; vendor/README.md the vendored crate's.
        const base = page.startsWith("agents/") ? path.dirname(page) : page.startsWith("vendor/") ? "vendor/serde_json" : ".";
        const found = [path.join(root, named), path.join(root, base, named)].some((p) => existsSync(p));
        assert.ok(found, `${page} names ${named}, which does not exist`);
      }
      // "`NAME` in `path`": a constant or function the page places in a file.
      for (const [, name, named] of text.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?` in `((?:src|widget|scripts|tests)\/[\w./-]+\.\w+)`/g)) {
        assert.match(readFileSync(path.join(root, named), "utf8"), new RegExp(`\\b${name}\\b`), `${page}: ${name} is not in ${named}`);
      }
    });
  }
});

describe("docs: the module list", () => {
  test("ARCHITECTURE.md lists every module under src/ with its purpose, as the sources say it", () => {
    const text = read("ARCHITECTURE.md");
    assert.equal(withList(text, moduleList()), text, "run `node scripts/module-list.mjs --write`");
  });
});

describe("docs: configs and payloads", () => {
  test("every JSON block parses; an error body's code is one the worker sends", () => {
    const json = blocks.filter((b) => b.lang === "json");
    assert.ok(json.length >= 8, "the JSON examples are found");
    for (const block of json) {
      let value;
      assert.doesNotThrow(() => (value = JSON.parse(block.code)), `${where(block)} is not JSON`);
      const code = value?.error?.code;
      if (code) assert.ok(RUST.includes(`"${code}"`), `${where(block)}: no error code "${code}" in src/`);
    }
  });

  test("every TOML block parses, and names only settings the worker reads", () => {
    const toml = blocks.filter((b) => b.lang === "toml");
    assert.ok(toml.length >= 5, "the TOML examples are found");
    const keys = (table) =>
      Object.entries(table).flatMap(([key, value]) =>
        value && typeof value === "object" && !Array.isArray(value) ? keys(value) : Array.isArray(value) ? value.filter((item) => typeof item === "object").flatMap(keys) : [key],
      );
    for (const block of toml) {
      let table;
      assert.doesNotThrow(() => (table = parseToml(block.code)), `${where(block)} is not TOML`);
      for (const key of keys(table)) {
        if (WRANGLER_KEYS.has(key)) continue;
        assert.ok(RUST.includes(`"${key}"`), `${where(block)}: the worker reads no setting ${key}`);
      }
    }
  });
});

describe("docs: the production observability settings", () => {
  test("docs/operations.md's [observability] is wrangler.toml's production one, setting for setting", () => {
    const block = codeBlocks(read("docs/operations.md")).find((b) => b.lang === "toml" && b.code.includes("observability"));
    const documented = parseToml(block.code).env.production.observability;
    const configured = parseToml(read("wrangler.toml")).env.production.observability;
    assert.deepEqual(documented, configured);
  });
});

describe("docs: the endpoint's errors", () => {
  // docs/endpoint.md's table equals the catalogue row by row (crates/core/src/refusal.rs's
  // `the_docs_table_is_the_catalogue`); here: no code of the catalogue is one nothing sends.
  test("every code of the refusal catalogue is named by code outside the catalogue and its tests", () => {
    const catalogue = read("crates/core/src/refusal.rs");
    const names = [...catalogue.matchAll(/^\s*([A-Z_]+) = \d{3} "[a-z_]+";/gm)].map((m) => m[1]);
    assert.ok(names.length >= 25, `the catalogue is found (${names})`);
    const code = RUST.replace(catalogue, catalogue.slice(0, catalogue.indexOf("catalogue! {")) +
      catalogue.slice(catalogue.indexOf("\n}\n", catalogue.indexOf("catalogue! {")), catalogue.indexOf("#[cfg(test)]\nmod tests")));
    for (const name of names) assert.match(code, new RegExp(`\\b${name}\\b`), `${name} is in the catalogue but nothing sends it`);
  });
});

describe("docs: Rust", () => {
  test("every Rust block is code a crate of the repository compiles, verbatim (examples/ or crates/)", () => {
    const sources = globSync(["examples/*/src/**/*.rs", "crates/*/src/**/*.rs"], { cwd: root })
      .map((file) => ({ file, text: readFileSync(path.join(root, file), "utf8") }));
    const rust = blocks.filter((block) => block.lang === "rust");
    assert.ok(rust.length >= 1, "the README's mount snippet is found");
    for (const block of rust) {
      assert.ok(sources.some(({ text }) => text.includes(block.code)), `${where(block)}: not in any crate's source`);
    }
  });
});

describe("docs: commands", () => {
  const commands = blocks
    .filter((b) => b.lang === "sh")
    .flatMap((block) => {
      // Commands run from the repository's root, but a package's own README's from its folder.
      let dir = block.page.startsWith("agents/") ? path.dirname(block.page) : ".";
      return block.code
        .split("\n")
        .map((line) => line.replace(/\s+#.*$/, "").trim())
        .filter((line) => line && !line.startsWith("#") && !line.startsWith("-"))
        .map((line) => {
          if (line.startsWith("cd ")) dir = path.join(dir, line.slice(3).trim());
          return { ...block, line: `${where(block)}`, command: line, dir };
        });
    });

  test("npm scripts, files, test globs, binaries and secrets the commands name all exist", () => {
    assert.ok(commands.length >= 15, "the commands are found");
    /** Each package of the workspace → the names of its binaries (its `[[bin]]` tables). */
    const bins = new Map(globSync(["Cargo.toml", "crates/*/Cargo.toml"], { cwd: root }).map((file) => {
      const toml = readFileSync(path.join(root, file), "utf8");
      const bin = [...toml.matchAll(/^\[\[bin\]\]\nname = "([^"]+)"/gm)].map((m) => m[1]);
      return [toml.match(/^\[package\]\nname = "([^"]+)"/m)[1], bin];
    }));
    for (const { command, dir, line } of commands) {
      const words = command.split(/\s+/);
      if (words[0] === "npm" && ["start", "test"].includes(words[1])) assert.ok(pkg(dir).scripts[words[1]], `${line}: npm ${words[1]}`);
      else if (words[0] === "npm" && words[1] === "run") assert.ok(pkg(dir).scripts[words[2]], `${line}: no npm script ${words[2]} in ${dir}`);
      else if (["bash", "."].includes(words[0]) || (words[0] === "node" && !words[1].startsWith("-")))
        assert.ok(existsSync(path.join(root, dir, words[1])), `${line}: no file ${words[1]} in ${dir}`);
      else if (words[0] === "node" && words[1] === "--test")
        assert.ok(globSync(words[2], { cwd: path.join(root, dir) }).length > 0, `${line}: ${words[2]} matches no test`);
      else if (words[0] === "cargo" && words[1] === "run") {
        const [pkgName, bin] = [words[words.indexOf("-p") + 1], words[words.indexOf("--bin") + 1]];
        assert.ok(bins.get(pkgName)?.includes(bin), `${line}: no binary ${bin} in the workspace's package ${pkgName}`);
      }
      else if (command.startsWith("npx wrangler secret put")) {
        const secret = words[4];
        assert.ok(RUST.includes(`"${secret}"`) || AGENT_TS.includes(secret), `${line}: nothing reads the secret ${secret}`);
      } else if (words[0] === "curl") assert.match(command, /\/api\/sessions\//, `${line}: a request the e2e docs test sends`);
    }
  });
});

describe("docs: the widget's snippets", () => {
  /** Runs a page's inline scripts against the embed stub; returns the calls it queued. */
  function queuedCalls(html) {
    // The page a snippet wires up (its buttons' listeners): anything it asks of the DOM is there.
    const element = new Proxy(() => element, { get: (_, key) => (key === Symbol.toPrimitive ? () => "" : element), set: () => true });
    const context = { window: {}, fetch: () => {}, console, document: element };
    context.window = context;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    for (const script of scripts) vm.runInNewContext(script, context);
    return context.AgentChat?.q?.map((args) => [...args]) ?? [];
  }

  test("the embed snippets queue their calls through the stub, with options, labels and theme keys the widget knows", () => {
    const snippets = blocks.filter((b) => b.lang === "html" || b.lang === "js");
    assert.ok(snippets.length >= 4, "the snippets are found");
    let inits = 0;
    for (const block of snippets) {
      const code = block.lang === "js" ? `<script>window.AgentChat=window.AgentChat||function(){(AgentChat.q=AgentChat.q||[]).push(arguments)}</script><script>${block.code}</script>` : block.code;
      for (const [method, options] of queuedCalls(code)) {
        if (method !== "init") continue;
        inits += 1;
        for (const name of Object.keys(options)) assert.ok(OPTION_NAMES.includes(name), `${where(block)}: unknown option ${name}`);
        for (const name of Object.keys(options.labels ?? {})) assert.ok(LABEL_NAMES.includes(name), `${where(block)}: unknown label ${name}`);
        for (const name of Object.keys(options.theme ?? {})) assert.ok(name in THEME_PROPERTIES, `${where(block)}: unknown theme key ${name}`);
      }
      // A tag's data-attributes: each becomes an option of the widget's.
      for (const tag of code.matchAll(/<script src="[^"]*widget\.js"([^>]*)>/g)) {
        const dataset = Object.fromEntries(
          [...tag[1].matchAll(/data-([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name.replace(/-(\w)/g, (_, c) => c.toUpperCase()), value]),
        );
        const options = scriptOptions({ dataset });
        assert.equal(Object.keys(options).length, Object.keys(dataset).length, `${where(block)}: an attribute the widget ignores in ${JSON.stringify(dataset)}`);
      }
    }
    assert.ok(inits >= 2, "the init calls ran");
  });

  test("the CSS block sets only the widget's custom properties", () => {
    const css = blocks.filter((b) => b.lang === "css");
    assert.ok(css.length >= 1);
    const known = new Set(Object.values(THEME_PROPERTIES));
    for (const block of css) {
      for (const [, property] of block.code.matchAll(/(--[\w-]+)\s*:/g)) assert.ok(known.has(property), `${where(block)}: ${property}`);
    }
  });

  test("the client snippet imports what the AI SDK exports", () => {
    const tsx = blocks.filter((b) => b.lang === "tsx");
    assert.ok(tsx.length >= 1);
    const exported = {
      "@ai-sdk/react": readFileSync(path.join(root, "node_modules/@ai-sdk/react/dist/index.d.ts"), "utf8"),
      ai: readFileSync(path.join(root, "node_modules/ai/dist/index.d.ts"), "utf8"),
    };
    for (const block of tsx) {
      for (const [, names, from] of block.code.matchAll(/import \{([^}]+)\} from '([^']+)'/g)) {
        for (const name of names.split(",").map((n) => n.trim().replace(/^type\s+/, ""))) {
          assert.match(exported[from] ?? "", new RegExp(`\\b${name}\\b`), `${where(block)}: ${from} exports no ${name}`);
        }
      }
    }
  });
});

describe("docs/embed.md: the tables of settings, calls and events are the widget's", () => {
  const text = read("docs/embed.md");
  /** The first cells of the tables of `heading`'s section, a list a table. */
  const tables = (heading) => {
    const start = text.indexOf(`\n## ${heading}\n`);
    const section = text.slice(start, text.indexOf("\n## ", start + 1));
    const found = [];
    let current = null;
    for (const line of section.split("\n")) {
      if (!line.startsWith("| ")) current = null;
      else if (!current) found.push((current = []));
      else if (!/^\| -/.test(line)) current.push(line.split(" | ")[0]);
    }
    return found;
  };
  const sorted = (names) => [...new Set(names)].sort();

  test("Settings names every option init takes, and only those", () => {
    const [options] = tables("Settings");
    assert.deepEqual(sorted(options.flatMap((cell) => [...cell.matchAll(/`(\w+)`/g)].map((m) => m[1]))), sorted(OPTION_NAMES));
  });

  test("JavaScript API names every call of a panel's handle and AgentChat's own, and every event", () => {
    const [calls, events] = tables("JavaScript API");
    const { methods } = createInstance({ name: "default", first: true, panel: {}, defaults: () => ({}), emit() {}, logout() {} });
    // AgentChat's own beyond a panel's handle: `instance(name)` (global.js).
    const expected = sorted([...Object.keys(methods), "instance"]);
    assert.deepEqual(sorted(calls.flatMap((cell) => [...cell.matchAll(/`(\w+)\(/g)].map((m) => m[1]))), expected);
    assert.deepEqual(sorted(events.flatMap((cell) => [...cell.matchAll(/`(\w+)`/g)].map((m) => m[1]))), sorted(EVENT_NAMES));
  });
});

describe("docs: the log's events", () => {
  test("docs/operations.md lists every event the worker logs, and only those", () => {
    // Rust: `log::info|warn|error("event", …)` (platform/src/log.rs), the call possibly over
    // lines; JavaScript (the pump's wiring, the entry): its own one-object lines, `event: "…"`.
    const rust = [...RUST.matchAll(/log::(?:info|warn|error)\(\s*"(\w+)"/g)].map((m) => m[1]);
    const js = globSync(["crates/*/src/**/*.js", "src/**/*.js"], { cwd: root })
      .flatMap((file) => [...readFileSync(path.join(root, file), "utf8").matchAll(/\bevent: "(\w+)"/g)].map((m) => m[1]));
    const logged = new Set([...rust, ...js]);
    const row = read("docs/operations.md").split("\n").find((line) => line.startsWith("| `event` |"));
    assert.ok(row, "docs/operations.md has the `event` row");
    const documented = new Set([...row.matchAll(/`(\w+)`/g)].map((m) => m[1]).filter((word) => word !== "event"));
    assert.deepEqual([...logged].filter((e) => !documented.has(e)).sort(), [], "logged, not documented");
    assert.deepEqual([...documented].filter((e) => !logged.has(e)).sort(), [], "documented, never logged");
  });
});

describe("docs: the tests' settings", () => {
  test("tests/README.md's concurrency settings and defaults are the ones the scripts read", () => {
    const rows = [...read("tests/README.md").matchAll(/^\| `([A-Z0-9_]+_CONCURRENCY)` \| (\d+) \|/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(rows.map(([name]) => name).sort(), ["BROWSER_CONCURRENCY", "CHECK_AGENT_CONCURRENCY", "E2E_CONCURRENCY", "SMOKE_CONCURRENCY"]);
    const testSh = read("scripts/test.sh");
    const checkAgent = read("tests/e2e/check_agent.mjs");
    for (const [name, fallback] of rows) {
      const read = testSh.includes(`\${${name}:-${fallback}}`) || checkAgent.includes(`process.env.${name} ?? ${fallback})`);
      assert.ok(read, `${name} defaults to ${fallback} where it is read`);
    }
  });
});

describe("docs: the README's length", () => {
  /** README.md's rule: a page a newcomer reads whole; what is longer goes to docs/. */
  const README_MAX_LINES = 250;

  test(`README.md is ${README_MAX_LINES} lines or fewer`, () => {
    const lines = read("README.md").split("\n");
    // A file's final newline ends its last line; it opens none.
    const count = lines.at(-1) === "" ? lines.length - 1 : lines.length;
    assert.ok(count <= README_MAX_LINES, `README.md is ${count} lines, over ${README_MAX_LINES}: move detail to docs/`);
  });
});
