// The TS adapter passes the same end-to-end checks as this adapter: the same turns through both
// workers (behind the same demo agent) give the same UI chunks and the same bytes (keep-alives
// and the metadata's clock readings aside), and the AI SDK's own client (ai@5.0.0, strict, and ai@6) ends each of them in the same
// state. Also: both forward one `abort` when the client leaves, and both refuse bad bodies with
// the same status and code. Checked for each TS worker running: `ts` (coalesced writes, the
// benchmark's rival) and `ts-per-message` (one write per WebSocket message, the reference row).
//
//   node bench/conformance.mjs          (bench/run.mjs runs it first, as a gate)
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startWorkers, root } from "./lib/workers.mjs";
import { chatBody, sessionId } from "./lib/client.mjs";
import { postChat, withoutTimes } from "../tests/e2e/harness.mjs";
import { runChat } from "../tests/sdk/chat.mjs";
import { SDK_SPECS, loadSdk } from "../tests/sdk/sdks.mjs";

const replays = path.join(root, "tests/e2e/replays");

/** The scenarios: [name, prompt, X-Questions?]. */
function scenarios() {
  const list = [
    ["default turn (thinking, a tool, words)", "how do I stream a turn?"],
    ["/slow 3 5", "/slow 3 5"],
    ["/flood 50", "/flood 50"],
    ["/error", "/error the model is overloaded"],
    ["/drop (socket lost mid-turn)", "/drop"],
    ["/ask (the stream ends at a question: askUser)", "/ask Deploy now?"],
    ["/deploy (an approval question: approveToolCall)", "/deploy staging"],
  ];
  // The other forms of a question (X-Questions): a tool approval on the gated call, a data part.
  for (const parts of ["approvals", "data"]) {
    list.push([`/ask (X-Questions: ${parts})`, "/ask Deploy now?", parts], [`/deploy (X-Questions: ${parts})`, "/deploy staging", parts]);
  }
  for (const file of readdirSync(replays).filter((f) => f.endsWith(".v2.jsonl")).sort()) {
    list.push([`/replay ${file}`, `/replay\n${readFileSync(path.join(replays, file), "utf8")}`]);
  }
  return list;
}

/**
 * The SSE body without keep-alive comments, and its chunks, with the turn id and the metadata's
 * times (`createdAt`, `durationMs`: clock readings) made neutral.
 */
function normalise(raw) {
  const { text } = withoutTimes(raw);
  const events = text.split("\n\n");
  assert.equal(events.at(-1), "", "the body ends with a blank line");
  const kept = events.slice(0, -1).filter((e) => e !== ": keep-alive");
  assert.equal(kept.at(-1), "data: [DONE]", "the body ends with [DONE]");
  let body = kept.map((e) => `${e}\n\n`).join("");
  // The demo agent's turn ids are random (`msg_…`): the same turn run twice differs only there.
  const turn = /"type":"start","messageId":"(msg_[0-9a-f]+)"/.exec(body)?.[1];
  if (turn) body = body.split(turn).join("<turn>");
  const chunks = body
    .split("\n\n")
    .filter((e) => e.startsWith("data: {"))
    .map((e) => JSON.parse(e.slice("data: ".length)));
  return { body, chunks };
}

/** What the AI SDK's Chat ends with for a body: status, error, the assistant message's parts. */
async function sdkOutcome(sdk, body) {
  const result = await runChat(sdk, new TextEncoder().encode(body));
  const assistant = result.messages.find((m) => m.role === "assistant");
  return {
    status: result.status,
    error: result.error?.message,
    parts: assistant?.parts ?? null,
  };
}

/** The TS workers checked against `rust`: those of `urls` among these. */
const TS_WORKERS = ["ts", "ts-per-message"];

export async function runConformance(urls, { log = () => {} } = {}) {
  const rivals = TS_WORKERS.filter((a) => urls[a]);
  assert.ok(rivals.includes("ts"), "the conformance check needs the `ts` worker");
  const sdks = [];
  for (const spec of SDK_SPECS.filter((s) => s.label === "ai@5.0.0" || s.label === "ai@6")) {
    sdks.push(await loadSdk(spec));
  }
  const results = [];
  await Promise.all(
    scenarios().map(async ([name, prompt, questions]) => {
      const headers = { "content-type": "application/json", ...(questions ? { "x-questions": questions } : {}) };
      const [rust, ...others] = await Promise.all(
        ["rust", ...rivals].map(async (adapter) => {
          const response = await postChat(urls[adapter], sessionId("conf"), chatBody(prompt), { headers });
          assert.equal(response.status, 200, `${adapter}: ${name}: status`);
          return normalise(await response.text());
        }),
      );
      const sdk = {};
      for (const [i, adapter] of rivals.entries()) {
        const ts = others[i];
        assert.deepEqual(ts.chunks, rust.chunks, `${name}: ${adapter}'s chunks differ from this adapter's`);
        assert.equal(ts.body, rust.body, `${name}: ${adapter}'s bytes differ from this adapter's (same chunks)`);
        for (const { label, mod } of sdks) {
          const [r, t] = await Promise.all([sdkOutcome(mod, rust.body), sdkOutcome(mod, ts.body)]);
          assert.deepEqual(t, r, `${name}: ${label} ends differently on ${adapter}'s stream and this adapter's`);
          sdk[label] = r.status;
        }
      }
      results.push({ name, chunks: rust.chunks.length, sameBytes: true, rivals, sdk });
    }),
  );

  // Abort: the client leaves mid-turn; exactly one abort with the prompt's requestId arrives.
  for (const adapter of ["rust", ...rivals]) {
    const session = sessionId(`abort-${adapter}`);
    const controller = new AbortController();
    const response = await postChat(urls[adapter], session, chatBody("/slow 100 50"), { signal: controller.signal });
    const reader = response.body.getReader();
    let seen = "";
    while (!seen.includes('"type":"text-delta"')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    let aborts = [];
    let prompts = [];
    for (let i = 0; i < 40 && aborts.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const received = await (await fetch(`${urls.agent}/demo/sessions/${session}/received`)).json();
      aborts = received.filter((e) => e.frame.type === "abort");
      prompts = received.filter((e) => e.frame.type === "prompt");
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const received = await (await fetch(`${urls.agent}/demo/sessions/${session}/received`)).json();
    aborts = received.filter((e) => e.frame.type === "abort");
    assert.equal(aborts.length, 1, `${adapter}: one abort reaches the agent`);
    assert.equal(aborts[0].frame.requestId, prompts[0].frame.requestId, `${adapter}: the abort names the prompt`);
  }
  results.push({ name: `abort on client disconnect (rust, ${rivals.join(", ")})`, chunks: 0, sameBytes: true, sdk: {} });

  // Bad bodies: same status and code.
  const bad = [
    ["not JSON", "{oops", {}],
    ["no messages", JSON.stringify({ id: "c" }), {}],
    ["empty messages", JSON.stringify({ messages: [] }), {}],
    ["last message from the assistant", JSON.stringify({ messages: [{ id: "a", role: "assistant", parts: [{ type: "text", text: "hi" }] }] }), {}],
    ["text/plain", chatBody("hi"), { headers: { "content-type": "text/plain" } }],
  ];
  for (const [name, body, init] of bad) {
    const [r, ...others] = await Promise.all(
      ["rust", ...rivals].map(async (adapter) => {
        const response = await postChat(urls[adapter], "s", body, init);
        return { status: response.status, code: (await response.json()).error.code };
      }),
    );
    for (const [i, adapter] of rivals.entries()) {
      assert.deepEqual(others[i], r, `bad body (${name}): ${adapter}'s status and code differ`);
    }
  }
  results.push({ name: `${bad.length} bad bodies: same status and error code`, chunks: 0, sameBytes: true, sdk: {} });
  log(`conformance: ${results.length} checks, ${rivals.join(" and ")} match this adapter`);
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const workers = await startWorkers({ adapters: ["rust", ...TS_WORKERS] });
  try {
    const results = await runConformance(workers.urls);
    for (const r of results) {
      const sdk = Object.entries(r.sdk).map(([k, v]) => `${k}: ${v}`).join(", ");
      console.log(`ok  ${r.name}${r.chunks ? ` — ${r.chunks} chunks, byte-identical` : ""}${sdk ? ` (${sdk})` : ""}`);
    }
  } finally {
    await workers.dispose();
  }
}
