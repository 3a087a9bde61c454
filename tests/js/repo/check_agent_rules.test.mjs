// The agent contract's rules, check-agent's rule list and the broken agents stay in step: the
// rules table of docs/agent-protocol.md names exactly check-agent's rules, with the same levels
// (and "MUST (with …)" conditions); every MUST and SHOULD rule has at least one broken agent
// (tests/fixtures/agents/mutants.mjs) and every broken agent names a rule that exists; every
// option check-agent takes is in docs/check-agent.md's options table, and no other.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RULES } from "../../../check-agent/rules.mjs";
import { MUTANTS } from "../../fixtures/agents/mutants.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const read = (file) => readFileSync(path.join(root, file), "utf8");

/** The rows of the contract's rules table: [id, level] ("MUST (with questions)" kept whole). */
function pageRules() {
  const section = read("docs/agent-protocol.md").split("\n## The rules\n")[1].split("\n### ")[0];
  return [...section.matchAll(/^\| (R-[a-z-]+) \| ([^|]+) \|/gm)].map(([, id, level]) => [id, level.trim().replaceAll("`", "")]);
}

test("the contract's rules table and check-agent's rules name the same rules, with the same levels", () => {
  const listed = RULES.map((r) => [r.id, r.when ? `${r.level} (with ${r.when.replaceAll("`", "")})` : r.level]);
  assert.deepEqual(listed, pageRules());
});

test("every MUST and SHOULD rule has a broken agent, and every broken agent names a rule", () => {
  const ids = new Set(RULES.map((r) => r.id));
  for (const [fault, { rule, does }] of Object.entries(MUTANTS)) {
    assert.ok(ids.has(rule), `${fault} names ${rule}, which is not a rule`);
    assert.ok(does.length > 10, `${fault} says what it does`);
  }
  const covered = new Set(Object.values(MUTANTS).map((m) => m.rule));
  assert.deepEqual(RULES.filter((r) => !covered.has(r.id)).map((r) => r.id), []);
});

test("docs/check-agent.md's options table lists exactly the options check-agent takes", () => {
  const cli = read("check-agent/cli.mjs");
  const usage = cli.slice(cli.indexOf("const USAGE"), cli.indexOf("`;", cli.indexOf("const USAGE")));
  const taken = [...new Set(usage.match(/--[a-z-]+/g))].sort();
  const page = read("docs/check-agent.md").split("\n## Options\n")[1].split("\n## ")[0];
  const documented = [...page.matchAll(/^\| `(--[a-z-]+)/gm)].map(([, flag]) => flag).sort();
  assert.deepEqual(documented, taken);
  // And each is parsed: named in the CLI's parser, not only in its usage line.
  const parser = cli.slice(cli.indexOf("function parseArgs"));
  for (const flag of taken) assert.ok(parser.includes(`"${flag}"`), `${flag} is parsed`);
});

test("the defaults docs/check-agent.md gives are the CLI's", () => {
  const cli = read("check-agent/cli.mjs");
  const page = read("docs/check-agent.md");
  for (const [, text] of cli.matchAll(/^ {2}(?:short|long): "([^"]+)",$/gm)) assert.ok(page.includes(`\`${text}\``), `default prompt ${text}`);
  const probe = read("check-agent/probe.js");
  assert.match(probe, /searchParams\.get\("path"\) \?\? "\/ws"/);
  assert.match(page, /\| `--path P` \| `\/ws`/);
});

test("the contract's upgrade headers name the protocol the adapter sends, and the page is that protocol", () => {
  const sent = read("crates/adapter/src/agent/upstream.js").match(/const AGENT_PROTOCOL = "(\d+)";/)[1];
  const page = read("docs/agent-protocol.md");
  assert.match(page, new RegExp(`^\\| \`X-Agent-Protocol\` \\| \`${sent}\` \\|$`, "m"));
  assert.match(page, new RegExp(`^# The agent contract: protocol ${sent}$`, "m"));
  assert.match(read("check-agent/probe.js"), new RegExp(`"x-agent-protocol": "${sent}"`));
});

test("the checker's turn events are the contract's: message.create, message.part.*, message.metadata, message.finalize, not the legacy message.updated", async () => {
  const { isTurnEvent } = await import("../../../check-agent/frames.mjs");
  const types = ["message.create", "message.part.text-delta", "message.part.tool-update", "message.part.data", "message.metadata", "message.finalize", "message.updated", "message", "agentStatus", "complete"];
  assert.deepEqual(types.filter((type) => isTurnEvent({ type })), ["message.create", "message.part.text-delta", "message.part.tool-update", "message.part.data", "message.metadata", "message.finalize"]);
  assert.match(read("docs/agent-protocol.md"), /The \*\*turn events\*\*\nare exactly `message\.create`, every `message\.part\.\*` frame, `message\.metadata` and `message\.finalize`\./);
});
