// ─── Plug your model in here ────────────────────────────────────────────────────────────────────
//
// `respond` is the one function a user replaces. It gets the conversation and an `emit` to stream
// what the model does (text, reasoning, tool calls, status); it returns when the model is done, or
// with a question for the user (the turn then waits for the answer, and `respond` is called again
// with the answer in `input.answer`). A question may gate a tool call the model announced
// (`toolCallId`): the user approves or denies that call, and `respond` hears which in
// `input.answer.approval` (a denied call is already ended `error` by the agent). It throws to fail the turn (the error's message is shown to
// the user) and must stop when `signal` aborts (the user stopped the turn).
//
// By default it is a scripted model, so that tests are deterministic and the agent runs with no
// account. `workersAiRespond` below shows a real model binding (Workers AI); it is off by default:
// set MODEL = "workers-ai" and add `[ai] binding = "AI"` to wrangler.toml to use it.

import type { Message, Usage } from "../../../packages/session-agent/src/protocol";
import type { Emit, ModelInput, ModelResult, Respond } from "../../../packages/session-agent/src/model";

export type { Emit, ModelInput, ModelResult, Respond };

/** The scripted model's name, as it reports it on a finished turn. */
export const SCRIPTED_MODEL = "scripted";

/** The Workers AI model the example below calls. */
const WORKERS_AI_MODEL = "@cf/meta/llama-3.1-8b-instruct";

export interface ModelEnv {
  MODEL?: string;
  AI?: { run(model: string, input: unknown): Promise<unknown> };
}

export async function respond(input: ModelInput, emit: Emit, signal: AbortSignal, env: ModelEnv): Promise<ModelResult> {
  if (env.MODEL === "workers-ai") return workersAiRespond(input, emit, env);
  // The scripted model counts as a model would: a word of the prompt is a token in, a text delta
  // it streams a token out.
  let outputTokens = 0;
  const counted: Emit = { ...emit, text: (delta) => (outputTokens += 1, emit.text(delta)) };
  const result = await scriptedRespond(input, counted, signal);
  if (!result.done) return result;
  const inputTokens = input.prompt.split(/\s+/).filter(Boolean).length;
  return { ...result, usage: { inputTokens, outputTokens }, model: SCRIPTED_MODEL };
}

/** Waits `ms`, or throws when the turn is aborted meanwhile. A pending timer also keeps the
 * Durable Object awake while the turn runs. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

async function words(text: string, ms: number, emit: Emit, signal: AbortSignal) {
  for (const word of text.match(/\S+\s*/g) ?? []) {
    await pause(ms, signal);
    emit.text(word);
  }
}

/** The scripted model. Commands (the same as the adapter's demo agent, for shared tests):
 * `/slow N MS` (N deltas `w1 w2 …`, MS apart), `/work N MS` (a `work` tool call, args
 * `{ steps: N }`, running for ceil(N/2) pauses of MS, then completed; then floor(N/2), at least 1,
 * of `/slow`'s deltas MS apart; `/slow`'s defaults and caps), `/ask TEXT` (a question, then the answer echoed),
 * `/deploy [TARGET]` (a `deploy` tool call to TARGET, default `production`, that waits for the
 * user's approval: approved, it runs; denied, it does not), `/error TEXT` (the turn fails),
 * `/tool-error` (a tool whose result reports failure), `/hang` (streams nothing until aborted),
 * `/context` (the page's context, as JSON), `/seen` (the conversation this model is given, as
 * JSON: `[{ id, role, text }]`), `/extras` (protocol 6: a transient `data-progress`, a
 * `data-weather` of id `w1` sent twice, the second replacing the first, a web page and a document
 * as sources, two metadata objects, between two texts); anything else: a status, a tool call, a reply word by word,
 * and on a session's first exchange its title (`Docs search: …`). */
async function scriptedRespond(input: ModelInput, emit: Emit, signal: AbortSignal): Promise<ModelResult> {
  if (input.answer?.toolCall?.toolName === "deploy") return deployAnswered(input.answer.toolCall, input.answer.approval, emit, signal);
  if (input.answer) {
    emit.status("streaming");
    const value = typeof input.answer.answer === "string" ? input.answer.answer : JSON.stringify(input.answer.answer);
    await words(`You answered: ${value}.`, 40, emit, signal);
    return { done: true };
  }
  const [command, ...rest] = input.prompt.trim().split(/\s+/);
  if (command === "/deploy") return askToDeploy(rest.join(" ") || "production", emit);
  emit.status("thinking");
  switch (command) {
    case "/slow": {
      const [n, ms] = slowArgs(rest);
      emit.status("streaming");
      await numbered(n, ms, emit, signal);
      return { done: true };
    }
    case "/work": {
      const [n, ms] = slowArgs(rest);
      const callId = "call_work";
      emit.status("tool_calling", "work");
      emit.tool({ callId, toolName: "work", status: "running", args: { steps: n } });
      for (let i = 0; i < Math.ceil(n / 2); i++) await pause(ms, signal);
      emit.tool({ callId, toolName: "work", status: "completed", result: { steps: n } });
      emit.status("streaming");
      await numbered(Math.max(1, Math.floor(n / 2)), ms, emit, signal);
      return { done: true };
    }
    case "/ask":
      return { done: false, question: { text: rest.join(" ") || "Go on?", options: ["yes", "no"] } };
    case "/error":
      await pause(50, signal);
      throw new Error(rest.join(" ") || "the model failed");
    case "/tool-error":
      emit.status("tool_calling", "read_file");
      emit.tool({ callId: "call_1", toolName: "read_file", status: "running", args: { path: "/missing" } });
      await pause(50, signal);
      emit.tool({ callId: "call_1", toolName: "read_file", status: "completed", result: { success: false, error: { message: "no such file" } } });
      await words("The file is missing.", 20, emit, signal);
      return { done: true };
    case "/extras":
      emit.data("progress", { step: 1, of: 2 }, { transient: true });
      emit.text("Looking it up. ");
      emit.data("weather", { city: "Paris", temperature: null }, { id: "w1" });
      await pause(50, signal);
      emit.metadata({ app: { lang: "en" } });
      emit.data("weather", { city: "Paris", temperature: 18 }, { id: "w1" });
      emit.source({ sourceId: "s1", url: "https://example.com/paris", title: "Paris" });
      emit.source({ sourceId: "s2", mediaType: "application/pdf", title: "Climate", filename: "climate.pdf" });
      emit.metadata({ app: { tone: "brief" } });
      await pause(50, signal);
      emit.text("It is 18 degrees.");
      return { done: true };
    case "/hang":
      await pause(24 * 3600 * 1000, signal);
      return { done: true };
    case "/seen":
      // What this model is given, said back: each message's id, role and text, exactly the turn's
      // branch to its user message (for the tests of a regenerate, an edit, a fork and a stale
      // device: what another branch holds is not in it).
      emit.status("streaming");
      emit.text(JSON.stringify(input.history.map((m) => ({ id: m.id, role: m.role, text: textOf(m) }))));
      return { done: true };
    case "/context":
      emit.status("streaming");
      emit.text(input.context === undefined ? "No context." : `Context: ${JSON.stringify(input.context)}`);
      return { done: true };
    default: {
      emit.status("tool_calling", "search_docs");
      emit.tool({ callId: "call_1", toolName: "search_docs", status: "running", args: { query: input.prompt.slice(0, 100) } });
      await pause(100, signal);
      emit.tool({ callId: "call_1", toolName: "search_docs", status: "completed", result: { hits: 3 } });
      emit.status("streaming");
      await words("I searched the docs and found three pages about that.", 40, emit, signal);
      // The session's first exchange names it (protocol 7, R-title), as the demo agent does.
      if (input.history.length === 1 && input.prompt.trim() !== "") emit.title(docsTitle(input.prompt));
      return { done: true };
    }
  }
}

/** `Docs search: ` and what the turn searched for, cut to 60 characters (the demo agent's title:
 * crates/demo/src/script.rs's `title_session`). */
function docsTitle(prompt: string): string {
  const topic = prompt.split(/\s+/).filter(Boolean).join(" ");
  const cut = [...topic].length > 60 ? `${[...topic].slice(0, 60).join("").trimEnd()}…` : topic;
  return `Docs search: ${cut}`;
}

/** A message's text parts, joined by newlines. */
function textOf(message: Message): string {
  return message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
}

/** `/slow` and `/work`'s N (default 10) and MS (default 100), each at most 10,000. */
function slowArgs(rest: string[]): [number, number] {
  return [Math.min(Number(rest[0]) || 10, 10_000), Math.min(Number(rest[1]) || 100, 10_000)];
}

/** `/slow`'s deltas `w1`, ` w2`, … ` wN`, each after a pause of `ms`. */
async function numbered(n: number, ms: number, emit: Emit, signal: AbortSignal) {
  for (let i = 1; i <= n; i++) {
    await pause(ms, signal);
    emit.text(i === 1 ? "w1" : ` w${i}`);
  }
}

/** `/deploy TARGET`, up to its question: the `deploy` call announced (`pending`, with its args),
 * then the question that gates it. */
function askToDeploy(target: string, emit: Emit): ModelResult {
  const callId = `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  emit.status("tool_calling", "deploy");
  emit.tool({ callId, toolName: "deploy", status: "pending", args: { target } });
  return { done: false, question: { text: `Deploy to ${target}?`, toolCallId: callId, options: ["Approve", "Deny"] } };
}

/** `/deploy TARGET` after the user's answer: approved, the call runs and completes; denied (the
 * agent has ended the call `error` already), it is only reported. */
async function deployAnswered(
  call: { callId: string; toolName: string; args?: unknown },
  approval: { approved: boolean } | undefined,
  emit: Emit,
  signal: AbortSignal,
): Promise<ModelResult> {
  const target = String((call.args as { target?: unknown } | undefined)?.target ?? "production");
  if (!approval?.approved) {
    await words(`I did not deploy to ${target}.`, 40, emit, signal);
    return { done: true };
  }
  emit.tool({ callId: call.callId, toolName: "deploy", status: "running", args: call.args });
  await pause(100, signal);
  emit.tool({ callId: call.callId, toolName: "deploy", status: "completed", result: { deployed: target } });
  await words(`Deployed to ${target}.`, 40, emit, signal);
  return { done: true };
}

/** A real model through the Workers AI binding (off by default; see the top of this file). */
async function workersAiRespond(input: ModelInput, emit: Emit, env: ModelEnv): Promise<ModelResult> {
  if (!env.AI) throw new Error("MODEL is workers-ai but the AI binding is missing");
  const messages: { role: "system" | "user" | "assistant"; content: string }[] = input.history.map((m) => ({
    role: m.role,
    content: m.parts.map((p) => (p.type === "text" ? p.text : "")).join(""),
  }));
  // The page's context as a hint for the model, marked as the page's words.
  if (input.context !== undefined) {
    messages.unshift({ role: "system", content: `The page the user is on says (unverified): ${JSON.stringify(input.context)}` });
  }
  const answer = (await env.AI.run(WORKERS_AI_MODEL, { messages })) as {
    response?: string;
    usage?: { prompt_tokens?: number; completion_tokens?: number };
  };
  emit.status("streaming");
  emit.text(answer.response ?? "");
  // Workers AI's text models answer with their token counts (OpenAI's names).
  const usage = answer.usage && { inputTokens: answer.usage.prompt_tokens, outputTokens: answer.usage.completion_tokens };
  return { done: true, ...(usage ? { usage } : {}), model: WORKERS_AI_MODEL };
}
