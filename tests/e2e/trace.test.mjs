// Trace modes and message metadata through real AI SDK clients (ai 5.0.0, 5, 6, 7): `minimal`
// streams the text without tools, reasoning or status and still ends `ready`; `normal` shortens
// long tool JSON to the truncation shape; `full` is everything; every version keeps the
// metadata of `start` and `finish` as `message.metadata`.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, demoLog } from "./harness.mjs";
import { loadSdk } from "./chat.mjs";

/** Short enough that the demo turn's tool input and output are both over it. */
const MAX_TOOL_JSON_CHARS = 20;

let worker;
before(async () => {
  worker = await startWorker({ vars: { MAX_TOOL_JSON_CHARS: String(MAX_TOOL_JSON_CHARS) } });
});
after(() => worker?.dispose());

/** The default demo turn through `pkg`'s Chat with `trace`; its Chat, transient data and the
 * agent's frames. */
async function turn(pkg, trace) {
  const { Chat, DefaultChatTransport } = await loadSdk(pkg);
  const session = sessionId(`trace-${trace}`);
  const data = [];
  const errors = [];
  const chat = new Chat({
    transport: new DefaultChatTransport({
      api: `${worker.base}/api/sessions/${session}/chat`,
      body: { trace },
    }),
    onData: (part) => data.push(part),
    onError: (e) => errors.push(e),
  });
  await chat.sendMessage({ text: "how do tools show?" });
  assert.deepEqual(errors, []);
  assert.equal(chat.status, "ready");
  const sent = (await demoLog(worker.base, session, "sent")).map((e) => e.frame);
  return { message: chat.messages.at(-1), data, sent };
}

const textOf = (m) => m.parts.filter((p) => p.type === "text").map((p) => p.text).join("");

describe("trace modes and metadata", { concurrency: true }, () => {
  for (const pkg of ["ai-v7", "ai", "ai-v5", "ai-v5-0-0"]) {
    test(`${pkg}: minimal streams the text only and ends ready`, { timeout: 30_000 }, async () => {
      const { message, data, sent } = await turn(pkg, "minimal");
      const finalize = sent.find((f) => f.type === "message.finalize");
      assert.equal(textOf(message), finalize.finalText);
      assert.deepEqual(message.parts.filter((p) => p.type !== "text" && p.type !== "step-start"), []);
      assert.deepEqual(data.filter((d) => d.type === "data-status"), [], "no status chunks");
      assert.equal(message.metadata.toolCalls, 1, "the metadata still counts the tool the turn ran");
    });

    test(`${pkg}: normal shortens tool JSON over MAX_TOOL_JSON_CHARS; metadata kept`, { timeout: 30_000 }, async () => {
      const { message, sent } = await turn(pkg, "normal");
      const completed = sent.find((f) => f.type === "message.part.tool-update" && f.status === "completed");
      const [tool] = message.parts.filter((p) => p.type === "dynamic-tool");
      for (const [shown, full] of [[tool.input, completed.args], [tool.output, completed.result]]) {
        const json = JSON.stringify(full);
        assert.deepEqual(shown, {
          truncated: true,
          preview: [...json].slice(0, MAX_TOOL_JSON_CHARS).join(""),
          fullLength: [...json].length,
        });
      }
      const finalize = sent.find((f) => f.type === "message.finalize");
      assert.equal(message.metadata.turnId, finalize.turnId);
      assert.equal(typeof message.metadata.createdAt, "number");
      assert.equal(typeof message.metadata.durationMs, "number");
      assert.deepEqual([message.metadata.toolCalls, message.metadata.toolErrors], [1, 0]);
    });

    test(`${pkg}: full streams the tool's JSON whole`, { timeout: 30_000 }, async () => {
      const { message, sent } = await turn(pkg, "full");
      const completed = sent.find((f) => f.type === "message.part.tool-update" && f.status === "completed");
      const [tool] = message.parts.filter((p) => p.type === "dynamic-tool");
      assert.deepEqual(tool.output, completed.result);
    });
  }
});

// The server's cap: with TRACE_MAX = minimal, a request asking for `full` gets what minimal
// shows, in its stream and in the session's history (`GET …/messages?trace=full`).
describe("TRACE_MAX caps what a request may ask for", () => {
  let capped;
  before(async () => {
    capped = await startWorker({ vars: { TRACE_MAX: "minimal" } });
  });
  after(() => capped?.dispose());

  test("a full request streams and lists no tool, no reasoning, no status", { timeout: 30_000 }, async () => {
    const { Chat, DefaultChatTransport } = await loadSdk("ai");
    const session = sessionId("trace-capped");
    const data = [];
    const chat = new Chat({
      transport: new DefaultChatTransport({ api: `${capped.base}/api/sessions/${session}/chat`, body: { trace: "full" } }),
      onData: (part) => data.push(part),
    });
    await chat.sendMessage({ text: "how do tools show?" });
    assert.equal(chat.status, "ready");
    const sent = (await demoLog(capped.base, session, "sent")).map((e) => e.frame);
    assert.ok(sent.some((f) => f.type === "message.part.tool-update"), "the agent did run a tool");
    const message = chat.messages.at(-1);
    assert.deepEqual(message.parts.filter((p) => p.type !== "text" && p.type !== "step-start"), []);
    assert.deepEqual(data.filter((d) => d.type === "data-status"), []);

    const history = await (await fetch(`${capped.base}/api/sessions/${session}/messages?trace=full`)).json();
    const parts = history.flatMap((m) => m.parts.map((p) => p.type));
    assert.ok(parts.includes("text"));
    assert.deepEqual(parts.filter((t) => t === "dynamic-tool" || t === "reasoning"), [], "the history is capped too");
  });

  test("without a cap, the history lists the tool the turn ran", { timeout: 30_000 }, async () => {
    const { Chat, DefaultChatTransport } = await loadSdk("ai");
    const session = sessionId("trace-uncapped");
    const chat = new Chat({
      transport: new DefaultChatTransport({ api: `${worker.base}/api/sessions/${session}/chat`, body: { trace: "full" } }),
    });
    await chat.sendMessage({ text: "how do tools show?" });
    const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages?trace=full`)).json();
    assert.ok(history.flatMap((m) => m.parts.map((p) => p.type)).includes("dynamic-tool"));
  });
});

