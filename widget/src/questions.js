// The agent's questions as the panel asks for them (`X-Questions: approvals`, docs/sessions.md
// "Questions"): a free question is a `tool-askUser` part, answered with its output; an approval
// is the gated call's own part in `approval-requested`, answered with a tool approval, or, in the
// minimal trace mode (no tool card to approve on), a `tool-approveToolCall` part answered with
// `{ approved }`. The Chat posts the answer by itself (`sendAutomaticallyWhen`) and the rest of
// the turn streams into the same message. An old `data-question` part of a history is shown only.
import {
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
} from "ai";
import { format } from "./locale.js";

/** The header of every request of the panel's (the chat POST, its resume, the history). */
export const QUESTIONS_HEADERS = { "x-questions": "approvals" };

/** useChat's `sendAutomaticallyWhen`: posts again once the last step's question is answered. */
export const sendAutomaticallyWhen = (options) =>
  lastAssistantMessageIsCompleteWithApprovalResponses(options) || lastAssistantMessageIsCompleteWithToolCalls(options);

/**
 * Whether the last message's last step holds a question answered here that the Chat posts (or,
 * the post failed, posts again on Retry): sendAutomaticallyWhen's test, less a question a stop
 * ended, which it would take for one.
 */
export function answerToPost(messages) {
  if (!sendAutomaticallyWhen({ messages })) return false;
  const parts = messages.at(-1).parts;
  const step = parts.slice(parts.findLastIndex((part) => part.type === "step-start") + 1);
  return step.some((part) => questionOf(part)?.answer !== undefined);
}

/** What the worker's history says of a question the turn's stop ended. */
const CANCELED = "Canceled";

/**
 * The question `part` is, or null: { kind, id, toolCallId, text, options, tool, waiting, answer,
 * error }. `kind`: "ask" (askUser), "approve" (approveToolCall), "approval" (a tool approval on
 * the call's own part) or "data"; `id`: the question's; `tool`: the gated call's name (an
 * approval); `answer`: the answer given (for an approval, true or false), undefined before.
 */
export function questionOf(part) {
  const input = part.input ?? {};
  const common = { toolCallId: part.toolCallId, waiting: part.state === "input-available" };
  const error = part.state === "output-error" ? part.errorText || CANCELED : undefined;
  const output = part.state === "output-available" ? part.output : undefined;
  if (part.type === "tool-askUser" && part.state !== "input-streaming") {
    const options = input.options ?? [];
    return { ...common, kind: "ask", id: input.questionId ?? part.toolCallId, text: input.text ?? "", options, answer: output, error };
  }
  if (part.type === "tool-approveToolCall" && part.state !== "input-streaming") {
    const id = input.questionId ?? part.toolCallId;
    return { ...common, kind: "approve", id, text: input.text ?? "", options: [], tool: input.toolName, answer: output?.approved, error };
  }
  if (part.type === "dynamic-tool" && part.approval) {
    const { id, approved } = part.approval;
    return { ...common, kind: "approval", id, text: "", options: [], tool: part.toolName, waiting: part.state === "approval-requested", answer: approved };
  }
  if (part.type === "data-question") {
    const { questionId, text, options = [], answer } = part.data;
    return { kind: "data", id: questionId, text, options, waiting: false, answer };
  }
  return null;
}

/** The question `message` (the last, an assistant's) waits on, or null. */
export function waitingQuestion(message) {
  if (message?.role !== "assistant") return null;
  return message.parts.map(questionOf).findLast((question) => question?.waiting) ?? null;
}

/**
 * The chat's call that answers `question` with `value` (an option or a free text; true or false
 * for an approval): [method, argument].
 */
export function answerCall(question, value) {
  if (question.kind === "approval") return ["addToolApprovalResponse", { id: question.id, approved: value }];
  const output = question.kind === "approve" ? { approved: value } : value;
  const tool = question.kind === "approve" ? "approveToolCall" : "askUser";
  return ["addToolOutput", { tool, toolCallId: question.toolCallId, output }];
}

/**
 * `message` as a stop while its question waited leaves it (as the worker's history shows it):
 * stopped, after a time not known here (the stream's ended when the question came).
 */
export function canceled(message) {
  const parts = message.parts.map((part) =>
    questionOf(part)?.waiting ? { ...part, state: "output-error", errorText: CANCELED } : part,
  );
  const { durationMs: _unknown, ...metadata } = message.metadata ?? {};
  return { ...message, parts, metadata: { ...metadata, stopped: true } };
}

/** What the visitor reads of `question` (`t`: the panel's messages): its text, or an approval's sentence. */
export function questionText(question, t) {
  return question.text || format(t.approvalAsk, { tool: question.tool });
}

/**
 * What the page's `message` event says of an assistant message: `text`, what the visitor reads
 * in it (its text, then the questions it asks), `question` ({ id, text, options, tool? }) when
 * it ends waiting for an answer (`tool`: the call an approval gates), and `stopped: true`.
 */
export function messageEvent(message, t) {
  // In the parts' order: the text between two questions one piece, each question another.
  const read = [];
  let pending = null;
  let inText = false;
  for (const part of message.parts) {
    const question = questionOf(part);
    if (part.type === "text") {
      if (inText) read[read.length - 1] += part.text;
      else read.push(part.text);
      inText = true;
    } else if (question) {
      read.push(questionText(question, t));
      inText = false;
      if (question.waiting) pending = question;
    }
  }
  const asked = pending && { id: pending.id, text: questionText(pending, t), options: pending.options };
  return {
    id: message.id,
    text: read.filter((piece) => piece.trim() !== "").join("\n\n"),
    ...(asked ? { question: pending.tool ? { ...asked, tool: pending.tool } : asked } : {}),
    ...(message.metadata?.stopped === true ? { stopped: true } : {}),
  };
}
