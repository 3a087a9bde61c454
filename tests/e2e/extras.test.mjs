// Protocol 6 end to end: a turn's data parts, sources and metadata (the demo agent's `/extras`, and
// the reference TypeScript agent's, sent by the SessionAgent library's `emit.data`, `emit.source`
// and `emit.metadata`) read by a stock `Chat` of ai 7, 6, 5 and 5.0.0: the transient part in
// `onData` only, the data part replaced by its id, both sources, the agent's metadata merged beside
// the adapter's; the same message in the history after a reload, and in a `Chat` opened on it;
// and (the demo agent's turn, slow enough) a reload mid-turn whose resume replays them. A garbled
// one of each kind (a `/replay`) is skipped with one log line each, and the stream goes on.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, demoLog, until } from "./harness.mjs";
import { loadSdk } from "./chat.mjs";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");
const PACKAGES = ["ai-v7", "ai", "ai-v5", "ai-v5-0-0"];

/** What the turn shows, after its `step-start`: the parts a client keeps (no transient one). */
const PARTS = [
  { type: "text", text: "Looking it up. " },
  { type: "data-weather", id: "w1", data: { city: "Paris", temperature: 18 } },
  { type: "source-url", sourceId: "s1", url: "https://example.com/paris", title: "Paris" },
  { type: "source-document", sourceId: "s2", mediaType: "application/pdf", title: "Climate", filename: "climate.pdf" },
  { type: "text", text: "It is 18 degrees." },
];

/** A message's parts reduced to what PARTS says (no state, provider fields or step-start). */
const kept = (message) =>
  message.parts
    .filter((p) => p.type !== "step-start")
    .map((p) => {
      const { type, text, id, data, sourceId, url, title, mediaType, filename } = p;
      return JSON.parse(JSON.stringify({ type, text, id, data, sourceId, url, title, mediaType, filename }));
    });

for (const agent of AGENTS) {
  describe(`protocol 6's parts, agent: ${agent}`, { concurrency: true }, () => {
    let worker;
    before(async () => {
      worker = await startWorker({ agent });
    });
    after(() => worker?.dispose());

    for (const pkg of PACKAGES) {
      test(`${pkg}: a stock Chat shows the data part, the sources and the metadata; the history after a reload holds them`, { timeout: 60_000 }, async () => {
        const { Chat, DefaultChatTransport } = await loadSdk(pkg);
        const session = sessionId("extras");
        const api = `${worker.base}/api/sessions/${session}/chat`;
        const errors = [];
        const data = [];
        const chat = new Chat({ transport: new DefaultChatTransport({ api }), onError: (e) => errors.push(e), onData: (part) => data.push(structuredClone(part)) });
        await chat.sendMessage({ text: "/extras" });
        assert.deepEqual(errors, []);
        assert.equal(chat.status, "ready");

        // The agent sent the frames of protocol 6 (the library's emitter, for the TypeScript agent).
        const sent = (await demoLog(worker.base, session, "sent")).map((e) => e.frame);
        const types = sent.filter((f) => f.type.startsWith("message.part.") && f.type !== "message.part.text-delta" || f.type === "message.metadata").map((f) => f.type);
        assert.deepEqual(types, ["message.part.data", "message.part.data", "message.metadata", "message.part.data", "message.part.source", "message.part.source", "message.metadata"]);

        const live = chat.messages.at(-1);
        assert.equal(live.role, "assistant");
        assert.deepEqual(kept(live), PARTS);
        assert.deepEqual(live.metadata.app, { lang: "en", tone: "brief" }, "the agent's metadata, merged");
        assert.equal(live.metadata.turnId, live.id, "the adapter's own metadata beside it");
        assert.equal(typeof live.metadata.durationMs, "number");
        assert.equal(live.metadata.toolCalls, 0);
        assert.equal(typeof live.metadata.usage?.outputTokens, "number", "the finalize's usage, from the adapter");
        // onData (beside the adapter's own data-status): the transient part, then each persistent
        // one as it came (copied: the client keeps
        // the first chunk as the part the second then changes).
        assert.deepEqual(
          data.filter((d) => d.type !== "data-status").map(({ type, id, data, transient }) => JSON.parse(JSON.stringify({ type, id, data, transient }))),
          [
            { type: "data-progress", data: { step: 1, of: 2 }, transient: true },
            { type: "data-weather", id: "w1", data: { city: "Paris", temperature: null } },
            { type: "data-weather", id: "w1", data: { city: "Paris", temperature: 18 } },
          ],
        );

        // A reload: the history shows the same message, and a Chat opened on it holds it.
        const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
        const stored = history.at(-1);
        assert.equal(stored.id, live.id);
        assert.deepEqual(kept(stored), PARTS);
        assert.deepEqual(stored.metadata.app, live.metadata.app);
        assert.deepEqual(stored.metadata.usage, live.metadata.usage);
        const { validateUIMessages } = await import(pkg);
        if (validateUIMessages) await validateUIMessages({ messages: history });
        const reloaded = new Chat({ id: chat.id, messages: history, transport: new DefaultChatTransport({ api }) });
        assert.deepEqual(kept(reloaded.messages.at(-1)), PARTS);
      });

      if (agent !== "demo") continue; // the reference agent's turn is over before a reload could come
      test(`${pkg}: a garbled data part, source and metadata are skipped, one log line each; the Chat shows the rest`, { timeout: 60_000 }, async () => {
        const { Chat, DefaultChatTransport } = await loadSdk(pkg);
        const session = sessionId("extras-garbled");
        const turnId = `t-${session}`;
        const frames = [
          { type: "message.create", turnId },
          { type: "message.part.text-delta", turnId, delta: "Hi" },
          { type: "message.part.data", turnId, name: "status", data: 1 },
          { type: "message.part.data", turnId, name: "ok", id: "i1", data: { n: 1 } },
          { type: "message.part.source", turnId, sourceId: "s1", url: "javascript:alert(1)" },
          { type: "message.metadata", turnId, metadata: { usage: { inputTokens: 1 } } },
          { type: "message.part.text-delta", turnId, delta: " there" },
          { type: "message.finalize", turnId, reason: "end_turn" },
        ];
        const text = `/replay\n${frames.map((f) => JSON.stringify(f)).join("\n")}`;
        const errors = [];
        let requestId;
        const fetchId = async (input, init) => {
          const response = await fetch(input, init);
          requestId = response.headers.get("x-request-id");
          return response;
        };
        const api = `${worker.base}/api/sessions/${session}/chat`;
        const chat = new Chat({ transport: new DefaultChatTransport({ api, fetch: fetchId }), onError: (e) => errors.push(e) });
        await chat.sendMessage({ text });
        assert.deepEqual(errors, []);
        assert.equal(chat.status, "ready");
        assert.deepEqual(kept(chat.messages.at(-1)), [
          { type: "text", text: "Hi" },
          { type: "data-ok", id: "i1", data: { n: 1 } },
          { type: "text", text: " there" },
        ]);
        await until(() => worker.logs.some((l) => l.requestId === requestId), "the request's line");
        const skipped = worker.diagnostics.filter((d) => d.request === requestId && d.event === "frame_skipped");
        assert.equal(skipped.length, 3, JSON.stringify(skipped));
        assert.deepEqual(skipped.map((d) => /adapter writes|http\(s\) URL/.test(d.detail)), [true, true, true], JSON.stringify(skipped));
      });

      test(`${pkg}: a reload mid-turn resumes the data part, the sources and the metadata as they streamed`, { timeout: 60_000 }, async () => {
        const { Chat, DefaultChatTransport } = await loadSdk(pkg);
        const session = sessionId("extras-resume");
        const api = `${worker.base}/api/sessions/${session}/chat`;
        const first = new Chat({ transport: new DefaultChatTransport({ api, body: { onDisconnect: "detach" } }) });
        const sending = first.sendMessage({ text: "/extras" });
        // After the sources: the data part's last data is the replay's alone to show (the demo
        // agent waits 1.5 s before its last text).
        await until(() => first.messages.at(-1)?.parts.some((p) => p.type === "source-document"), "the sources");
        await first.stop();
        await sending;
        const history = await (await fetch(`${worker.base}/api/sessions/${session}/messages`)).json();
        assert.deepEqual(history.map((m) => m.role), ["user"], "the turn in flight is the resume's");
        const errors = [];
        const second = new Chat({ id: first.id, messages: history, transport: new DefaultChatTransport({ api }), onError: (e) => errors.push(e) });
        await second.resumeStream();
        assert.deepEqual(errors, []);
        const resumed = second.messages.at(-1);
        assert.equal(resumed.role, "assistant");
        assert.deepEqual(kept(resumed), PARTS);
        assert.deepEqual(resumed.metadata.app, { lang: "en", tone: "brief" });
      });
    }
  });
}
