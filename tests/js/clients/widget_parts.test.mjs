// The widget's pure pieces, in Node: sends that wait their turn (control.js), the trace modes a
// cap allows (trace.js), the context the worker would refuse (instance.js), the line under a
// stopped answer (summary.js), a sentence for the visitor from a worker's error (api.js), what
// `logout` forgets of localStorage (storage.js), and the agent's questions as tool parts: which
// waits, the chat call that answers it, a stop while it waits, the page's `message` event
// (questions.js); a file's size and an upload's refusal in words, and the images shown inline
// (attachments.js); the Conversations view's list: a live event in its place, a refusal in words
// (conversation-list.js), and how long ago (ago.js).
import { describe, test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { fakeLocalStorage } from "./fake_storage.mjs";
import { readFileSync } from "node:fs";
import { createControl } from "../../../widget/src/control.js";
import { formatSize, isInlineImage, uploadErrorText } from "../../../widget/src/attachments.js";
import { UploadError } from "../../../clients/upload-files.js";
import { capped, modesUpTo } from "../../../widget/src/trace.js";
import { contextProblem, MAX_CONTEXT_BYTES } from "../../../widget/src/instance.js";
import { workSummary } from "../../../widget/src/summary.js";
import { describeError } from "../../../widget/src/api.js";
import { forgetStored } from "../../../widget/src/storage.js";
import { resolveLocale } from "../../../widget/src/locale.js";
import { applied, LIST_SENTENCES } from "../../../widget/src/conversation-list.js";
import { ago } from "../../../widget/src/ago.js";
import { ConversationsError } from "../../../clients/conversations.js";
import { answerCall, answerToPost, canceled, messageEvent, questionOf, sendAutomaticallyWhen, waitingQuestion } from "../../../widget/src/questions.js";

const strings = resolveLocale("en");
const t = strings.messages;

describe("sends wait their turn", () => {
  /** A conversation whose turns end when the test says: `ends[i]()` ends the i-th send's turn. */
  function conversation() {
    const sent = [];
    const ends = [];
    const send = (text) => {
      sent.push(text);
      return new Promise((resolve) => ends.push(resolve));
    };
    return { sent, ends, send };
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  test("three sends in one tick go one at a time, each once the turn before it ended, in order", async () => {
    const control = createControl(() => {}, false, undefined, strings);
    const chat = conversation();
    control.attachSender(chat.send);
    control.send("first");
    control.send("second");
    control.send("third");
    await tick();
    assert.deepEqual(chat.sent, ["first"], "the second waits for the first turn's end");
    chat.ends[0]();
    await tick();
    assert.deepEqual(chat.sent, ["first", "second"]);
    chat.ends[1]();
    await tick();
    chat.ends[2]();
    await tick();
    assert.deepEqual(chat.sent, ["first", "second", "third"]);
  });

  test("sends made before the conversation is ready, or while it is busy, go when it is idle", async () => {
    const control = createControl(() => {}, false, undefined, strings);
    const chat = conversation();
    control.send("early");
    await tick();
    const detach = control.attachSender(chat.send);
    await tick();
    assert.deepEqual(chat.sent, ["early"]);
    detach(); // busy with a turn of the visitor's own
    chat.ends[0]();
    control.send("later");
    await tick();
    assert.deepEqual(chat.sent, ["early"], "not while busy");
    control.attachSender(chat.send);
    await tick();
    assert.deepEqual(chat.sent, ["early", "later"]);
  });

  test("a turn that fails does not hold up the next", async () => {
    const control = createControl(() => {}, false, undefined, strings);
    const sent = [];
    control.attachSender((text) => {
      sent.push(text);
      return Promise.reject(new Error("refused"));
    });
    control.send("a");
    control.send("b");
    await tick();
    await tick();
    assert.deepEqual(sent, ["a", "b"]);
  });

  test("the unread count: only while closed, told to the page and to subscribers, 0 again on open", () => {
    const events = [];
    const control = createControl((name, detail) => events.push([name, detail]), false, undefined, strings);
    let notified = 0;
    control.subscribe(() => (notified += 1));
    control.messageFinished();
    control.messageFinished();
    assert.equal(control.unread(), 2);
    assert.equal(notified, 2, "the launcher redraws its badge");
    control.setOpen(true);
    assert.equal(control.unread(), 0);
    control.messageFinished();
    assert.equal(control.unread(), 0, "read as it arrives");
    assert.deepEqual(events.filter(([n]) => n === "unread"), [["unread", { count: 1 }], ["unread", { count: 2 }], ["unread", { count: 0 }]]);
  });
});

describe("the control store's session and view (the Conversations view, the page's calls)", () => {
  /** The config's part the store uses (config.js), recording what it keeps. */
  const sessions = (kept) => ({ session: "s-1", conversations: true, newSession: () => "web-new", keepSession: (id) => kept.push(id) });

  test("a session opened is shown and kept, a new one only shown; the page hears each move once", () => {
    const events = [];
    const kept = [];
    const control = createControl((name, detail) => events.push([name, detail]), false, undefined, strings, sessions(kept));
    assert.deepEqual([control.session(), control.view()], ["s-1", "chat"]);
    control.setView("conversations");
    assert.equal(control.view(), "conversations");
    assert.equal(control.openSession("s-2"), "s-2");
    assert.deepEqual([control.session(), control.view()], ["s-2", "chat"], "back to the chat, on it");
    control.openSession("s-2");
    const fresh = control.openSession(null);
    assert.equal(fresh, "web-new");
    assert.deepEqual(kept, ["s-2", "s-2"], "a new session is kept once the visitor writes, not now");
    assert.deepEqual(events, [["conversation", { session: "s-2" }], ["conversation", { session: "web-new" }]]);
    // A delete of the open one, from the view: a new session, the view stays.
    control.setView("conversations");
    control.openSession(null, true);
    assert.equal(control.view(), "conversations");
  });

  test("without the view (conversations: false), it never shows", () => {
    const control = createControl(() => {}, false, undefined, strings, { ...sessions([]), conversations: false });
    control.setView("conversations");
    assert.equal(control.view(), "chat");
  });
});

describe("the Conversations view's list", () => {
  const row = (id, updatedAt, title = id) => ({ id, title, createdAt: 1, updatedAt });
  const ids = (state) => state.sessions.map((s) => `${s.id}@${s.updatedAt}`);
  const list = { sessions: [row("c", 30), row("b", 20), row("a", 10)], next: "cursor", loading: false, error: null };

  test("a live event: a session in its place by its activity, renamed in place, gone when deleted", () => {
    assert.deepEqual(ids(applied(list, { type: "session", session: row("d", 40) })), ["d@40", "c@30", "b@20", "a@10"], "a new one on top");
    assert.deepEqual(ids(applied(list, { type: "session", session: row("a", 50) })), ["a@50", "c@30", "b@20"], "moved by a turn");
    assert.equal(applied(list, { type: "session", session: row("b", 20, "Renamed") }).sessions[1].title, "Renamed");
    assert.deepEqual(ids(applied(list, { type: "session", session: row("a", 10, "Renamed") })), ["c@30", "b@20", "a@10"], "the last shown stays");
    assert.deepEqual(ids(applied(list, { type: "deleted", id: "b" })), ["c@30", "a@10"]);
    // Older than every row shown, more pages to come: its page brings it; a whole list takes it.
    assert.equal(applied(list, { type: "session", session: row("z", 5) }), list);
    assert.deepEqual(ids(applied({ ...list, next: null }, { type: "session", session: row("z", 5) })).at(-1), "z@5");
    assert.equal(applied(list, { type: "other" }), list, "an event it does not know changes nothing");
  });

  test("a refusal in the visitor's words", () => {
    const said = (status, code) => describeError(new ConversationsError(status, code, "the worker's words"), t, LIST_SENTENCES);
    assert.deepEqual(said(400, "invalid_title"), { message: t.titleInvalid, code: "invalid_title", detail: "the worker's words" });
    assert.equal(said(404, "session_not_found").message, t.deleted);
    for (const code of ["forbidden", "no_user", "index_not_configured"]) assert.equal(said(403, code).message, t.conversationsUnavailable);
    assert.equal(said(429, "rate_limited").message, t.tooMany, "the panel's own sentence otherwise");
  });

  test("how long ago, in the panel's language", () => {
    const now = Date.UTC(2026, 0, 10, 12);
    assert.equal(ago(now - 500, now, "en"), "now");
    assert.equal(ago(now - 5 * 60_000, now, "en"), "5 minutes ago");
    assert.equal(ago(now - 86_400_000, now, "en"), "yesterday");
    assert.equal(ago(now - 3 * 86_400_000, now, "fr"), "il y a 3 jours");
  });
});

describe("trace modes under a cap", () => {
  test("the switch offers the modes up to the cap; a mode above it is lowered to it", () => {
    assert.deepEqual(modesUpTo("minimal").map(([m]) => m), ["minimal"]);
    assert.deepEqual(modesUpTo("normal").map(([m]) => m), ["minimal", "normal"]);
    assert.deepEqual(modesUpTo(null).map(([m]) => m), ["minimal", "normal", "full"], "a worker that does not say");
    assert.equal(capped("full", "normal"), "normal");
    assert.equal(capped("normal", "minimal"), "minimal");
    assert.equal(capped("minimal", "full"), "minimal");
    assert.equal(capped("full", null), "full");
  });
});

describe("a context the worker would refuse", () => {
  test("the widget's limit is the worker's (crates/core/src/bounds.rs)", () => {
    const rust = readFileSync(new URL("../../../crates/core/src/bounds.rs", import.meta.url), "utf8");
    const [, expression] = rust.match(/pub const MAX_CONTEXT_BYTES: usize = ([\d\s*_]+);/);
    assert.equal(MAX_CONTEXT_BYTES, expression.split("*").reduce((product, factor) => product * Number(factor.trim().replace(/_/g, "")), 1));
  });

  test("a plain object of at most 16 KiB of JSON passes; anything else is named", () => {
    assert.equal(contextProblem({ page: "/boots" }), null);
    assert.equal(contextProblem(null), null);
    // Exactly at the limit, counted in bytes of UTF-8 as the worker counts them.
    const at = { s: "é".repeat((MAX_CONTEXT_BYTES - 8) / 2) };
    assert.equal(new TextEncoder().encode(JSON.stringify(at)).length, MAX_CONTEXT_BYTES);
    assert.equal(contextProblem(at), null);
    assert.match(contextProblem({ s: "é".repeat((MAX_CONTEXT_BYTES - 6) / 2) }), /16386 bytes of JSON, over the worker's limit of 16384/);
    assert.match(contextProblem([1]), /plain object/);
    assert.match(contextProblem("page"), /plain object/);
    const loop = {};
    loop.loop = loop;
    assert.match(contextProblem(loop), /cannot be sent as JSON/);
    assert.match(contextProblem({ n: 10n }), /cannot be sent as JSON/);
  });
});

describe("the line under an answer", () => {
  test("worked for, or stopped (after how long, when that is known)", () => {
    assert.equal(workSummary({ durationMs: 12_000, toolCalls: 3, toolErrors: 1 }, strings), "Worked for 12 s · 3 tools · 1 failed");
    assert.equal(workSummary({ durationMs: 4_200, toolCalls: 1, toolErrors: 1, stopped: true }, strings), "Stopped after 4.2 s · 1 tool · 1 failed");
    assert.equal(workSummary({ stopped: true }, strings), "Stopped");
    assert.equal(workSummary({ turnId: "t1", createdAt: 1 }, strings), null, "a turn under way");
    assert.equal(workSummary(undefined, strings), null);
  });

  test("the tokens an answer used, where the site asks and the agent counted them", () => {
    const metadata = { durationMs: 12_000, toolCalls: 0, toolErrors: 0, usage: { inputTokens: 1_200, outputTokens: 50 } };
    assert.equal(workSummary(metadata, strings), "Worked for 12 s", "not unless the site asks");
    assert.equal(workSummary(metadata, strings, { showUsage: true }), "Worked for 12 s · 1,250 tokens");
    const one = { ...metadata, usage: { outputTokens: 1 } };
    assert.equal(workSummary(one, strings, { showUsage: true }), "Worked for 12 s · 1 token");
    const garbled = { ...metadata, usage: { inputTokens: -3, outputTokens: "7" } };
    assert.equal(workSummary(garbled, strings, { showUsage: true }), "Worked for 12 s", "no count, no tokens");
    assert.equal(workSummary({ durationMs: 10 }, strings, { showUsage: true }), "Worked for 10 ms", "none reported");
  });
});

describe("what the visitor is told of an error", () => {
  const refused = (code, message) => new Error(JSON.stringify({ error: { code, message } }));

  test("a refused request: a sentence by its code; the worker's words kept as the detail", () => {
    assert.deepEqual(describeError(refused("prompt_too_long", "the prompt is 20011 characters, over MAX_PROMPT_CHARS"), t), {
      message: t.tooLong,
      code: "prompt_too_long",
      detail: "the prompt is 20011 characters, over MAX_PROMPT_CHARS",
    });
    assert.equal(describeError(refused("token_expired", "x"), t).message, t.notAllowed);
    assert.equal(describeError(refused("rate_limited", "x"), t).message, t.tooMany);
    assert.equal(describeError(refused("agent_timeout", "x"), t).message, t.unavailable);
    // A stale tab's send to an agent of protocol 4: the visitor is told to reload.
    assert.equal(describeError(refused("stale_conversation", "x"), t).message, t.staleConversation);
    assert.equal(describeError(refused("invalid_field", "`context` is 20011 bytes"), t).message, t.somethingWrong);
  });

  test("a network failure says so; the agent's own error text is shown as it is", () => {
    const network = Object.assign(new TypeError("Failed to fetch"), { name: "TypeError" });
    assert.equal(describeError(network, t).message, t.unreachable);
    assert.deepEqual(describeError(new Error("the model is overloaded"), t), {
      message: "the model is overloaded",
      code: "agent_error",
      detail: "the model is overloaded",
    });
  });
});

describe("logout forgets every key of the widget's, and only those", () => {
  let store;
  beforeEach(() => {
    store = new Map();
    globalThis.localStorage = fakeLocalStorage(store);
  });

  test("sessions of every user and panel, and the trace choice, go; the site's own keys stay", () => {
    for (const key of ["session-agent-chat:session", "session-agent-chat:session:alice", "session-agent-chat:session@sales:bob", "session-agent-chat:trace", "site:cart"]) {
      localStorage.setItem(key, "x");
    }
    forgetStored();
    assert.deepEqual([...store.keys()], ["site:cart"]);
  });
});

describe("the agent's questions as tool parts", () => {
  const ask = (state, extra = {}) => ({
    type: "tool-askUser",
    toolCallId: "t1-q1",
    state,
    input: { questionId: "t1-q1", text: "Deploy now?", options: ["yes", "no"] },
    ...extra,
  });
  const gated = (state, approval) => ({ type: "dynamic-tool", toolName: "deploy", toolCallId: "t1-c1", state, input: { target: "prod" }, ...(approval ? { approval } : {}) });
  const approve = (state, extra = {}) => ({
    type: "tool-approveToolCall",
    toolCallId: "t1-q2",
    state,
    input: { questionId: "t1-q2", text: "Deploy to prod?", toolCallId: "t1-c1", toolName: "deploy", input: null },
    ...extra,
  });
  const assistant = (...parts) => ({ id: "t1", role: "assistant", parts: [{ type: "step-start" }, ...parts] });

  test("each kind of question, waiting or answered; other parts are none", () => {
    assert.deepEqual(questionOf(ask("input-available")), {
      kind: "ask", id: "t1-q1", toolCallId: "t1-q1", text: "Deploy now?", options: ["yes", "no"], waiting: true, answer: undefined, error: undefined,
    });
    assert.equal(questionOf(ask("output-available", { output: "yes" })).answer, "yes");
    assert.equal(questionOf(ask("output-error", { errorText: "Canceled" })).error, "Canceled");
    assert.equal(questionOf(ask("input-streaming", { input: undefined })), null, "not asked yet");
    assert.deepEqual(questionOf(gated("approval-requested", { id: "t1-q2" })), {
      kind: "approval", id: "t1-q2", toolCallId: "t1-c1", text: "", options: [], tool: "deploy", waiting: true, answer: undefined,
    });
    assert.equal(questionOf(gated("output-denied", { id: "t1-q2", approved: false })).answer, false);
    assert.equal(questionOf(gated("output-available")), null, "a call no one asked about");
    assert.deepEqual([questionOf(approve("input-available")).kind, questionOf(approve("input-available")).tool], ["approve", "deploy"]);
    assert.equal(questionOf(approve("output-available", { output: { approved: true } })).answer, true);
    const old = questionOf({ type: "data-question", id: "q0", data: { questionId: "q0", text: "Which?", answer: "main" } });
    assert.deepEqual([old.kind, old.waiting, old.answer], ["data", false, "main"]);
    assert.equal(questionOf({ type: "text", text: "hi" }), null);
  });

  test("what waits: the last message's unanswered question, if it is the assistant's", () => {
    assert.equal(waitingQuestion(assistant({ type: "text", text: "Sure." }, ask("input-available"))).id, "t1-q1");
    assert.equal(waitingQuestion(assistant(gated("approval-requested", { id: "t1-q2" }))).kind, "approval");
    assert.equal(waitingQuestion(assistant(ask("output-available", { output: "no" }))), null);
    assert.equal(waitingQuestion({ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }), null);
    assert.equal(waitingQuestion(undefined), null);
  });

  test("the answer: the tool's output, or a tool approval; then the Chat posts by itself", () => {
    assert.deepEqual(answerCall(questionOf(ask("input-available")), "yes"), ["addToolOutput", { tool: "askUser", toolCallId: "t1-q1", output: "yes" }]);
    assert.deepEqual(answerCall(questionOf(gated("approval-requested", { id: "t1-q2" })), false), ["addToolApprovalResponse", { id: "t1-q2", approved: false }]);
    assert.deepEqual(answerCall(questionOf(approve("input-available")), true), [
      "addToolOutput",
      { tool: "approveToolCall", toolCallId: "t1-q2", output: { approved: true } },
    ]);
    const posts = (...parts) => sendAutomaticallyWhen({ messages: [assistant(...parts)] });
    assert.equal(posts(ask("input-available")), false, "still waiting");
    assert.equal(posts(ask("output-available", { output: "yes" })), true);
    assert.equal(posts(gated("approval-responded", { id: "t1-q2", approved: true })), true);
    assert.equal(posts(approve("output-available", { output: { approved: false } })), true);
    // The turn went on after the answer (its own step): nothing more to post.
    assert.equal(posts(ask("output-available", { output: "yes" }), { type: "step-start" }, { type: "text", text: "Done.", state: "done" }), false);
  });

  test("a stop while a question waits: the question ends Canceled, the message stopped", () => {
    const stopped = canceled({ ...assistant(gated("approval-requested", { id: "t1-q2" })), metadata: { turnId: "t1", durationMs: 3 } });
    assert.deepEqual(stopped.parts[1], { ...gated("output-error", { id: "t1-q2" }), errorText: "Canceled" });
    assert.deepEqual(stopped.metadata, { turnId: "t1", stopped: true });
    assert.equal(waitingQuestion(stopped), null);
    // The SDK's helper would post it (every client tool of the step ended); nothing is to post.
    assert.equal(sendAutomaticallyWhen({ messages: [canceled(assistant(ask("input-available")))] }), true);
    assert.equal(answerToPost([canceled(assistant(ask("input-available")))]), false);
    assert.equal(answerToPost([assistant(ask("output-available", { output: "yes" }))]), true);
    assert.equal(answerToPost([assistant(gated("approval-responded", { id: "t1-q2", approved: false }))]), true);
  });

  test("the page's message event: what the visitor reads in order, and the question that waits", () => {
    const text = (value) => ({ type: "text", text: value });
    assert.deepEqual(messageEvent(assistant(text("Let me "), text("check."), ask("input-available")), t), {
      id: "t1",
      text: "Let me check.\n\nDeploy now?",
      question: { id: "t1-q1", text: "Deploy now?", options: ["yes", "no"] },
    });
    assert.deepEqual(messageEvent(assistant(ask("output-available", { output: "no" }), { type: "step-start" }, text("You answered: no.")), t), {
      id: "t1",
      text: "Deploy now?\n\nYou answered: no.",
    });
    assert.deepEqual(messageEvent(assistant(gated("approval-requested", { id: "t1-q2" })), t).question, {
      id: "t1-q2",
      text: "Allow deploy to run?",
      options: [],
      tool: "deploy",
    });
    assert.deepEqual(messageEvent({ ...assistant(approve("input-available")), metadata: { stopped: true } }, t), {
      id: "t1",
      text: "Deploy to prod?",
      question: { id: "t1-q2", text: "Deploy to prod?", options: [], tool: "deploy" },
      stopped: true,
    });
  });
});

describe("attachments", () => {
  const file = { file: { name: "page.html", type: "text/html" } };
  const refused = (status, code, message) => uploadErrorText(new UploadError("f", status, code, message), file, t, "en");

  test("a size as its reader writes it, by 1,024", () => {
    assert.deepEqual([15, 2048, 96_160, 10_485_760].map((n) => formatSize(n, "en")), ["15 bytes", "2 kB", "93.9 kB", "10 MB"]);
    assert.equal(formatSize(10_485_760, "fr").replace(/\s/, " "), "10 Mo", "French: its own unit, its own space");
  });

  test("a refusal in words: the worker's default limit, a type, a network failure", () => {
    assert.equal(refused(413, "file_too_large", "The file is larger than 10485760 bytes, the most one upload may be."), "Too large: a file may be at most 10 MB.");
    assert.equal(refused(415, "file_type_not_allowed", "no"), "Files of this type (text/html) cannot be attached.");
    assert.equal(uploadErrorText(new TypeError("network"), file, t, "en"), "The upload failed.");
  });

  test("the images shown inline: the raster types the worker serves inline", () => {
    assert.deepEqual(["image/png", "image/JPEG", "image/gif", "image/webp", "image/avif"].filter(isInlineImage).length, 5);
    assert.deepEqual(["image/svg+xml", "text/html", "application/pdf", "image/heic"].filter(isInlineImage), []);
  });
});
