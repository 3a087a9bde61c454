// The AI SDK example agent (examples/ai-sdk-agent: `streamText` through the SessionAgent library,
// its test mode's mock model) behind the real adapter in workerd, driven by the real `Chat` of ai
// 5, 6 and 7: a turn with a server tool; a tool without execute answered as a question
// (addToolOutput, ai 5's addToolResult); a tool that needs approval granted and denied (an
// approveToolCall on every version, the tool's own approval on ai 6 and 7); stop; a reload from
// the history; a resume of a running turn by a second client; a detached turn run on to its end;
// what the model is given after an answer, a regenerate and an edit; a provider's failure; no
// model set (no MODEL, or an empty one, and no AI binding): an error that says what to bind; an
// approval answered after the agent's worker restarts; a photo, whose bytes the model is given
// through the agent's binding of the adapter's bucket. Then check-agent on it, as
// docs/your-agent.md runs it, exits 0.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startWorker, sessionId, sleep, until, root } from "./harness.mjs";
import { loadSdk, stockChat, textOf, assertNoDuplicatedPart } from "./chat.mjs";

const CLIENTS = ["ai-v7", "ai", "ai-v5"];
/** The versions that parse tool approvals. */
const APPROVING = ["ai-v7", "ai"];


const toolParts = (message) => (message?.parts ?? []).filter((p) => p.type === "dynamic-tool" || p.type.startsWith("tool-"));
const lastText = (chat) => textOf(chat.messages.at(-1));

describe("the AI SDK example agent", { concurrency: true }, () => {
  let worker;
  before(async () => {
    worker = await startWorker({ agent: "ai-sdk" });
  });
  after(() => worker?.dispose());

  const api = (session) => `${worker.base}/api/sessions/${session}/chat`;
  const history = async (session, headers = {}) => {
    const response = await fetch(`${worker.base}/api/sessions/${session}/messages`, { headers });
    assert.equal(response.status, 200);
    return response.json();
  };

  /** A stock `Chat` of `pkg` on `session`, sending by itself when `auto` (an SDK helper) says so. */
  async function chatOf(pkg, session, { auto = "lastAssistantMessageIsCompleteWithToolCalls", ...options } = {}) {
    const { chat, errors } = await stockChat(pkg, api(session), { auto, ...options });
    return { chat, errors };
  }

  const settled = async ({ chat, errors }) => {
    await until(() => chat.status === "ready", "the client to be ready");
    assert.deepEqual(errors, []);
  };
  const partOf = async (chat, match, what) => {
    let found;
    await until(() => (found = toolParts(chat.messages.at(-1)).find(match)) !== undefined, what);
    return found;
  };

  /** The conversation and the history are one: the same ids, roles and text, valid for `pkg`. */
  async function assertOne(pkg, chat, session, headers) {
    const stored = await history(session, headers);
    assert.deepEqual(stored.map((m) => [m.id, m.role, textOf(m)]), chat.messages.map((m) => [m.id, m.role, textOf(m)]));
    const { validateUIMessages } = await import(pkg);
    await validateUIMessages({ messages: chat.messages });
    await validateUIMessages({ messages: stored });
    return stored;
  }

  test("its title option names the conversation in the user's list from the first exchange (the mock model asked with generateText), once", { timeout: 30_000 }, async () => {
    const headers = { "x-conversations-key": `ai-sdk-list-${process.pid}-${Date.now()}` };
    const session = sessionId("ai-sdk-title");
    const client = await chatOf("ai", session, { headers });
    await client.chat.sendMessage({ text: "Plan a weekend in Lisbon with the kids please" });
    await settled(client);
    const titleOf = async () => (await (await fetch(`${worker.base}/api/sessions`, { headers })).json()).sessions.find((s) => s.id === session)?.title;
    for (const deadline = Date.now() + 10_000; (await titleOf()) !== "About Plan a weekend in Lisbon with"; await sleep(20)) {
      assert.ok(Date.now() < deadline, `the model's title in the list, not ${await titleOf()}`);
    }
    await client.chat.sendMessage({ text: "And the week after" });
    await settled(client);
    assert.equal(await titleOf(), "About Plan a weekend in Lisbon with", "a later exchange titles nothing");
  });

  test("a photo from a stock Chat: the model is given its bytes, read through the agent's own binding of the adapter's bucket", { timeout: 30_000 }, async () => {
    const session = sessionId("ai-photo");
    const photo = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(150_000, 7)]);
    const client = await chatOf("ai", session);
    const url = `data:image/png;base64,${photo.toString("base64")}`;
    await client.chat.sendMessage({ text: "what is this?", files: [{ type: "file", mediaType: "image/png", filename: "p.png", url }] });
    await settled(client);
    assert.match(lastText(client.chat), new RegExp(`A file image/png of ${photo.length} bytes\\.`));
    // The history holds the adapter's URL of it, never the bytes.
    const [file] = (await history(session)).flatMap((m) => m.parts.filter((p) => p.type === "file"));
    assert.ok(file.url.startsWith(`${worker.base}/api/sessions/${session}/files/`), file.url);
  });

  for (const pkg of CLIENTS) {
    test(`${pkg}: a turn with a server tool: its input and output on a tool card, then the model's text on its result`, { timeout: 30_000 }, async () => {
      const session = sessionId("aisdk-tool");
      const client = await chatOf(pkg, session);
      await client.chat.sendMessage({ text: "/weather" });
      await settled(client);
      const message = client.chat.messages.at(-1);
      const weather = toolParts(message).find((p) => p.toolName === "getWeather");
      assert.equal(weather.state, "output-available");
      assert.deepEqual(weather.input, { city: "Paris" });
      assert.deepEqual(weather.output, { city: "Paris", forecast: "sunny", celsius: 21 });
      assert.equal(textOf(message), 'getWeather gave {"city":"Paris","forecast":"sunny","celsius":21}.');
      assertNoDuplicatedPart(message);
      await assertOne(pkg, client.chat, session);
    });

    test(`${pkg}: a tool without execute is the user's question; its answer is the tool's result, now and in later turns`, { timeout: 30_000 }, async () => {
      const session = sessionId("aisdk-ask");
      const client = await chatOf(pkg, session);
      await client.chat.sendMessage({ text: "/ask Which region?" });
      const part = await partOf(client.chat, (p) => p.type === "tool-askUser" && p.state === "input-available", "the question");
      assert.equal(part.input.text, "Which region?");
      assert.deepEqual(part.input.options, ["eu", "us"]);
      const add = client.chat.addToolOutput ? client.chat.addToolOutput.bind(client.chat) : client.chat.addToolResult.bind(client.chat);
      await add({ tool: "askUser", toolCallId: part.toolCallId, output: "eu" });
      await until(() => lastText(client.chat).includes("askUser gave eu."), "the rest of the turn");
      await settled(client);
      assert.deepEqual(client.chat.messages.map((m) => m.role), ["user", "assistant"], "one assistant message");
      assert.deepEqual(toolParts(client.chat.messages[1]).map((p) => [p.type, p.state]), [["tool-askUser", "output-available"]], "the question is its only card");
      // The next turn's model is given the question and its answer (and the conversation).
      await client.chat.sendMessage({ text: "thanks" });
      await settled(client);
      assert.equal(lastText(client.chat), "You said: thanks. I was given 2 user messages: /ask Which region? | thanks.");
      await assertOne(pkg, client.chat, session);
    });

    for (const approved of [true, false]) {
      test(`${pkg}: a tool that needs approval, ${approved ? "granted: it runs" : "denied: it never runs, and the model hears why"} (approveToolCall)`, { timeout: 30_000 }, async () => {
        const session = sessionId("aisdk-approve");
        const client = await chatOf(pkg, session);
        await client.chat.sendMessage({ text: "/deploy" });
        const part = await partOf(client.chat, (p) => p.type === "tool-approveToolCall" && p.state === "input-available", "the approval");
        assert.equal(part.input.toolName, "deploy");
        assert.deepEqual(part.input.input, { target: "production" }, "what the user approves");
        assert.equal(part.input.text, "Allow deploy?");
        const add = client.chat.addToolOutput ? client.chat.addToolOutput.bind(client.chat) : client.chat.addToolResult.bind(client.chat);
        await add({ tool: "approveToolCall", toolCallId: part.toolCallId, output: approved ? { approved: true } : { approved: false, reason: "not today" } });
        const reply = approved ? 'deploy gave {"deployed":"production"}.' : "I did not run deploy: not today.";
        await until(() => lastText(client.chat).includes(reply), "the rest of the turn");
        await settled(client);
        const deploy = toolParts(client.chat.messages.at(-1)).find((p) => p.toolName === "deploy");
        if (approved) assert.deepEqual([deploy.state, deploy.output], ["output-available", { deployed: "production" }]);
        else assert.deepEqual([deploy.state, deploy.errorText], ["output-error", "Denied: not today"]);
        assert.equal(client.chat.messages.length, 2);
        await assertOne(pkg, client.chat, session);
      });
    }

    test(`${pkg}: stop mid-reply ends the turn; the history keeps what streamed, and the next turn is given it all`, { timeout: 30_000 }, async () => {
      const session = sessionId("aisdk-stop");
      const client = await chatOf(pkg, session);
      const sending = client.chat.sendMessage({ text: "/long" });
      await until(() => lastText(client.chat).includes("word3"), "the first words");
      await client.chat.stop();
      await sending;
      await settled(client);
      // The agent ends the turn once the abort reaches it: the history then lists it.
      let stored = await history(session);
      for (let i = 0; stored.length < 2 && i < 100; i++) stored = (await sleep(50), await history(session));
      assert.equal(stored.length, 2, "the stopped turn in the history");
      assert.ok(!textOf(stored.at(-1)).includes("word60"), "stopped early");
      assert.match(textOf(stored.at(-1)), /^word1 word2 word3/);
      await client.chat.sendMessage({ text: "again" });
      await settled(client);
      assert.equal(lastText(client.chat), "You said: again. I was given 2 user messages: /long | again.");
    });

    test(`${pkg}: detached and dropped mid-reply, the turn runs on; a fresh Chat from the history resumes all of it`, { timeout: 30_000 }, async () => {
      const session = sessionId("aisdk-detach");
      const first = await chatOf(pkg, session, { body: { onDisconnect: "detach" } });
      const sending = first.chat.sendMessage({ text: "/long" });
      await until(() => lastText(first.chat).includes("word3"), "the first words");
      await first.chat.stop();
      await sending;
      const streamedId = first.chat.messages.at(-1).id;
      // As after a reload: the history, then a resume.
      const messages = await history(session);
      const second = await chatOf(pkg, session, { id: first.chat.id, messages });
      await second.chat.resumeStream();
      await settled(second);
      const resumed = second.chat.messages.at(-1);
      assert.equal(resumed.id, streamedId, "the same message");
      assert.match(textOf(resumed), /^word1 word2 .* word60$/, "the turn ran to its end");
      assertNoDuplicatedPart(resumed);
      await assertOne(pkg, second.chat, session);
    });
  }

  for (const pkg of APPROVING) {
    for (const approved of [true, false]) {
      test(`${pkg}, X-Questions: approvals: the tool's own card asks; addToolApprovalResponse ${approved ? "grants" : "denies"} it`, { timeout: 30_000 }, async () => {
        const session = sessionId("aisdk-approval");
        const headers = { "X-Questions": "approvals" };
        const client = await chatOf(pkg, session, { headers, auto: "lastAssistantMessageIsCompleteWithApprovalResponses" });
        await client.chat.sendMessage({ text: "/deploy" });
        const part = await partOf(client.chat, (p) => p.type === "dynamic-tool" && p.state === "approval-requested", "the approval");
        assert.deepEqual([part.toolName, part.input], ["deploy", { target: "production" }]);
        await client.chat.addToolApprovalResponse({ id: part.approval.id, approved, ...(approved ? {} : { reason: "not today" }) });
        const reply = approved ? 'deploy gave {"deployed":"production"}.' : "I did not run deploy: not today.";
        await until(() => lastText(client.chat).includes(reply), "the rest of the turn");
        await settled(client);
        const deploy = toolParts(client.chat.messages.at(-1)).find((p) => p.toolName === "deploy");
        assert.equal(deploy.state, approved ? "output-available" : "output-denied");
        await assertOne(pkg, client.chat, session, headers);
      });
    }
  }

  test("ai: a second client resumes a running turn mid-reply, in the same message", { timeout: 30_000 }, async () => {
    const session = sessionId("aisdk-resume");
    const first = await chatOf("ai", session);
    const sending = first.chat.sendMessage({ text: "/long" });
    await until(() => lastText(first.chat).includes("word3"), "the first words");
    const second = await chatOf("ai", session, { messages: await history(session) });
    await second.chat.resumeStream();
    await sending;
    await settled(second);
    await settled(first);
    assert.equal(second.chat.messages.at(-1).id, first.chat.messages.at(-1).id);
    assert.equal(lastText(second.chat), lastText(first.chat));
    assert.match(lastText(second.chat), /word60$/);
  });

  for (const pkg of CLIENTS) {
    test(`${pkg}: after a regenerate and an edit the model is given the client's conversation, nothing taken back`, { timeout: 30_000 }, async () => {
      const session = sessionId("aisdk-branch");
      const client = await chatOf(pkg, session);
      await client.chat.sendMessage({ text: "one" });
      await client.chat.sendMessage({ text: "two" });
      await settled(client);
      await client.chat.regenerate();
      await settled(client);
      assert.equal(lastText(client.chat), "You said: two. I was given 2 user messages: one | two.");
      // An edit of "two": it and its reply are replaced.
      await client.chat.sendMessage({ text: "three", messageId: client.chat.messages[2].id });
      await settled(client);
      assert.equal(lastText(client.chat), "You said: three. I was given 2 user messages: one | three.");
      assert.deepEqual(client.chat.messages.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
      await assertOne(pkg, client.chat, session);
    });
  }

  test("a provider's failure ends the turn with an error the user can read, and nothing of it in a log", { timeout: 30_000 }, async () => {
    const session = sessionId("aisdk-fail");
    const client = await chatOf("ai", session);
    await client.chat.sendMessage({ text: "/fail" });
    await until(() => client.chat.status !== "submitted" && client.chat.status !== "streaming", "the end");
    const stored = await history(session);
    assert.equal(client.chat.status, "error");
    assert.equal(client.errors[0]?.message, "The model could not answer (its provider said HTTP 503).");
    assert.equal(stored.length, 2);
    await sleep(200);
    const logged = [...worker.stderr, ...worker.diagnostics.map((d) => JSON.stringify(d)), ...worker.logs.map((l) => JSON.stringify(l))];
    assert.ok(logged.length > 0, "the log is read");
    assert.deepEqual(logged.filter((line) => line.includes("overloaded")), [], "the provider's own words are not logged");
  });
});

describe("the AI SDK example agent without a model", () => {
  test("no MODEL and no AI binding (or MODEL empty): the turn ends with an error that says what to bind, never a silent reply", { timeout: 30_000 }, async () => {
    for (const vars of [{ MODEL: undefined }, { MODEL: "" }]) {
      const worker = await startWorker({ agent: "ai-sdk", agentVars: vars });
      try {
        const { Chat, DefaultChatTransport } = await loadSdk("ai");
        const session = sessionId("aisdk-nomodel");
        const errors = [];
        const chat = new Chat({ transport: new DefaultChatTransport({ api: `${worker.base}/api/sessions/${session}/chat` }), onError: (e) => errors.push(e) });
        await chat.sendMessage({ text: "hello" });
        await until(() => chat.status === "error" || chat.status === "ready", "the end of the turn");
        assert.equal(chat.status, "error", JSON.stringify(vars));
        assert.match(errors[0]?.message ?? "", /No model: bind Workers AI/);
      } finally {
        await worker.dispose();
      }
    }
  });
});

describe("the AI SDK example agent across a restart", () => {
  test("an approval answered after the agent's worker restarts goes on where the turn stopped", { timeout: 60_000 }, async () => {
    const persist = mkdtempSync(path.join(os.tmpdir(), "ai-sdk-restart-"));
    const worker = await startWorker({ agent: "ai-sdk", persist });
    try {
      const session = sessionId("aisdk-restart");
      const { Chat, DefaultChatTransport } = await loadSdk("ai");
      const sdk = await import("ai");
      const chatAt = (base, messages) =>
        new Chat({
          id: session,
          messages,
          transport: new DefaultChatTransport({ api: `${base}/api/sessions/${session}/chat` }),
          sendAutomaticallyWhen: sdk.lastAssistantMessageIsCompleteWithToolCalls,
        });
      const before = chatAt(worker.base);
      await before.sendMessage({ text: "/deploy" });
      await until(() => before.status === "ready" && toolParts(before.messages.at(-1)).some((p) => p.type === "tool-approveToolCall"), "the approval");
      const part = toolParts(before.messages.at(-1)).find((p) => p.type === "tool-approveToolCall");
      // Every object starts afresh on its storage: what the turn's model said waits there.
      await worker.restart();
      const after = chatAt(worker.base, before.messages);
      await after.addToolOutput({ tool: "approveToolCall", toolCallId: part.toolCallId, output: { approved: true } });
      await until(() => after.status === "ready" && lastText(after).includes('deploy gave {"deployed":"production"}.'), "the rest of the turn");
      const deploy = toolParts(after.messages.at(-1)).find((p) => p.toolName === "deploy");
      assert.deepEqual([deploy.state, deploy.output], ["output-available", { deployed: "production" }]);
      assert.equal(after.messages.length, 2, "the same turn, one assistant message");
    } finally {
      await worker.dispose();
      rmSync(persist, { recursive: true, force: true });
    }
  });
});

describe("check-agent on the AI SDK example", () => {
  test("npm run check-agent -- --config examples/ai-sdk-agent/wrangler.toml $(cat examples/ai-sdk-agent/check-agent.args) exits 0, no MUST undriven", { timeout: 200_000 }, async () => {
    const args = readFileSync(path.join(root, "examples/ai-sdk-agent/check-agent.args"), "utf8").trim().split(/\s+/);
    assert.equal(readFileSync(path.join(root, "examples/ai-sdk-agent/check-agent.args"), "utf8").split("\n").filter(Boolean).length, 1, "one line");
    const cli = path.join(root, "check-agent/cli.mjs");
    const { stdout } = await promisify(execFile)(process.execPath, [cli, "--config", "examples/ai-sdk-agent/wrangler.toml", ...args, "--json"], {
      cwd: root,
      timeout: 180_000,
      env: { ...process.env, INIT_CWD: root, WRANGLER_SEND_METRICS: "false" },
    });
    const { exitCode, rules } = JSON.parse(stdout);
    const musts = rules.filter((r) => r.level === "MUST");
    assert.ok(musts.length > 10);
    assert.deepEqual(musts.filter((r) => r.result !== "pass").map((r) => r.id), [], "every MUST driven and passed");
    assert.deepEqual(rules.filter((r) => r.result === "fail").map((r) => r.id), []);
    assert.equal(exitCode, 0);
  });
});
