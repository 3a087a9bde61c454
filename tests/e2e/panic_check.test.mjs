// A panic of the Rust code, seen and survived. The demo agent panics on purpose (`/panic`: a `work`
// call left running and a text part left open first); it shares the worker's wasm instance here,
// so the panic takes the pump of its stream with it. Checked: the reliability suite's "no panics"
// check can fail (`panicsIn`, the function the suite uses, reports the panic's lines); the
// client's stream still gets its one valid ending, written by the pump's JavaScript side in place
// of the lost Rust code (crates/adapter/src/pump/wiring.js, "A lost receiver"): every open part
// and tool closed, `error`, `finish`, `[DONE]`, then the end of the body, for every AI SDK major;
// the next request gets a new instance; and a panic before the turn opens (`/panic now`) ends its
// stream too, with the ending every such stream shares. The worker is its own: a panic loses its
// wasm instance.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, chatBody, postChat, readAll, panicsIn } from "./harness.mjs";
import { parseSse, checkSequence } from "../sdk/sse.mjs";
import { runChat } from "../sdk/chat.mjs";
import { SDK_SPECS, loadSdk } from "../sdk/sdks.mjs";

/** The bound on the panicked stream's end: generous (it comes within a tick, 125 ms, of the
 * panic); only a stream that hangs misses it. Speed is the benchmarks' business, not this test's. */
const END_BOUND_MS = 5_000;
/** `errorText` of the ending (CRASHED in crates/core/src/translator/ending.rs). */
const CRASHED = "the stream stopped on an internal error";
/** The pump's line when it ended a stream in the lost Rust code's place, with no error after it:
 * the wiring saw the instance lost (workers-rs's `__worker_init_state`) before calling into it,
 * not from a call that threw. */
const PUMP_LINE = "the WebAssembly instance was lost; the wiring ended the stream with its crash ending";

/** POSTs `prompt` to a session of its own and reads the answer to its end, failing past
 * END_BOUND_MS. */
async function readToTheEnd(prompt) {
  const response = await postChat(worker.base, sessionId("panic"), chatBody(prompt), {
    signal: AbortSignal.timeout(END_BOUND_MS),
  });
  assert.equal(response.status, 200);
  try {
    return await readAll(response);
  } catch (error) {
    assert.fail(`${prompt}: the stream did not end within ${END_BOUND_MS} ms (${error.name}); stderr:\n${worker.stderr.slice(-20).join("\n")}`);
  }
}

/** A whole turn, as any request after a panic gets from the new instance. */
async function wholeTurn() {
  const later = await postChat(worker.base, sessionId("after"), chatBody("/slow 2 10"));
  assert.equal(later.status, 200);
  const whole = await readAll(later);
  assert.match(whole.text, /"type":"finish"/, `no finish after the panic:\n${whole.text}`);
  assert.match(whole.text, /data: \[DONE\]/);
}

let worker;
before(async () => {
  worker = await startWorker();
});
after(() => worker?.dispose());

test("a panic shows in workerd's stderr, the stream it broke ends validly, and the next request gets a new instance", { timeout: 60_000 }, async (t) => {
  const quiet = await postChat(worker.base, sessionId("calm"), chatBody("/slow 2 10"));
  await readAll(quiet);
  assert.deepEqual(panicsIn(worker.stderr), [], "nothing before the panic");

  const { text, reads } = await readToTheEnd("/panic");

  // The panic: in stderr, with its own message, and the pump's word that it ended the stream.
  const found = panicsIn(worker.stderr);
  assert.ok(found.length > 0, `no panic seen; stderr:\n${worker.stderr.slice(-20).join("\n")}`);
  assert.ok(worker.stderr.some((line) => line.includes("/panic asked for a panic")), "the panic's own message");
  // The pump's line: one JSON object, as every line of the worker's (its detail may name the trap).
  const pumpLines = () => worker.diagnostics.filter((line) => line.event === "instance_lost" && line.detail.startsWith(PUMP_LINE)).length;
  assert.equal(pumpLines(), 1, `the pump's line; stderr:\n${worker.stderr.slice(-20).join("\n")}`);

  // One valid ending, after a text part and a tool the panic left open.
  const { chunks, problems } = parseSse(text);
  assert.deepEqual(problems, [], `framing:\n${text}`);
  assert.deepEqual(checkSequence(chunks), [], `sequence:\n${text}`);
  const types = chunks.map((c) => c.type);
  assert.deepEqual(types.slice(-5), ["text-end", "tool-output-error", "finish-step", "error", "finish"], text);
  assert.deepEqual(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta), ["w1", " w2", " w3"], "the text before the panic");
  assert.equal(chunks.find((c) => c.type === "text-start")?.id, chunks.find((c) => c.type === "text-end")?.id);
  const call = chunks.find((c) => c.type === "tool-input-start");
  assert.deepEqual(
    chunks.filter((c) => c.toolCallId === call.toolCallId).map((c) => c.type),
    ["tool-input-start", "tool-input-available", "tool-output-error"],
    "the running call ends",
  );
  assert.equal(chunks.find((c) => c.type === "tool-output-error").errorText, "Interrupted");
  assert.deepEqual(chunks.filter((c) => c.type === "error").map((c) => c.errorText), [CRASHED]);
  const finish = chunks.at(-1);
  assert.deepEqual(
    Object.keys(finish.messageMetadata ?? {}),
    ["turnId", "durationMs", "toolCalls", "toolErrors"],
    "the finish's metadata, as any failed turn's",
  );
  assert.deepEqual([finish.messageMetadata.toolCalls, finish.messageMetadata.toolErrors], [1, 1]);
  assert.equal(text.split("data: [DONE]").length, 2, "exactly one [DONE]");

  // Measured, not asserted: the script panics 100 ms after its last delta.
  const lastDelta = reads.findLast((read) => read.text.includes('"delta":" w3"'));
  const ending = reads.findLast((read) => read.text.includes('"type":"error"'));
  if (lastDelta && ending) t.diagnostic(`the ending came ${ending.at - lastDelta.at} ms after the last delta (the panic: 100 ms after it)`);

  // What every AI SDK major makes of it: a failed turn, its text and its tool kept.
  const bytes = new TextEncoder().encode(text);
  for (const spec of SDK_SPECS) {
    const sdk = await loadSdk(spec);
    const chat = await runChat(sdk.mod, bytes);
    assert.equal(chat.status, "error", `${spec.label}: status`);
    assert.equal(chat.error?.message, CRASHED, `${spec.label}: error`);
    const assistant = chat.messages.find((m) => m.role === "assistant");
    const textPart = assistant?.parts.find((p) => p.type === "text");
    assert.equal(textPart?.text, "w1 w2 w3", `${spec.label}: the text`);
    assert.equal(textPart?.state, "done", `${spec.label}: the text part ended`);
    const tool = assistant?.parts.find((p) => p.type === "dynamic-tool");
    assert.deepEqual([tool?.toolName, tool?.state, tool?.errorText], ["work", "output-error", "Interrupted"], `${spec.label}: the tool`);
  }

  // The next request gets a new wasm instance (the entry's panic recovery): a whole turn again.
  await wholeTurn();

  // A panic before the turn opens: the stream had nothing but its headers, and ends with the
  // ending every such stream shares (the new instance handed it over with its first stream).
  const early = await readToTheEnd("/panic now");
  const parsed = parseSse(early.text);
  assert.deepEqual(parsed.problems, [], `framing:\n${early.text}`);
  assert.deepEqual(checkSequence(parsed.chunks), [], `sequence:\n${early.text}`);
  assert.deepEqual(parsed.chunks, [{ type: "error", errorText: CRASHED }, { type: "finish" }], early.text);
  assert.equal(pumpLines(), 2, "the pump's line again");
  await wholeTurn();
});
