// packages/session-agent/src/ai-sdk.ts, the AI SDK's `streamText` as a SessionAgent's model, with
// the AI SDK's mock language model (ai 6 and ai 7, each with its own `streamText`): what each part
// of `fullStream` becomes for the contract, in order; a multi-step turn with a server tool and the
// model given the tool's result; a tool that fails; usage and the model's id; a provider's error
// in words that hold nothing of the request, and nothing in the log, and the settings' own
// `onError` called with it; an abort mid-text; the session's history as the model's messages; a
// tool that needs approval (approved: it runs and the model hears its result; denied: it never
// runs and the model hears the denial); a tool without execute as a free question; two calls
// waiting in one step; an abort mid-tool; what the model is given after an edit (the turn's
// branch of the tree).
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
const { Session, tree } = await import("./tree_support.mjs");

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
      source: (source) => events.push(["source", source]),
      title: (title) => events.push(["title", title]),
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

  test(`${pkg}: the title option names the first exchange once, before the turn ends; a later turn, an answer, nothing or a failure sends none`, async () => {
    const model = () => new MockLanguageModelV3({ doStream: stream({ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "Hi." }, { type: "text-end", id: "t" }, finish("stop")) });
    const asked = [];
    const first = recorder();
    const title = async (given) => {
      asked.push(given.prompt);
      // Slower than the mock model's whole answer (a few milliseconds): respond waits for it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      return `  Weather\nin  ${"Paris ".repeat(60)}`;
    };
    await streamTextModel(ai.streamText, () => ({ model: model() }), {}, { title })(input([user("u1", "Weather in Paris?")]), first.emit, new AbortController().signal);
    assert.deepEqual(asked, ["Weather in Paris?"]);
    const titles = first.events.filter(([kind]) => kind === "title");
    assert.equal(titles.length, 1, "sent before respond returns (the turn's finalize comes after)");
    assert.equal(titles[0][1], `Weather in ${"Paris ".repeat(60)}`.slice(0, 200).trim(), "one line, cut to 200 characters");
    const later = recorder();
    await streamTextModel(ai.streamText, () => ({ model: model() }), {}, { title })(input([user("u1", "Hi"), { id: "a1", role: "assistant", parts: [{ type: "text", text: "Hello" }] }, user("u2", "Again")]), later.emit, new AbortController().signal);
    assert.equal(asked.length, 1, "a later exchange is not asked");
    for (const failing of [async () => undefined, async () => "   ", async () => { throw new Error("the title model failed"); }]) {
      const logged = [];
      const original = console.error;
      console.error = (line) => logged.push(line);
      const run = recorder();
      try {
        const result = await streamTextModel(ai.streamText, () => ({ model: model() }), {}, { title: failing })(input([user("u1", "Hi")]), run.emit, new AbortController().signal);
        assert.equal(result.done, true, "the turn goes on");
      } finally {
        console.error = original;
      }
      assert.deepEqual(run.events.filter(([kind]) => kind === "title"), []);
      assert.equal(logged.length, failing.toString().includes("throw") ? 1 : 0, logged.join("\n"));
      for (const line of logged) assert.equal(JSON.parse(line).event, "session_agent.title_failed");
    }
  });

  test(`${pkg}: the adapter's files reach the model as their bytes, read through the bucket's binding whatever the URL's host; one it cannot read is named, not dropped`, async () => {
    const model = new MockLanguageModelV3({ doStream: stream({ type: "stream-start", warnings: [] }, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "A cat." }, { type: "text-end", id: "t" }, finish("stop")) });
    const id = "0123456789abcdef0123456789abcdef";
    const gone = "fedcba9876543210fedcba9876543210";
    const photo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const reads = [];
    const bucket = {
      get: async (key) => {
        reads.push(key);
        return key === `sessions/s1/files/${id}` ? { arrayBuffer: async () => photo.buffer.slice(0) } : null;
      },
    };
    const file = (fileId, name) => ({ type: "file", mediaType: "image/png", url: `http://127.0.0.1:8787/api/sessions/s1/files/${fileId}?exp=1&sig=${"a".repeat(64)}`, filename: name });
    const history = [{ id: "u1", role: "user", parts: [{ type: "text", text: "What is this?" }, file(id, "cat.png"), file(gone, "old.png"), file(id, "cat.png")] }];
    const logged = [];
    const original = console.error;
    console.error = (line) => logged.push(line);
    try {
      await streamTextModel(ai.streamText, () => ({ model }), {}, { files: () => bucket })(input(history), recorder().emit, new AbortController().signal);
    } finally {
      console.error = original;
    }
    assert.deepEqual(reads, [`sessions/s1/files/${id}`, `sessions/s1/files/${gone}`], "each file read once");
    const [asked] = model.doStreamCalls[0].prompt;
    const [text, cat, old] = asked.content;
    assert.equal(text.text, "What is this?");
    assert.equal(cat.type, "file");
    assert.equal(cat.mediaType, "image/png");
    assert.deepEqual(new Uint8Array(cat.data), photo, "the bytes, not the URL");
    assert.deepEqual([old.type, old.text], ["text", "[old.png (image/png) is not available to the model]"]);
    assert.equal(JSON.parse(logged[0]).event, "session_agent.file_missing");
  });

  test(`${pkg}: the sources the model cites, a web page and a document, as emit.source (protocol 6)`, async () => {
    const model = new MockLanguageModelV3({
      doStream: stream(
        { type: "stream-start", warnings: [] },
        { type: "source", sourceType: "url", id: "s1", url: "https://example.com/a", title: "A", providerMetadata: { x: { y: 1 } } },
        { type: "source", sourceType: "document", id: "s2", mediaType: "application/pdf", title: "Doc", filename: "d.pdf" },
        { type: "source", sourceType: "url", id: "s3", url: "https://example.com/b" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "See A." },
        { type: "text-end", id: "t" },
        finish("stop"),
      ),
    });
    const { events, emit } = recorder();
    await streamTextModel(ai.streamText, () => ({ model }))(input([user("u1", "Hi")]), emit, new AbortController().signal);
    assert.deepEqual(events, [
      ["source", { sourceId: "s1", url: "https://example.com/a", title: "A" }],
      ["source", { sourceId: "s2", mediaType: "application/pdf", title: "Doc", filename: "d.pdf" }],
      ["source", { sourceId: "s3", url: "https://example.com/b" }],
      ["text", "See A."],
    ]);
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

  test(`${pkg}: the settings' own onError is called with the provider's error, and the turn still fails in words`, async () => {
    const failure = Object.assign(new Error("503 from the provider"), { statusCode: 503 });
    const model = new MockLanguageModelV3({
      doStream: async () => {
        throw failure;
      },
    });
    const heard = [];
    const respond = streamTextModel(ai.streamText, () => ({ model, maxRetries: 0, onError: ({ error }) => heard.push(error) }));
    const { emit } = recorder();
    await assert.rejects(respond(input([user("u1", "Hi")]), emit, new AbortController().signal), /its provider said HTTP 503/);
    assert.deepEqual(heard, [failure], "the agent's onError hears the error, once");
  });

  // The library's side of a question, as the SessionAgent does it: the memo stored as JSON, and
  // the answer read (an approval's `{"approved": …}`) and given back with it.
  const answered = (history, result, answer) => {
    const { question, memo } = result;
    const approval = question.toolCallId ? { approved: answer?.approved === true, ...(answer?.reason ? { reason: answer.reason } : {}) } : undefined;
    return { history, prompt: "", answer: { questionId: "q1", text: question.text, answer, ...(approval ? { approval } : {}), memo: JSON.parse(JSON.stringify(memo)) } };
  };
  const deployTool = (runs) =>
    ai.tool({
      description: "Deploys the site",
      inputSchema: ai.jsonSchema({ type: "object", properties: { target: { type: "string" } }, required: ["target"] }),
      needsApproval: true,
      execute: async ({ target }) => (runs.push(target), { deployed: target }),
    });
  const callsDeploy = () => stream({ type: "tool-input-start", id: "c1", toolName: "deploy" }, { type: "tool-input-end", id: "c1" }, { type: "tool-call", toolCallId: "c1", toolName: "deploy", input: '{"target":"prod"}' }, finish("tool-calls", 4, 2));
  const says = (text) => stream({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: text }, { type: "text-end", id: "t" }, finish("stop", 6, 3));

  test(`${pkg}: a tool that needs approval asks, runs only when approved, and the model hears its result`, async () => {
    const runs = [];
    const model = new MockLanguageModelV3({ doStream: [callsDeploy(), says("Deployed.")] });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { deploy: deployTool(runs) }, stopWhen: ai.stepCountIs(5) }));
    const history = [user("u1", "Ship it")];
    const { events, emit } = recorder();
    const asked = await respond(input(history), emit, new AbortController().signal);
    assert.equal(asked.done, false);
    assert.deepEqual(asked.question, { text: "Allow deploy?", toolCallId: "c1", options: ["Approve", "Deny"] });
    assert.deepEqual(runs, [], "nothing runs before the answer");
    assert.deepEqual(events, [
      ["status", "tool_calling", "deploy"],
      ["tool", { callId: "c1", toolName: "deploy", status: "pending" }],
      ["tool", { callId: "c1", toolName: "deploy", status: "pending", args: { target: "prod" } }],
    ]);
    events.length = 0;
    const done = await respond(answered(history, asked, { approved: true }), emit, new AbortController().signal);
    assert.deepEqual(runs, ["prod"]);
    assert.deepEqual(events, [
      ["tool", { callId: "c1", toolName: "deploy", status: "running", args: { target: "prod" } }],
      ["tool", { callId: "c1", toolName: "deploy", status: "completed", args: { target: "prod" }, result: { deployed: "prod" } }],
      ["text", "Deployed."],
    ]);
    assert.deepEqual(done.usage, { inputTokens: 10, outputTokens: 5 }, "both runs of the turn");
    const second = model.doStreamCalls[1].prompt;
    assert.deepEqual(second.map((m) => m.role), ["user", "assistant", "tool"]);
    assert.deepEqual(second[1].content.map((p) => p.type), ["tool-call"]);
    assert.deepEqual(second[2].content.map((p) => [p.toolCallId, p.output]), [["c1", { type: "json", value: { deployed: "prod" } }]]);
  });

  test(`${pkg}: a denied call never runs, and the model hears the denial and its reason`, async () => {
    const runs = [];
    const model = new MockLanguageModelV3({ doStream: [callsDeploy(), says("I did not deploy.")] });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { deploy: deployTool(runs) }, stopWhen: ai.stepCountIs(5) }), {
      approval: (call) => `Deploy to ${call.args.target}?`,
    });
    const history = [user("u1", "Ship it")];
    const { events, emit } = recorder();
    const asked = await respond(input(history), emit, new AbortController().signal);
    assert.equal(asked.question.text, "Deploy to prod?");
    events.length = 0;
    const done = await respond(answered(history, asked, { approved: false, reason: "not on a Friday" }), emit, new AbortController().signal);
    assert.equal(done.done, true);
    assert.deepEqual(runs, [], "a denied call never runs");
    assert.ok(!events.some(([kind, update]) => kind === "tool" && update.status !== "error"), "nothing shows it running");
    assert.deepEqual(events.at(-1), ["text", "I did not deploy."]);
    const result = model.doStreamCalls[1].prompt.at(-1).content[0];
    assert.equal(result.toolCallId, "c1");
    assert.deepEqual(result.output, { type: "execution-denied", reason: "not on a Friday" });
  });

  test(`${pkg}: with signed approvals (experimental_toolApprovalSecret) the request goes back as the AI SDK signed it, and the call runs`, async () => {
    const runs = [];
    const model = new MockLanguageModelV3({ doStream: [callsDeploy(), says("Deployed.")] });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { deploy: deployTool(runs) }, stopWhen: ai.stepCountIs(5), experimental_toolApprovalSecret: "a-secret-of-the-agent" }));
    const history = [user("u1", "Ship it")];
    const { emit } = recorder();
    const asked = await respond(input(history), emit, new AbortController().signal);
    const request = asked.memo.messages.flatMap((m) => (m.role === "assistant" ? m.content : [])).find((p) => p.type === "tool-approval-request");
    assert.equal(typeof request.signature, "string", "the AI SDK signed it");
    const done = await respond(answered(history, asked, { approved: true }), emit, new AbortController().signal);
    assert.equal(done.done, true);
    assert.deepEqual(runs, ["prod"]);
  });

  test(`${pkg}: a tool without execute is a free question, and its answer is the tool's result`, async () => {
    const askUser = ai.tool({ inputSchema: ai.jsonSchema({ type: "object", properties: { question: { type: "string" }, options: { type: "array" } } }) });
    const model = new MockLanguageModelV3({
      doStream: [
        stream({ type: "tool-input-start", id: "c7", toolName: "askUser" }, { type: "tool-call", toolCallId: "c7", toolName: "askUser", input: '{"question":"Which region?","options":["eu","us"]}' }, finish("tool-calls")),
        says("Deploying to eu."),
      ],
    });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { askUser }, stopWhen: ai.stepCountIs(5) }));
    const history = [user("u1", "Deploy")];
    const { events, emit } = recorder();
    const asked = await respond(input(history), emit, new AbortController().signal);
    assert.deepEqual(asked.question, { text: "Which region?", options: ["eu", "us"] });
    assert.deepEqual(events, [], "the client's tool is its question, not a tool card");
    await respond(answered(history, asked, "eu"), emit, new AbortController().signal);
    assert.deepEqual(events, [["text", "Deploying to eu."]]);
    const result = model.doStreamCalls[1].prompt.at(-1).content[0];
    assert.deepEqual([result.toolCallId, result.toolName, result.output], ["c7", "askUser", { type: "text", value: "eu" }]);
  });

  test(`${pkg}: the agent words a client tool's question its own way`, async () => {
    const pick = ai.tool({ inputSchema: ai.jsonSchema({ type: "object" }) });
    const model = new MockLanguageModelV3({ doStream: [stream({ type: "tool-call", toolCallId: "c3", toolName: "pick", input: '{"among":["red","blue"]}' }, finish("tool-calls"))] });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { pick } }), { question: (call) => ({ text: `Pick a ${call.toolName}`, options: call.args.among }) });
    const asked = await respond(input([user("u1", "Colour?")]), recorder().emit, new AbortController().signal);
    assert.deepEqual(asked.question, { text: "Pick a pick", options: ["red", "blue"] });
  });

  test(`${pkg}: two calls waiting in one step are asked one after the other, then the model goes on once`, async () => {
    const runs = [];
    const askUser = ai.tool({ inputSchema: ai.jsonSchema({ type: "object" }) });
    const model = new MockLanguageModelV3({
      doStream: [
        stream(
          { type: "tool-call", toolCallId: "c1", toolName: "deploy", input: '{"target":"prod"}' },
          { type: "tool-call", toolCallId: "c2", toolName: "askUser", input: '{"text":"Tag it?"}' },
          finish("tool-calls"),
        ),
        says("Done."),
      ],
    });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { deploy: deployTool(runs), askUser }, stopWhen: ai.stepCountIs(5) }));
    const history = [user("u1", "Ship it")];
    const { emit } = recorder();
    const first = await respond(input(history), emit, new AbortController().signal);
    assert.equal(first.question.toolCallId, "c1");
    const second = await respond(answered(history, first, { approved: true }), emit, new AbortController().signal);
    assert.deepEqual(second.question, { text: "Tag it?" });
    assert.equal(model.doStreamCalls.length, 1, "the model waits for every answer");
    assert.deepEqual(runs, []);
    const done = await respond(answered(history, second, "yes"), emit, new AbortController().signal);
    assert.equal(done.done, true);
    assert.deepEqual(runs, ["prod"]);
    const results = model.doStreamCalls[1].prompt.filter((m) => m.role === "tool").flatMap((m) => m.content);
    assert.deepEqual(results.map((r) => [r.toolCallId, r.output.type]).sort(), [["c1", "json"], ["c2", "text"]]);
  });

  test(`${pkg}: an abort mid-tool ends the turn, and the tool hears it`, async () => {
    const controller = new AbortController();
    let started = false;
    let heard = false;
    const slow = ai.tool({
      inputSchema: ai.jsonSchema({ type: "object" }),
      execute: (_, { abortSignal }) => {
        started = true;
        return new Promise((_, reject) => abortSignal.addEventListener("abort", () => ((heard = true), reject(abortSignal.reason))));
      },
    });
    const model = new MockLanguageModelV3({ doStream: [stream({ type: "tool-call", toolCallId: "c1", toolName: "slow", input: "{}" }, finish("tool-calls"))] });
    const respond = streamTextModel(ai.streamText, () => ({ model, tools: { slow }, stopWhen: ai.stepCountIs(5) }));
    const { events, emit } = recorder();
    const turn = respond(input([user("u1", "Go")]), emit, controller.signal);
    while (!started) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("stopped by the user"));
    await assert.rejects(turn);
    assert.equal(heard, true);
    assert.deepEqual(events, [["tool", { callId: "c1", toolName: "slow", status: "running", args: {} }]]);
  });

  test(`${pkg}: after an edit the model is given the client's branch, nothing of the branch set aside`, async () => {
    const reply = (id, text) => ({ id, role: "assistant", parts: [{ type: "text", text }, { type: "finish", reason: "end_turn" }] });
    // u1 "one" (a1 "ONE"), u2 "two" (a2 "TWO"); then the client edits "two" into "three": a new u2
    // beside the old one (the library's tree), and the model is given the path to it.
    const session = new Session();
    const said = { a1: "ONE", a2: "TWO" };
    session.turn("u1", [], "one");
    session.turn("u2", ["u1", "a1"], "two");
    const { user: edited } = session.turn("u2", ["u1", "a1"], "three");
    const path = tree.lineage(session.tree, edited, 200).reverse();
    const history = path.map((n) => (n.role === "user" ? user(n.id, session.text.get(n.key)) : reply(n.id, said[n.id])));
    assert.deepEqual(history.map((m) => m.id), ["u1", "a1", "u2"]);
    const model = new MockLanguageModelV3({ doStream: stream({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "THREE" }, { type: "text-end", id: "t" }, finish("stop")) });
    await streamTextModel(ai.streamText, () => ({ model }))(input(history), recorder().emit, new AbortController().signal);
    const given = model.doStreamCalls[0].prompt.map((m) => `${m.role}:${m.content.map((p) => p.text).join("")}`);
    assert.deepEqual(given, ["user:one", "assistant:ONE", "user:three"]);
  });

  // ai 7 asks for approval of its own (`toolApproval`), and settles some calls itself.
  if (pkg === "ai-v7") {
    test("ai-v7: toolApproval asks for a tool of its own (its reason the question); an automatic denial ends the call denied, never run", async () => {
      const runs = [];
      const deploy = ai.tool({ inputSchema: ai.jsonSchema({ type: "object" }), execute: async () => (runs.push("deploy"), "ok") });
      const wipe = ai.tool({ inputSchema: ai.jsonSchema({ type: "object" }), execute: async () => (runs.push("wipe"), "ok") });
      const model = new MockLanguageModelV3({
        doStream: [
          stream({ type: "tool-call", toolCallId: "c1", toolName: "deploy", input: "{}" }, { type: "tool-call", toolCallId: "c2", toolName: "wipe", input: "{}" }, finish("tool-calls")),
          says("Deployed; nothing wiped."),
        ],
      });
      const toolApproval = { deploy: { type: "user-approval", reason: "Deploy to production?" }, wipe: { type: "denied", reason: "never" } };
      const respond = streamTextModel(ai.streamText, () => ({ model, tools: { deploy, wipe }, toolApproval, stopWhen: ai.stepCountIs(5) }));
      const history = [user("u1", "Go")];
      const { events, emit } = recorder();
      const asked = await respond(input(history), emit, new AbortController().signal);
      assert.deepEqual(asked.question, { text: "Deploy to production?", toolCallId: "c1", options: ["Approve", "Deny"] });
      assert.deepEqual(asked.memo.waiting.map((w) => w.callId), ["c1"], "the automatic one is the AI SDK's to settle");
      assert.deepEqual(events.filter(([, u]) => u?.callId === "c1").map(([, u]) => u.status), ["pending"], "announced, not running");
      const result = await respond(answered(history, asked, { approved: true }), emit, new AbortController().signal);
      assert.equal(result.done, true);
      assert.deepEqual(runs, ["deploy"]);
      assert.deepEqual(events.filter(([, u]) => u?.callId === "c2").map(([, u]) => [u.status, u.error]).at(-1), ["error", "Denied"]);
    });
  }

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

test("an answered free question is the askUser call the user answered; an approval question is its call's", () => {
  const messages = toModelMessages([
    user("u1", "Deploy"),
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "question", questionId: "q_1", text: "Which region?", options: ["eu", "us"], answer: "eu" },
        { type: "tool-call", callId: "c2", toolName: "deploy", status: "error", args: { region: "eu" }, error: "Denied" },
        { type: "question", questionId: "q_2", text: "Allow deploy?", toolCallId: "c2", options: ["Approve", "Deny"], answer: { approved: false } },
        { type: "question", questionId: "q_3", text: "Unanswered", answer: undefined },
        { type: "text", text: "Not deployed." },
      ],
    },
  ]);
  assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
  assert.deepEqual(messages[1].content, [
    { type: "tool-call", toolCallId: "q_1", toolName: "askUser", input: { text: "Which region?", options: ["eu", "us"] } },
    { type: "tool-call", toolCallId: "c2", toolName: "deploy", input: { region: "eu" } },
  ]);
  assert.deepEqual(messages[2].content.map((r) => [r.toolCallId, r.output]), [["q_1", { type: "text", value: "eu" }], ["c2", { type: "error-text", value: "Denied" }]]);
});
