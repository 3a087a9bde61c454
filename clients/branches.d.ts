// The types of branches.js, for TypeScript apps (ai 5, 6 and 7).

/** What the branch helpers need of a chat: an AI SDK `Chat` has it. */
export interface BranchedChat<M extends { id: string; metadata?: unknown }> {
  messages: M[];
}

/** Where a message stands among its siblings (`metadata.siblings`). */
export interface Siblings {
  /** Its place, from 0. */
  index: number;
  count: number;
  /** Each sibling's ref, oldest first: what `loadBranch` shows. */
  refs: string[];
}

export interface BranchOptions {
  /** The session's history, `…/api/sessions/:id/messages`, or a function that gives it. */
  historyUrl: string | (() => string);
  /** The chat transport's credentials and `X-Questions`, or a function that gives them. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  fetch?: typeof fetch;
  /** Most messages a page holds (1 to 200; the route's default is 100). */
  limit?: number;
}

export const OLDER_HEADER: "x-history-before";

export function siblingsOf(message: { metadata?: unknown } | undefined): Siblings | null;
export function keptFor(messages: { id: string }[], branch: string[]): number;
export function loadPage<M>(url: string, options?: Omit<BranchOptions, "historyUrl">): Promise<{ messages: M[]; older: boolean }>;
export function loadBranch<M extends { id: string; metadata?: unknown }>(chat: BranchedChat<M>, ref: string, options: BranchOptions): Promise<{ older: boolean }>;
export function loadOlder<M extends { id: string; metadata?: unknown }>(chat: BranchedChat<M>, options: BranchOptions): Promise<{ added: number; older: boolean }>;
export function refreshBranches<M extends { id: string; role: string; metadata?: unknown }>(chat: BranchedChat<M>, options: BranchOptions): Promise<boolean>;
