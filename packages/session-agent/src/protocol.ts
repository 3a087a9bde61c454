// The frames of the agent contract (docs/agent-protocol.md in the adapter's repository), as types,
// and the few helpers that build and read them. Protocol 7.

import { fileFault } from "./file-url.js";

/** The protocol this agent keeps, said in its `init` and on its upgrade's answer (R-protocol). */
export const PROTOCOL = 7;

/** The header of the upgrade's answer in which the agent says its protocol (from protocol 4). */
export const PROTOCOL_HEADER = "X-Agent-Protocol";

/** The adapter's liveness check of a socket and the agent's answer, exactly these bytes (R-pong):
 * the runtime's WebSocket auto-response matches the whole string, and answers it without waking a
 * hibernated object. (`PING` and `PONG` of crates/core/src/v2.rs; tests/js/worker/wire_constants.test.mjs.) */
export const PING = '{"type":"ping"}';
export const PONG = '{"type":"pong"}';

/** Protocol 7: the adapter's `forget` (the session is to be forgotten), and the agent's
 * `forgotten` (its answer on the asking socket, its notice on every other). (`FORGOTTEN` of
 * crates/core/src/v2.rs; tests/js/worker/wire_constants.test.mjs.) */
export const FORGET = "forget";
export const FORGOTTEN = "forgotten";

/** A tool call's lifecycle. */
export type ToolStatus = "pending" | "running" | "completed" | "error";
export type FinishReason = "end_turn" | "error" | "canceled";

/** What a turn cost, on its `message.finalize` (protocol 3): the AI SDK's names. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
}
export type OnDisconnect = "abort" | "detach";

/** One part of a stored message (the `MessagePart` union of `init`). */
export type Part =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; callId: string; toolName: string; status: ToolStatus; args?: unknown; result?: unknown; error?: string }
  | ({ type: "question" } & Question & { answer?: unknown })
  | { type: "file"; mediaType: string; url: string; filename?: string }
  | { type: "finish"; reason: FinishReason; usage?: Usage; model?: string }
  | { type: "error"; message: string }
  /** Protocol 6: an app's data part (the last data sent under its name and id), a source, metadata. */
  | { type: "data"; name: string; id?: string; data: unknown }
  | ({ type: "source" } & Source)
  | { type: "metadata"; metadata: Record<string, unknown> };

/** A source a turn cites (protocol 6): a web page, or a document. */
export type Source = { sourceId: string; url: string; title?: string } | { sourceId: string; mediaType: string; title: string; filename?: string };

/** The data part names the adapter writes itself, and the metadata keys (crates/core/src/v2/extras/parts.rs). */
export const RESERVED_DATA_NAMES = ["status", "question", "answer"];
export const RESERVED_METADATA_KEYS = ["turnId", "createdAt", "durationMs", "toolCalls", "toolErrors", "stopped", "usage", "model", "error", "ref", "siblings"];

/** Why the adapter would skip a data part of this `name` (docs/agent-protocol.md, R-extras), or null. */
export function dataNameFault(name: string): string | null {
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(name)) return `a data part's name is 1 to 64 of [A-Za-z0-9_.:-], not ${JSON.stringify(name)}`;
  return RESERVED_DATA_NAMES.includes(name) ? `the data part name ${JSON.stringify(name)} is the adapter's own` : null;
}

/** A question to the user; with `toolCallId`, an approval question: may that call run? */
export interface Question {
  questionId: string;
  text: string;
  /** The call the question gates (protocol 2): announced before the question, run only when approved. */
  toolCallId?: string;
  options?: string[];
}

export interface Message {
  id: string;
  role: "user" | "assistant";
  parts: Part[];
  /** When it was written (a user's) or its turn started (an assistant's): an ISO 8601 date-time. */
  createdAt?: string;
  /** When its turn ended (an assistant's, once finished): what a reloaded reply's "worked for" is read from. */
  completedAt?: string;
  /** Protocol 5, as a client reads it (never stored in the body): its key in the session's tree,
   * the key of the message it follows (null: the conversation's first), and the keys of its
   * siblings and its own, oldest first, when there are two or more (./tree.ts). */
  ref?: string;
  parent?: string | null;
  siblings?: string[];
}

export interface Attachment {
  mediaType: string;
  url: string;
  filename?: string;
  /** Its length in bytes, for a file the adapter keeps in its bucket (protocol 6). */
  size?: number;
}

/** What the adapter (or any client) sends. */
export type Incoming =
  | {
      type: "prompt";
      content: string;
      requestId?: string;
      onDisconnect?: OnDisconnect;
      attachments?: Attachment[];
      /** What the embedding page says about where the user is (AgentChat.setContext): untrusted. */
      context?: Record<string, unknown>;
      /** The id the client gave the user message (protocol 4): the message is stored under it. */
      messageId?: string;
      /** The ids of the client's messages before it, oldest first (protocol 4): where the turn
       * attaches (./tree.ts). */
      branch?: string[];
    }
  /** Protocol 5: one page of one branch (`leaf`), or the page before a message (`before`). */
  | { type: "history"; requestId?: string; leaf?: string; before?: string; limit?: number }
  | { type: "abort"; requestId?: string }
  /** Protocol 7: forget the session, then answer `forgotten` with `requestId`. */
  | { type: typeof FORGET; requestId: string }
  | { type: "answer"; questionId: string; answer: unknown; onDisconnect?: OnDisconnect };

/** Reads one text frame; `null` for anything this agent does not act on (ignored, as the
 * contract asks: unknown types and fields are never an error). */
export function parseIncoming(text: string): Incoming | null {
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof frame !== "object" || frame === null || Array.isArray(frame)) return null;
  const f = frame as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const policy = (v: unknown) => (v === "abort" || v === "detach" ? v : undefined);
  switch (f.type) {
    case "prompt": {
      // A file the adapter would have refused (./file-url.ts) is left out: never stored, never
      // given to the model.
      const attachments = Array.isArray(f.attachments)
        ? f.attachments.filter(
            (a): a is Attachment =>
              typeof a?.mediaType === "string" && typeof a?.url === "string" && (a.filename === undefined || typeof a.filename === "string") && fileFault(a) === null,
          )
        : undefined;
      const context = typeof f.context === "object" && f.context !== null && !Array.isArray(f.context) ? (f.context as Record<string, unknown>) : undefined;
      const messageId = str(f.messageId) || undefined;
      const branch = Array.isArray(f.branch) && f.branch.every((id) => typeof id === "string") ? (f.branch as string[]) : undefined;
      return { type: "prompt", content: str(f.content) ?? "", requestId: str(f.requestId), onDisconnect: policy(f.onDisconnect), attachments, context, messageId, branch };
    }
    case "history": {
      // A limit that is no number asks for nothing in particular: the page's bound (./tree.ts).
      const limit = typeof f.limit === "number" ? f.limit : undefined;
      return { type: "history", requestId: str(f.requestId), leaf: str(f.leaf), before: str(f.before), limit };
    }
    case "abort":
      return { type: "abort", requestId: str(f.requestId) };
    case FORGET: {
      // Without a string requestId its answer could not say which request it answers: ignored.
      const requestId = str(f.requestId);
      return requestId === undefined ? null : { type: FORGET, requestId };
    }
    case "answer": {
      const questionId = str(f.questionId);
      return questionId === undefined ? null : { type: "answer", questionId, answer: f.answer ?? null, onDisconnect: policy(f.onDisconnect) };
    }
    default:
      return null;
  }
}

/** The longest title, in characters once trimmed (crates/core/src/v2/title.rs's
 * `MAX_TITLE_CHARS`): what the adapter's list keeps. */
export const MAX_TITLE_CHARS = 200;

/** Why `title` is no title the adapter keeps (R-title), or `null` when it is one. */
export function titleFault(title: unknown): string | null {
  if (typeof title !== "string") return "a title is a string";
  const length = [...title.trim()].length;
  if (length === 0 || length > MAX_TITLE_CHARS) return `a title is 1 to ${MAX_TITLE_CHARS} characters once trimmed, not ${length}`;
  return null;
}

/** What an answer to an approval question says. Approved: `{"approved": true}` (the adapter's own
 * flows), or the question's first option (an app built on `data-answer` parts, or an adapter
 * before protocol 2). Anything else denies; an object's non-empty string `reason` comes along. */
export function readApproval(answer: unknown, options?: string[]): { approved: boolean; reason?: string } {
  if (typeof answer === "string") return { approved: options !== undefined && answer === options[0] };
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return { approved: false };
  const { approved, reason } = answer as { approved?: unknown; reason?: unknown };
  if (approved === true) return { approved: true };
  return typeof reason === "string" && reason !== "" ? { approved: false, reason } : { approved: false };
}

/** A turn event or session frame this agent sends, ready for `JSON.stringify`. */
export type Outgoing = { type: string } & Record<string, unknown>;

/** A new id of the library's: `prefix` and 16 hex digits of a random UUID (a turn's id, a question's,
 * a user message's ref). */
export const newId = (prefix: string) => `${prefix}${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;

export const frames = {
  /** A turn starts; from protocol 5 with its user message as `init` lists it, and the refs of the
   * reply's siblings when it has any (a regenerate's). */
  create: (turnId: string, requestId?: string, message?: Message, siblings?: string[]): Outgoing => ({
    type: "message.create",
    turnId,
    ...(requestId ? { requestId } : {}),
    ...(message ? { message } : {}),
    ...(siblings?.length ? { siblings } : {}),
  }),
  history: (requestId: string | undefined, messages: Message[]): Outgoing => ({ type: "history", ...(requestId !== undefined ? { requestId } : {}), messages }),
  text: (turnId: string, delta: string): Outgoing => ({ type: "message.part.text-delta", turnId, delta }),
  reasoning: (turnId: string, delta: string): Outgoing => ({ type: "message.part.reasoning-delta", turnId, delta }),
  finalize: (turnId: string, reason: FinishReason, error?: string, cost?: { usage?: Usage; model?: string }): Outgoing => ({
    type: "message.finalize",
    turnId,
    reason,
    ...(error ? { error } : {}),
    ...(cost?.usage ? { usage: cost.usage } : {}),
    ...(cost?.model ? { model: cost.model } : {}),
  }),
  /** Protocol 6: a data part, a source, the message's metadata. */
  data: (turnId: string, name: string, data: unknown, id?: string, transient?: boolean): Outgoing => ({
    type: "message.part.data",
    turnId,
    name,
    ...(id !== undefined ? { id } : {}),
    data: data ?? null,
    ...(transient ? { transient: true } : {}),
  }),
  source: (turnId: string, source: Source): Outgoing => ({ type: "message.part.source", turnId, ...source }),
  metadata: (turnId: string, metadata: Record<string, unknown>): Outgoing => ({ type: "message.metadata", turnId, metadata }),
  complete: (): Outgoing => ({ type: "complete" }),
  status: (status: string, detail?: string): Outgoing => ({ type: "agentStatus", status, ...(detail ? { detail } : {}) }),
  error: (message: string, code?: string): Outgoing => ({ type: "error", message, ...(code ? { code } : {}) }),
  /** Protocol 7: the agent's name for the conversation (R-title). */
  title: (title: string): Outgoing => ({ type: "title", title }),
  /** Protocol 7: the session was forgotten (the answer to the `forget` with `requestId`, and the
   * notice every other socket gets). */
  forgotten: (requestId: string): Outgoing => ({ type: FORGOTTEN, requestId }),
};
