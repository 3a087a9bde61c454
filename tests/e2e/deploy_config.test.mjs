// The production configurations, checked offline: `wrangler deploy --dry-run` of the adapter's
// `[env.production]` (bound by script_name to the agent's worker), of the reference TypeScript
// agent's own wrangler.toml, as docs/deploy.md deploys them, and of the AI SDK example's
// (docs/your-agent.md). A broken production config fails
// here, not at a deploy. The dry run builds and bundles everything a deploy uploads and prints the
// bindings; it contacts no account. Then the production build itself serves a turn in workerd,
// from the reference TypeScript agent bound by script_name exactly as [env.production] binds it,
// and its stand-in DemoSessionAgent (src/demo_off.rs) answers as it should.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Miniflare, Log, LogLevel } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { root, startWorker, sessionId, chatBody, postChat, readAll, chunksOf } from "./harness.mjs";
import { jwt, nowSecs } from "../reliability/lib.mjs";
import { PRODUCTION_WASM_GZIP_BUDGET } from "../../bench/budget.mjs";

const run = promisify(execFile);
const wrangler = path.join(root, "node_modules/wrangler/bin/wrangler.js");

/** `wrangler deploy --dry-run` with `args` in `cwd`; resolves to { code, out } (stdout + stderr). */
async function dryRun(cwd, args) {
  const outdir = mkdtempSync(path.join(os.tmpdir(), "dry-run-"));
  try {
    const { stdout, stderr } = await run(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", outdir, ...args], {
      cwd,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", NO_COLOR: "1" },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    return { code: err.code ?? 1, out: `${err.stdout ?? ""}${err.stderr ?? ""}` };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

test("the adapter's [env.production] dry-runs: SESSION_AGENT bound to the agent's worker", { timeout: 180_000 }, async () => {
  const { code, out } = await dryRun(root, ["--env", "production"]);
  assert.equal(code, 0, out);
  assert.match(out, /--dry-run: exiting now/);
  assert.match(out, /SESSION_AGENT[^\n]*SessionAgent[^\n]*session-agent/, `the binding names the agent's class and worker:\n${out}`);
  // A user's conversations: the worker's own class, which the build exports (a class the
  // migrations declare and the entry lacks fails the dry run).
  assert.match(out, /SESSION_INDEX[^\n]*SessionIndex/, `the index's binding:\n${out}`);
  assert.doesNotMatch(out.match(/SESSION_INDEX[^\n]*/)[0], /session-agent/, "the index is this worker's own");
  assert.match(out, /DEMO_AGENT[^\n]*"off"/);
  assert.match(out, /AUTH_MODE[^\n]*"jwt"/);
  // Built without the demo agent, into its own directory: the local build is left as it was.
  const production = statSync(path.join(root, "build/production/index_bg.wasm")).size;
  const local = statSync(path.join(root, "build/index_bg.wasm")).size;
  assert.ok(production < local - 50_000, `production wasm ${production} bytes, local ${local}`);
  assert.match(readFileSync(path.join(root, "build/index.js"), "utf8"), /DemoSessionAgent/);
  // Deployed without its name section; the named twin beside the build has the same code.
  const shipped = new WebAssembly.Module(readFileSync(path.join(root, "build/production/index_bg.wasm")));
  const named = new WebAssembly.Module(readFileSync(path.join(root, "build/production-symbols.wasm")));
  assert.equal(WebAssembly.Module.customSections(shipped, "name").length, 0, "the deployed wasm has no name section");
  assert.equal(WebAssembly.Module.customSections(named, "name").length, 1, "the symbols file has the names");
  // Nor the notes on how it was built (scripts/wasm-names.mjs), which the twin keeps.
  for (const notes of ["producers", "target_features"]) {
    assert.equal(WebAssembly.Module.customSections(shipped, notes).length, 0, `the deployed wasm has no ${notes}`);
    assert.equal(WebAssembly.Module.customSections(named, notes).length, 1, `the symbols file has its ${notes}`);
  }
  const exportsOf = (m) => WebAssembly.Module.exports(m).map((e) => `${e.name}:${e.kind}`).join(",");
  assert.equal(exportsOf(named), exportsOf(shipped));
  // The demo's routes are compiled out of it, the playground's page with them; the local build
  // keeps the page.
  const title = "<title>session-agent-chat · playground</title>";
  assert.ok(readFileSync(path.join(root, "build/index_bg.wasm")).includes(title), "the local build has the playground");
  assert.ok(!readFileSync(path.join(root, "build/production/index_bg.wasm")).includes(title), "the production build has no playground");
});

test("the reference TypeScript agent's worker dry-runs with its Durable Object", { timeout: 180_000 }, async () => {
  const { code, out } = await dryRun(path.join(root, "agents/typescript"), []);
  assert.equal(code, 0, out);
  assert.match(out, /--dry-run: exiting now/);
  assert.match(out, /SESSION_AGENT[^\n]*SessionAgent/);
});

test("the AI SDK example's worker dry-runs as deployed (Workers AI bound) and in its test mode (the mock model, no AI)", { timeout: 180_000 }, async () => {
  const dir = path.join(root, "examples/ai-sdk-agent");
  const deployed = await dryRun(dir, []);
  assert.equal(deployed.code, 0, deployed.out);
  assert.match(deployed.out, /SESSION_AGENT[^\n]*ChatAgent/);
  assert.match(deployed.out, /env\.AI\b/);
  const mock = await dryRun(dir, ["--env", "test"]);
  assert.equal(mock.code, 0, mock.out);
  assert.match(mock.out, /MODEL[^\n]*"mock"/);
  assert.doesNotMatch(mock.out, /env\.AI\b/);
});

test("a broken production config fails the dry run (the check bites)", { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "broken-config-"));
  try {
    const config = readFileSync(path.join(root, "agents/typescript/wrangler.toml"), "utf8");
    // The agent's class renamed in the binding but not in the code: what a copy-paste slip does.
    writeFileSync(path.join(dir, "wrangler.toml"), config.replace(/^class_name = "SessionAgent"$/m, 'class_name = "SessionAgnet"').replace('main = "src/index.ts"', `main = "${path.join(root, "agents/typescript/src/index.ts")}"`));
    const { code, out } = await dryRun(dir, []);
    assert.notEqual(code, 0, `the dry run passed:\n${out}`);
    assert.match(out, /not exported in your entrypoint file: SessionAgnet/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the production build serves a turn from the TypeScript agent in its own worker, bound as [env.production] binds it", { timeout: 180_000 }, async () => {
  await run("bash", [path.join(root, "scripts/build.sh"), "--production"], { cwd: root, timeout: 170_000 });
  const secret = "deploy-config-test-secret-0123456789";
  const worker = await startWorker({ env: "production", agent: "typescript", vars: { AUTH_SECRET: secret } });
  try {
    const session = sessionId("production");
    const token = jwt({ sub: "user-1", exp: nowSecs() + 600, sessions: [session] }, secret);
    const refused = await postChat(worker.base, session, chatBody("hello"));
    assert.equal(refused.status, 401, "production refuses a request without a token");
    const res = await postChat(worker.base, session, chatBody("/slow 3 10"), {
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-vercel-ai-ui-message-stream"), "v1");
    const chunks = chunksOf((await readAll(res)).text);
    assert.equal(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join(""), "w1 w2 w3");
    assert.equal(chunks.at(-1).type, "finish");
    // Listed in the user's conversations, in the production build's own index.
    const lister = jwt({ sub: "user-1", exp: nowSecs() + 600, sessions: "*" }, secret);
    let listed = [];
    for (const deadline = Date.now() + 5000; listed.length === 0 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      const list = await fetch(`${worker.base}/api/sessions`, { headers: { authorization: `Bearer ${lister}` } });
      assert.equal(list.status, 200);
      listed = (await list.json()).sessions;
    }
    assert.deepEqual(listed.map((s) => s.id), [session]);
    const demo = await fetch(`${worker.base}/demo/sessions/${session}/received`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(demo.status, 404, "no demo routes in production");
    assert.equal((await fetch(`${worker.base}/`)).status, 404, "no playground in production");
  } finally {
    await worker.dispose();
  }
});

test("the production wasm is within its size budget (bench/budget.mjs), in bytes of GNU gzip -9", { timeout: 180_000 }, async () => {
  await run("bash", [path.join(root, "scripts/build.sh"), "--production"], { cwd: root, timeout: 170_000 });
  const wasm = path.join(root, "build/production/index_bg.wasm");
  const { stdout } = await promisify(execFile)("gzip", ["-9", "-c", wasm], { encoding: "buffer", maxBuffer: 16 * 1024 * 1024 });
  const size = stdout.length;
  assert.ok(
    size <= PRODUCTION_WASM_GZIP_BUDGET,
    `the production wasm is ${size} bytes gzip -9, over its budget of ${PRODUCTION_WASM_GZIP_BUDGET} (bench/budget.mjs): make it smaller, or raise the budget there on purpose with the reason in bench/README.md ("The size budget")`,
  );
});

test("the production build's stand-in DemoSessionAgent answers every request 404 demo_agent_off", { timeout: 180_000 }, async () => {
  await run("bash", [path.join(root, "scripts/build.sh"), "--production"], { cwd: root, timeout: 170_000 });
  // The production worker with its own class bound, which nothing binds when deployed.
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"), "production");
  const mf = new Miniflare({
    ...workerOptions,
    durableObjects: { STAND_IN: "DemoSessionAgent" },
    modules: true,
    scriptPath: main,
    modulesRoot: path.dirname(main),
    cf: false,
    log: new Log(LogLevel.ERROR),
  });
  try {
    const namespace = await mf.getDurableObjectNamespace("STAND_IN");
    for (const init of [{}, { method: "POST", body: "hello" }]) {
      const res = await namespace.get(namespace.idFromName("s")).fetch("http://agent/ws", init);
      assert.equal(res.status, 404);
      assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.deepEqual(await res.json(), {
        error: { code: "demo_agent_off", message: "This build has no demo agent (scripts/build.sh --production)." },
      });
    }
  } finally {
    await mf.dispose();
  }
});
