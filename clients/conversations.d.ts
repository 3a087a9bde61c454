// The types of conversations.js, for TypeScript apps (a web sidebar, a phone's list screen).

/** A session of the list (docs/sessions.md, "Your conversations"). */
export interface Conversation {
  id: string;
  title: string;
  /** Milliseconds since the epoch: when its first turn came, and its last. */
  createdAt: number;
  updatedAt: number;
}

/** One page: `next` is the cursor of the page after it, or null on the last. */
export interface ConversationsPage {
  sessions: Conversation[];
  next: string | null;
}

/** A refusal of the worker's: its status, `error.code` and `message`. */
export declare class ConversationsError extends Error {
  status: number;
  code: string;
}

/** Most sessions a page holds. */
export declare const MAX_PAGE: 100;

export interface ConversationsOptions {
  /** The worker's origin; `""` (the default) for the page's own. */
  baseUrl?: string;
  /** The chat transport's credentials, or a function that gives them. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  /** Sends with this `fetch` (a test's, or `expo/fetch`). */
  fetch?: typeof globalThis.fetch;
}

export interface Conversations {
  page(options?: { limit?: number; cursor?: string | null }): Promise<ConversationsPage>;
  all(options?: { limit?: number }): AsyncGenerator<Conversation, void, undefined>;
  rename(id: string, title: string): Promise<Conversation>;
  remove(id: string): Promise<void>;
  /** The list, live (`GET /api/sessions?live=1`): resolves when the feed ends. */
  follow(onEvent: (event: ConversationEvent) => void, options?: { signal?: AbortSignal; onOpen?: () => void }): Promise<void>;
}

/** A change of the list, as the live list tells it. */
export type ConversationEvent = { type: "session"; session: Conversation } | { type: "deleted"; id: string };

export declare function conversations(options?: ConversationsOptions): Conversations;
