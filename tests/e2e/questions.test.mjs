// The agent's questions answered by stock AI SDK clients, with only the SDK's own human-in-the-loop
// helpers: the real `Chat` of ai 5.0.0, 5, 6 and 7 with `sendAutomaticallyWhen`, against every
// agent behind the real adapter (E2E_AGENTS=demo,typescript). A free question (`/ask`) is an
// `askUser` tool call answered with `addToolOutput` (ai 5: `addToolResult`); an approval (`/deploy`)
// is an `approveToolCall` call on every version, or, with `X-Questions: approvals`, a tool approval
// on ai 6 and 7 (`addToolApprovalResponse`: granted, and denied with a reason). Each turn stays one
// assistant message, the client posts once per answer and never again, and every version's
// `validateUIMessages` accepts the result and the history. Around it: a resume while a question
// waits rebuilds the waiting part, a second client answers, stop while waiting ends the turn, and a
// stale or replayed answer is a 409.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, demoLog, sleep, until } from "./harness.mjs";
import { stockChat, textOf } from "./chat.mjs";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");
const ALL = ["ai-v7", "ai", "ai-v5", "ai-v5-0-0"];
/** The versions that parse tool approvals. */
const APPROVING = ["ai-v7", "ai"];
/** The versions with `validateUIMessages` (ai 5.0.0 has none). */
const VALIDATING = ["ai-v7", "ai", "ai-v5"];


const toolParts = (message) => (message?.parts ?? []).filter((p) => p.type === "dynamic-tool" || p.type.startsWith("tool-"));

for (const agent of AGENTS) {
describe(`questions, agent: ${agent}`, { concurrency: true }, () => {
  let worker;
  before(async () => {
    worker = await startWorker({ agent });
  });
  after(() => worker?.dispose());

  const api = (session) => `${worker.base}/api/sessions/${session}/chat`;
  const received = async (session) => (await demoLog(worker.base, session, "received")).map((e) => e.frame);
  const answersTo = async (session) => (await received(session)).filter((f) => f.type === "answer");

  /**
   * A stock `Chat` of `pkg` on `session`, sending by itself when `auto` (an SDK helper's name) says
   * so; `questions` is sent as `X-Questions` on the POST and the resume alike. `posts` counts the
   * chat POSTs it makes.
   */
  async function chatOf(pkg, session, { auto = "lastAssistantMessageIsCompleteWithToolCalls", questions, messages, id } = {}) {
    const counter = { posts: 0 };
    const fetchCounting = (url, init) => {
      if (init?.method === "POST") counter.posts += 1;
      return fetch(url, init);
    };
    const headers = questions ? { "X-Questions": questions } : undefined;
    const { chat, errors, sdk } = await stockChat(pkg, api(session), { auto, id, messages, headers, fetch: fetchCounting });
    return { chat, errors, counter, sdk };
  }

  /** Answers a client-side tool call: `addToolOutput`, or ai 5's `addToolResult`. */
  async function answerTool(chat, part, output) {
    const tool = part.type.slice("tool-".length);
    const add = chat.addToolOutput ? chat.addToolOutput.bind(chat) : chat.addToolResult.bind(chat);
    await add({ tool, toolCallId: part.toolCallId, output });
  }

  /** The last message's part of `type` in `state`, once it is there. */
  async function partOf(chat, type, state) {
    let found;
    await until(() => {
      found = toolParts(chat.messages.at(-1)).find((p) => p.type === type && p.state === state);
      return found !== undefined;
    }, `a ${type} part in ${state}`);
    return found;
  }

  /** The whole conversation, and the history, valid for every version that validates. */
  async function assertValid(session, messages, { questions, versions = VALIDATING } = {}) {
    const response = await fetch(`${worker.base}/api/sessions/${session}/messages`, {
      headers: questions ? { "X-Questions": questions } : {},
    });
    assert.equal(response.status, 200);
    const history = await response.json();
    for (const pkg of versions) {
      const { validateUIMessages } = await import(pkg);
      await validateUIMessages({ messages });
      await validateUIMessages({ messages: history });
    }
    return history;
  }

  /** After the turn: the client is ready, sent nothing more (no loop), and saw no error. */
  async function assertSettled({ chat, errors, counter }, posts) {
    await until(() => chat.status === "ready", "the client to be ready");
    await sleep(300);
    assert.equal(chat.status, "ready");
    assert.deepEqual(errors, []);
    assert.equal(counter.posts, posts, "one POST for the prompt, one per answer, no more");
  }

  for (const pkg of ALL) {
    test(`${pkg}: a free question is an askUser call; addToolOutput answers it and the turn goes on in the same message`, { timeout: 30_000 }, async () => {
      const session = sessionId("q-ask");
      const client = await chatOf(pkg, session);
      await client.chat.sendMessage({ text: "/ask Which region?" });
      const asking = client.chat.messages.at(-1);
      const part = await partOf(client.chat, "tool-askUser", "input-available");
      assert.equal(part.input.text, "Which region?");
      assert.ok(Array.isArray(part.input.options), "the options travel in the input");
      assert.equal(typeof part.input.questionId, "string");

      await answerTool(client.chat, part, "eu");
      await until(() => textOf(client.chat.messages.at(-1)).includes("You answered: eu."), "the rest of the turn");
      await assertSettled(client, 2);
      const messages = client.chat.messages;
      assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"], "one assistant message");
      assert.equal(messages[1].id, asking.id, "the same message");
      const answered = toolParts(messages[1]).find((p) => p.type === "tool-askUser");
      assert.equal(answered.state, "output-available");
      assert.equal(answered.output, "eu");
      assert.deepEqual(await answersTo(session), [{ type: "answer", questionId: part.input.questionId, answer: "eu", onDisconnect: "abort" }]);
      const history = await assertValid(session, messages);
      assert.deepEqual(toolParts(history.at(-1)).map((p) => [p.type, p.state, p.output]), [["tool-askUser", "output-available", "eu"]]);
      assert.equal(textOf(history.at(-1)), "You answered: eu.");
    });

    for (const approved of [true, false]) {
      test(`${pkg}: an approval is an approveToolCall call; ${approved ? "granted" : "denied"} with addToolOutput`, { timeout: 30_000 }, async () => {
        const session = sessionId("q-tool");
        const client = await chatOf(pkg, session);
        await client.chat.sendMessage({ text: "/deploy staging" });
        const part = await partOf(client.chat, "tool-approveToolCall", "input-available");
        assert.equal(part.input.toolName, "deploy");
        assert.deepEqual(part.input.input, { target: "staging" }, "what the user approves");
        assert.equal(part.input.text, "Deploy to staging?");
        const output = approved ? { approved: true } : { approved: false, reason: "not today" };
        await answerTool(client.chat, part, output);
        const reply = approved ? "Deployed to staging." : "I did not deploy to staging.";
        await until(() => textOf(client.chat.messages.at(-1)).includes(reply), "the rest of the turn");
        await assertSettled(client, 2);
        const message = client.chat.messages.at(-1);
        assert.equal(client.chat.messages.length, 2);
        const deploy = toolParts(message).find((p) => p.type === "dynamic-tool");
        assert.equal(deploy.toolName, "deploy");
        if (approved) {
          assert.equal(deploy.state, "output-available");
          assert.deepEqual(deploy.output, { deployed: "staging" });
        } else {
          assert.equal(deploy.state, "output-error");
          assert.equal(deploy.errorText, "Denied: not today");
        }
        assert.deepEqual((await answersTo(session)).map((f) => f.answer), [output]);
        await assertValid(session, client.chat.messages);
      });
    }
  }

  for (const pkg of APPROVING) {
    for (const approved of [true, false]) {
      test(`${pkg}, X-Questions: approvals: the tool's own part asks; addToolApprovalResponse ${approved ? "grants" : "denies"} it`, { timeout: 30_000 }, async () => {
        const session = sessionId("q-approval");
        const client = await chatOf(pkg, session, { questions: "approvals", auto: "lastAssistantMessageIsCompleteWithApprovalResponses" });
        await client.chat.sendMessage({ text: "/deploy staging" });
        const part = await partOf(client.chat, "dynamic-tool", "approval-requested");
        assert.equal(part.toolName, "deploy");
        assert.deepEqual(part.input, { target: "staging" });
        await client.chat.addToolApprovalResponse({ id: part.approval.id, approved, ...(approved ? {} : { reason: "not today" }) });
        const reply = approved ? "Deployed to staging." : "I did not deploy to staging.";
        await until(() => textOf(client.chat.messages.at(-1)).includes(reply), "the rest of the turn");
        await assertSettled(client, 2);
        assert.equal(client.chat.messages.length, 2);
        const deploy = toolParts(client.chat.messages.at(-1)).find((p) => p.type === "dynamic-tool");
        assert.equal(deploy.state, approved ? "output-available" : "output-denied");
        assert.equal(deploy.approval.approved, approved);
        const expected = approved ? { approved: true } : { approved: false, reason: "not today" };
        assert.deepEqual((await answersTo(session)).map((f) => f.answer), [expected]);
        const history = await assertValid(session, client.chat.messages, { questions: "approvals", versions: APPROVING });
        const shown = toolParts(history.at(-1)).find((p) => p.type === "dynamic-tool");
        assert.equal(shown.state, deploy.state, "the history shows the call as the stream left it");
        assert.deepEqual(shown.approval, JSON.parse(JSON.stringify(deploy.approval)), "as JSON carries it");
      });
    }
  }

  test("no trace mode hides a question; normal and minimal show an approval's arguments as null", { timeout: 30_000 }, async () => {
    const ask = async (trace, questions) => {
      const response = await fetch(api(sessionId("q-trace")), {
        method: "POST",
        headers: { "content-type": "application/json", "X-Questions": questions },
        body: JSON.stringify({ trace, messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "/deploy staging" }] }] }),
      });
      assert.equal(response.status, 200);
      return (await response.text()).split("\n\n").filter((e) => e.startsWith("data: {")).map((e) => JSON.parse(e.slice(6)));
    };
    const approveCall = (chunks) => chunks.find((c) => c.type === "tool-input-available" && c.toolName === "approveToolCall");
    // minimal: no tool card to approve on, so an approval comes as approveToolCall, its arguments null.
    const minimal = await ask("minimal", "approvals");
    assert.ok(!minimal.some((c) => c.dynamic === true), "no tool of the agent's");
    assert.ok(!minimal.some((c) => c.type === "tool-approval-request"));
    assert.equal(approveCall(minimal).input.text, "Deploy to staging?");
    assert.equal(approveCall(minimal).input.input, null);
    // normal: the approval on the call's own card, whose input is null as any tool's.
    const normal = await ask("normal", "approvals");
    assert.equal(normal.find((c) => c.type === "tool-input-available" && c.toolName === "deploy").input, null);
    assert.ok(normal.some((c) => c.type === "tool-approval-request"));
    assert.equal(approveCall(await ask("normal", "tools")).input.input, null);
    assert.deepEqual(approveCall(await ask("full", "tools")).input.input, { target: "staging" });
  });

  test("a resume while a question waits rebuilds the waiting part; a second client answers it", { timeout: 30_000 }, async () => {
    const session = sessionId("q-resume");
    const first = await chatOf("ai-v7", session, { questions: "approvals", auto: "lastAssistantMessageIsCompleteWithApprovalResponses" });
    await first.chat.sendMessage({ text: "/deploy staging" });
    const waiting = await partOf(first.chat, "dynamic-tool", "approval-requested");

    // As after a reload, elsewhere: the history leaves the turn in flight out; the resume has it.
    const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
    const second = await chatOf("ai", session, { questions: "approvals", auto: "lastAssistantMessageIsCompleteWithApprovalResponses", id: first.chat.id, messages: history });
    await second.chat.resumeStream();
    const rebuilt = await partOf(second.chat, "dynamic-tool", "approval-requested");
    assert.equal(rebuilt.toolCallId, waiting.toolCallId);
    assert.equal(rebuilt.approval.id, waiting.approval.id);
    assert.equal(second.chat.messages.at(-1).id, first.chat.messages.at(-1).id);

    await second.chat.addToolApprovalResponse({ id: rebuilt.approval.id, approved: true });
    await until(() => textOf(second.chat.messages.at(-1)).includes("Deployed to staging."), "the rest of the turn");
    await assertSettled(second, 1);
    assert.equal(second.chat.messages.length, 2);

    // The first client's answer now comes too late: the question no longer waits.
    await first.chat.addToolApprovalResponse({ id: waiting.approval.id, approved: false });
    await until(() => first.chat.status !== "submitted" && first.chat.status !== "streaming" && first.errors.length > 0, "the refusal");
    assert.match(String(first.errors[0]?.message ?? first.errors[0]), /question_not_pending|not waiting/);
    assert.equal((await answersTo(session)).length, 1, "the stale answer never reached the agent");
  });

  test("an askUser question rebuilt by a resume is answered from there, in every version", { timeout: 60_000 }, async () => {
    for (const pkg of ALL.filter((p) => p !== "ai-v5-0-0")) {
      const session = sessionId("q-resume-ask");
      const first = await chatOf(pkg, session);
      await first.chat.sendMessage({ text: "/ask Which region?" });
      await partOf(first.chat, "tool-askUser", "input-available");
      const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
      const second = await chatOf(pkg, session, { id: first.chat.id, messages: history });
      await second.chat.resumeStream();
      const rebuilt = await partOf(second.chat, "tool-askUser", "input-available");
      await answerTool(second.chat, rebuilt, "us");
      await until(() => textOf(second.chat.messages.at(-1)).includes("You answered: us."), `${pkg}: the rest of the turn`);
      await assertSettled(second, 1);
      assert.equal(second.chat.messages.filter((m) => m.role === "assistant").length, 1, pkg);
    }
  });

  test("stop while a question waits ends the turn; the history shows the question unanswered", { timeout: 30_000 }, async () => {
    const session = sessionId("q-stop");
    const client = await chatOf("ai", session);
    await client.chat.sendMessage({ text: "/ask Which region?" });
    const part = await partOf(client.chat, "tool-askUser", "input-available");
    const stop = await fetch(`${api(session)}/stop`, { method: "POST" });
    assert.equal(stop.status, 202);
    await sleep(300);
    const history = await assertValid(session, client.chat.messages);
    const shown = toolParts(history.at(-1)).find((p) => p.type === "tool-askUser");
    assert.equal(shown.state, "output-error");
    assert.equal(shown.errorText, "Canceled");
    assert.equal(history.at(-1).metadata.stopped, true);
    // An answer after the stop is stale.
    await answerTool(client.chat, part, "eu");
    await until(() => client.errors.length > 0, "the refusal");
    assert.match(String(client.errors[0]?.message ?? client.errors[0]), /question_not_pending|not waiting/);
    assert.deepEqual(await answersTo(session), []);
  });

  test("a replayed answer is refused 409 question_not_pending, with nothing sent to the agent", { timeout: 30_000 }, async () => {
    const session = sessionId("q-replay");
    const client = await chatOf("ai-v5", session);
    await client.chat.sendMessage({ text: "/ask Which region?" });
    const part = await partOf(client.chat, "tool-askUser", "input-available");
    await answerTool(client.chat, part, "eu");
    await until(() => textOf(client.chat.messages.at(-1)).includes("You answered: eu."), "the rest of the turn");
    await assertSettled(client, 2);
    // The same body again, as a client that posts twice would.
    const body = { id: client.chat.id, trigger: "submit-message", messageId: client.chat.messages.at(-1).id, messages: client.chat.messages };
    const again = await fetch(api(session), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    assert.equal(again.status, 409);
    assert.equal((await again.json()).error.code, "question_not_pending");
    assert.equal((await answersTo(session)).length, 1);
  });
});
}
