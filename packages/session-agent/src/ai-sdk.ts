// The AI SDK's `streamText` as a SessionAgent's model: a `respond` (./model.ts) that gives the
// model the session's conversation as the AI SDK's messages, runs `streamText` with the turn's
// abort signal, and speaks the contract with what its `fullStream` says: text and reasoning
// deltas, each tool's input, run, result or error, every step of a multi-step turn (`stopWhen`),
// and on the finalize what the turn cost (`usage`) and the model that answered.
//
// The package does not import `ai`: an agent hands it its own `streamText` (ai 6 or 7), so the
// agent's version is the one that runs.
//
//   const model = streamTextModel(streamText, () => ({ model: workersai("@cf/meta/llama-3.1-8b-instruct"), tools }));
//   export class MyAgent extends SessionAgent<Env> {
//     protected respond(input: ModelInput, emit: Emit, signal: AbortSignal) { return model(input, emit, signal); }
//   }

import type { Emit, ModelInput, ModelResult, Respond } from "./model.js";
import type { Message, Part, Usage } from "./protocol.js";

/** A message of the AI SDK's prompt (`ModelMessage`), as this bridge writes it. */
export type ModelMessage =
  | { role: "user"; content: ({ type: "text"; text: string } | { type: "file"; data: URL; mediaType: string; filename?: string })[] }
  | { role: "assistant"; content: ({ type: "text"; text: string } | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown })[] }
  | { role: "tool"; content: { type: "tool-result"; toolCallId: string; toolName: string; output: { type: "json"; value: unknown } | { type: "error-text"; value: string } }[] };

/** The parts of `streamText`'s `fullStream` this bridge reads (ai 6 and 7 write them alike); any other is passed over. */
type StreamPart =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | { type: "tool-input-start"; id: string; toolName: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }
  | { type: "tool-result"; toolCallId: string; toolName: string; input?: unknown; output: unknown }
  | { type: "tool-error"; toolCallId: string; toolName: string; input?: unknown; error: unknown }
  | { type: "finish-step"; response?: { modelId?: string } }
  | { type: "finish"; totalUsage?: { inputTokens?: number; outputTokens?: number } }
  | { type: "error"; error: unknown }
  | { type: "abort" }
  | { type: string };

/** What `streamText` is called with by this bridge: the agent's settings, then the turn's. */
export type StreamTextOptions<Settings> = Settings & {
  messages: ModelMessage[];
  abortSignal: AbortSignal;
  onError: (event: { error: unknown }) => void;
};

/**
 * A `respond` that runs `streamText` (the agent's own, from `ai`) with what `settings(input)`
 * gives (its `model`, `system`, `tools`, `stopWhen`…), the session's conversation as `messages`
 * and the turn's abort signal. `streamText`'s own `onError` is replaced: its default writes the
 * error to the log, and a provider's error holds the request (the prompt) and may hold more.
 */
export function streamTextModel<Settings extends object>(
  streamText: (options: StreamTextOptions<Settings>) => { fullStream: AsyncIterable<unknown> },
  settings: (input: ModelInput) => Settings,
): Respond {
  return async (input: ModelInput, emit: Emit, signal: AbortSignal): Promise<ModelResult> => {
    const result = streamText({
      ...settings(input),
      messages: toModelMessages(input.history),
      abortSignal: signal,
      onError: () => {},
    });
    let usage: Usage | undefined;
    let model: string | undefined;
    for await (const raw of result.fullStream) {
      const part = raw as StreamPart;
      switch (part.type) {
        case "text-delta":
          if ("text" in part && part.text) emit.text(part.text);
          break;
        case "reasoning-delta":
          if ("text" in part && part.text) emit.reasoning(part.text);
          break;
        case "tool-input-start": {
          const { id, toolName } = part as Extract<StreamPart, { type: "tool-input-start" }>;
          emit.status("tool_calling", toolName);
          emit.tool({ callId: id, toolName, status: "pending" });
          break;
        }
        case "tool-call": {
          const { toolCallId, toolName, input: args } = part as Extract<StreamPart, { type: "tool-call" }>;
          emit.tool({ callId: toolCallId, toolName, status: "running", args });
          break;
        }
        case "tool-result": {
          const { toolCallId, toolName, input: args, output } = part as Extract<StreamPart, { type: "tool-result" }>;
          emit.tool({ callId: toolCallId, toolName, status: "completed", args, result: output });
          break;
        }
        case "tool-error": {
          const { toolCallId, toolName, input: args, error } = part as Extract<StreamPart, { type: "tool-error" }>;
          emit.tool({ callId: toolCallId, toolName, status: "error", args, error: errorText(error) });
          break;
        }
        case "finish-step":
          model = (part as Extract<StreamPart, { type: "finish-step" }>).response?.modelId ?? model;
          break;
        case "finish":
          usage = usageOf((part as Extract<StreamPart, { type: "finish" }>).totalUsage);
          break;
        case "abort":
          throw signal.reason ?? new Error("The turn was stopped.");
        case "error":
          if (signal.aborted) throw signal.reason;
          throw new Error(modelFailure((part as Extract<StreamPart, { type: "error" }>).error));
      }
    }
    return { done: true, ...(usage ? { usage } : {}), ...(model ? { model } : {}) };
  };
}

/**
 * The session's messages as the AI SDK's prompt: user text and files; the assistant's text, and
 * each finished tool call as the call and its result (or error) in a `tool` message, so that the
 * model sees what it did. Reasoning, questions and the turn's bookkeeping parts are not the
 * model's to see again.
 */
export function toModelMessages(history: Message[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const message of history) {
    if (message.role === "user") {
      const content = message.parts.flatMap((part): Extract<ModelMessage, { role: "user" }>["content"] => {
        if (part.type === "text" && part.text) return [{ type: "text", text: part.text }];
        if (part.type === "file") return [{ type: "file", data: new URL(part.url), mediaType: part.mediaType, ...(part.filename ? { filename: part.filename } : {}) }];
        return [];
      });
      if (content.length > 0) messages.push({ role: "user", content });
      continue;
    }
    // An assistant message: its steps, each its text and calls, then the calls' results.
    let said: Extract<ModelMessage, { role: "assistant" }>["content"] = [];
    let results: Extract<ModelMessage, { role: "tool" }>["content"] = [];
    const flush = () => {
      if (said.length > 0) messages.push({ role: "assistant", content: said });
      if (results.length > 0) messages.push({ role: "tool", content: results });
      said = [];
      results = [];
    };
    for (const part of message.parts) {
      if (part.type === "text" && part.text) {
        // Text after a call's result is the next step's.
        if (results.length > 0) flush();
        said.push({ type: "text", text: part.text });
      } else if (part.type === "tool-call" && (part.status === "completed" || part.status === "error")) {
        said.push({ type: "tool-call", toolCallId: part.callId, toolName: part.toolName, input: part.args ?? {} });
        results.push({ type: "tool-result", toolCallId: part.callId, toolName: part.toolName, output: outputOf(part) });
      }
    }
    flush();
  }
  return messages;
}

function outputOf(part: Extract<Part, { type: "tool-call" }>) {
  return part.status === "error"
    ? ({ type: "error-text", value: part.error ?? "The tool failed." } as const)
    : ({ type: "json", value: part.result ?? null } as const);
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
