// Trace modes and message metadata through real AI SDK clients (ai 5.0.0, 5, 6, 7): `minimal`
// streams the text without tools, reasoning or status and still ends `ready`; `normal` shows
// each tool by its name and state, its input and output null; `full` is everything, long tool
// JSON shortened to the truncation shape; every version keeps the metadata of `start` and
// `finish` as `message.metadata`. TRACE_MAX holds, whatever a client asks, for the stream, a
// resume of it and the history.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, demoLog, postChat, chatBody, readAll, chunksOf, sleep } from "./harness.mjs";
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

    test(`${pkg}: normal shows the tool by its name and state, without its input or output; metadata kept`, { timeout: 30_000 }, async () => {
      const { message, sent } = await turn(pkg, "normal");
      const completed = sent.find((f) => f.type === "message.part.tool-update" && f.status === "completed");
      const [tool] = message.parts.filter((p) => p.type === "dynamic-tool");
      assert.equal(tool.toolName, completed.toolName);
      assert.equal(tool.state, "output-available");
      assert.equal(tool.input, null, "no arguments");
      assert.equal(tool.output, null, "no result");
      const finalize = sent.find((f) => f.type === "message.finalize");
      assert.equal(textOf(message), finalize.finalText);
      assert.equal(message.metadata.turnId, finalize.turnId);
      assert.equal(typeof message.metadata.createdAt, "number");
      assert.equal(typeof message.metadata.durationMs, "number");
      assert.deepEqual([message.metadata.toolCalls, message.metadata.toolErrors], [1, 0]);
    });

    test(`${pkg}: full streams the tool's JSON, shortened over MAX_TOOL_JSON_CHARS`, { timeout: 30_000 }, async () => {
      const { message, sent } = await turn(pkg, "full");
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
    });
  }
});

/**
 * A default turn of `base`'s demo agent asked for with `trace` in a POST of its own (detached),
 * and a resume of it with `?trace=`, made once the tool has its output: the POST's and the
 * resume's chunks, then the history's messages and its `x-trace-max` header, each asked for the
 * same mode.
 */
async function capturedEverywhere(base, trace) {
  const session = sessionId(`trace-cap-${trace}`);
  const api = `${base}/api/sessions/${session}/chat`;
  const post = await postChat(base, session, chatBody("how do tools show?", { trace, onDisconnect: "detach" }));
  assert.equal(post.status, 200);
  const reader = post.body.getReader();
  let text = "";
  // The tool has run once the agent has sent its `completed` update: then the resume replays it.
  const toolDone = async () => (await demoLog(base, session, "sent")).some((e) => e.frame.type === "message.part.tool-update" && e.frame.status === "completed");
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += new TextDecoder().decode(value);
    }
  })();
  while (!(await toolDone())) await sleep(20);
  const resume = await fetch(`${api}/chat-1/stream?trace=${trace}`);
  assert.equal(resume.status, 200, "the turn is still in flight");
  const resumed = (await readAll(resume)).text;
  await reading;
  const history = await fetch(`${base}/api/sessions/${session}/messages?trace=${trace}`);
  return {
    stream: chunksOf(text),
    resume: chunksOf(resumed),
    history: await history.json(),
    traceMax: history.headers.get("x-trace-max"),
    sent: (await demoLog(base, session, "sent")).map((e) => e.frame),
  };
}

/** The tool chunks and the history's tool parts of `captured`. */
function toolsOf(captured) {
  const tools = (chunks) => chunks.filter((c) => c.type.startsWith("tool-"));
  return {
    stream: tools(captured.stream),
    resume: tools(captured.resume),
    history: captured.history.flatMap((m) => m.parts).filter((p) => p.type === "dynamic-tool"),
  };
}

// TRACE_MAX = normal: whatever a client asks (`full` here), no tool's input or output leaves the
// worker, in the stream, in a resume of it, or in the history.
describe("TRACE_MAX = normal holds for the stream, the resume and the history", () => {
  let capped;
  before(async () => {
    capped = await startWorker({ vars: { TRACE_MAX: "normal" } });
  });
  after(() => capped?.dispose());

  test("a client asking for full gets every tool without its data", { timeout: 30_000 }, async () => {
    const captured = await capturedEverywhere(capped.base, "full");
    const completed = captured.sent.find((f) => f.type === "message.part.tool-update" && f.status === "completed");
    assert.ok(completed.args !== undefined && completed.result !== undefined, "the agent sent the tool's data");
    const tools = toolsOf(captured);
    for (const where of ["stream", "resume"]) {
      const chunks = tools[where];
      assert.deepEqual(chunks.map((c) => c.type), ["tool-input-start", "tool-input-available", "tool-output-available"], where);
      assert.equal(chunks[1].input, null, `${where}: no input`);
      assert.equal(chunks[2].output, null, `${where}: no output`);
      assert.equal(chunks[0].toolName, completed.toolName, `${where}: the tool's name`);
    }
    assert.equal(tools.history.length, 1);
    assert.deepEqual([tools.history[0].input, tools.history[0].output], [null, null], "history: no data");
    assert.equal(captured.traceMax, "normal", "the history names the cap");
    // Nothing of the tool's data in any byte of any of them.
    const everything = JSON.stringify([captured.stream, captured.resume, captured.history]);
    assert.ok(!everything.includes(JSON.stringify(completed.result).slice(1, 20)), "no trace of the result");
  });
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

  test("a resume asking for full replays no tool either, and the history names the cap", { timeout: 30_000 }, async () => {
    const captured = await capturedEverywhere(capped.base, "full");
    const tools = toolsOf(captured);
    assert.deepEqual([tools.stream, tools.resume, tools.history], [[], [], []]);
    assert.ok(captured.resume.some((c) => c.type === "text-delta"), "the resume streamed the text");
    assert.equal(captured.traceMax, "minimal");
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

