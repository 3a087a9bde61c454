// packages/session-agent builds as its package.json says it is published: `tsc -p
// tsconfig.build.json` writes JavaScript and declarations for every entry of `exports`, the
// JavaScript's relative imports name files that exist (ESM resolves no missing extension), the
// SessionAgent class declares `respond` and the Durable Object's entry points only, and the
// `ai-sdk` entry, which imports nothing at run time, loads in Node and exports its functions. And
// the AI SDK example (examples/ai-sdk-agent) asks for the versions the repository tests it with,
// and builds out of the repository as docs/your-agent.md says: on the library as `npm pack`
// packs it, its tsconfig without `paths`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { copyExample } from "../../fixtures/own-agent.mjs";

const root = path.resolve(import.meta.dirname, "../../..");
const dir = path.join(root, "packages/session-agent");

test("the package builds to what its exports name, and its built modules load", async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "session-agent-dist-"));
  execFileSync(path.join(root, "node_modules/.bin/tsc"), ["-p", path.join(dir, "tsconfig.build.json"), "--outDir", out], { stdio: "pipe" });
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  assert.deepEqual(pkg.files, ["dist", "README.md"]);
  for (const [entry, target] of Object.entries(pkg.exports)) {
    for (const file of [target.types, target.default]) {
      assert.match(file, /^\.\/dist\//, `${entry}: published from dist/`);
      assert.ok(existsSync(path.join(out, file.slice("./dist/".length))), `${entry}: ${file} is built`);
    }
  }
  const built = readdirSync(out, { recursive: true }).filter((f) => f.endsWith(".js"));
  assert.ok(built.includes(path.join("ai-sdk", "stream-text.js")), "the modules of a folder too");
  for (const file of built) {
    for (const [, spec] of readFileSync(path.join(out, file), "utf8").matchAll(/from "(\.[^"]+)"/g)) {
      assert.ok(existsSync(path.join(out, path.dirname(file), spec)), `${file} imports ${spec}, which is built`);
    }
  }
  // The class a team extends has `respond` and the Durable Object's entry points, nothing else:
  // its machinery (src/session.ts) is no entry of `exports`.
  const members = [...readFileSync(path.join(out, "session-agent.d.ts"), "utf8").matchAll(/^ {4}(?:(?:private|protected|public) )?(?:abstract )?(#?\w+)[;(]/gm)].map((m) => m[1]);
  assert.deepEqual(members.sort(), ["#private", "fetch", "respond", "webSocketClose", "webSocketError", "webSocketMessage"]);
  assert.ok(!Object.keys(pkg.exports).some((entry) => entry.includes("session")), "no entry exposes the machinery");
  const bridge = await import(pathToFileURL(path.join(out, "ai-sdk.js")).href);
  assert.equal(typeof bridge.streamTextModel, "function");
  assert.equal(typeof bridge.toModelMessages, "function");
});

test("the AI SDK example's package.json pins the versions the repository tests it with", () => {
  const example = JSON.parse(readFileSync(path.join(root, "examples/ai-sdk-agent/package.json"), "utf8"));
  const repo = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).devDependencies;
  const library = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  const wanted = { ...example.dependencies, ...example.devDependencies };
  assert.equal(wanted["session-agent"], library.version, "the library as this repository has it");
  for (const [name, version] of Object.entries(wanted)) {
    if (name !== "session-agent") assert.equal(version, repo[name], `${name}: the example says ${version}, the repository tests ${repo[name]}`);
  }
});

test("the AI SDK example builds out of this repository on the packed library (npm pack, installed, no tsconfig paths)", async () => {
  const project = mkdtempSync(path.join(os.tmpdir(), "ai-sdk-agent-copy-"));
  const { packed, tsconfig } = copyExample(project);
  assert.ok(packed.files.some((f) => f.path === "dist/ai-sdk/stream-text.js"), "the tarball holds the built modules");
  assert.ok(!packed.files.some((f) => f.path.startsWith("src/")), "and not the sources");
  // The example's tsconfig without `paths`, as docs/your-agent.md says to copy it.
  assert.doesNotMatch(tsconfig, /paths|packages\//);
  execFileSync(path.join(root, "node_modules/.bin/tsc"), ["-p", project], { stdio: "pipe" });
  const { outputFiles } = await build({ entryPoints: [path.join(project, "src/index.ts")], bundle: true, format: "esm", write: false, external: ["cloudflare:*", "node:*"], conditions: ["workerd", "worker", "browser"], logLevel: "silent" });
  assert.match(outputFiles[0].text, /session_agent_messages/, "the library is in the bundle");
  assert.ok(!outputFiles[0].text.includes("packages/session-agent/src"), "from the package, not the repository's sources");
});
