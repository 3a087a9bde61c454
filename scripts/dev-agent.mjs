// `npm start -- --agent PATH/wrangler.toml [--env NAME] [--class NAME]`: the adapter on
// http://127.0.0.1:8787 (or $PORT; $DEV_IP for the address), in front of a team's own agent
// instead of the demo one: `wrangler dev` with two configurations, the adapter's (made here, in
// a temporary directory) and the agent's own. The adapter is bound to the agent's Durable Object
// class in the agent's worker under the name wrangler gives that worker (`--env test` renames
// `my-agent` to `my-agent-test`), with no auth (`AUTH_MODE = "none"`) and its playground on
// (`PLAYGROUND = "on"`): the chat panel, full-size, talking to that agent. docs/your-agent.md,
// "Try it in the panel". Expects scripts/build.sh to have built the adapter (npm start does).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "usage: npm start -- --agent PATH/TO/wrangler.toml [--env NAME] [--class NAME]";

/** `--agent`, `--env`, `--class` from `argv`, or an error that says which is wrong. */
export function parseArgs(argv) {
  const names = { "--agent": "agent", "--env": "env", "--class": "className" };
  const args = {};
  for (let i = 0; i < argv.length; i += 1) {
    const name = names[argv[i]];
    if (name === undefined) throw new Error(`unknown option ${argv[i]}\n${USAGE}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("--")) throw new Error(`${argv[i]} needs a value\n${USAGE}`);
    args[name] = value;
    i += 1;
  }
  if (!args.agent) throw new Error(USAGE);
  return args;
}

/**
 * What the adapter binds, read from the agent's configuration as wrangler reads it for `env`:
 * `{ className, scriptName }`. The class is one the agent's worker binds as its own (a Durable
 * Object binding without `script_name`), the one `className` names or the only one; the worker's
 * name is the one wrangler gives it under `env`. An error names what was looked for and what was
 * found.
 */
export function agentBinding(theirs, { config, env, className }) {
  const own = (theirs.durable_objects?.bindings ?? []).filter((b) => !b.script_name).map((b) => b.class_name);
  const where = `${config}${env ? ` (--env ${env})` : ""}`;
  if (own.length === 0) throw new Error(`${where} binds no Durable Object class of its own: the agent's worker binds its SessionAgent class (docs/your-agent.md)`);
  if (className !== undefined && !own.includes(className)) {
    throw new Error(`${where} binds no Durable Object class ${className}: it binds ${own.join(", ")}`);
  }
  const classes = [...new Set(own)];
  if (className === undefined && classes.length > 1) throw new Error(`${where} binds several Durable Object classes (${classes.join(", ")}): name one with --class`);
  if (!theirs.name) throw new Error(`${where} has no worker name (\`name\`)`);
  return { className: className ?? classes[0], scriptName: theirs.name };
}

/** The adapter's configuration for wrangler dev, bound to `binding`, under `env` too when given. */
export function adapterConfig(ours, binding, env) {
  const vars = ['DEMO_AGENT = "off"', 'AUTH_MODE = "none"', 'PLAYGROUND = "on"'];
  const bound = ["[[durable_objects.bindings]]", 'name = "SESSION_AGENT"', `class_name = ${JSON.stringify(binding.className)}`, `script_name = ${JSON.stringify(binding.scriptName)}`];
  const lines = [
    '# Made by scripts/dev-agent.mjs for `npm start -- --agent`: the adapter, local, in front of your agent.',
    'name = "session-agent-chat-local"',
    `main = ${JSON.stringify(path.join(root, "build/index.js"))}`,
    `compatibility_date = ${JSON.stringify(ours.compatibility_date)}`,
    `compatibility_flags = ${JSON.stringify(ours.compatibility_flags ?? [])}`,
    "[assets]",
    `directory = ${JSON.stringify(path.join(root, "build/public"))}`,
    "[vars]",
    ...vars,
    ...bound,
  ];
  // `--env NAME` applies to both configurations: the adapter's has the same environment.
  if (env) lines.push(`[env.${JSON.stringify(env)}.vars]`, ...vars, ...bound.map((line) => line.replace("[[durable_objects", `[[env.${JSON.stringify(env)}.durable_objects`)));
  return `${lines.join("\n")}\n`;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  // Relative to where the user ran `npm start` (npm runs scripts from the repository's root and
  // says where it was called from in INIT_CWD).
  const config = path.resolve(process.env.INIT_CWD ?? process.cwd(), args.agent);
  if (!existsSync(config)) throw new Error(`no file ${config}\n${USAGE}`);
  const { unstable_readConfig } = await import("wrangler");
  const theirs = unstable_readConfig({ config, env: args.env });
  const binding = agentBinding(theirs, { config, env: args.env, className: args.className });
  const ours = unstable_readConfig({ config: path.join(root, "wrangler.toml") });
  const dir = mkdtempSync(path.join(os.tmpdir(), "adapter-dev-"));
  const adapterToml = path.join(dir, "wrangler.toml");
  writeFileSync(adapterToml, adapterConfig(ours, binding, args.env));
  const ip = process.env.DEV_IP || "127.0.0.1"; // unset or empty: 127.0.0.1, as scripts/dev.sh
  const port = process.env.PORT ?? "8787";
  console.log(`adapter: http://${ip}:${port}/ in front of class ${binding.className} of the worker ${binding.scriptName} (${config}${args.env ? `, --env ${args.env}` : ""}); no auth, for this machine`);
  const wrangler = path.join(root, "node_modules/wrangler/bin/wrangler.js");
  const argv = [wrangler, "dev", "-c", adapterToml, "-c", config, "--ip", ip, "--port", port, "--show-interactive-dev-session=false"];
  if (args.env) argv.push("--env", args.env);
  const child = spawn(process.execPath, argv, { stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } });
  const stop = (signal) => child.kill(signal);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  child.on("exit", (code, signal) => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(code ?? (signal ? 1 : 0));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`npm start --agent: ${error.message}`);
    process.exit(2);
  });
}
