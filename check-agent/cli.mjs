#!/usr/bin/env node
// check-agent: checks anyone's SessionAgent against the agent contract (docs/agent-protocol.md)
// and prints one line per rule: MUST / SHOULD, pass / fail / skip, and for a failure what was
// expected, what arrived, and what a chat client sees because of it. Exit status 1 when a MUST
// fails, 2 when the agent could not be started or reached, 0 otherwise.
//
//   npm run check-agent -- --config path/to/wrangler.toml [--class SessionAgent] [--env NAME]
//       starts that worker locally (wrangler dev, with check-agent's probe worker beside it, bound
//       to the class the way the adapter binds it) and checks it
//   npm run check-agent -- --url 'wss://agent.example.workers.dev/sessions/{session}/ws' --token T
//       checks a deployed agent through a WebSocket route of its own ({session} is replaced;
//       the token goes as `Authorization: Bearer T`)
//
//   --prompt TEXT       a prompt whose turn ends (default: a short question)
//   --long-prompt TEXT  a prompt whose turn lasts a few seconds, to abort (default: a long answer)
//   --ask-prompt TEXT   a prompt that makes the agent ask a question (no default: R-answer is
//                       skipped without it)
//   --approve-prompt TEXT  a prompt that makes the agent announce a tool call and ask the user
//                       to approve it (a question with toolCallId); it is sent twice, the first
//                       question denied, the second approved (no default: R-approval is skipped
//                       without it)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { checkAgent, report } from "./check.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_PROMPTS = {
  short: "Say hello in one short sentence.",
  long: "Explain in detail, step by step and in at least 400 words, how a rainbow forms.",
};
/** How long wrangler dev may take to serve the probe (a first build of a TypeScript worker). */
const START_TIMEOUT_MS = 60_000;

function usage(problem) {
  if (problem) process.stderr.write(`check-agent: ${problem}\n`);
  process.stderr.write(
    "usage: check-agent (--config WRANGLER_TOML [--class NAME] [--env NAME] | --url WSS_URL_WITH_{session} [--token T])\n" +
      "                   [--prompt TEXT] [--long-prompt TEXT] [--ask-prompt TEXT] [--approve-prompt TEXT]\n",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const args = { prompts: { ...DEFAULT_PROMPTS } };
  const names = { "--config": "config", "--class": "className", "--env": "env", "--url": "url", "--token": "token" };
  const prompts = { "--prompt": "short", "--long-prompt": "long", "--ask-prompt": "ask", "--approve-prompt": "approve" };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--help" || flag === "-h") usage();
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

/** Starts the user's worker and the probe with `wrangler dev -c probe -c theirs`; resolves to
 * { origin, stop } once the probe answers. */
async function startLocal({ config: given, className, env }) {
  const { unstable_readConfig } = await import("wrangler");
  // Relative to where the user ran `npm run check-agent` (npm runs scripts from the repository's
  // root and says where it was called from in INIT_CWD).
  const config = path.resolve(process.env.INIT_CWD ?? process.cwd(), given);
  const theirs = unstable_readConfig({ config: path.resolve(config), env });
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
  const port = await freePort();
  const wrangler = path.join(here, "../node_modules/wrangler/bin/wrangler.js");
  const args = [wrangler, "dev", "-c", path.join(dir, "wrangler.toml"), "-c", path.resolve(config), "--ip", "127.0.0.1", "--port", String(port), "--show-interactive-dev-session=false"];
  if (env) args.push("--env", env);
  const child = spawn(process.execPath, args, {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // gone already
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${origin}/`);
      if (res.status === 404 && (await res.text()).includes("/sessions/:id/agent")) return { origin, agentClass, name: theirs.name, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error(`wrangler dev did not serve the agent within ${START_TIMEOUT_MS / 1000} s:\n${output.slice(-2000)}`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let connect;
  let stop = () => {};
  if (args.config) {
    let local;
    try {
      local = await startLocal(args);
    } catch (err) {
      process.stderr.write(`check-agent: ${err.message ?? err}\n`);
      return 2;
    }
    stop = local.stop;
    process.stdout.write(`check-agent: ${local.agentClass} of worker ${local.name}, started locally\n`);
    connect = (session) => new WebSocket(`${local.origin.replace("http", "ws")}/sessions/${session}/agent`);
  } else {
    // The adapter's own headers, for an agent route that passes them on to the object.
    const headers = { "x-client": "ai-sdk-adapter", "x-agent-protocol": "2" };
    if (args.token) headers.authorization = `Bearer ${args.token}`;
    process.stdout.write(`check-agent: ${args.url}\n`);
    connect = (session) => new WebSocket(args.url.replace("{session}", encodeURIComponent(session)), { headers });
  }
  try {
    const { results, mustFailed } = await checkAgent({ connect, prompts: args.prompts });
    process.stdout.write(`${report(results)}\n`);
    if (results.find((r) => r.id === "R-open")?.status === "fail") return 2;
    return mustFailed ? 1 : 0;
  } finally {
    stop();
  }
}

main().then((code) => process.exit(code), (err) => {
  process.stderr.write(`check-agent: ${err?.stack ?? err}\n`);
  process.exit(2);
});
