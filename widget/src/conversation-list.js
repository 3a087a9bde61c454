// The Conversations view's list, on clients/conversations.js: the visitor's sessions, the newest
// activity first, PAGE_SIZE a page as the visitor scrolls (or asks for more), each once; a rename
// and a delete, each shown in the list once the worker has done it; and live while the view is
// open (the worker's live list): what another tab or device makes, moves, renames or deletes
// shows as it happens. Its requests go through the panel's `fetch`: the token, and the list's
// key where no JWT names the visitor (list-key.js).
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { conversations } from "../../clients/conversations.js";
import { describeError } from "./api.js";

/** The sessions a page of the list holds: the worker's default. */
export const PAGE_SIZE = 20;

/** The codes the view says in words of its own (locale.js keys), over api.js's. */
export const LIST_SENTENCES = {
  invalid_title: "titleInvalid",
  session_not_found: "deleted",
  forbidden: "conversationsUnavailable",
  no_user: "conversationsUnavailable",
  index_not_configured: "conversationsUnavailable",
};

/** How long after the live list ended (or was refused) it is opened again: doubled each time, up to the last. */
const LIVE_RETRY_MS = [2_000, 4_000, 8_000, 16_000, 30_000];

/**
 * The list `state` after a live event: a session in its place by `updatedAt` (one older than
 * every row shown waits for its page, unless it was shown or the list is whole), or a session gone.
 */
export function applied(state, event) {
  const id = event?.type === "deleted" ? event.id : event?.session?.id;
  if (typeof id !== "string") return state;
  const others = state.sessions.filter((s) => s.id !== id);
  if (event.type !== "session") return { ...state, sessions: others };
  const shown = others.length < state.sessions.length;
  const at = others.findIndex((s) => s.updatedAt < event.session.updatedAt);
  if (at === -1) return shown || state.next === null ? { ...state, sessions: [...others, event.session] } : state;
  return { ...state, sessions: [...others.slice(0, at), event.session, ...others.slice(at)] };
}

/** `older` with the sessions of `page` that it has not (a walk gives each once; a guard). */
const merged = (older, page) => {
  const ids = new Set(older.map((s) => s.id));
  return [...older, ...page.filter((s) => !ids.has(s.id))];
};

/**
 * The list from its first page, loaded on mount: { sessions, next, loading, error, more(),
 * retry(), rename(id, title), remove(id) }. `rename` and `remove` resolve with null once done,
 * or with the sentence that says why not (in `t`'s language, the page's `error` event told).
 */
export function useConversationList(config, t) {
  const client = useMemo(() => conversations({ baseUrl: config.api, fetch: config.fetch }), [config]);
  const [state, setState] = useState({ sessions: [], next: null, loading: true, error: null });
  const loading = useRef(false);
  /** The live list opened while a page was on its way: the first page is read again after it. */
  const again = useRef(false);
  const shownCount = useRef(0);
  shownCount.current = state.sessions.length;
  const alive = useRef(true);
  useEffect(() => () => (alive.current = false), []);
  const update = (change) => alive.current && setState(change);
  /** The live events that came while the first page was read: applied again over the page, which
   * may have been read before them. */
  const since = useRef(null);
  const load = (cursor) => {
    if (loading.current) return;
    loading.current = true;
    const events = cursor ? null : [];
    since.current = events;
    update((s) => ({ ...s, loading: true, error: null }));
    client
      .page({ limit: PAGE_SIZE, cursor })
      .then(
        (page) =>
          update((s) => {
            const read = { sessions: cursor ? merged(s.sessions, page.sessions) : page.sessions, next: page.next, loading: false, error: null };
            return (events ?? []).reduce(applied, read);
          }),
        (error) => update((s) => ({ ...s, loading: false, error })),
      )
      .finally(() => {
        loading.current = false;
        if (since.current === events) since.current = null;
        if (again.current) firstAgain();
      });
  };
  /** The first page read again, unless the visitor went past it (their walk goes on as it was). */
  const firstAgain = () => {
    again.current = loading.current;
    if (!loading.current && shownCount.current <= PAGE_SIZE) load(null);
  };
  // The first page at once, and the live list beside it; each time the live list opens, the first
  // page again, so that no change falls between the two.
  useEffect(() => {
    load(null);
    const live = new AbortController();
    let timer;
    let failures = 0;
    const follow = () =>
      client
        .follow((event) => (since.current?.push(event), update((s) => applied(s, event))), {
          signal: live.signal,
          onOpen: () => {
            failures = 0;
            firstAgain();
          },
        })
        .catch(() => {
          // Refused or cut: the list still works, without news; tried again below.
        })
        .finally(() => {
          if (live.signal.aborted) return;
          timer = setTimeout(follow, LIVE_RETRY_MS[Math.min(failures, LIVE_RETRY_MS.length - 1)]);
          failures += 1;
        });
    follow();
    return () => {
      live.abort();
      clearTimeout(timer);
    };
  }, [client]);
  /** The sentence for a refused rename or delete, the page and the console told. */
  const refused = (error) => {
    const described = describeError(error, t, LIST_SENTENCES);
    if (described.detail && described.detail !== described.message) console.warn(`AgentChat: ${described.detail}`);
    config.emit?.("error", described);
    return described.message;
  };
  return {
    ...state,
    more: () => state.next && load(state.next),
    retry: () => load(state.next),
    rename: (id, title) =>
      client.rename(id, title).then((session) => {
        update((s) => ({ ...s, sessions: s.sessions.map((old) => (old.id === id ? session : old)) }));
        return null;
      }, refused),
    // A session already gone (deleted in another tab: 404) is as good as deleted here.
    remove: (id) =>
      client
        .remove(id)
        .catch((error) => {
          if (error?.status !== 404) throw error;
        })
        .then(() => {
          update((s) => ({ ...s, sessions: s.sessions.filter((old) => old.id !== id) }));
          return null;
        }, refused),
  };
}
