#!/usr/bin/env node
// check-agent: checks anyone's SessionAgent against the agent contract (docs/agent-protocol.md)
// and prints one line per rule: MUST / SHOULD, pass / fail / skip / n/a, and for a failure what
// was expected, what arrived, and what a chat client sees because of it. docs/check-agent.md has
// every option, its default, the exit statuses (0 every MUST checked and passed, 1 a MUST failed,
// 2 the agent could not be started or reached, 3 incomplete: a MUST could not be driven) and the
// JSON output.
//
//   npm run check-agent -- --config path/to/wrangler.toml [--class NAME] [--env NAME]
//       starts that worker locally (wrangler dev, with check-agent's probe worker beside it, bound
//       to the class the way the adapter binds it), checks it, and restarts it once (R-restart)
//   npm run check-agent -- --url 'wss://agent.example.workers.dev/sessions/{session}/ws' --token T
//       checks a deployed agent through a WebSocket route of its own ({session} is replaced;
//       the token goes as `Authorization: Bearer T`)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { checkAgent, Unreachable } from "./check.mjs";
import { EXIT, report, reportJson } from "./verdicts.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The prompts sent when none is given (docs/check-agent.md): a turn that ends, and one long
 * enough to abort and to join mid-way on an agent with a real model. */
const DEFAULT_PROMPTS = {
  short: "Say hello in one short sentence.",
  long: "Explain in detail, step by step and in at least 400 words, how a rainbow forms.",
};
/** How long wrangler dev may take to serve the probe (a first build of a TypeScript worker). */
const START_TIMEOUT_MS = 60_000;

const USAGE = `usage: check-agent (--config WRANGLER_TOML [--class NAME] [--env NAME] [--path P] | --url WSS_URL_WITH_{session} [--token T])
                   [--prompt TEXT] [--long-prompt TEXT] [--ask-prompt TEXT | --no-questions]
                   [--approve-prompt TEXT | --no-approvals] [--seen-prompt TEXT] [--extras-prompt TEXT | --no-extras] [--json]
`;

function usage(problem) {
  if (problem) process.stderr.write(`check-agent: ${problem}\n`);
  process.stderr.write(USAGE);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { prompts: { ...DEFAULT_PROMPTS }, declares: {}, json: false };
  const names = { "--config": "config", "--class": "className", "--env": "env", "--path": "agentPath", "--url": "url", "--token": "token" };
  const prompts = { "--prompt": "short", "--long-prompt": "long", "--ask-prompt": "ask", "--approve-prompt": "approve", "--seen-prompt": "seen", "--extras-prompt": "extras" };
  const flags = { "--no-questions": () => (args.declares.questions = false), "--no-approvals": () => (args.declares.approvals = false), "--no-extras": () => (args.declares.extras = false), "--json": () => (args.json = true) };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    if (flag in flags) {
      flags[flag]();
      continue;
    }
    const value = argv[i + 1];
    if (!(flag in names) && !(flag in prompts)) usage(`unknown option ${flag}`);
    if (value === undefined) usage(`${flag} needs a value`);
    if (flag in names) args[names[flag]] = value;
    else args.prompts[prompts[flag]] = value;
    i++;
  }
  if (!args.config === !args.url) usage("give exactly one of --config and --url");
  if (args.url && !args.url.includes("{session}")) usage("--url must contain {session}");
  if (args.url && !/^wss?:\/\//.test(args.url)) usage("--url must be a ws:// or wss:// URL");
  if (args.agentPath && !args.agentPath.startsWith("/")) usage("--path must start with /");
  if (args.agentPath && args.url) usage("--path goes with --config (a --url names the route itself)");
  if (args.prompts.ask && args.declares.questions === false) usage("--ask-prompt and --no-questions contradict each other");
  if (args.prompts.approve && args.declares.approvals === false) usage("--approve-prompt and --no-approvals contradict each other");
  if (args.prompts.extras && args.declares.extras === false) usage("--extras-prompt and --no-extras contradict each other");
  return args;
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** Starts the user's worker and the probe with `wrangler dev -c probe -c theirs`, its storage
 * kept in a directory of its own (so a restart finds it); resolves to { origin, restart, stop }
 * once the probe answers. `restart()` stops wrangler dev and starts it again on that storage: every
 * object of the worker starts afresh, as after an eviction or a deploy. */
async function startLocal({ config: given, className, env }) {
  const { unstable_readConfig } = await import("wrangler");
  // Relative to where the user ran `npm run check-agent` (npm runs scripts from the repository's
  // root and says where it was called from in INIT_CWD).
  const config = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const theirs = unstable_readConfig({ config, env });
  const binding = (theirs.durable_objects?.bindings ?? []).find((b) => !b.script_name && (!className || b.class_name === className));
  const agentClass = className ?? binding?.class_name;
  if (!agentClass) throw new Error(`${config} binds no Durable Object class of its own: name it with --class`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "check-agent-"));
  writeFileSync(path.join(dir, "wrangler.toml"), [
    'name = "check-agent-probe"',
    `main = ${JSON.stringify(path.join(here, "probe.js"))}`,
    `compatibility_date = ${JSON.stringify(theirs.compatibility_date ?? "2026-07-30")}`,
    "[[durable_objects.bindings]]",
    'name = "AGENT"',
    `class_name = ${JSON.stringify(agentClass)}`,
    `script_name = ${JSON.stringify(theirs.name)}`,
    "",
  ].join("\n"));
  const wrangler = path.join(here, "../node_modules/wrangler/bin/wrangler.js");
  const local = { agentClass, name: theirs.name, origin: null, child: null };
  const launch = async () => {
    const port = await freePort();
    const args = [wrangler, "dev", "-c", path.join(dir, "wrangler.toml"), "-c", config, "--ip", "127.0.0.1", "--port", String(port),
      "--persist-to", path.join(dir, "state"), "--show-interactive-dev-session=false"];
    if (env) args.push("--env", env);
    const child = spawn(process.execPath, args, {
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    local.child = child;
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline && child.exitCode === null) {
      try {
        const res = await fetch(`${origin}/`);
        if (res.status === 404 && (await res.text()).includes("/sessions/:id/agent")) {
          local.origin = origin;
          return;
        }
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`wrangler dev did not serve the agent within ${START_TIMEOUT_MS / 1000} s:\n${output.slice(-2000)}`);
  };
  const halt = async () => {
    const child = local.child;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5000))]);
  };
  local.restart = async () => {
    await halt();
    await launch();
  };
  local.stop = async () => {
    await halt();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await launch();
  } catch (err) {
    await local.stop();
    throw err;
  }
  return local;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let connect;
  let restart = null;
  let stop = async () => {};
  let agent;
  if (args.config) {
    let local;
    try {
      local = await startLocal(args);
    } catch (err) {
      process.stderr.write(`check-agent: ${err.message ?? err}\n`);
      return EXIT.unreachable;
    }
    stop = local.stop;
    restart = local.restart;
    agent = `${local.agentClass} of worker ${local.name}, started locally`;
    const query = args.agentPath ? `?path=${encodeURIComponent(args.agentPath)}` : "";
    connect = (session) => new WebSocket(`${local.origin.replace("http", "ws")}/sessions/${session}/agent${query}`);
  } else {
    // The adapter's own headers, for an agent route that passes them on to the object.
    const headers = { "x-client": "ai-sdk-adapter", "x-agent-protocol": "7" };
    if (args.token) headers.authorization = `Bearer ${args.token}`;
    agent = args.url;
    connect = (session) => new WebSocket(args.url.replace("{session}", encodeURIComponent(session)), { headers });
  }
  if (!args.json) process.stdout.write(`check-agent: ${agent}\n`);
  try {
    const { results, exitCode } = await checkAgent({ connect, prompts: args.prompts, declares: args.declares, restart });
    process.stdout.write(`${args.json ? reportJson(results, { agent }) : report(results)}\n`);
    return exitCode;
  } catch (err) {
    if (!(err instanceof Unreachable)) throw err;
    process.stderr.write(`check-agent: ${err.message}\n`);
    return EXIT.unreachable;
  } finally {
    await stop();
  }
}

main().then((code) => process.exit(code), (err) => {
  process.stderr.write(`check-agent: ${err?.stack ?? err}\n`);
  process.exit(EXIT.unreachable);
});
