// The session scenarios, run against every agent behind the real adapter: the embedded Rust demo
// agent, and the reference TypeScript agent (agents/typescript) in a worker of its own, bound by
// `scriptName` as in production. One file, parameterised by agent (E2E_AGENTS=demo,typescript):
// real AI SDK clients (ai 5.0.0, 5, 6, 7) on a turn with tools and a seed-003 tool error; a
// detached client dropped mid-turn and a fresh `Chat` (as after a reload) resuming it from the
// history endpoint's messages; an idle resume (204); stop from a second client; a client that
// goes away (exactly one `abort`); `/ask` answered through `sendMessage` with a `data-answer`
// part (`X-Questions: data`; the AI SDK's own tool parts: questions.test.mjs); `busy`; history that every AI SDK validates; the page's `context` reaching the reference
// agent's model; the agent's Durable Object restarting between two turns (persisted storage, a
// fresh instance, new sockets).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWorker, sessionId, chatBody, postChat, demoLog, readAll, chunksOf, sleep } from "./harness.mjs";
import { assertNoDuplicatedPart, stockChat, textOf } from "./chat.mjs";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");

/** Resolves once `predicate(chat)` holds (checked every 20 ms), or fails after `ms`. */
async function until(chat, predicate, what, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!predicate(chat)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}


for (const agent of AGENTS) {
describe(`agent: ${agent}`, () => {
let worker;
before(async () => {
  worker = await startWorker({ agent });
});
after(() => worker?.dispose());

const api = (session) => `${worker.base}/api/sessions/${session}/chat`;

/** A `Chat` of `pkg` on `session`; `errors` collects what `onError` reports. */
async function chatOf(pkg, session, { body, id, messages, headers } = {}) {
  const { chat, errors } = await stockChat(pkg, api(session), { body, id, messages, headers });
  return { chat, errors };
}

const received = async (session) => (await demoLog(worker.base, session, "received")).map((e) => e.frame);
const sent = async (session) => (await demoLog(worker.base, session, "sent")).map((e) => e.frame);
const history = async (session) => {
  const response = await fetch(`${worker.base}/api/sessions/${session}/messages`);
  assert.equal(response.status, 200);
  return response.json();
};
/** The text the agent sent for turn `turnId`: its deltas (the demo also puts it in `finalText`). */
const turnText = async (session, turnId) =>
  (await sent(session)).filter((f) => f.type === "message.part.text-delta" && f.turnId === turnId).map((f) => f.delta).join("");

// ai 5.0.0–5.0.1 hang on a 204 resume, so the idle resume runs on the later releases only.
const CLIENTS = ["ai-v7", "ai", "ai-v5", "ai-v5-0-0"];
const RESUMING_204 = ["ai-v7", "ai", "ai-v5"];

describe("sessions through real AI SDK clients", { concurrency: true }, () => {
  for (const pkg of CLIENTS) {
    test(`${pkg}: a detached client dropped mid-turn; a fresh Chat resumes the whole message`, { timeout: 30_000 }, async () => {
      const session = sessionId("resume");
      const first = await chatOf(pkg, session, { body: { onDisconnect: "detach" } });
      const sending = first.chat.sendMessage({ text: "/slow 20 100" });
      await until(first.chat, (c) => textOf(c.messages.at(-1)).includes("w3"), "the first deltas");
      await first.chat.stop();
      await sending;
      const streamedId = first.chat.messages.at(-1).id;

      // As after a reload: the history (without the turn in flight), then resume.
      const messages = await history(session);
      assert.deepEqual(messages.map((m) => m.role), ["user"]);
      assert.equal(textOf(messages[0]), "/slow 20 100");
      const second = await chatOf(pkg, session, { id: first.chat.id, messages });
      await second.chat.resumeStream();

      assert.deepEqual(second.errors, []);
      assert.equal(second.chat.status, "ready");
      const finalize = (await sent(session)).find((f) => f.type === "message.finalize");
      assert.equal(finalize.reason, "end_turn", "the turn ran to its end");
      const resumed = second.chat.messages.at(-1);
      assert.equal(second.chat.messages.length, 2);
      assert.equal(resumed.role, "assistant");
      assert.equal(resumed.id, finalize.turnId);
      assert.equal(resumed.id, streamedId, "the resume uses the POST stream's message id");
      assert.equal(textOf(resumed), await turnText(session, finalize.turnId));
      assert.match(textOf(resumed), /^w1 w2 .* w20$/);
      assert.equal(resumed.parts.filter((p) => p.type === "text").length, 1);
      assertNoDuplicatedPart(resumed);
      assert.deepEqual((await received(session)).filter((f) => f.type === "abort"), [], "detached: no abort");
    });

    test(`${pkg}: a message with an https: and a base64 data: file part is answered, its files the prompt's attachments (the data: URL's file kept, sent as its URL)`, { timeout: 30_000 }, async () => {
      const session = sessionId("files");
      const { chat, errors } = await chatOf(pkg, session);
      const png = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
      const files = [
        { type: "file", mediaType: "image/png", url: "https://files.example/a.png" },
        { type: "file", mediaType: "image/png", url: png, filename: "dot.png" },
      ];
      await chat.sendMessage({ text: "/slow 1 1", files });
      assert.deepEqual(errors, []);
      assert.equal(chat.status, "ready");
      assert.equal(chat.messages.at(-1).role, "assistant");
      if (agent === "demo") {
        const prompt = (await received(session)).find((f) => f.type === "prompt");
        const [https, kept] = prompt.attachments;
        assert.equal(https.url, files[0].url);
        assert.match(kept.url, new RegExp(`^${worker.base}/api/sessions/${session}/files/[0-9a-f]{32}\\?exp=\\d+&sig=[0-9a-f]{64}$`));
        assert.equal(kept.filename, "dot.png");
        const served = Buffer.from(await (await fetch(kept.url)).arrayBuffer());
        assert.deepEqual(served, Buffer.from(png.split(",")[1], "base64"));
      }
    });

    test(`${pkg}: stop from a second client ends the first client's stream with abort; one abort reaches the agent`, { timeout: 30_000 }, async () => {
      const session = sessionId("stop");
      const first = await chatOf(pkg, session);
      const sending = first.chat.sendMessage({ text: "/slow 100 100" });
      await until(first.chat, (c) => textOf(c.messages.at(-1)).includes("w2"), "the first deltas");

      const stop = await fetch(`${api(session)}/stop`, { method: "POST" });
      assert.equal(stop.status, 202);
      assert.deepEqual(await stop.json(), { stopped: true });
      await sending;
      assert.equal(first.chat.status, "ready");
      assert.deepEqual(first.errors, []);
      assert.ok(!textOf(first.chat.messages.at(-1)).includes("w100"), "the turn stopped early");

      await sleep(300);
      const aborts = (await received(session)).filter((f) => f.type === "abort");
      assert.deepEqual(aborts, [{ type: "abort" }], "exactly one abort, of the turn in flight");
      const finalizes = (await sent(session)).filter((f) => f.type === "message.finalize");
      assert.deepEqual(finalizes.map((f) => f.reason), ["canceled"]);

      const again = await fetch(`${api(session)}/stop`, { method: "POST" });
      assert.equal(again.status, 200);
      assert.deepEqual(await again.json(), { stopped: false });
    });

    test(`${pkg}: X-Questions: data: /ask shows a data-question, and sendMessage with a data-answer part continues the turn`, { timeout: 30_000 }, async () => {
      const session = sessionId("ask");
      const { chat, errors } = await chatOf(pkg, session, { headers: { "X-Questions": "data" } });
      await chat.sendMessage({ text: "/ask Deploy now?" });
      assert.equal(chat.status, "ready", "the stream ends at the question");
      const asking = chat.messages.at(-1);
      const question = asking.parts.find((p) => p.type === "data-question");
      assert.deepEqual(question.data.options, ["yes", "no"]);
      assert.equal(question.data.text, "Deploy now?");

      await chat.sendMessage({
        parts: [
          { type: "text", text: "yes" },
          { type: "data-answer", data: { questionId: question.data.questionId, answer: "yes" } },
        ],
      });
      assert.deepEqual(errors, []);
      assert.equal(chat.status, "ready");
      const answered = chat.messages.at(-1);
      assert.equal(answered.role, "assistant");
      assert.notEqual(answered.id, asking.id, "the rest of the turn is a new message");
      assert.equal(textOf(answered), "You answered: yes.");
      const answers = (await received(session)).filter((f) => f.type === "answer");
      assert.deepEqual(answers, [{ type: "answer", questionId: question.data.questionId, answer: "yes", onDisconnect: "abort" }]);
      assert.equal((await received(session)).filter((f) => f.type === "prompt").length, 1, "the answer is no new prompt");
    });

    test(`${pkg}: a turn with tools, one of them failing as the contract's completed-with-failure shape reports it`, { timeout: 30_000 }, async () => {
      const session = sessionId("tools");
      const { chat, errors } = await chatOf(pkg, session);
      await chat.sendMessage({ text: "find the streaming docs" });
      const found = chat.messages.at(-1);
      const search = found.parts.find((p) => p.type === "dynamic-tool");
      assert.equal(search.toolName, "search_docs");
      assert.equal(search.state, "output-available");
      assert.ok(textOf(found).length > 0, "a reply follows the tool");

      await chat.sendMessage({ text: "/tool-error" });
      assert.deepEqual(errors, []);
      assert.equal(chat.status, "ready");
      const failed = chat.messages.at(-1).parts.find((p) => p.type === "dynamic-tool");
      assert.equal(failed.toolName, "read_file");
      assert.equal(failed.state, "output-error");
      assert.equal(failed.errorText, "no such file");
      assert.equal(textOf(chat.messages.at(-1)), "The file is missing.");
    });

    test(`${pkg}: a client that goes away mid-turn: exactly one abort with its requestId, the turn canceled`, { timeout: 30_000 }, async () => {
      const session = sessionId("gone");
      const { chat } = await chatOf(pkg, session);
      const sending = chat.sendMessage({ text: "/slow 100 100" });
      await until(chat, (c) => textOf(c.messages.at(-1)).includes("w2"), "the first deltas");
      await chat.stop();
      await sending;
      let frames = [];
      const deadline = Date.now() + 3000;
      while (Date.now() < deadline) {
        frames = await received(session);
        if (frames.some((f) => f.type === "abort")) break;
        await sleep(50);
      }
      await sleep(300);
      frames = await received(session);
      const prompt = frames.find((f) => f.type === "prompt");
      assert.deepEqual(frames.filter((f) => f.type === "abort"), [{ type: "abort", requestId: prompt.requestId }]);
      const finalizes = (await sent(session)).filter((f) => f.type === "message.finalize");
      assert.deepEqual(finalizes.map((f) => f.reason), ["canceled"]);
    });
  }

  for (const pkg of RESUMING_204) {
    test(`${pkg}: resume with nothing in flight is a 204 and the client stays ready`, { timeout: 30_000 }, async () => {
      const session = sessionId("idle");
      const { chat, errors } = await chatOf(pkg, session);
      await chat.resumeStream();
      assert.deepEqual(errors, []);
      assert.equal(chat.status, "ready");
      assert.deepEqual(chat.messages, []);
    });
  }
});

describe("session routes over HTTP", { concurrency: true }, () => {
  test("a resume replays from start with the POST's message id, then goes live to [DONE]", { timeout: 30_000 }, async () => {
    const session = sessionId("replay");
    const post = await postChat(worker.base, session, chatBody("/slow 15 100"));
    const reader = post.body.getReader();
    let seen = "";
    while (!seen.includes("w3")) seen += new TextDecoder().decode((await reader.read()).value);

    const resume = await fetch(`${api(session)}/any-chat-id/stream`);
    assert.equal(resume.status, 200);
    assert.equal(resume.headers.get("x-vercel-ai-ui-message-stream"), "v1");
    const { text } = await readAll(resume);
    const chunks = chunksOf(text);
    assert.deepEqual(chunks.slice(0, 3).map((c) => c.type), ["start", "start-step", "text-start"]);
    assert.equal(chunks[0].messageId, JSON.parse(seen.match(/data: (\{"type":"start".*?\})\n/)[1]).messageId);
    const replayed = chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join("");
    const finalize = (await sent(session)).find((f) => f.type === "message.finalize");
    assert.equal(replayed, await turnText(session, finalize.turnId));
    assert.match(replayed, /^w1 w2 .* w15$/);
    assert.deepEqual(chunks.slice(-2).map((c) => c.type), ["finish-step", "finish"]);
    assert.ok(text.endsWith("data: [DONE]\n\n"));
    await reader.cancel();
  });

  // The reference agent hands the chat body's `context` to its model; the demo agent only logs it
  // (crates/core/src/request_context_tests.rs, widget_api's setContext test).
  if (agent === "typescript") {
    test("the page's context reaches the reference agent's model; a turn without one has none", { timeout: 30_000 }, async () => {
      const session = sessionId("context");
      const context = { page: "/shop/boots-42", cart: { items: 2 } };
      const texts = [];
      for (const extra of [{ context }, {}]) {
        const { text } = await readAll(await postChat(worker.base, session, chatBody("/context", extra)));
        texts.push(chunksOf(text).filter((c) => c.type === "text-delta").map((c) => c.delta).join(""));
      }
      assert.deepEqual(texts, [`Context: ${JSON.stringify(context)}`, "No context."]);
    });
  }

  test("closing a resume never aborts the turn", { timeout: 30_000 }, async () => {
    const session = sessionId("watch");
    const post = postChat(worker.base, session, chatBody("/slow 10 100"));
    await sleep(300);
    const controller = new AbortController();
    const resume = await fetch(`${api(session)}/c/stream`, { signal: controller.signal });
    assert.equal(resume.status, 200);
    await resume.body.getReader().read();
    controller.abort();
    const { text } = await readAll(await post);
    assert.match(text, /"type":"finish"/);
    assert.deepEqual((await received(session)).filter((f) => f.type === "abort"), []);
  });

  test("a resume while a question waits replays up to it, as the part its X-Questions asks for, and ends", { timeout: 30_000 }, async () => {
    const session = sessionId("paused");
    await readAll(await postChat(worker.base, session, chatBody("/ask Continue?")));
    const resume = async (headers) => readAll(await fetch(`${api(session)}/c/stream`, { headers }));
    const { text } = await resume({});
    const chunks = chunksOf(text);
    assert.deepEqual(chunks.slice(-4).map((c) => c.type), ["tool-input-start", "tool-input-available", "finish-step", "finish"]);
    assert.equal(chunks.at(-3).toolName, "askUser");
    assert.ok(text.endsWith("data: [DONE]\n\n"));
    const data = chunksOf((await resume({ "X-Questions": "data" })).text);
    assert.deepEqual(data.slice(-3).map((c) => c.type), ["data-question", "finish-step", "finish"]);
    // A resume never fails on a header it does not know: the setting applies.
    const unknown = chunksOf((await resume({ "X-Questions": "sometimes" })).text);
    assert.equal(unknown.at(-3).toolName, "askUser");
  });

  test("a POST whose X-Questions names no kind of part is a 400 invalid_field", { timeout: 30_000 }, async () => {
    const response = await postChat(worker.base, sessionId("bad-questions"), chatBody("hello"), { headers: { "content-type": "application/json", "X-Questions": "approval" } });
    assert.equal(response.status, 400);
    const { error } = await response.json();
    assert.equal(error.code, "invalid_field");
    // The header is what is wrong, and the message says so (not "the request body is malformed").
    assert.equal(error.message, 'The X-Questions header must be "tools", "approvals" or "data".');
  });

  test("an answer to no pending question is a 409; a prompt while busy is an in-band error", { timeout: 30_000 }, async () => {
    const session = sessionId("refuse");
    const answer = (questionId) =>
      JSON.stringify({
        id: "c",
        messages: [{ id: "u", role: "user", parts: [{ type: "data-answer", data: { questionId, answer: "yes" } }] }],
      });
    const idle = await postChat(worker.base, session, answer("q-none"));
    assert.equal(idle.status, 409);
    assert.equal((await idle.json()).error.code, "question_not_pending");

    const running = postChat(worker.base, session, chatBody("/slow 10 100"));
    await sleep(300);
    const busy = await postChat(worker.base, session, chatBody("hello"));
    assert.equal(busy.status, 200);
    const chunks = chunksOf((await readAll(busy)).text);
    assert.deepEqual(chunks.map((c) => c.type), ["error", "finish"]);
    assert.match(chunks[0].errorText, /busy/);
    await readAll(await running);
  });

  test("history: user and assistant messages every AI SDK validates, in every trace mode; the turn in flight left out", { timeout: 30_000 }, async () => {
    const session = sessionId("history");
    const before = Date.now();
    await readAll(await postChat(worker.base, session, chatBody("find the streaming docs")));
    const took = Date.now() - before;
    await readAll(await postChat(worker.base, session, chatBody("/ask Ship it?")));
    const messages = await history(session);
    assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "user"]);
    const tool = messages[1].parts.find((p) => p.type === "dynamic-tool");
    assert.equal(tool.state, "output-available");
    assert.equal(tool.toolName, "search_docs");
    // The agent's times of the turn: how long it worked, as the live stream's finish said it.
    const { metadata } = messages[1];
    assert.equal(metadata.turnId, messages[1].id);
    assert.equal(typeof metadata.createdAt, "number");
    assert.ok(metadata.durationMs >= 0 && metadata.durationMs <= took, `${metadata.durationMs} ms, of a turn the client saw take ${took} ms`);
    assert.deepEqual([metadata.toolCalls, metadata.toolErrors, metadata.stopped], [1, 0, undefined]);
    for (const trace of ["full", "normal", "minimal"]) {
      const shown = await (await fetch(`${worker.base}/api/sessions/${session}/messages?trace=${trace}`)).json();
      for (const pkg of ["ai-v5", "ai", "ai-v7"]) {
        const { validateUIMessages } = await import(pkg);
        await validateUIMessages({ messages: shown });
      }
    }
  });
});

test("the agent's Durable Object restarting between two turns: history kept, a fresh instance, new sockets", { timeout: 60_000 }, async () => {
  const persist = mkdtempSync(path.join(os.tmpdir(), "sessions-restart-"));
  let own = await startWorker({ agent, persist });
  try {
    const session = sessionId("restart");
    const first = await readAll(await postChat(own.base, session, chatBody("find the streaming docs")));
    assert.match(first.text, /"type":"finish"/);
    await own.restart();
    const again = await postChat(own.base, session, chatBody("/slow 3 10"));
    assert.equal(again.status, 200);
    const chunks = chunksOf((await readAll(again)).text);
    assert.equal(chunks.at(-1).type, "finish", "the second turn ran on the fresh instance");
    assert.equal(chunks.filter((c) => c.type === "text-delta").map((c) => c.delta).join(""), "w1 w2 w3");
    const messages = await (await fetch(`${own.base}/api/sessions/${session}/messages`)).json();
    assert.deepEqual(messages.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
    assert.equal(textOf(messages[0]), "find the streaming docs");
    assert.equal(messages[1].parts.find((p) => p.type === "dynamic-tool")?.toolName, "search_docs");
    const idle = await fetch(`${own.base}/api/sessions/${session}/chat/c/stream`);
    assert.equal(idle.status, 204, "nothing in flight after the restart");
  } finally {
    await own.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
});
});
}
