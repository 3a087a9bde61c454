// The session's messages as the AI SDK's prompt (`ModelMessage`s): what the model is given of the
// conversation, built from the agent's history only, so that it is the conversation every client
// shows, with the clients' ids.

import { adapterFileKey, fileFault, fileUrlFault } from "../file-url.js";
import type { Message, Part } from "../protocol.js";

/** The name of the client's tool a free question is shown as (the adapter's `tool-askUser`). */
export const ASK_USER = "askUser";

type UserContent = { type: "text"; text: string } | { type: "file"; data: URL | Uint8Array; mediaType: string; filename?: string };
type AssistantContent = { type: "text"; text: string } | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };
/** JSON as the AI SDK types it (a tool's result, a user's answer: both came as JSON). */
type JSONValue = null | string | number | boolean | { [key: string]: JSONValue | undefined } | JSONValue[];
type ToolOutput = { type: "json"; value: JSONValue } | { type: "text"; value: string } | { type: "error-text"; value: string };
type ToolContent = { type: "tool-result"; toolCallId: string; toolName: string; output: ToolOutput };

/** A message of the AI SDK's prompt (`ModelMessage`), as this bridge writes it. */
export type ModelMessage =
  | { role: "user"; content: UserContent[] }
  | { role: "assistant"; content: AssistantContent[] }
  | { role: "tool"; content: ToolContent[] };

/**
 * The session's messages as the AI SDK's prompt: user text and files; the assistant's text, each
 * finished tool call as the call and its result (or error) in a `tool` message, and each answered
 * free question as the `askUser` call the user answered (its id the question's, its input the
 * question's text and options, its result the answer), so that the model sees what it did and
 * what it was told. Reasoning, approval questions (their call's own result says what came of
 * them) and the turn's bookkeeping parts are not the model's to see again.
 */
export function toModelMessages(history: Message[], files: ReadonlyMap<string, Uint8Array> = new Map()): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const message of history) {
    if (message.role === "user") {
      const content = message.parts.flatMap((part): UserContent[] => {
        if (part.type === "text" && part.text) return [{ type: "text", text: part.text }];
        if (part.type === "file") return fileContent(part, files);
        return [];
      });
      if (content.length > 0) messages.push({ role: "user", content });
      continue;
    }
    // An assistant message: its steps, each its text and calls, then the calls' results.
    const calls = new Set(message.parts.flatMap((p) => (p.type === "tool-call" ? [p.callId] : [])));
    let said: AssistantContent[] = [];
    let results: ToolContent[] = [];
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
      } else if (part.type === "question" && part.answer !== undefined && !(part.toolCallId && calls.has(part.toolCallId))) {
        const input = { text: part.text, ...(part.options ? { options: part.options } : {}) };
        said.push({ type: "tool-call", toolCallId: part.questionId, toolName: ASK_USER, input });
        results.push({ type: "tool-result", toolCallId: part.questionId, toolName: ASK_USER, output: answerOutput(part.answer) });
      }
    }
    flush();
  }
  return messages;
}

/** A user's answer as a tool's result: text as text, anything else as JSON. */
export function answerOutput(answer: unknown): ToolOutput {
  return typeof answer === "string" ? { type: "text", value: answer } : { type: "json", value: (answer ?? null) as JSONValue };
}

function outputOf(part: Extract<Part, { type: "tool-call" }>): ToolOutput {
  return part.status === "error" ? { type: "error-text", value: part.error ?? "The tool failed." } : { type: "json", value: (part.result ?? null) as JSONValue };
}

/** A stored file part as the model's. The adapter's file (../file-url.ts): its bytes, read from the
 * bucket (`files`, by key: ./files.ts); without them its URL when the provider can fetch it
 * (`https:` and public), else a line that tells the model the file is not available. Any other
 * file: its URL, left out when the adapter would refuse it now (a history stored before it
 * checked, a prompt from another client), so that no turn gives the model's provider an internal
 * address, and no URL `new URL` throws on ends every later turn of the session. */
function fileContent(part: Extract<Part, { type: "file" }>, files: ReadonlyMap<string, Uint8Array>): UserContent[] {
  const named = part.filename ? { filename: part.filename } : {};
  const key = adapterFileKey(part.url);
  const bytes = key === null ? undefined : files.get(key);
  if (bytes !== undefined) return [{ type: "file", data: bytes, mediaType: part.mediaType, ...named }];
  if (key !== null && fileUrlFault(part.url) !== null) {
    return [{ type: "text", text: `[${part.filename ?? "a file"} (${part.mediaType}) is not available to the model]` }];
  }
  if (fileFault(part) !== null) return [];
  try {
    return [{ type: "file", data: new URL(part.url), mediaType: part.mediaType, ...named }];
  } catch {
    return [];
  }
}
