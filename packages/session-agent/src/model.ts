// The model's side of a SessionAgent: what a turn gives the model (`ModelInput`), what the model
// streams through (`Emit`), and how it ends (`ModelResult`). A SessionAgent's `respond` is a
// function of these; everything else of the contract is the library's (./session-agent.ts).
//
// `respond` gets the conversation and an `emit` to stream what the model does (text, reasoning,
// tool calls, status; from protocol 6 an app's data parts, sources and message metadata); it returns when the model is done, or with a question for the user (the turn
// then waits for the answer, and `respond` is called again with the answer in `input.answer`). A
// question may gate a tool call the model announced (`toolCallId`): the user approves or denies
// that call, and `respond` hears which in `input.answer.approval` (a denied call is already ended
// `error` by the agent). It throws to fail the turn (the error's message is shown to the user) and
// must stop when `signal` aborts (the user stopped the turn).

import type { Message, Question, Source, ToolStatus, Usage } from "./protocol.js";

export interface ModelInput {
  /** The turn's branch of the conversation, oldest first: from its first message to the turn's user
   * message (the last), nothing another branch holds (a regenerate's, an edit's or a fork's earlier
   * replies, another device's turns: docs/agent-protocol.md, "Branches"). */
  history: Message[];
  /** The user's text (the last message). */
  prompt: string;
  /**
   * What the embedding page said about where the user is (the chat body's `context`, from the
   * widget's `AgentChat.setContext`), if anything. The page wrote it: use it as a hint (which
   * product they look at), never as proof of who they are.
   */
  context?: Record<string, unknown>;
  /** Set when the turn resumes after a question: the question and the user's answer, and for an
   * approval question the call it gated and whether the user approved it. */
  answer?: {
    questionId: string;
    text: string;
    answer: unknown;
    toolCall?: { callId: string; toolName: string; args?: unknown };
    approval?: { approved: boolean; reason?: string };
    /** What `respond` kept when it asked (`ModelResult`'s `memo`), as it was stored. */
    memo?: unknown;
  };
}

export interface Emit {
  text(delta: string): void;
  reasoning(delta: string): void;
  tool(update: { callId: string; toolName: string; status: ToolStatus; args?: unknown; result?: unknown; error?: string }): void;
  status(status: "thinking" | "streaming" | "tool_calling" | "compacting", detail?: string): void;
  /** An app's data part, `data-<name>` on the client (protocol 6): `name` 1 to 64 of
   * `[A-Za-z0-9_.:-]`, not `status`, `question` or `answer`; with `id`, a later call of the same
   * name and id replaces its data; `transient` ones reach the live client only (its `onData`),
   * never the message or the history. Throws a TypeError on a name the adapter would skip. */
  data(name: string, data: unknown, options?: { id?: string; transient?: boolean }): void;
  /** A source the answer cites: a web page `{ sourceId, url, title? }` or a document
   * `{ sourceId, mediaType, title, filename? }` (protocol 6). */
  source(source: Source): void;
  /** Metadata of the reply, merged into the client's `message.metadata` as the AI SDK merges it
   * (protocol 6): a JSON object naming none of the adapter's keys (`turnId`, `usage`, `model`, …:
   * RESERVED_METADATA_KEYS); throws a TypeError on one that does. */
  metadata(metadata: Record<string, unknown>): void;
  /** The conversation's name (protocol 7, R-title): the user's list of conversations shows it in
   * place of the first message's first line, until the user renames it. 1 to 200 characters once
   * trimmed (a TypeError otherwise); the adapter reads it only before the turn ends, so call it
   * during the turn (the latest call wins). */
  title(title: string): void;
}

/** `toolCallId` names a call announced (`pending`, with its args) in this turn: the question then
 * asks whether it may run; `options` should start with the approval (`["Approve", "Deny"]`).
 * A finished turn may say what it cost: `usage` (tokens in and out) and the `model`; the agent
 * sends them on the turn's `message.finalize` (protocol 3), and the user's client sees them. */
export type ModelResult =
  | { done: true; usage?: Usage; model?: string }
  | {
      done: false;
      question: Omit<Question, "questionId">;
      /** What the model needs to go on after the answer (its own messages of the turn so far, the
       * calls still waiting): JSON, stored with the waiting turn (so it survives hibernation and
       * restarts), never sent to a client, given back in `input.answer.memo`, dropped when the
       * turn ends. */
      memo?: unknown;
    };

/** The model of a SessionAgent: one turn, from its input to its result. */
export type Respond = (input: ModelInput, emit: Emit, signal: AbortSignal) => Promise<ModelResult>;
