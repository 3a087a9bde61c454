// A user's conversations (docs/sessions.md, "Your conversations"): the list, the newest activity
// first and a page at a time, a rename and a delete, as `GET /api/sessions`, `PATCH` and
// `DELETE /api/sessions/:id` answer them; for a web page's sidebar, a phone's list screen or a
// widget's "previous conversations"; and the list live (`GET /api/sessions?live=1`): what another
// tab or device makes, renames or deletes, as it happens. No dependency: `fetch`.

/** A refusal of the worker's: its status, `error.code` and `message` (docs/endpoint.md). */
export class ConversationsError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = "ConversationsError";
    this.status = status;
    this.code = code;
  }
}

/** Most sessions a page holds (the worker's bound: docs/sessions.md). */
export const MAX_PAGE = 100;

/**
 * The conversations of the caller `headers` name (the chat transport's credentials: a JWT's
 * `sub`, or an `X-Conversations-Key`; an object, or a function, sync or async, that gives one)
 * at `baseUrl` (the worker's origin; `""` for the page's own). `fetch` may be given (a test's,
 * or `expo/fetch`). Each call rejects with a `ConversationsError` when the worker refuses it.
 */
export function conversations({ baseUrl = "", headers = {}, fetch: fetchFn } = {}) {
  const root = `${baseUrl.replace(/\/+$/, "")}/api/sessions`;

  async function call(url, init = {}) {
    const head = { ...(typeof headers === "function" ? await headers() : headers), ...init.headers };
    const response = await (fetchFn ?? globalThis.fetch)(url, { ...init, headers: head });
    if (response.ok) return response.status === 204 ? null : response.json();
    const body = await response.json().catch(() => null);
    const error = body?.error ?? {};
    throw new ConversationsError(response.status, error.code ?? "unknown", error.message ?? `the worker answered ${response.status}`);
  }

  const one = (id) => `${root}/${encodeURIComponent(id)}`;

  return {
    /** One page: `{ sessions: [{ id, title, createdAt, updatedAt }], next }` (`next`: the cursor of
     * the page after it, or null on the last). `limit` 1 to 100 (the worker's default: 20). */
    page({ limit, cursor } = {}) {
      const query = new URLSearchParams();
      if (limit !== undefined) query.set("limit", String(limit));
      if (cursor) query.set("cursor", cursor);
      const search = query.toString();
      return call(search ? `${root}?${search}` : root);
    },
    /** Every session, page after page (`limit` a page, the most by default), each once: a
     * session that moved to the front while the walk went on is not given twice. */
    async *all({ limit = MAX_PAGE } = {}) {
      const seen = new Set();
      let cursor = null;
      do {
        const page = await this.page({ limit, cursor });
        for (const session of page.sessions) {
          if (seen.has(session.id)) continue;
          seen.add(session.id);
          yield session;
        }
        cursor = page.next;
      } while (cursor);
    },
    /** Renames session `id` (at most 200 characters): resolves with the session. */
    rename(id, title) {
      return call(one(id), { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ title }) });
    },
    /** Deletes session `id` (its list row and its files: docs/sessions.md): resolves with nothing. */
    remove(id) {
      return call(one(id), { method: "DELETE" }).then(() => undefined);
    },
    /**
     * The list, live: `onEvent` hears each change as the worker tells it, `{ type: "session",
     * session }` (made, moved, renamed or titled: put it in its place by `updatedAt`) or
     * `{ type: "deleted", id }`. `onOpen` is called once the feed is open: list then, and nothing
     * is missed between the page and the feed. Resolves when the feed ends (the worker ended it,
     * or `signal` aborted): a client opens another. Rejects with a `ConversationsError` when the
     * worker refuses it (`429 too_many_feeds`: too many open).
     */
    async follow(onEvent, { signal, onOpen } = {}) {
      const head = { ...(typeof headers === "function" ? await headers() : headers), accept: "text/event-stream" };
      const response = await (fetchFn ?? globalThis.fetch)(`${root}?live=1`, { headers: head, signal });
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        const error = body?.error ?? {};
        throw new ConversationsError(response.status, error.code ?? "unknown", error.message ?? `the worker answered ${response.status}`);
      }
      onOpen?.();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = block.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n");
            if (data) onEvent(JSON.parse(data));
          }
        }
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
    },
  };
}
