// The benchmark's workerd: ONE process (Miniflare) running
//   agent — build/index.js (this repo's worker) hosting the demo SessionAgent Durable Object;
//   rust  — build/index.js again: this adapter, its SESSION_AGENT bound to agent's DemoSessionAgent;
//   ts    — bench/ts-adapter (bundled by esbuild), SESSION_AGENT → agent's DemoSessionAgent;
//   pass  — bench/passthrough, SESSION_AGENT → agent's DemoSessionAgent;
//   ts-per-message, pass-per-message — the same two scripts with the binding
//           WRITES = "per-message": one write per WebSocket message instead of the coalesced
//           writes (one per event-loop turn) that `ts` and `pass` do, as the Rust adapter does.
//           For reference only: they show what coalescing buys each.
// Every adapter thus talks to the same Durable Objects in another isolate, as in production
// (wrangler.toml's `--env production` binds SESSION_AGENT to another worker's class). `agent` also
// serves its own chat route with the object in its own isolate (the default `npm start` layout):
// the run measures it as `rust-colocated`, for context.
// Each worker gets its own socket on 127.0.0.1 (Miniflare's unsafeDirectSockets), so requests go
// straight to it, not through Miniflare's router worker.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { Miniflare, Log, LogLevel } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const root = path.resolve(benchDir, "..");
const outDir = path.join(benchDir, ".build");

/** Bundles the TS adapter into bench/.build/ts-adapter.js (esbuild strips the types). */
export async function buildTsAdapter() {
  mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, "ts-adapter.js");
  await esbuild.build({
    entryPoints: [path.join(benchDir, "ts-adapter/src/index.ts")],
    bundle: true,
    format: "esm",
    target: "es2022",
    platform: "neutral",
    outfile,
    logLevel: "warning",
  });
  return outfile;
}

/**
 * The JS workers: which script, and its environment. `ts` and `pass` coalesce writes (their
 * default); the `-per-message` variants write once per WebSocket message.
 */
export const JS_WORKERS = {
  ts: { script: "ts", bindings: {} },
  pass: { script: "pass", bindings: {} },
  "ts-per-message": { script: "ts", bindings: { WRITES: "per-message" } },
  "pass-per-message": { script: "pass", bindings: { WRITES: "per-message" } },
  // The TS adapter without the log line this worker and `ts` write a request: what the rival
  // cost before it did the same work (`instructions.mjs --with ts-unlogged`).
  "ts-unlogged": { script: "ts", bindings: { LOG_LINE: "off" } },
};
/**
 * The Rust workers besides this one, each a crate of bench/ built by `bench/build.sh <name>`
 * into bench/.build/<name>; their streams are read as the passthrough's. `pass-rs`: the
 * passthrough in Rust, its request driven from WebAssembly through workers-rs (what any such
 * adapter's turn costs); `pass-core`: the same frames handled in Rust behind the passthrough's
 * JavaScript request path.
 */
export const RUST_WORKERS = {
  "pass-rs": path.join(outDir, "pass-rs/index.js"),
  "pass-core": path.join(outDir, "pass-core/index.js"),
  "rust-indexed": path.join(root, "build/production/index.js"),
  "rust-indexed-floor": path.join(root, "build/production/index.js"),
};
/**
 * Rust workers whose turns are listed in a user's conversations: `SESSION_INDEX` bound to the
 * worker's own `SessionIndex` (docs/sessions.md, "Your conversations"), each turn sent with the
 * list's key (`INDEX_KEY_HEADER`), so that a turn pays the write to its user's index.
 * `rust-indexed` is the production build (`rust`) with it: their difference is that write.
 */
export const INDEXED = new Set(["rust-indexed", "rust-indexed-floor"]);
/**
 * Indexed workers whose `SESSION_INDEX` is a stand-in that answers at once
 * (bench/index-floor/index.js's `FloorIndex`, a worker of its own): `rust-indexed-floor` −
 * `rust` is the write's worker side and the runtime's delivery, `rust-indexed` − that, the
 * object's own work.
 */
export const INDEX_FLOOR = new Set(["rust-indexed-floor"]);
/** The header that names the list of an indexed worker's turns, and its value. */
export const INDEX_KEY_HEADER = { "x-conversations-key": "bench-turns-0123456789" };
/** The one-write-per-message variants: extra, labelled rows of the benchmark. */
export const PER_MESSAGE = ["ts-per-message", "pass-per-message"];

/**
 * The workers a process can run: "agent" always; then any of these. The first three are the
 * benchmark's main table (this adapter and its two rivals, all coalescing writes).
 */
export const ADAPTERS = ["rust", "ts", "pass", ...PER_MESSAGE];

function wranglerOptions() {
  // The local demo environment: the embedded agent, no auth.
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"), "demo");
  return { workerOptions, main };
}

/**
 * Starts one workerd with `agent` plus the adapters named in `adapters`, plus `variants`
 * ({ name: path of another build's index.js }) as more Rust adapters, and `vars` ({ NAME: value })
 * added to the Rust adapters' settings. `extraWorkers`: more Miniflare workers (each with a
 * `name`; the adapters' compatibility date and flags unless given), each on its own socket too
 * (bench/bodies.mjs's floor: a worker that only puts a body into the same R2 bucket).
 * Returns { mf, urls: { agent, <each adapter started> }, pid, dispose }.
 */
export async function startWorkers({
  adapters = ADAPTERS,
  tsAdapterPath,
  log = false,
  inspectorPort,
  variants = {},
  vars = {},
  probe = true,
  extraWorkers = [],
} = {}) {
  const { workerOptions, main } = wranglerOptions();
  const { compatibilityDate, compatibilityFlags } = workerOptions;
  const remoteAgent = { SESSION_AGENT: { className: "DemoSessionAgent", scriptName: "agent", useSQLite: true } };
  const socket = [{ host: "127.0.0.1", port: 0 }];
  // The adapters run without the static-asset router that `[assets]` puts in front of the
  // worker: locally, Miniflare's router first asks its asset worker over RPC whether a path is an
  // asset (about 0.6 ms of CPU per request on this machine kind); on Cloudflare that check runs
  // before the worker and is not its CPU. The TS adapter and the passthrough have no assets
  // either. The agent's worker keeps them (its chat route is the `npm start` layout).
  const { assets: _assets, ...adapterOptions } = workerOptions;
  const rustWorker = (name, durableObjects, scriptPath = main, extra = {}) => ({
    ...(name === "agent" ? workerOptions : adapterOptions),
    bindings: { ...workerOptions.bindings, ...extra },
    name,
    modules: true,
    scriptPath,
    modulesRoot: path.dirname(scriptPath),
    durableObjects,
    unsafeDirectSockets: socket,
  });
  const workers = [rustWorker("agent", workerOptions.durableObjects)];
  if (adapters.includes("rust")) workers.push(rustWorker("rust", remoteAgent, main, vars));
  // Other builds of this worker (e.g. a change to crates/adapter/src/ built elsewhere), as adapters.
  const indexed = { ...remoteAgent, SESSION_INDEX: { className: "SessionIndex", useSQLite: true } };
  const floored = { ...remoteAgent, SESSION_INDEX: { className: "FloorIndex", scriptName: "index-floor" } };
  const indexOf = (name) => (INDEX_FLOOR.has(name) ? floored : INDEXED.has(name) ? indexed : remoteAgent);
  for (const [name, scriptPath] of Object.entries(variants)) {
    workers.push(rustWorker(name, indexOf(name), scriptPath, vars));
  }
  if (Object.keys(variants).some((name) => INDEX_FLOOR.has(name))) {
    const scriptPath = path.join(benchDir, "index-floor/index.js");
    workers.push({ name: "index-floor", modules: true, scriptPath, compatibilityDate, compatibilityFlags, durableObjects: { FLOOR: "FloorIndex" }, unsafeDirectSockets: socket });
  }
  const scripts = {};
  if (adapters.some((a) => JS_WORKERS[a]?.script === "ts")) scripts.ts = tsAdapterPath ?? (await buildTsAdapter());
  scripts.pass = path.join(benchDir, "passthrough/index.js");
  for (const name of Object.keys(JS_WORKERS).filter((a) => adapters.includes(a))) {
    const { script, bindings } = JS_WORKERS[name];
    workers.push({
      name,
      modules: true,
      scriptPath: scripts[script],
      compatibilityDate,
      compatibilityFlags,
      bindings,
      durableObjects: remoteAgent,
      unsafeDirectSockets: socket,
    });
  }
  for (const extra of extraWorkers) workers.push({ compatibilityDate, compatibilityFlags, ...extra, unsafeDirectSockets: socket });

  const startedAt = performance.now();
  const before = new Set(workerdPids());
  // workerd's own output (the Rust worker logs one line per request): kept, last lines only,
  // for a failure's diagnosis, unless `log` asks for all of it on the terminal.
  // The Rust worker's one structured line per request is left out.
  const recent = [];
  const keep = (stream) => {
    stream.setEncoding("utf8");
    stream.on("data", (text) => {
      if (log) process.stderr.write(text);
      for (const line of text.split("\n")) {
        if (line === "" || line.startsWith('{"requestId"')) continue;
        recent.push(line);
        if (recent.length > 200) recent.shift();
      }
    });
  };
  // Durable Object storage (one SQLite database per session) on tmpfs when there is one: every
  // stream of the concurrency rows creates a session, and a disk's fsyncs add the same noise to
  // every row. Removed with the process.
  const persistRoot = existsSync("/dev/shm") ? mkdtempSync(path.join("/dev/shm", "bench-")) : undefined;
  const mf = new Miniflare({
    workers,
    defaultPersistRoot: persistRoot,
    host: "127.0.0.1",
    port: 0,
    cf: false,
    inspectorPort,
    log: new Log(log ? LogLevel.DEBUG : LogLevel.ERROR),
    handleRuntimeStdio(stdout, stderr) {
      keep(stdout);
      keep(stderr);
    },
  });
  await mf.ready;
  const readyAt = performance.now();
  const urls = {};
  for (const w of workers) urls[w.name] = (await mf.unsafeGetDirectURL(w.name)).origin;
  // Each direct socket answers before any measurement starts (any HTTP answer will do); not
  // for a cold start, whose first request must be the measured one.
  for (const url of probe ? Object.values(urls) : []) {
    for (let attempt = 0; ; attempt++) {
      try {
        await (await fetch(`${url}/ready-probe`)).arrayBuffer();
        break;
      } catch (err) {
        if (attempt >= 40) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
  const pid = workerdPids().find((p) => !before.has(p));
  if (pid === undefined) throw new Error("could not find the workerd process Miniflare started");
  return { mf, urls, pid, startedAt, readyAt, output: () => recent.join("\n"), dispose: async () => {
      await mf.dispose();
      if (persistRoot) rmSync(persistRoot, { recursive: true, force: true });
    },
  };
}

/** Pids of workerd processes that are children of this node process. */
export function workerdPids() {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      // Under Valgrind (bench/instructions.mjs) the process is named after the tool.
      if ((comm.startsWith("workerd") || comm.startsWith("callgrind")) && ppid === process.pid) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}
