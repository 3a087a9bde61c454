// Shared by the end-to-end tests: starts the built worker (build/, made by scripts/build.sh) in
// workerd through the Miniflare API, with the bindings, vars and flags of wrangler.toml's `demo`
// environment, and talks to it over real HTTP on 127.0.0.1.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Miniflare, Log, LogLevel } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { build } from "esbuild";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** wrangler.toml's environment of the local demo: `npm start`, the tests and the benchmark. */
export const DEMO_ENV = "demo";

/**
 * Starts the worker on a free port of 127.0.0.1, in wrangler.toml's environment `env` (the local
 * demo's by default; `null` for the default environment). `vars` override its [vars];
 * `ratelimits` adds Rate Limiting bindings, as wrangler.toml's `[[ratelimits]]` would, e.g.
 * `{ RATE_LIMITER: { namespace_id: "1001", simple: { limit: 3, period: 60 } } }` (Miniflare simulates them).
 * Returns { base, dispose, restart, scheduled, logs, turns, points, diagnostics, stderr, probe, r2, objects }
 * (`r2(name)` a bucket, `objects(name)` a Durable Object namespace, from the test's side): `logs`
 * collects the worker's structured log lines (one JSON object per request), `turns` its turn
 * records (one per turn: docs/operations.md), `diagnostics` its other lines (a skipped frame, a
 * panic: docs/operations.md), `points` the data points its `TURN_ANALYTICS` dataset was given
 * (with `analytics: true`, which binds one that logs them), `stderr` workerd's error output line
 * by line (where a Rust panic and an uncaught error are printed). Set E2E_LOG=1 to see workerd's whole output.
 *
 * `agent` picks the SessionAgent behind the adapter: `"demo"` (the embedded Rust demo, in this
 * worker), or the reference TypeScript agent (agents/typescript) in a worker of its own, bound by
 * `scriptName` as in production: `"typescript"`, or `"typescript-minimal"` (its AGENT_MODE
 * "minimal"); or `"ai-sdk"`, the AI SDK example agent (examples/ai-sdk-agent) with its mock model
 * (no recorder: no `/demo/sessions/:id/…` logs); or `"failing"`, an agent that fails on purpose
 * as its session id's prefix says (tests/fixtures/agents/failing.js). The TypeScript agent runs with the test recorder (tests/fixtures/agents), so the
 * `/demo/sessions/:id/…` logs work for both; `agentVars` adds to its vars (AGENT_FAULT, …; with
 * AGENT_TOKEN its own worker is served too, at `agentOrigin`).
 *
 * `unset` names settings of the environment left out (as if its `wrangler.toml` did not set them),
 * bindings too: `unset: ["FILES"]` leaves out the files' R2 bucket (Miniflare's local R2, which
 * `r2(name)` opens from the test's side: docs/files.md), `unset: ["SESSION_INDEX"]` the
 * conversations' index. `bind` adds or replaces Durable Object bindings, e.g.
 * `{ SESSION_INDEX: { className: "DemoSessionAgent", useSQLite: true } }` (an object that is no
 * index, to see its failures).
 *
 * `persist` (a directory) keeps the Durable Objects' storage there, and `restart()` then restarts
 * workerd with the same options: every object comes back as a fresh instance on its stored data,
 * and every socket is new (`base` may change: read it again).
 *
 * `sidecars` adds workers of the caller's own (Miniflare's options, each given a port of its own:
 * `sidecar(name)` is its origin), with the adapter's compatibility date and flags; a Durable
 * Object binding of theirs names the adapter's classes by `scriptName: "session-agent-chat"`.
 *
 * `inspectorPort` opens workerd's V8 inspector there (bench/lib/inspector.mjs: one isolate's heap).
 *
 * `probe: true` adds check-agent's probe worker (check-agent/probe.js), bound to the same agent
 * class, on a port of its own: `probe` is then its origin, where `/sessions/:id/agent` opens the
 * agent's socket as the adapter does. With an agent in its own worker, `adapter: false` leaves
 * the adapter out (`base` is then null): check-agent's runs need the probe alone.
 */
export async function startWorker({ vars = {}, unset = [], bind = {}, sidecars = [], env = DEMO_ENV, ratelimits = {}, probe = false, agent = "demo", agentVars = {}, persist = null, analytics = false, inspectorPort, adapter: withAdapter = true } = {}) {
  if (!withAdapter && (agent === "demo" || !probe)) throw new Error("adapter: false is for a probe of an agent in its own worker");
  const agentServed = agent !== "demo" && agentVars.AGENT_TOKEN !== undefined;
  const logs = [];
  const turns = [];
  const points = [];
  const stderrLines = [];
  const diagnostics = [];
  // The local demo environment (the embedded agent, no auth) unless `env` names another
  // (`null`: the default one); `vars` adjust it per test.
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(
    path.join(root, "wrangler.toml"),
    env ?? undefined,
  );
  const bindings = { ...workerOptions.bindings, ...vars };
  const r2Buckets = { ...workerOptions.r2Buckets };
  const durableObjects = { ...workerOptions.durableObjects, ...bind };
  for (const name of unset) {
    delete bindings[name];
    delete r2Buckets[name];
    delete durableObjects[name];
  }
  const adapter = {
    ...workerOptions,
    bindings,
    r2Buckets,
    durableObjects,
    ratelimits: { ...workerOptions.ratelimits, ...ratelimits },
    name: ADAPTER_NAME,
    modules: true,
    scriptPath: main,
    modulesRoot: path.dirname(main),
  };
  const agentWorkers = [];
  let agentAt = { scriptName: ADAPTER_NAME, className: "DemoSessionAgent" };
  if (agent === "ai-sdk") {
    agentAt = { scriptName: AI_SDK_AGENT_NAME, className: "ChatAgent" };
    adapter.durableObjects = { ...adapter.durableObjects, SESSION_AGENT: agentAt };
    agentWorkers.push(await aiSdkAgentWorker(workerOptions, { MODEL: "mock", ...agentVars }));
  } else if (agent === "failing") {
    agentAt = { scriptName: FAILING_AGENT_NAME, className: "FailingAgent" };
    adapter.durableObjects = { ...adapter.durableObjects, SESSION_AGENT: agentAt };
    agentWorkers.push(await agentWorker(workerOptions, { entry: "tests/fixtures/agents/failing.js", name: FAILING_AGENT_NAME, className: "FailingAgent" }, {}));
  } else if (agent !== "demo") {
    const mode = { typescript: {}, "typescript-minimal": { AGENT_MODE: "minimal" } }[agent];
    if (!mode) throw new Error(`unknown agent ${agent}`);
    agentAt = { scriptName: TS_AGENT_NAME, className: "SessionAgent" };
    adapter.durableObjects = { ...adapter.durableObjects, SESSION_AGENT: agentAt };
    const agentWorker = await typescriptAgentWorker(workerOptions, { MODEL: "scripted", ...mode, ...agentVars });
    // With an AGENT_TOKEN the agent's own route is on: serve it on a port of its own.
    if (agentServed) agentWorker.unsafeDirectSockets = [{ host: "127.0.0.1", port: 0 }];
    agentWorkers.push(agentWorker);
  }
  if (probe) agentWorkers.push(probeWorker(workerOptions, agentAt.scriptName, agentAt.className));
  for (const sidecar of sidecars) {
    const { compatibilityDate, compatibilityFlags } = workerOptions;
    agentWorkers.push({ compatibilityDate, compatibilityFlags, ...sidecar, unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }] });
  }
  if (analytics) {
    // The dataset binding, observed: Miniflare's own Analytics Engine binding drops every point,
    // so the test binds a wrapped binding of the same shape that logs each point it is given.
    adapter.wrappedBindings = { ...adapter.wrappedBindings, TURN_ANALYTICS: { scriptName: ANALYTICS_RECORDER } };
    agentWorkers.push({
      name: ANALYTICS_RECORDER,
      modules: true,
      script: `export default function () {
        return { writeDataPoint(point) { console.log(JSON.stringify({ analyticsPoint: point })); } };
      }`,
    });
  }
  // Without the adapter (check-agent's runs: the probe speaks to the agent as the adapter does),
  // workerd compiles no adapter wasm at each start and restart.
  const workers = !withAdapter ? { workers: agentWorkers } : agentWorkers.length ? { workers: [adapter, ...agentWorkers] } : adapter;
  const options = {
    ...workers,
    ...(persist ? { durableObjectsPersist: persist } : {}),
    ...(inspectorPort ? { inspectorPort } : {}),
    host: "127.0.0.1",
    port: 0,
    // No request.cf lookup: the tests run offline.
    cf: false,
    log: new Log(process.env.E2E_LOG ? LogLevel.DEBUG : LogLevel.ERROR),
    handleRuntimeStdio: (stdout, stderr) => {
      collectLogLines(stdout, { logs, turns, points, diagnostics });
      collectLogLines(stderr, { logs, turns, points, diagnostics });
      collectLines(stderr, stderrLines);
      if (process.env.E2E_LOG) {
        stdout.pipe(process.stdout);
        stderr.pipe(process.stderr);
      }
    },
  };
  const mf = new Miniflare(options);
  const worker = {
    dispose: () => mf.dispose(),
    r2: (name) => mf.getR2Bucket(name, ADAPTER_NAME),
    objects: (name) => mf.getDurableObjectNamespace(name, ADAPTER_NAME),
    logs,
    turns,
    points,
    diagnostics,
    stderr: stderrLines,
  };
  const located = async () => {
    const ready = await mf.ready;
    worker.base = withAdapter ? ready.origin : null;
    worker.probe = probe ? (await mf.unsafeGetDirectURL(PROBE_NAME)).origin : null;
    worker.agentOrigin = agentServed ? (await mf.unsafeGetDirectURL(TS_AGENT_NAME)).origin : null;
    const origins = {};
    for (const { name } of sidecars) origins[name] = (await mf.unsafeGetDirectURL(name)).origin;
    worker.sidecar = (name) => origins[name];
  };
  /** Runs the worker's Cron Trigger as the runtime would at `time` (ms since the epoch): the
   * tests' clock for the adapter's scheduled work. */
  worker.scheduled = async (time) => (await mf.getWorker(ADAPTER_NAME)).scheduled({ scheduledTime: new Date(time), cron: "17 * * * *" });
  worker.restart = async () => {
    await mf.setOptions(options);
    await located();
  };
  await located();
  return worker;
}

/** The adapter worker's name (wrangler.toml's `name`): a Durable Object binding's `scriptName`. */
const ADAPTER_NAME = "session-agent-chat";
/** The TypeScript agent's worker name (agents/typescript/wrangler.toml's `name`). */
const TS_AGENT_NAME = "session-agent";
const PROBE_NAME = "agent-probe";

/** The failing agent's worker name (tests/fixtures/agents/failing.js). */
const FAILING_AGENT_NAME = "failing-agent";

/** The AI SDK example agent's worker name (examples/ai-sdk-agent/wrangler.toml's `name`). */
const AI_SDK_AGENT_NAME = "ai-sdk-agent";

/** Each agent's bundle, made once per process (workers started together share it). */
const bundles = new Map();

/**
 * The TypeScript agent whose worker's entry is `entry` (relative to the repository), bundled by
 * esbuild in memory as wrangler bundles it (tens of milliseconds; no file, so that test files
 * running at once share nothing; a tsconfig's `paths` read), as the Miniflare worker `name` with
 * its SQLite-backed Durable Object `className` and `vars`. `like` lends it the adapter's
 * compatibility date and flags.
 */
async function agentWorker(like, { entry, name, className }, vars) {
  const outdir = path.join(root, "build/agents", name);
  if (!bundles.has(entry)) {
    bundles.set(entry, build({
      entryPoints: [path.join(root, entry)],
      outfile: path.join(outdir, "index.js"),
      bundle: true,
      format: "esm",
      target: "es2022",
      conditions: ["workerd", "worker", "browser"],
      external: ["cloudflare:*", "node:*"],
      logLevel: "error",
      write: false,
    }));
  }
  const { outputFiles } = await bundles.get(entry);
  return {
    name,
    modules: true,
    script: outputFiles[0].text,
    scriptPath: path.join(outdir, "index.js"),
    modulesRoot: outdir,
    compatibilityDate: like.compatibilityDate,
    compatibilityFlags: like.compatibilityFlags,
    durableObjects: { SESSION_AGENT: { className, useSQLite: true } },
    // A var given as `undefined` is left out, as if its wrangler.toml did not set it.
    bindings: Object.fromEntries(Object.entries(vars).filter(([, value]) => value !== undefined)),
  };
}

/** The reference TypeScript agent with the test recorder (tests/fixtures/agents). */
export const typescriptAgentWorker = (like, vars) =>
  agentWorker(like, { entry: "tests/fixtures/agents/recording.ts", name: TS_AGENT_NAME, className: "SessionAgent" }, vars);

/** The AI SDK example agent (examples/ai-sdk-agent); `MODEL: "mock"` is its test mode. */
export const aiSdkAgentWorker = async (like, vars) => ({
  ...(await agentWorker(like, { entry: "examples/ai-sdk-agent/src/index.ts", name: AI_SDK_AGENT_NAME, className: "ChatAgent" }, vars)),
  // Its wrangler.toml's binding of the adapter's bucket (the same bucket_name: one bucket in Miniflare).
  r2Buckets: { FILES: "session-agent-files" },
});

/** check-agent's probe worker, its `AGENT` bound to `className` in the worker `scriptName`, on a
 * port of its own. `like` lends it the adapter's compatibility date and flags. */
export function probeWorker(like, scriptName, className) {
  return {
    name: PROBE_NAME,
    modules: true,
    scriptPath: path.join(root, "check-agent/probe.js"),
    modulesRoot: path.join(root, "check-agent"),
    compatibilityDate: like.compatibilityDate,
    compatibilityFlags: like.compatibilityFlags,
    durableObjects: { AGENT: { className, scriptName } },
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  };
}

/** Collects `stream`'s lines, colour codes removed, into `lines`. */
function collectLines(stream, lines) {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (text) => {
    pending += text;
    const parts = pending.split("\n");
    pending = parts.pop();
    // eslint-disable-next-line no-control-regex
    for (const line of parts) lines.push(line.replace(/\x1b\[[0-9;]*m/g, ""));
  });
}

/** The lines of workerd's output that show a panic of the Rust code or an uncaught error. */
export function panicsIn(lines) {
  return lines.filter((line) => /panicked at|RuntimeError: unreachable|Uncaught/i.test(line));
}

/** The wrapped binding that stands for the Analytics Engine dataset in a test (`analytics: true`). */
const ANALYTICS_RECORDER = "analytics-recorder";

/**
 * Parses the worker's structured lines out of its stdout or stderr: request log lines (JSON objects
 * with a `requestId` and a `status`) into `logs`, turn records (`event.name` "turn", the lines of
 * the requests that are turns') into `turns` too, the worker's other lines (`level` and `event`:
 * crates/core/src/diagnostic.rs) into `diagnostics`, and the data points the test's dataset
 * binding was given into `points`.
 */
function collectLogLines(stream, { logs, turns, points, diagnostics }) {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (text) => {
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop();
    for (const line of lines) {
      const start = line.indexOf("{");
      if (start < 0) continue;
      try {
        const record = JSON.parse(line.slice(start));
        if (typeof record?.level === "string" && typeof record.event === "string") {
          diagnostics.push(record);
          continue;
        }
        // A turn's record is its request's line: the one object goes into both.
        if (record && typeof record.requestId === "string") logs.push(record);
        if (record?.["event.name"] === "turn") turns.push(record);
        else if (record?.analyticsPoint) points.push(record.analyticsPoint);
      } catch {
        // Not a log line of ours.
      }
    }
  });
}

let sessions = 0;
/** A session id no other test uses (each session is its own Durable Object). */
export function sessionId(label) {
  sessions += 1;
  return `${label}-${process.pid}-${sessions}-${Date.now()}`;
}

/** User messages made by chatBody, so each has an id of its own, as an AI SDK client's does (an id
 * the agent has, with the same text, would be the same message sent again: a new reply to it). */
let userMessages = 0;

/** The AI SDK's POST body for one user message (a new one, with an id no other message has). */
export function chatBody(text, extra = {}) {
  userMessages += 1;
  return JSON.stringify({
    id: "chat-1",
    trigger: "submit-message",
    messages: [{ id: `user-${process.pid}-${userMessages}`, role: "user", parts: [{ type: "text", text }] }],
    ...extra,
  });
}

/** POSTs `body` to the chat route of `session`. */
export function postChat(base, session, body, init = {}) {
  return fetch(`${base}/api/sessions/${session}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    ...init,
  });
}

/**
 * Reads a response body to its end. Returns { text, reads }: the body, and each network read's
 * arrival time (Date.now()) and text.
 */
export async function readAll(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const reads = [];
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const piece = decoder.decode(value, { stream: true });
    reads.push({ at: Date.now(), text: piece });
    text += piece;
  }
  return { text, reads };
}

/** Splits an SSE body into its events (each without the blank line that ends it). */
export function sseEvents(text) {
  const events = text.split("\n\n");
  if (events.at(-1) !== "") throw new Error(`body does not end with a blank line: ${JSON.stringify(text.slice(-40))}`);
  return events.slice(0, -1);
}

/** The SSE body without keep-alive comments. */
export function withoutKeepAlives(text) {
  return sseEvents(text).filter((e) => e !== ": keep-alive").map((e) => `${e}\n\n`).join("");
}

/**
 * The SSE body with the metadata's times zeroed (`createdAt`, `durationMs`), as the replay CLI,
 * which has no clock of the turn, writes them. Returns { text, times } with the times it found.
 */
export function withoutTimes(text) {
  const times = [];
  const zeroed = text.replace(/"(createdAt|durationMs)":(\d+)/g, (_, key, value) => {
    times.push({ key, value: Number(value) });
    return `"${key}":0`;
  });
  return { text: zeroed, times };
}

/** The UI chunks of an SSE body (comments and [DONE] left out). */
export function chunksOf(text) {
  return sseEvents(text)
    .filter((e) => e.startsWith("data: ") && e !== "data: [DONE]")
    .map((e) => JSON.parse(e.slice("data: ".length)));
}

/** GETs one of the demo agent's logs ("received" or "sent") of `session`, with `headers` (the
 * chat route's credentials, where the worker asks for them). */
export async function demoLog(base, session, log, headers = {}) {
  const response = await fetch(`${base}/demo/sessions/${session}/${log}`, { headers });
  if (response.status !== 200) throw new Error(`${log}: status ${response.status}`);
  return response.json();
}

/** The `prompt` frames the demo agent received. */
export async function prompts(base, session, headers = {}) {
  return (await demoLog(base, session, "received", headers)).filter((e) => e.frame.type === "prompt");
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `predicate()` holds (checked every 20 ms), or fails after `ms` naming `what`. */
export async function until(predicate, what, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
