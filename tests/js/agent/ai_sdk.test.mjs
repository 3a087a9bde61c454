// packages/session-agent/src/ai-sdk.ts, the AI SDK's `streamText` as a SessionAgent's model, with
// the AI SDK's mock language model (ai 6 and ai 7, each with its own `streamText`): what each part
// of `fullStream` becomes for the contract, in order; a multi-step turn with a server tool and the
// model given the tool's result; a tool that fails; usage and the model's id; a provider's error
// in words that hold nothing of the request, and nothing in the log; an abort mid-text; the
// session's history as the model's messages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";

const root = path.resolve(import.meta.dirname, "../../..");
const out = path.join(mkdtempSync(path.join(os.tmpdir(), "ai-sdk-bridge-")), "ai-sdk.mjs");
buildSync({ entryPoints: [path.join(root, "packages/session-agent/src/ai-sdk.ts")], outfile: out, format: "esm", platform: "neutral", bundle: true, logLevel: "error" });
const { streamTextModel, toModelMessages, modelFailure } = await import(pathToFileURL(out).href);

/** An `emit` that records what it is given, in order. */
function recorder() {
  const events = [];
  return {
    events,
    emit: {
      text: (delta) => events.push(["text", delta]),
      reasoning: (delta) => events.push(["reasoning", delta]),
      tool: (update) => events.push(["tool", update]),
      status: (status, detail) => events.push(["status", status, detail]),
    },
  };
}

const usage = (input, output) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const finish = (unified, input = 3, output = 5) => ({ type: "finish", finishReason: { unified, raw: unified }, usage: usage(input, output) });

const user = (id, text) => ({ id, role: "user", parts: [{ type: "text", text }] });
const input = (history) => ({ history, prompt: history.at(-1).parts[0].text });

for (const pkg of ["ai", "ai-v7"]) {
  const ai = await import(pkg);
  const { MockLanguageModelV3 } = await import(`${pkg}/test`);
  const stream = (...chunks) => ({ stream: ai.simulateReadableStream({ chunks }) });

  test(`${pkg}: text, reasoning, usage and the model's id, in order`, async () => {
    const model = new MockLanguageModelV3({
      modelId: "mock-1",
      doStream: stream(
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", id: "r1", modelId: "mock-1", timestamp: new Date(0) },
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: "Let me think" },
        { type: "reasoning-end", id: "r" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Hel" },
        { type: "text-delta", id: "t", delta: "lo" },
        { type: "text-end", id: "t" },
        finish("stop"),
      ),
    });
    const respond = streamTextModel(ai.streamText, () => ({ model }));
    const { events, emit } = recorder();
    const result = await respond(input([user("u1", "Hi")]), emit, new AbortController().signal);
    assert.deepEqual(events, [["reasoning", "Let me think"], ["text", "Hel"], ["text", "lo"]]);
    assert.deepEqual(result, { done: true, usage: { inputTokens: 3, outputTokens: 5 }, model: "mock-1" });
    const [asked] = model.doStreamCalls[0].prompt;
    assert.equal(asked.role, "user");
    assert.deepEqual(asked.content.map(({ type, text }) => ({ type, text })), [{ type: "text", text: "Hi" }]);
  });

  test(`${pkg}: a multi-step turn: a server tool's input, run and result, then the model given its result and going on`, async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        stream(
          { type: "tool-input-start", id: "c1", toolName: "weather" },
          { type: "tool-input-delta", id: "c1", delta: '{"city":"Paris"}' },
          { type: "tool-input-end", id: "c1" },
          { type: "tool-call", toolCallId: "c1", toolName: "weather", input: '{"city":"Paris"}' },
          finish("tool-calls"),
        ),
        stream({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Sunny in Paris." }, { type: "text-end", id: "t" }, finish("stop", 10, 4)),
      ],
    });
    const runs = [];
    const weather = ai.tool({
      inputSchema: ai.jsonSchema({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
      execute: async ({ city }) => (runs.push(city), { city, sky: "sunny" }),
    });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { weather }, stopWhen: ai.stepCountIs(3) }));
    const { events, emit } = recorder();
    const result = await respond(input([user("u1", "Weather?")]), emit, new AbortController().signal);
    assert.deepEqual(runs, ["Paris"]);
    assert.deepEqual(events, [
      ["status", "tool_calling", "weather"],
      ["tool", { callId: "c1", toolName: "weather", status: "pending" }],
      ["tool", { callId: "c1", toolName: "weather", status: "running", args: { city: "Paris" } }],
      ["tool", { callId: "c1", toolName: "weather", status: "completed", args: { city: "Paris" }, result: { city: "Paris", sky: "sunny" } }],
      ["text", "Sunny in Paris."],
    ]);
    assert.deepEqual(result.usage, { inputTokens: 13, outputTokens: 9 }, "the whole turn's, every step");
    const second = model.doStreamCalls[1].prompt;
    assert.deepEqual(second.map((m) => m.role), ["user", "assistant", "tool"]);
    assert.deepEqual(second[2].content[0].output, { type: "json", value: { city: "Paris", sky: "sunny" } });
  });

  test(`${pkg}: a tool that throws ends in error, in words, and the turn goes on`, async () => {
    const model = new MockLanguageModelV3({
      doStream: [
        stream({ type: "tool-call", toolCallId: "c1", toolName: "lookup", input: "{}" }, finish("tool-calls")),
        stream({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "It failed." }, { type: "text-end", id: "t" }, finish("stop")),
      ],
    });
    const lookup = ai.tool({ inputSchema: ai.jsonSchema({ type: "object" }), execute: async () => { throw new Error("the index is down"); } });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { lookup }, stopWhen: ai.stepCountIs(3) }));
    const { events, emit } = recorder();
    await respond(input([user("u1", "Look it up")]), emit, new AbortController().signal);
    assert.deepEqual(events.filter(([kind]) => kind === "tool").at(-1), ["tool", { callId: "c1", toolName: "lookup", status: "error", args: {}, error: "the index is down" }]);
    assert.deepEqual(events.at(-1), ["text", "It failed."]);
  });

  test(`${pkg}: a provider's error fails the turn in words that hold nothing of the request, and logs nothing`, async (t) => {
    const secret = "sk-live-0123456789";
    const model = new MockLanguageModelV3({
      doStream: async () => {
        const error = new Error(`401 from https://api.example/v1?key=${secret}: prompt "Hi"`);
        error.statusCode = 401;
        throw error;
      },
    });
    const logged = [];
    for (const method of ["error", "warn", "log", "info"]) t.mock.method(console, method, (...args) => logged.push(args.join(" ")));
    const respond = streamTextModel(ai.streamText, () => ({ model, maxRetries: 0 }));
    const { events, emit } = recorder();
    await assert.rejects(respond(input([user("u1", "Hi")]), emit, new AbortController().signal), (error) => {
      assert.equal(error.message, "The model could not answer (its provider said HTTP 401).");
      return true;
    });
    assert.deepEqual(events, []);
    assert.deepEqual(logged.filter((line) => line.includes(secret) || line.includes("prompt")), [], "nothing of the request in the log");
  });

  test(`${pkg}: an abort mid-text ends the turn at once`, async () => {
    const controller = new AbortController();
    const model = new MockLanguageModelV3({
      doStream: async ({ abortSignal }) => ({
        stream: new ReadableStream({
          start(c) {
            c.enqueue({ type: "text-start", id: "t" });
            c.enqueue({ type: "text-delta", id: "t", delta: "Once upon" });
            abortSignal?.addEventListener("abort", () => c.error(abortSignal.reason));
          },
        }),
      }),
    });
    const respond = streamTextModel(ai.streamText, () => ({ model }));
    const { events, emit } = recorder();
    const turn = respond(input([user("u1", "A story")]), emit, controller.signal);
    while (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("stopped by the user"));
    await assert.rejects(turn);
    assert.deepEqual(events, [["text", "Once upon"]]);
  });
}

test("the session's history as the model's messages: text and files, each step's text and calls, then their results", () => {
  const history = [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Look at this" }, { type: "file", mediaType: "image/png", url: "data:image/png;base64,iVBORw0KGgo=", filename: "a.png" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "reasoning", text: "hidden" },
        { type: "text", text: "Checking." },
        { type: "tool-call", callId: "c1", toolName: "inspect", status: "completed", args: { deep: true }, result: { ok: true } },
        { type: "tool-call", callId: "c2", toolName: "scan", status: "error", args: {}, error: "Denied" },
        { type: "tool-call", callId: "c3", toolName: "never", status: "running" },
        { type: "text", text: "It is a PNG." },
        { type: "finish", reason: "end_turn" },
      ],
    },
    { id: "u0", role: "user", parts: [] },
    user("u2", "Thanks"),
  ];
  const messages = toModelMessages(history);
  assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "tool", "assistant", "user"]);
  assert.equal(messages[0].content[1].data.href, "data:image/png;base64,iVBORw0KGgo=");
  assert.deepEqual(messages[1].content, [
    { type: "text", text: "Checking." },
    { type: "tool-call", toolCallId: "c1", toolName: "inspect", input: { deep: true } },
    { type: "tool-call", toolCallId: "c2", toolName: "scan", input: {} },
  ]);
  assert.deepEqual(messages[2].content.map((r) => r.output), [{ type: "json", value: { ok: true } }, { type: "error-text", value: "Denied" }]);
  assert.deepEqual(messages[3].content, [{ type: "text", text: "It is a PNG." }]);
  assert.equal(modelFailure(new Error("anything")), "The model could not answer.");
});
