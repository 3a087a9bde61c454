// The AI SDK's `streamText` as a SessionAgent's model: a `respond` (../model.ts) that gives the
// model the session's conversation as the AI SDK's messages, runs `streamText` with the turn's
// abort signal, and speaks the contract with what its `fullStream` says: text and reasoning
// deltas, each tool's input, run, result or error, every step of a multi-step turn (`stopWhen`),
// the calls left waiting on the user as questions (./questions.ts), the sources it cites
// (protocol 6), and on the finalize what the turn cost (`usage`) and the model that answered.

import type { Emit, ModelInput, ModelResult, Respond } from "../model.js";
import { MAX_TITLE_CHARS, type Usage } from "../protocol.js";
import { readFiles, type FileBucket } from "./files.js";
import { toModelMessages, type ModelMessage } from "./messages.js";
import type { ToolSet } from "ai";
import { answerFor, memoOf, questionFor, type Asking, type Memo, type Waiting } from "./questions.js";

/** The parts of `streamText`'s `fullStream` this bridge reads (ai 6 and 7 write them alike); any other is passed over. */
type StreamPart =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-input-start"; id: string; toolName: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }
  | { type: "tool-approval-request"; approvalId: string; toolCall: { toolCallId: string }; reason?: string; isAutomatic?: boolean }
  | { type: "tool-result"; toolCallId: string; toolName: string; input?: unknown; output: unknown }
  | { type: "tool-error"; toolCallId: string; toolName: string; input?: unknown; error: unknown }
  | { type: "tool-output-denied"; toolCallId: string; toolName: string }
  | { type: "source"; sourceType: "url"; id: string; url: string; title?: string }
  | { type: "source"; sourceType: "document"; id: string; mediaType: string; title: string; filename?: string }
  | { type: "finish-step"; response?: { modelId?: string } }
  | { type: "finish"; totalUsage?: { inputTokens?: number; outputTokens?: number } }
  | { type: "error"; error: unknown }
  | { type: "abort" };

/** What this bridge reads of a tool of the agent's `tools`. */
interface ToolLike {
  execute?: unknown;
  needsApproval?: unknown;
}

/** What `streamText` is called with by this bridge: the agent's settings, then the turn's. */
export type StreamTextOptions<Settings> = Settings & {
  messages: ModelMessage[];
  abortSignal: AbortSignal;
  onError: (event: { error: unknown }) => void;
};

/** What this bridge reads of `streamText`'s result: its parts, then the messages of the turn
 * (ai 7's `responseMessages`, ai 6's `response.messages`). */
export interface StreamTextResult {
  fullStream: AsyncIterable<unknown>;
  response?: PromiseLike<{ messages?: unknown[] }>;
  responseMessages?: PromiseLike<unknown[]>;
}

/** What else the bridge is given: `files`, the adapter's bucket as the agent binds it
 * (`() => this.env.FILES`), from which the model is given each file's bytes (./files.ts);
 * `title`, what names a conversation from its first exchange (R-title): called with the first
 * turn's input while the model answers, its words sent before the turn ends (the user's list
 * shows them until a rename). Typically the model asked for a few words (`generateText`, as the
 * AI SDK's chatbot template does). Nothing, or a failure (logged), keeps the adapter's title,
 * the first message's first line; a title past 200 characters is cut there. */
export interface BridgeOptions {
  files?: () => FileBucket | undefined;
  title?: (input: ModelInput) => string | undefined | Promise<string | undefined>;
}

/**
 * A `respond` that runs `streamText` (the agent's own, from `ai`) with what `settings(input)`
 * gives (its `model`, `system`, `tools`, `stopWhen`…), the session's conversation as `messages`
 * and the turn's abort signal. `streamText`'s default `onError` is not used: it writes the error
 * to the log, and a provider's error holds the request (the prompt) and may hold more. The
 * settings' own `onError`, if they give one, is called with each error (what it does with the
 * error is the agent's choice). `asking` words the questions of calls left waiting on the user
 * (./questions.ts); `options.files` is the bucket the session's files are read from.
 */
export function streamTextModel<Settings extends object>(
  streamText: (options: StreamTextOptions<Settings>) => StreamTextResult,
  settings: (input: ModelInput) => Settings,
  asking: Asking<ToolsOf<Settings>> = {},
  options: BridgeOptions = {},
): Respond {
  return async (input: ModelInput, emit: Emit, signal: AbortSignal): Promise<ModelResult> => {
    const memo = memoOf(input);
    let messages: unknown[] = [];
    if (memo && input.answer) {
      // The user answered the first waiting call: ask the next, or go on with every answer.
      const answers = [...memo.answers, answerFor(memo, input.answer, emit)];
      const waiting = memo.waiting.slice(1);
      if (waiting.length > 0) return ask({ ...memo, waiting, answers }, asking);
      messages = [...memo.messages, { role: "tool", content: answers }];
    }
    const titled = titling(input, options.title, emit);
    const files = await readFiles(input.history, options.files?.());
    const given = settings(input);
    const result = streamText({
      ...given,
      messages: [...toModelMessages(input.history, files), ...messages] as ModelMessage[],
      abortSignal: signal,
      onError: theirs(given),
    });
    const step = await read(result, emit, signal, tools(given));
    await titled;
    const usage = sum(memo?.usage, step.usage);
    const model = step.model ?? memo?.model;
    if (step.waiting.length === 0) return { done: true, ...(usage ? { usage } : {}), ...(model ? { model } : {}) };
    const said = await (result.responseMessages ?? result.response?.then((r) => r.messages ?? []) ?? []);
    return ask({ messages: [...messages, ...said], waiting: step.waiting, answers: [], ...(usage ? { usage } : {}), ...(model ? { model } : {}) }, asking);
  };
}

/** The first exchange's title, asked of `title` while the model answers (a session's first turn:
 * its history the user's message alone, no answer), sent with `emit.title`; what never fails
 * the turn: nothing, words that are no title, or a failure (one log line). */
async function titling(input: ModelInput, title: BridgeOptions["title"], emit: Emit): Promise<void> {
  if (!title || input.answer || input.history.length !== 1) return;
  try {
    const words = (await title(input))?.trim().replace(/\s+/g, " ");
    if (words) emit.title([...words].slice(0, MAX_TITLE_CHARS).join("").trim());
  } catch (err) {
    console.error(JSON.stringify({ event: "session_agent.title_failed", error: err instanceof Error ? err.message : String(err) }));
  }
}

/** The `onError` this bridge gives `streamText`: the settings' own, if any, called with each error
 * (one that throws is logged, as a JSON line with its words, never the model's error); else one
 * that does nothing. */
function theirs(options: object): (event: { error: unknown }) => void {
  const { onError } = options as { onError?: (event: { error: unknown }) => unknown };
  if (typeof onError !== "function") return () => {};
  return (event) => {
    try {
      const done = onError(event);
      if (done instanceof Promise) done.catch((err: unknown) => failed(err));
    } catch (err) {
      failed(err);
    }
  };
}

const failed = (err: unknown) => console.error(JSON.stringify({ event: "session_agent.on_error_failed", error: err instanceof Error ? err.message : String(err) }));

/** The tools `Settings` give `streamText`, by name: what a question's wording is typed from. */
export type ToolsOf<Settings> = Settings extends { tools?: infer TOOLS } ? (NonNullable<TOOLS> extends ToolSet ? NonNullable<TOOLS> : ToolSet) : ToolSet;

function ask<TOOLS extends ToolSet>(memo: Memo, asking: Asking<TOOLS>): ModelResult {
  return { done: false, question: questionFor(memo, asking), memo };
}

/** The agent's tools, by name, as the settings give them. */
function tools(options: object): { byName: Record<string, ToolLike>; gated: boolean } {
  const { tools, toolApproval } = options as { tools?: Record<string, ToolLike>; toolApproval?: unknown };
  return { byName: tools ?? {}, gated: toolApproval !== undefined };
}

/** Speaks `result`'s parts to `emit`; returns what the run cost and the calls it left waiting. */
async function read(result: StreamTextResult, emit: Emit, signal: AbortSignal, agent: ReturnType<typeof tools>): Promise<{ usage?: Usage; model?: string; waiting: Waiting[] }> {
  // A call to a tool without `execute` is the client's: not a tool card, its question is.
  const clients = (name: string) => {
    const tool = agent.byName[name];
    return tool !== undefined && typeof tool.execute !== "function";
  };
  // A call runs at once unless it may be held for approval; one that may shows as announced.
  const runsAtOnce = (name: string) => !agent.gated && !agent.byName[name]?.needsApproval;
  const calls = new Map<string, Waiting & { settled: boolean }>();
  let usage: Usage | undefined;
  let model: string | undefined;
  for await (const raw of result.fullStream) {
    const part = raw as StreamPart;
    switch (part.type) {
      case "text-delta":
        if (part.text) emit.text(part.text);
        break;
      case "reasoning-delta":
        if (part.text) emit.reasoning(part.text);
        break;
      case "tool-input-start":
        if (clients(part.toolName)) break;
        emit.status("tool_calling", part.toolName);
        emit.tool({ callId: part.id, toolName: part.toolName, status: "pending" });
        break;
      case "tool-call":
        calls.set(part.toolCallId, { callId: part.toolCallId, toolName: part.toolName, args: part.input, settled: false });
        if (clients(part.toolName)) break;
        emit.tool({ callId: part.toolCallId, toolName: part.toolName, status: runsAtOnce(part.toolName) ? "running" : "pending", args: part.input });
        break;
      case "tool-approval-request": {
        // ai 7 approves or denies some calls itself (`toolApproval`): those are its to settle.
        const call = calls.get(part.toolCall.toolCallId);
        if (call && part.isAutomatic !== true) call.approval = { approvalId: part.approvalId, ...(part.reason ? { reason: part.reason } : {}) };
        break;
      }
      case "tool-result":
        settle(calls, part.toolCallId);
        emit.tool({ callId: part.toolCallId, toolName: part.toolName, status: "completed", args: part.input, result: part.output });
        break;
      case "tool-error":
        settle(calls, part.toolCallId);
        emit.tool({ callId: part.toolCallId, toolName: part.toolName, status: "error", args: part.input, error: errorText(part.error) });
        break;
      case "tool-output-denied":
        settle(calls, part.toolCallId);
        emit.tool({ callId: part.toolCallId, toolName: part.toolName, status: "error", error: "Denied" });
        break;
      case "source":
        if (part.sourceType === "url") emit.source({ sourceId: part.id, url: part.url, ...(part.title !== undefined ? { title: part.title } : {}) });
        else if (part.sourceType === "document") emit.source({ sourceId: part.id, mediaType: part.mediaType, title: part.title, ...(part.filename !== undefined ? { filename: part.filename } : {}) });
        break;
      case "finish-step":
        model = part.response?.modelId ?? model;
        break;
      case "finish":
        usage = usageOf(part.totalUsage);
        break;
      case "abort":
        throw signal.reason ?? new Error("The turn was stopped.");
      case "error":
        if (signal.aborted) throw signal.reason;
        throw new Error(modelFailure(part.error));
    }
  }
  const waiting = [...calls.values()].filter((c) => !c.settled && (c.approval || clients(c.toolName))).map(({ settled: _, ...call }) => call);
  return { ...(usage ? { usage } : {}), ...(model ? { model } : {}), waiting };
}

function settle(calls: Map<string, { settled: boolean }>, callId: string): void {
  const call = calls.get(callId);
  if (call) call.settled = true;
}

/** A tool's error in words: its message, or what it is. */
function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return typeof error === "string" && error ? error : "The tool failed.";
}

/**
 * What the user reads of a model that failed: a sentence and the provider's HTTP status where it
 * gave one, never the provider's own text (it may hold the request, the prompt in it).
 */
export function modelFailure(error: unknown): string {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === "number") return `The model could not answer (its provider said HTTP ${status}).`;
  return "The model could not answer.";
}

/** The AI SDK's usage in the contract's shape: whole token counts, or nothing. */
function usageOf(usage: { inputTokens?: number; outputTokens?: number } | undefined): Usage | undefined {
  if (!usage) return undefined;
  const whole = (n: unknown) => (typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : undefined);
  const inputTokens = whole(usage.inputTokens);
  const outputTokens = whole(usage.outputTokens);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return { ...(inputTokens !== undefined ? { inputTokens } : {}), ...(outputTokens !== undefined ? { outputTokens } : {}) };
}

/** What a turn cost across its runs (one per answer): each count summed where any run gave it. */
function sum(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a || !b) return a ?? b;
  const add = (x?: number, y?: number) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const inputTokens = add(a.inputTokens, b.inputTokens);
  const outputTokens = add(a.outputTokens, b.outputTokens);
  return { ...(inputTokens !== undefined ? { inputTokens } : {}), ...(outputTokens !== undefined ? { outputTokens } : {}) };
}
