// `npm start`'s server (scripts/dev.sh: wrangler dev with the demo agent) listens where the docs
// say: on 127.0.0.1 only by default (README), and on the address `DEV_IP` names when it is set
// (docs/mobile.md: `DEV_IP=0.0.0.0` for a phone on the network; here 127.0.0.2, a loopback
// address that is not 127.0.0.1, so the test needs no network). Each run serves the playground
// and a chat turn from the demo agent.
import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chatBody, chunksOf, postChat, readAll, sessionId } from "./harness.mjs";
import { accepts, devServer } from "./dev.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The playground and one chat turn from the server at `base`. */
async function servesTheDemo(base) {
  const page = await fetch(`${base}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("content-type"), /^text\/html/);
  await page.arrayBuffer();
  const response = await postChat(base, sessionId("dev"), chatBody("hello"));
  assert.equal(response.status, 200);
  const chunks = chunksOf((await readAll(response)).text);
  assert.equal(chunks.at(-1).type, "finish", "the demo agent's turn ends");
  assert.ok(chunks.some((c) => c.type === "text-delta"), "with its text");
}

// Where the server listens, and where it must not.
const CASES = [
  { name: "npm start's server listens on 127.0.0.1 only, and serves the demo there", env: { DEV_IP: "" }, host: "127.0.0.1", not: "127.0.0.2" },
  { name: "with DEV_IP, it listens on that address instead (docs/mobile.md)", env: { DEV_IP: "127.0.0.2" }, host: "127.0.0.2", not: "127.0.0.1" },
];

for (const { name, env, host, not } of CASES) {
  test(name, { timeout: 120_000 }, async () => {
    const { base, port, stop } = await devServer(env, host);
    try {
      await servesTheDemo(base);
      assert.equal(await accepts(not, port), false, `not on ${not}`);
    } finally {
      stop();
    }
  });
}

test("docs/configuration.md gives npm start's PORT and DEV_IP with scripts/dev.sh's own defaults", async () => {
  const { readFileSync } = await import("node:fs");
  const script = readFileSync(path.join(root, "scripts/dev.sh"), "utf8");
  const page = readFileSync(path.join(root, "docs/configuration.md"), "utf8");
  for (const [name, fallback] of [["PORT", /\$\{PORT:-(\d+)\}/], ["DEV_IP", /\$\{DEV_IP:-([0-9.]+)\}/]]) {
    const value = fallback.exec(script)[1];
    assert.match(page, new RegExp(`^\\| \`${name}\` \\| \`${value.replaceAll(".", "\\.")}\` \\|`, "m"), name);
  }
});
