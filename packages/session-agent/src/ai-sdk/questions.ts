// What a turn of `streamText` leaves waiting on the user, and how it goes on: a call the AI SDK
// holds for approval (`needsApproval`, ai 7's `toolApproval`) becomes an approval question; a
// call of a tool without `execute` (a client's tool, such as `askUser`) becomes a free question
// whose answer is the tool's result. The turn's own messages (the AI SDK's, with its approval
// requests as it wrote them, signed where it signs them) wait in the question's memo, and the
// answers go back to `streamText` as the AI SDK's `tool-approval-response` and `tool-result`.

import type { InferToolInput, ToolSet } from "ai";
import type { Emit, ModelInput } from "../model.js";
import type { Question, Usage } from "../protocol.js";
import { answerOutput } from "./messages.js";

/** A call the turn left waiting on the user. */
export interface Waiting {
  callId: string;
  toolName: string;
  args: unknown;
  /** Set for a call held for approval: the AI SDK's id of its request, and why it asks. */
  approval?: { approvalId: string; reason?: string };
}

/** A question's memo (`ModelResult.memo`): the turn's own messages so far, the calls still
 * waiting (the first is the one asked), the answers so far, and what the turn has cost. */
export interface Memo {
  messages: unknown[];
  waiting: Waiting[];
  answers: unknown[];
  usage?: Usage;
  model?: string;
}

/** A waiting call of the agent's tools `TOOLS`, as its wording reads it: its `toolName` one of
 * theirs, and its `args` that tool's input, typed from its `inputSchema` (the AI SDK's
 * `InferToolInput`), so that a check of `toolName` narrows them. Tools of no known names (a
 * `ToolSet` as such): a `Waiting`, whose args are `unknown`. (The input is the one the AI SDK
 * parsed against the schema.) */
export type CallOf<TOOLS extends ToolSet> = string extends keyof TOOLS
  ? Waiting
  : { [NAME in keyof TOOLS & string]: Omit<Waiting, "toolName" | "args"> & { toolName: NAME; args: InferToolInput<TOOLS[NAME]> } }[keyof TOOLS & string];

/** How a waiting call of the tools `TOOLS` is asked: the agent's own words, or the defaults below. */
export interface Asking<TOOLS extends ToolSet = ToolSet> {
  /** The text of the question that asks to approve `call` (default: "Allow <tool>?", or the
   * AI SDK's reason for asking). */
  approval?: (call: CallOf<TOOLS>) => string;
  /** The question a client tool's call asks (default: its input's `question`, `text` or
   * `prompt`, and its `options`). */
  question?: (call: CallOf<TOOLS>) => { text: string; options?: string[] };
}

/** The options of an approval question: the first approves (docs/agent-protocol.md). */
export const APPROVAL_OPTIONS = ["Approve", "Deny"];

/** The question for the first waiting call of `memo`. */
export function questionFor<TOOLS extends ToolSet>(memo: Memo, wording: Asking<TOOLS> = {}): Omit<Question, "questionId"> {
  // The call is one of the agent's tools, its args as the AI SDK parsed them: what CallOf says.
  const asking = wording as unknown as Asking;
  const call = memo.waiting[0];
  if (call.approval) {
    const text = asking.approval?.(call) ?? call.approval.reason ?? `Allow ${call.toolName}?`;
    return { text, toolCallId: call.callId, options: APPROVAL_OPTIONS };
  }
  const { text, options } = asking.question?.(call) ?? askedIn(call);
  return { text, ...(options && options.length > 0 ? { options } : {}) };
}

/** What a client tool's input asks, read leniently. */
function askedIn(call: Waiting): { text: string; options?: string[] } {
  const input = (typeof call.args === "object" && call.args !== null ? call.args : {}) as Record<string, unknown>;
  const text = [input.question, input.text, input.prompt].find((v): v is string => typeof v === "string" && v !== "");
  const options = Array.isArray(input.options) && input.options.every((o) => typeof o === "string") ? (input.options as string[]) : undefined;
  return { text: text ?? `${call.toolName}?`, ...(options ? { options } : {}) };
}

/** The memo `input.answer` brings back, if it is one this bridge wrote. */
export function memoOf(input: ModelInput): Memo | undefined {
  const memo = input.answer?.memo as Partial<Memo> | undefined;
  if (!memo || !Array.isArray(memo.messages) || !Array.isArray(memo.waiting) || memo.waiting.length === 0 || !Array.isArray(memo.answers)) return undefined;
  return memo as Memo;
}

/**
 * The AI SDK's answer for the first waiting call of `memo`, from `answer`: an approval's
 * `tool-approval-response` (approved only when the user approved: anything else denies), a client
 * tool's `tool-result` (the user's answer). An approved call is shown running: the AI SDK runs it
 * when `streamText` goes on.
 */
export function answerFor(memo: Memo, answer: NonNullable<ModelInput["answer"]>, emit: Emit): unknown {
  const call = memo.waiting[0];
  if (call.approval) {
    const approved = answer.approval?.approved === true;
    if (approved) emit.tool({ callId: call.callId, toolName: call.toolName, status: "running", args: call.args });
    const reason = approved ? undefined : answer.approval?.reason;
    return { type: "tool-approval-response", approvalId: call.approval.approvalId, approved, ...(reason ? { reason } : {}) };
  }
  return { type: "tool-result", toolCallId: call.callId, toolName: call.toolName, output: answerOutput(answer.answer) };
}
