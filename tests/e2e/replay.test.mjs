// V2 logs replayed through the live worker (the demo agent's `/replay` command) come out exactly
// as the native CLI `v2-to-sse` renders them: same core, same bytes, modulo keep-alive comments
// and the metadata's times (the CLI has no clock of the turn and writes 0).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import {
  root, startWorker, sessionId, chatBody, postChat, readAll, withoutKeepAlives, withoutTimes, prompts,
} from "./harness.mjs";

const replays = path.join(root, "tests/e2e/replays");
const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(root, "target");
const cli = path.join(targetDir, "debug", "v2-to-sse");

let worker;
before(async () => {
  // Up to date after `cargo test` in `npm test`: then this returns at once.
  execFileSync("cargo", ["build", "--quiet", "-p", "session-agent-core", "--bin", "v2-to-sse"], { cwd: root, stdio: "inherit" });
  worker = await startWorker();
});
after(() => worker?.dispose());

/** The CLI's rendering of `log` for a prompt sent with `requestId`. */
function cliRender(log, requestId) {
  return execFileSync(cli, ["--request-id", requestId], {
    input: log,
    stdio: ["pipe", "pipe", "ignore"],
  }).toString("utf8");
}

describe("replays", { concurrency: true }, () => {
  for (const file of readdirSync(replays).filter((f) => f.endsWith(".v2.jsonl")).sort()) {
    test(file, { timeout: 30_000 }, async () => {
      const log = readFileSync(path.join(replays, file), "utf8");
      const session = sessionId("replay");
      const sentAt = Date.now();
      const response = await postChat(worker.base, session, chatBody(`/replay\n${log}`));
      assert.equal(response.status, 200);
      const { text: live, times } = withoutTimes(withoutKeepAlives((await readAll(response)).text));
      const elapsed = Date.now() - sentAt;
      for (const { key, value } of times) {
        if (key === "createdAt") assert.ok(value >= sentAt - 1000 && value <= Date.now(), `createdAt ${value}`);
        else assert.ok(value <= elapsed, `durationMs ${value} > ${elapsed}`);
      }

      // The worker sent the prompt with a fresh requestId; the CLI follows the same turn when
      // it is given that id (a log's own requestIds then match, or not, alike in both).
      const [prompt] = await prompts(worker.base, session);
      const expected = cliRender(log, prompt.frame.requestId);
      assert.ok(expected.endsWith("data: [DONE]\n\n"), "the CLI's rendering is complete");
      assert.equal(live, expected);
    });
  }
});
