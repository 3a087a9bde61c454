// The types of follow-session.js, for TypeScript apps (ai 5, 6 and 7).

/** What followSession needs of a chat: an AI SDK `Chat` has all of it. */
export interface FollowedChat<M extends { id: string }> {
  messages: M[];
  readonly status: "submitted" | "streaming" | "ready" | "error";
  resumeStream(): unknown;
}

/** One event of the session feed (docs/endpoint.md, "The session feed"). */
export type FeedEvent =
  | { type: "sync"; messageIds: string[]; turn: { turnId: string; questionId?: string } | null }
  | { type: "turn-start"; turnId: string; message: { id: string; role: "user"; parts: unknown[] } | null; branch: string[] }
  | { type: "turn-waiting"; turnId: string; questionId: string }
  | { type: "turn-continue"; turnId: string }
  | { type: "turn-end"; turnId: string; reason: "end_turn" | "error" | "canceled" }
  | { type: "deleted" };

export interface FollowOptions {
  /** The session feed: `…/api/sessions/:id/events`. */
  url: string;
  /** The session's history (or a function that gives it, asked at each load); `…/messages` beside `…/events` by default. */
  historyUrl?: string | (() => string);
  /** The chat transport's credentials and `X-Questions`, or a function that gives them. */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);
  fetch?: typeof fetch;
  /** One feed for the tabs of a browser (a Web Lock picks the tab that reads it, a BroadcastChannel hands its events to the others); on by default where the page has both. */
  shareTabs?: boolean;
  onEvent?: (event: FeedEvent) => void;
  onError?: (error: unknown) => void;
}

/** Follows the session feed with `chat`: see follow-session.js. */
export function followSession<M extends { id: string }>(chat: FollowedChat<M>, options: FollowOptions): { close(): void; reconnect(): void };
