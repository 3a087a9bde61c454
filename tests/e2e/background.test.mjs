// Background and return: a phone app that the OS suspends mid-turn loses its connection with no
// close (no FIN, no abort from the app: the socket is simply cut), and later comes back. The app's
// requests go through a TCP proxy (./tcp_proxy.mjs) that resets the connection both ways, the way
// the network drops a suspended app; the worker learns of it at its next write (a delta, or a
// keep-alive comment within 250 ms of silence). On its return the app calls `resumeStream()`
// (what `useChat({ resume: true })` does on mount), from a fresh `Chat` (same chat id, the history
// endpoint's messages: a reload, or an app the OS ended) or from the same `Chat` (an app only
// suspended, its state kept):
// - `onDisconnect: "detach"`, the turn still running (mid-text, or in a tool's silence): the
//   resume brings the whole message, with the POST stream's message id and no part twice;
// - `onDisconnect: "detach"`, the turn ended meanwhile: the resume answers 204 and the history
//   holds the finished message whole, also when the app loaded it before the turn ended (which
//   is why the app loads it again once its resume settles: docs/sessions.md, "Coming back");
// - the default policy (`abort`): exactly one `abort` reaches the agent, the turn ends canceled,
//   and the history's message says `metadata.stopped: true` (docs/sessions.md, "Trace modes and
//   message metadata").
// Through the `Chat` of ai 5, 6 and 7, against every agent (E2E_AGENTS=demo,typescript).
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startWorker, sessionId, demoLog, sleep } from "./harness.mjs";
import { assertNoDuplicatedPart, loadSdk, textOf } from "./chat.mjs";
import { tcpProxy } from "./tcp_proxy.mjs";

const AGENTS = (process.env.E2E_AGENTS ?? "demo,typescript").split(",");
const CLIENTS = ["ai-v5", "ai", "ai-v7"];
/** The chat body's policy that lets a turn outlive its client (docs/endpoint.md, step 5). */
const DETACH = { onDisconnect: "detach" };

/** Resolves to `probe()`'s first truthy value (tried every 20 ms), or fails after `ms`. */
async function poll(probe, what, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}


for (const agent of AGENTS) {
describe(`agent: ${agent}`, { concurrency: true }, () => {
  let worker;
  before(async () => {
    worker = await startWorker({ agent });
  });
  after(() => worker?.dispose());

  const frames = async (session, log) => (await demoLog(worker.base, session, log)).map((e) => e.frame);
  /** The agent's `message.finalize` of the session's turn, once it has sent it. */
  const finalized = async (session) => (await frames(session, "sent")).find((f) => f.type === "message.finalize");
  /** The text the agent sent for turn `turnId`: its deltas. */
  const turnText = async (session, turnId) =>
    (await frames(session, "sent")).filter((f) => f.type === "message.part.text-delta" && f.turnId === turnId).map((f) => f.delta).join("");
  /** The turn record of the session's POST, once its stream has ended (docs/operations.md). */
  const postRecord = (session) =>
    worker.turns.find((r) => r["gen_ai.conversation.id"] === session && r["turn.trigger"] === "submit");

  /**
   * A phone app on `session`: its requests go through a proxy of its own, so that cutting its
   * connections cuts no other test's. Returns { base, chatOf, history, cut, close }: `chatOf`
   * makes a `Chat` of `pkg` whose `errors` collects what `onError` reports and `statuses` each
   * response's status.
   */
  async function phone(session) {
    const proxy = await tcpProxy(new URL(worker.base));
    const api = `${proxy.base}/api/sessions/${session}/chat`;
    const chatOf = async (pkg, { body, id, messages } = {}) => {
      const { Chat, DefaultChatTransport } = await loadSdk(pkg);
      const errors = [];
      const statuses = [];
      const recorded = async (url, init) => {
        const response = await fetch(url, init);
        statuses.push(response.status);
        return response;
      };
      const transport = new DefaultChatTransport({ api, body, fetch: recorded });
      const chat = new Chat({ id, messages, transport, onError: (e) => errors.push(e) });
      return { chat, errors, statuses };
    };
    const history = async () => {
      const response = await fetch(`${proxy.base}/api/sessions/${session}/messages`);
      assert.equal(response.status, 200);
      return response.json();
    };
    return { chatOf, history, cut: proxy.cutAll, close: proxy.close };
  }

  /** What undici names the cause of a body that a connection reset cut short: mostly the
   * reset itself; now and then its own socket error (in 3 of some 25 runs of this file here).
   * Either is a broken connection, never an abort of the client's own (an `AbortError`). */
  const CONNECTION_BROKEN = ["ECONNRESET", "UND_ERR_SOCKET"];
  /** The first deltas have arrived: the cut comes mid-text. */
  const midText = (message) => textOf(message).includes("w3");
  /** A tool runs: the cut comes while the agent is silent, the stream carrying keep-alives only. */
  const toolRunning = (message) => message?.parts.some((p) => p.type === "dynamic-tool" && p.state === "input-available");

  /**
   * Sends `text` from a `Chat` of `pkg` (with `body`), and once `cutWhen` holds for the message it
   * streams, cuts the app's connections without a close. The `Chat` sees a network error
   * (fetch's "terminated", caused by the broken socket): its send settles with status "error"
   * and the one error reported (awaited here, so nothing is left pending). Returns the chat and the
   * message id the POST stream gave the assistant message.
   */
  async function sendThenCut(app, pkg, text, { body, cutWhen = midText } = {}) {
    const first = await app.chatOf(pkg, { body });
    const sending = first.chat.sendMessage({ text });
    await poll(() => cutWhen(first.chat.messages.at(-1)), "the moment to cut");
    const streamedId = first.chat.messages.at(-1).id;
    assert.ok(app.cut() >= 1, "a connection was cut");
    await sending;
    assert.equal(first.chat.status, "error", "the client saw its connection fail, not a clean stop");
    assert.equal(first.errors.length, 1, `one error: ${first.errors}`);
    assert.ok(CONNECTION_BROKEN.includes(first.errors[0].cause?.code), `the connection broke under the client: ${first.errors[0].cause}`);
    return { first, streamedId };
  }

  /**
   * Back in the foreground with a fresh `Chat` while the turn still runs: the history (the
   * user's message alone: the turn in flight is left out), then a resume that streams the rest.
   * Resolves to that history, the resumed message and the agent's finalize, once the turn ended.
   */
  async function resumeFresh(app, pkg, session, first) {
    const messages = await app.history();
    assert.deepEqual(messages.map((m) => m.role), ["user"]);
    assert.equal(await finalized(session), undefined, "the turn is still running when the app returns");
    const second = await app.chatOf(pkg, { id: first.chat.id, messages });
    await second.chat.resumeStream();
    assert.deepEqual(second.errors, []);
    assert.deepEqual(second.statuses, [200], "the resume streamed the turn in flight");
    assert.equal(second.chat.status, "ready");
    const finalize = await finalized(session);
    assert.equal(finalize.reason, "end_turn", "the turn ran to its end");
    assert.equal(second.chat.messages.length, 2);
    return { messages, resumed: second.chat.messages.at(-1), finalize };
  }

  for (const pkg of CLIENTS) {
    test(`${pkg}: detached, cut mid-turn; a fresh Chat resumes the turn still running as one whole message`, { timeout: 30_000 }, async () => {
      const session = sessionId("bg-running");
      const app = await phone(session);
      try {
        const { first, streamedId } = await sendThenCut(app, pkg, "/slow 40 100", { body: DETACH });
        const record = await poll(() => postRecord(session), "the POST's stream to end");
        assert.equal(record["turn.outcome"], "detached", "the worker saw the client go and left the turn running");

        const { messages, resumed, finalize } = await resumeFresh(app, pkg, session, first);
        assert.equal(resumed.role, "assistant");
        assert.equal(resumed.id, streamedId, "the resume uses the POST stream's message id");
        assert.equal(resumed.id, finalize.turnId);
        assert.equal(textOf(resumed), await turnText(session, finalize.turnId));
        assert.match(textOf(resumed), /^w1 w2 .* w40$/);
        assert.equal(resumed.parts.filter((p) => p.type === "text").length, 1);
        assertNoDuplicatedPart(resumed);
        // The history now holds the same message, and a reload would show it once.
        const after = await app.history();
        assert.deepEqual(after.map((m) => m.id), [messages[0].id, resumed.id]);
        assert.equal(textOf(after[1]), textOf(resumed));
        assert.deepEqual((await frames(session, "received")).filter((f) => f.type === "abort"), [], "detached: no abort");
      } finally {
        app.close();
      }
    });

    test(`${pkg}: detached, cut while a tool runs and the stream is silent; the resume shows the tool once, completed, then the text`, { timeout: 30_000 }, async () => {
      const session = sessionId("bg-tool");
      const app = await phone(session);
      try {
        // `/work 12 300`: a `work` tool running 6 pauses of 300 ms, then 6 deltas 300 ms apart.
        const { first, streamedId } = await sendThenCut(app, pkg, "/work 12 300", { body: DETACH, cutWhen: toolRunning });
        const record = await poll(() => postRecord(session), "the POST's stream to end");
        assert.equal(record["turn.outcome"], "detached", "a keep-alive's write told the worker the client was gone");

        const { messages, resumed, finalize } = await resumeFresh(app, pkg, session, first);
        assert.equal(resumed.id, streamedId, "the resume uses the POST stream's message id");
        const tools = resumed.parts.filter((p) => p.type === "dynamic-tool");
        assert.deepEqual(
          tools.map((t) => [t.toolName, t.state, t.input, t.output]),
          [["work", "output-available", { steps: 12 }, { steps: 12 }]],
        );
        assert.equal(textOf(resumed), await turnText(session, finalize.turnId));
        assert.equal(textOf(resumed), "w1 w2 w3 w4 w5 w6");
        assert.ok(
          resumed.parts.findIndex((p) => p.type === "dynamic-tool") < resumed.parts.findIndex((p) => p.type === "text"),
          "the tool comes before the text, as the agent sent them",
        );
        assertNoDuplicatedPart(resumed);
        const after = await app.history();
        assert.deepEqual(after.map((m) => m.id), [messages[0].id, resumed.id]);
        assert.deepEqual(after[1].parts.filter((p) => p.type === "dynamic-tool").map((t) => t.state), ["output-available"]);
        assert.deepEqual((await frames(session, "received")).filter((f) => f.type === "abort"), [], "detached: no abort");
      } finally {
        app.close();
      }
    });

    test(`${pkg}: detached, cut mid-turn; the turn ended meanwhile: the resume is a 204 and the history holds the whole message`, { timeout: 30_000 }, async () => {
      const session = sessionId("bg-ended");
      const app = await phone(session);
      try {
        const { first, streamedId } = await sendThenCut(app, pkg, "/slow 20 100", { body: DETACH });
        const record = await poll(() => postRecord(session), "the POST's stream to end");
        assert.equal(record["turn.outcome"], "detached", "the cut came mid-turn, and the worker left the turn running");
        const finalize = await poll(() => finalized(session), "the agent to finalize the turn");
        assert.equal(finalize.reason, "end_turn", "the turn ran to its end without its client");

        const messages = await app.history();
        assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]);
        const [, finished] = messages;
        assert.equal(finished.id, streamedId, "the history's message is the one the POST streamed");
        assert.equal(textOf(finished), await turnText(session, finalize.turnId));
        assert.match(textOf(finished), /^w1 w2 .* w20$/);
        assert.equal(finished.metadata.stopped, undefined);
        assertNoDuplicatedPart(finished);

        const second = await app.chatOf(pkg, { id: first.chat.id, messages });
        await second.chat.resumeStream();
        assert.deepEqual(second.errors, []);
        assert.deepEqual(second.statuses, [204], "nothing in flight to resume");
        assert.equal(second.chat.status, "ready");
        assert.deepEqual(second.chat.messages, messages, "the app shows the history's messages, unchanged");
        assert.deepEqual((await frames(session, "received")).filter((f) => f.type === "abort"), [], "detached: no abort");
      } finally {
        app.close();
      }
    });

    // The race of a return: the history is loaded while the turn runs (so without it), and the
    // turn ends before the resume asks. The resume's 204 brings nothing, so the app loads the
    // history once more after its resume settles (docs/sessions.md); it holds the whole message.
    test(`${pkg}: detached, cut mid-turn; the turn ends between the history's load and the resume: a 204, and the history loaded again holds the message`, { timeout: 30_000 }, async () => {
      const session = sessionId("bg-race");
      const app = await phone(session);
      try {
        const { first, streamedId } = await sendThenCut(app, pkg, "/slow 20 100", { body: DETACH });
        const messages = await app.history();
        assert.equal(await finalized(session), undefined, "the history was loaded while the turn ran");
        assert.deepEqual(messages.map((m) => m.role), ["user"]);
        const finalize = await poll(() => finalized(session), "the agent to finalize the turn");

        const second = await app.chatOf(pkg, { id: first.chat.id, messages });
        await second.chat.resumeStream();
        assert.deepEqual(second.statuses, [204]);
        assert.deepEqual(second.errors, []);
        assert.deepEqual(second.chat.messages.map((m) => m.role), ["user"], "a 204 brings no message");

        second.chat.messages = await app.history();
        assert.deepEqual(second.chat.messages.map((m) => m.role), ["user", "assistant"]);
        assert.equal(second.chat.messages[1].id, streamedId);
        assert.equal(textOf(second.chat.messages[1]), await turnText(session, finalize.turnId));
        assert.match(textOf(second.chat.messages[1]), /^w1 w2 .* w20$/);
      } finally {
        app.close();
      }
    });

    // The app was only suspended: its `Chat` kept its state (the cut message, status "error"), and
    // on its return to the foreground calls `resumeStream()` on that same `Chat`.
    test(`${pkg}: detached, cut mid-turn; the same Chat on return resumes the turn still running, completing the cut message in place`, { timeout: 30_000 }, async () => {
      const session = sessionId("bg-same");
      const app = await phone(session);
      try {
        const { first, streamedId } = await sendThenCut(app, pkg, "/slow 30 100", { body: DETACH });
        await poll(() => postRecord(session), "the POST's stream to end");
        assert.equal(await finalized(session), undefined, "the turn is still running when the app returns");
        const { chat, statuses } = first;
        await chat.resumeStream();

        assert.deepEqual(statuses, [200, 200], "the POST, then the resume of the turn in flight");
        assert.equal(chat.status, "ready");
        assert.equal(first.errors.length, 1, "no error but the cut's");
        const finalize = await finalized(session);
        assert.equal(chat.messages.length, 2);
        const resumed = chat.messages.at(-1);
        assert.equal(resumed.id, streamedId);
        assert.equal(textOf(resumed), await turnText(session, finalize.turnId));
        assert.match(textOf(resumed), /^w1 w2 .* w30$/);
        assert.equal(resumed.parts.filter((p) => p.type === "text").length, 1, "the replay replaced the cut text");
        assertNoDuplicatedPart(resumed);
      } finally {
        app.close();
      }
    });

    // The same `Chat` after the turn ended: the resume's 204 leaves the cut message as it was, so
    // the app loads the history again (docs/sessions.md); it holds the whole message.
    test(`${pkg}: detached, cut mid-turn; the same Chat on return after the turn ended gets a 204, and the history loaded again completes the message`, { timeout: 30_000 }, async () => {
      const session = sessionId("bg-same-ended");
      const app = await phone(session);
      try {
        const { first, streamedId } = await sendThenCut(app, pkg, "/slow 20 100", { body: DETACH });
        const finalize = await poll(() => finalized(session), "the agent to finalize the turn");
        const { chat, statuses } = first;
        await chat.resumeStream();
        assert.deepEqual(statuses, [200, 204]);
        assert.equal(chat.status, "ready");
        assert.equal(chat.messages.at(-1).id, streamedId);
        assert.match(textOf(chat.messages.at(-1)), /^w1 w2 w3/);
        assert.doesNotMatch(textOf(chat.messages.at(-1)), / w20$/, "the cut message stays cut: a 204 brings nothing");

        chat.messages = await app.history();
        assert.deepEqual(chat.messages.map((m) => m.role), ["user", "assistant"]);
        assert.equal(chat.messages[1].id, streamedId);
        assert.equal(textOf(chat.messages.at(-1)), await turnText(session, finalize.turnId));
        assert.match(textOf(chat.messages.at(-1)), /^w1 w2 .* w20$/);
      } finally {
        app.close();
      }
    });

    test(`${pkg}: abort (the default), cut mid-turn: exactly one abort, the turn canceled, the history says stopped`, { timeout: 30_000 }, async () => {
      const session = sessionId("bg-abort");
      const app = await phone(session);
      try {
        const { first, streamedId } = await sendThenCut(app, pkg, "/slow 100 100");
        const record = await poll(() => postRecord(session), "the POST's stream to end");
        assert.equal(record["turn.outcome"], "aborted", "the worker saw the client go and aborted the turn");
        const finalize = await poll(() => finalized(session), "the agent to finalize the turn");
        assert.equal(finalize.reason, "canceled");

        const received = await frames(session, "received");
        const prompt = received.find((f) => f.type === "prompt");
        assert.equal(prompt.onDisconnect, "abort");
        assert.deepEqual(received.filter((f) => f.type === "abort"), [{ type: "abort", requestId: prompt.requestId }], "exactly one abort, of this turn");

        const messages = await app.history();
        assert.deepEqual(messages.map((m) => m.role), ["user", "assistant"]);
        const [, stopped] = messages;
        assert.equal(stopped.id, streamedId);
        assert.equal(stopped.metadata.stopped, true, "the history says the turn was stopped");
        const text = textOf(stopped);
        assert.equal(text, await turnText(session, finalize.turnId), "the history keeps what the turn said before it stopped");
        assert.match(text, /^w1 w2 w3/);
        assert.ok(!text.includes("w100"), "the turn stopped early");

        // On return there is nothing to resume.
        const second = await app.chatOf(pkg, { id: first.chat.id, messages });
        await second.chat.resumeStream();
        assert.deepEqual(second.statuses, [204]);
        assert.deepEqual(second.errors, []);
        assert.equal(second.chat.status, "ready");
      } finally {
        app.close();
      }
    });
  }
});
}
