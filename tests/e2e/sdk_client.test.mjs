// A real AI SDK client (`Chat` + `DefaultChatTransport`) against the live worker and demo agent.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, demoLog, prompts } from "./harness.mjs";
import { loadSdk } from "./chat.mjs";

let worker;
before(async () => {
  worker = await startWorker();
});
after(() => worker?.dispose());

// ai@7 (latest), ai@6, ai@5 (latest 5.x) and ai@5.0.0 (strict: rejects any unknown chunk field).
describe("AI SDK clients", { concurrency: true }, () => {
  for (const pkg of ["ai-v7", "ai", "ai-v5", "ai-v5-0-0"]) {
    test(`${pkg}: Chat ends ready with the demo turn's text and its tool output`, { timeout: 30_000 }, async () => {
      const { Chat, DefaultChatTransport } = await loadSdk(pkg);
      const session = sessionId("sdk");
      const errors = [];
      const chat = new Chat({
        transport: new DefaultChatTransport({ api: `${worker.base}/api/sessions/${session}/chat` }),
        onError: (e) => errors.push(e),
      });
      const question = "how do I stream a turn?";
      await chat.sendMessage({ text: question });

      assert.deepEqual(errors, []);
      assert.equal(chat.status, "ready");
      assert.equal(chat.error, undefined);

      // The agent got the question as the prompt.
      const [prompt] = await prompts(worker.base, session);
      assert.equal(prompt.frame.content, question);

      const sent = (await demoLog(worker.base, session, "sent")).map((e) => e.frame);
      const finalize = sent.find((f) => f.type === "message.finalize");
      const completed = sent.find((f) => f.type === "message.part.tool-update" && f.status === "completed");
      assert.equal(finalize.reason, "end_turn");

      const assistant = chat.messages.at(-1);
      assert.equal(assistant.role, "assistant");
      assert.equal(assistant.id, finalize.turnId);
      const text = assistant.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
      assert.equal(text, finalize.finalText);
      assert.ok(text.includes(question), "the demo reply quotes the question");

      const tools = assistant.parts.filter((p) => p.type === "dynamic-tool");
      assert.equal(tools.length, 1);
      assert.equal(tools[0].toolName, "search_docs");
      assert.equal(tools[0].toolCallId, completed.callId);
      assert.equal(tools[0].state, "output-available");
      assert.deepEqual(tools[0].input, completed.args);
      assert.deepEqual(tools[0].output, completed.result);
    });
  }
});
