#!/usr/bin/env node
// The reliability suite: drives the built worker (build/, from scripts/build.sh) in workerd through
// the end-to-end harness and prints a table of figures, each with its count.
//
//   node tests/reliability/run.mjs            full form (≥ 200 disconnects, bursts of 100, 200 and
//                                             200 at random, 200 concurrent streams, 1,000 feeds
//                                             reset, 100 stalled feeds over 20 image turns)
//   node tests/reliability/run.mjs --quick    short form for `npm test` (20 disconnects, a burst of
//                                             100, 30 streams, 200 feeds reset, 20 stalled feeds
//                                             over 5 image turns)
//   options: --seed N (the disconnect schedule), --only a,b (disconnects|bursts|concurrency|
//            malformed|faults|detach|liveness|feeds), --out FILE (default results/latest.json, or results/latest-quick.json for
//            --quick, so `npm test` does not overwrite the full form's figures), --log (echo
//            Miniflare's console to stderr; E2E_LOG=1 shows workerd's own output)
//
// Needs the built worker: `bash scripts/build.sh` first. Exit code: 0 when every assertion held,
// 1 when one did not, 2 when the run could not start.
//
// 1. disconnects at random points of `/slow` turns → exactly one `abort` each, with the delay;
// 1b. bursts of disconnects (100 or 200 clients leaving together, or at random in 0–2 s) →
//    exactly one `abort` each, with the delay;
// 2. concurrent streams against the demo agent → completed, chunks lost, errors;
// 3. malformed requests (bodies, headers, routes, tokens, CORS) → status and code, zero 5xx;
// 4. faults of the agent (no WebSocket, throw, drop, hang, no message.create, garbage and
//    oversized frames) → a valid stream or a JSON error within its bound;
// 5. drops of detached turns → no abort, every turn completes and resumes whole;
// 6. session feeds: a burst of clients gone (FIN or RST) → every place free within the bound;
//    stalled feeds while turns carry images → a few bytes queued each, the isolate's memory flat.
// What must hold is asserted (exit 1 otherwise); timings are reported, never asserted.
// Everything runs on 127.0.0.1; every loop is bounded in count and time.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import os from "node:os";
import { root, startWorker, sessionId, panicsIn } from "../e2e/harness.mjs";
import { captureWorkerdLog, logExpectations, checkLogs, random, jwt, nowSecs, sleep } from "./lib.mjs";
import { disconnects } from "./disconnects.mjs";
import { concurrency } from "./concurrency.mjs";
import { malformed } from "./malformed.mjs";
import { faults } from "./faults.mjs";
import { detach } from "./detach.mjs";
import { bursts, BURSTS } from "./bursts.mjs";
import { liveness } from "./liveness.mjs";
import { feeds, FEEDS } from "./feeds.mjs";
import { rsaKey, ecKey, startJwksServer } from "../e2e/jwks.mjs";

const FORMS = {
  quick: { disconnects: 20, disconnectConcurrency: 10, bursts: BURSTS.quick, streams: 30, detaches: 10, frozen: 5, feeds: FEEDS.quick, deadlineMs: 240_000 },
  full: { disconnects: 200, disconnectConcurrency: 10, bursts: BURSTS.full, streams: 200, detaches: 100, frozen: 20, feeds: FEEDS.full, deadlineMs: 1_000_000 },
};
const SECTIONS = ["disconnects", "bursts", "concurrency", "malformed", "faults", "detach", "liveness", "feeds"];

function parseArgs(argv) {
  const args = { quick: false, seed: null, only: SECTIONS, out: null, log: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--quick") args.quick = true;
    else if (a === "--seed") args.seed = Number(value());
    else if (a === "--only") args.only = value().split(",").map((s) => s.trim());
    else if (a === "--out") args.out = value();
    else if (a === "--log") args.log = true;
    else if (a === "--help" || a === "-h") usage();
    else usage(`unknown option ${a}`);
  }
  if (args.seed !== null && !Number.isInteger(args.seed)) usage("--seed needs an integer");
  for (const s of args.only) if (!SECTIONS.includes(s)) usage(`unknown section ${s}`);
  return args;
}

function usage(problem) {
  const out = problem ? process.stderr : process.stdout;
  if (problem) out.write(`run.mjs: ${problem}\n`);
  out.write("usage: node tests/reliability/run.mjs [--quick] [--seed N] [--only disconnects,bursts,concurrency,malformed,faults,detach,liveness,feeds] [--out FILE] [--log]\n");
  process.exit(problem ? 2 : 0);
}

const say = (text = "") => process.stdout.write(`${text}\n`);

/** The runtime the suite drives: Miniflare's version and the workerd it runs (its own dependency). */
function runtimeVersions() {
  const miniflareJson = createRequire(import.meta.url).resolve("miniflare/package.json");
  const version = (file) => JSON.parse(readFileSync(file, "utf8")).version;
  return {
    miniflare: version(miniflareJson),
    workerd: version(createRequire(miniflareJson).resolve("workerd/package.json")),
  };
}

/** The configs the sections run against (wrangler.toml's `demo` env, plus these vars). */
const SECRET = "reliability-suite-secret-0123456789";
const ORIGIN = "https://app.example";
/** The `jwt` worker also takes RS256 / ES256 tokens from a JWKS server of the suite's own, and
 * checks `iss` and `aud` (of HS256 tokens too); `jwksDown`'s JWKS answers 500. */
const ISSUER = "https://issuer.reliability.example/";
const AUDIENCE = "https://api.reliability.example";
const KEYS = { rsa: rsaKey("rel-rsa"), ec: ecKey("rel-ec") };
const LIMITS = { maxBodyBytes: 65_536, maxMessages: 50, maxPromptChars: 1000 };
const WORKERS = {
  // Its own worker, so that the first batch of disconnects meets a worker that just started.
  disconnects: {},
  // Its own workers too: a burst meets no other section's traffic. `burstsTs`: the adapter bound
  // to the reference TypeScript agent in a worker of its own (AGENT_OF).
  bursts: {},
  burstsTs: {},
  default: {},
  jwt: {
    AUTH_MODE: "jwt", AUTH_SECRET: SECRET, ALLOWED_ORIGINS: ORIGIN,
    MAX_BODY_BYTES: String(LIMITS.maxBodyBytes), MAX_MESSAGES: String(LIMITS.maxMessages), MAX_PROMPT_CHARS: String(LIMITS.maxPromptChars),
  },
  token: { AUTH_MODE: "token", AUTH_SECRET: SECRET },
  jwksDown: { AUTH_MODE: "jwt", JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE },
  faults: { FIRST_EVENT_TIMEOUT_MS: "1000", IDLE_TIMEOUT_MS: "1000", MAX_FRAME_BYTES: "65536", MAX_PROMPT_CHARS: "2000000" },
  // The failing fixture agent's `frozen-` sockets, pinged every 500 ms (the default is 30 s).
  liveness: { LIVENESS_PING_MS: "500" },
};
/** The agent behind a worker, where it is not the embedded demo (tests/e2e/harness.mjs). */
const AGENT_OF = { burstsTs: "typescript", liveness: "failing" };
/** Which workers each section needs. */
const NEEDS = { disconnects: ["disconnects"], bursts: ["bursts", "burstsTs"], concurrency: ["default"], malformed: ["jwt", "token", "default", "jwksDown"], faults: ["faults"], detach: ["default"], liveness: ["liveness"], feeds: [] };

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const form = args.quick ? "quick" : "full";
  const size = FORMS[form];
  const seed = args.seed ?? (Date.now() % 2 ** 31);
  const startedAt = new Date();
  const t0 = Date.now();
  const outFile = args.out ?? path.join(root, "tests/reliability/results", args.quick ? "latest-quick.json" : "latest.json");

  // Everything is bounded: past the deadline the run fails instead of hanging.
  const deadline = setTimeout(() => {
    process.stderr.write(`reliability: the ${form} form passed its ${size.deadlineMs / 1000} s deadline\n`);
    process.exit(1);
  }, size.deadlineMs);
  deadline.unref();

  // Miniflare's own console output (uncaught errors of the worker, …); the request log records
  // come from the harness (worker.logs).
  const consoleLines = captureWorkerdLog({ echo: args.log });
  const { list: logChecks, expectLog } = logExpectations();
  const marker = `PROMPT-MARKER-${seed}`;
  const rand = random(seed);
  const demoToken = jwt({ sub: "suite", exp: nowSecs() + 3600, sessions: "*", iss: ISSUER, aud: AUDIENCE }, SECRET);

  const runtime = runtimeVersions();
  say(`reliability suite: ${form} form, seed ${seed}, ${os.cpus().length} CPUs, node ${process.version}, miniflare ${runtime.miniflare}, workerd ${runtime.workerd}`);
  const needed = [...new Set(args.only.flatMap((s) => NEEDS[s]))];
  const workers = {};
  const jwks = await startJwksServer();
  jwks.serve("/keys", { keys: [KEYS.rsa, KEYS.ec], cacheControl: "public, max-age=3600" });
  jwks.serve("/down", { status: 500 });
  const jwksUrl = { jwt: jwks.url("/keys"), jwksDown: jwks.url("/down") };
  try {
    await Promise.all(needed.map(async (name) => {
      const vars = jwksUrl[name]
        ? { ...WORKERS[name], JWKS_URL: jwksUrl[name], JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE }
        : WORKERS[name];
      const w = await startWorker({ vars, agent: AGENT_OF[name] ?? "demo" });
      const auth = WORKERS[name].AUTH_MODE === "jwt" ? demoToken : WORKERS[name].AUTH_MODE === "token" ? SECRET : null;
      workers[name] = { ...w, name, vars: WORKERS[name], demoHeaders: auth ? { authorization: `Bearer ${auth}` } : {} };
    }));
  } catch (err) {
    process.stderr.write(`reliability: the worker did not start (run scripts/build.sh first?): ${err?.stack ?? err}\n`);
    for (const w of Object.values(workers)) await w.dispose();
    await jwks.close();
    process.exit(2);
  }

  /** One of the demo agent's logs; bounded; throws on anything but a 200 JSON array. */
  const demoLog = async (worker, session, log) => {
    const response = await fetch(`${worker.base}/demo/sessions/${session}/${log}`, {
      headers: worker.demoHeaders, signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`GET /demo/sessions/${session}/${log}: ${response.status} ${text.slice(0, 120)}`);
    return JSON.parse(text);
  };

  const sections = [];
  const common = { rand, demoLog, newSession: sessionId, expectLog, marker };
  try {
    for (const name of args.only) {
      const sectionStart = Date.now();
      say(`… ${name}`);
      let result;
      try {
        if (name === "disconnects") {
          result = await disconnects({ ...common, worker: workers.disconnects }, { count: size.disconnects, concurrency: size.disconnectConcurrency });
        } else if (name === "bursts") {
          result = await bursts({ ...common, workers: [["demo agent", workers.bursts], ["TypeScript agent", workers.burstsTs]] }, { schedule: size.bursts });
        } else if (name === "concurrency") {
          result = await concurrency({ ...common, worker: workers.default }, { streams: size.streams });
        } else if (name === "malformed") {
          result = await malformed({
            ...common, workers, secret: SECRET, origin: ORIGIN, limits: LIMITS, session: () => sessionId("rel-bad"),
            issuer: ISSUER, audience: AUDIENCE, keys: KEYS,
          });
        } else if (name === "feeds") {
          result = await feeds(common, size.feeds);
        } else if (name === "faults") {
          result = await faults({ ...common, worker: workers.faults, vars: WORKERS.faults });
        } else if (name === "liveness") {
          result = await liveness({ ...common, worker: workers.liveness, vars: WORKERS.liveness }, { trials: size.frozen });
        } else {
          result = await detach({ ...common, worker: workers.default }, { count: size.detaches, concurrency: size.disconnectConcurrency });
        }
      } catch (err) {
        result = { name, figures: [{ figure: `${name}: the section crashed`, n: 0, value: "–", pass: false }], failures: [String(err?.stack ?? err)] };
      }
      result.seconds = Math.round((Date.now() - sectionStart) / 100) / 10;
      sections.push(result);
    }
    // A streamed turn's record is written when its pump ends: give the last ones time to land.
    await sleep(1000);
  } finally {
    for (const w of Object.values(workers)) await w.dispose();
    await jwks.close();
  }

  // The worker's request log: one record per answered request, with its status and outcome;
  // never a secret, a token or prompt text. Miniflare's console: no panic, no uncaught error.
  const records = Object.values(workers).flatMap((w) => w.logs);
  const keys = [...new Set(records.flatMap((o) => Object.keys(o)))];
  const logFailures = checkLogs(logChecks);
  const secrets = [SECRET, demoToken.split(".")[2], marker];
  const leaks = records.filter((r) => secrets.some((x) => JSON.stringify(r).includes(x)));
  // Miniflare's console, and workerd's own stderr, where a Rust panic is printed (a check that
  // reads only the former cannot fail: tests/e2e/panic_check.test.mjs shows this one does).
  const panics = [
    ...panicsIn(consoleLines.map((l) => l.text)),
    ...Object.values(workers).flatMap((w) => panicsIn(w.stderr)),
  ].map((text) => ({ text }));
  sections.push({
    name: "worker log",
    figures: [
      { figure: "request log records", n: records.length, value: `keys: ${keys.join(", ") || "–"}` },
      { figure: "answered requests with exactly one record, right status and outcome", n: logChecks.length,
        value: `${logChecks.length - new Set(logFailures.map((f) => f.split(":")[0])).size}/${logChecks.length}`, pass: logFailures.length === 0 },
      { figure: "records with a secret, a token or prompt text", n: records.length, value: String(leaks.length), pass: leaks.length === 0 },
      { figure: "panics or uncaught errors on Miniflare's console and workerd's stderr", n: consoleLines.length + Object.values(workers).reduce((n, w) => n + w.stderr.length, 0), value: String(panics.length), pass: panics.length === 0 },
    ],
    failures: [
      ...logFailures,
      ...leaks.map((r) => `log record shows a secret or prompt text: ${JSON.stringify(r).slice(0, 300)}`),
      ...panics.map((l) => `console: ${l.text.slice(0, 300)}`),
    ],
  });

  // The table.
  const rows = sections.flatMap((s) => s.figures.map((f) => ({ section: s.name, ...f })));
  say();
  printTable(["section", "figure", "count", "value", "result"], rows.map((r) => [
    r.section, r.figure, String(r.n), r.value, r.pass === undefined ? "" : r.pass ? "PASS" : "FAIL",
  ]));
  for (const s of sections.filter((x) => x.table)) {
    say();
    say(`${s.name}:`);
    const cols = Object.keys(s.table[0] ?? {});
    printTable(cols, s.table.map((r) => cols.map((c) => (c === "ok" ? (r.ok ? "ok" : "WRONG") : r[c] === null || r[c] === undefined ? "–" : String(r[c])))));
  }
  const failures = sections.flatMap((s) => s.failures ?? []);
  const failed = rows.filter((r) => r.pass === false);
  if (failures.length) {
    say();
    say(`failures (${failures.length}):`);
    for (const f of failures.slice(0, 60)) say(`  - ${f}`);
    if (failures.length > 60) say(`  … and ${failures.length - 60} more (see ${path.relative(root, outFile)})`);
  }
  const seconds = Math.round((Date.now() - t0) / 100) / 10;
  say();
  say(`${failed.length ? "FAIL" : "PASS"}: ${rows.filter((r) => r.pass !== undefined).length - failed.length}/${rows.filter((r) => r.pass !== undefined).length} assertions held, ${seconds} s (seed ${seed})`);

  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify({
    form, seed, startedAt: startedAt.toISOString(), seconds, node: process.version, cpus: os.cpus().length, runtime,
    workers: WORKERS, passed: failed.length === 0,
    figures: rows,
    sections: sections.map((s) => ({ name: s.name, seconds: s.seconds, figures: s.figures, table: s.table, failures: s.failures, detail: s.detail })),
  }, null, 2)}\n`);
  say(`figures written to ${path.relative(root, outFile)}`);
  clearTimeout(deadline);
  return failed.length || failures.length ? 1 : 0;
}

function printTable(header, rows) {
  const widths = header.map((h, i) => Math.min(90, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ").trimEnd();
  say(line(header));
  say(line(widths.map((w) => "-".repeat(w))));
  for (const r of rows) say(line(r));
}

main().then((code) => process.exit(code), (err) => {
  process.stderr.write(`reliability: ${err?.stack ?? err}\n`);
  process.exit(2);
});
