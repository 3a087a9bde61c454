// Follows a session feed (`GET /api/sessions/:id/events`, docs/endpoint.md "The session feed")
// with a stock AI SDK `Chat` (ai 5, 6 and 7): a turn started in another tab or on another
// device shows here as it streams, its user message first; a question answered elsewhere goes
// on here; a turn that attaches elsewhere in the conversation (a regenerate, an edit, a stale
// device's send: a new branch) moves this chat to it. A chat that holds only the newest pages of
// a long conversation keeps them, and never loads more than the newest page again. It calls
// nothing but the chat's own `messages`, `status` and `resumeStream()`, and `fetch`: no
// dependency, not even on `ai` (./branches.js is its sibling).
//
// In a browser, the tabs of one session share one feed: the tab that holds the session's Web Lock
// reads it and hands each event to the others (a BroadcastChannel), and a hidden tab gives the
// lock up (a browser holds 6 connections to an origin over HTTP/1.1, and a feed is one of them).
// A feed that cannot connect never breaks the chat: it tries again, later and later, and the chat
// goes on as it would without it. A session deleted (the feed's `deleted`) empties the chat and is
// followed no more.

import { keptFor, loadPage } from "./branches.js";

/** Waits before a reconnection, by attempt: quick after a blip, never more often than every 30 s after that. */
const RETRY_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * How long a feed that answered 204 (a session with nothing to follow: its agent keeps no
 * `init`) waits before it asks again: an agent that comes to keep one (a deploy) is followed
 * within a minute, and a session that never has one costs a request a minute.
 */
const NOTHING_TO_FOLLOW_MS = 60_000;

/**
 * How often a history load that found the chat sending looks again whether it is idle: a chat has
 * no status event of its own in every AI SDK version (a tenth of a second is below what a reader
 * sees, and a send is seconds).
 */
const IDLE_POLL_MS = 100;

/** What a history load compares before and after its read: each message's id, role and parts' types and states. */
const shape = (messages) =>
  JSON.stringify((messages ?? []).map((m) => [m.id, m.role, (m.parts ?? []).map((p) => [p.type, p.state])]));

/**
 * Follows the session feed at `url` with `chat` (an AI SDK `Chat`, or anything with its
 * `messages` (get and set), `status` and `resumeStream()`). Returns `{ close, reconnect }`:
 * `close()` stops following; `reconnect()` connects again now (an app back from the background).
 *
 * Options: `headers` (an object, or a function, sync or async, that gives one: the same
 * credentials and `X-Questions` as the chat's transport); `historyUrl` (the session's history,
 * `…/messages` beside `…/events` by default; or a function that gives it, asked at each load);
 * `fetch`; `shareTabs` (one feed for the tabs of a browser: on where the page has Web Locks and
 * BroadcastChannel); `onEvent(event)` (every feed event, after it was applied: a `deleted` one says
 * the session is gone, its messages taken from the chat); `onError(error)`
 * (a failed connection or history load; the feed goes on).
 */
export function followSession(chat, options = {}) {
  const { url, historyUrl = url.replace(/\/events$/, "/messages"), headers, onEvent, onError } = options;
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const page = typeof document === "undefined" ? undefined : document;
  const shareTabs =
    options.shareTabs ?? (page !== undefined && globalThis.navigator?.locks !== undefined && typeof BroadcastChannel === "function");
  let closed = false;
  /** The session was deleted (a `deleted` event): never connected again. */
  let gone = false;
  /**
   * The feed answered 204: this session has nothing to follow yet (its agent keeps no `init`).
   * The next connection is made a minute later (`NOTHING_TO_FOLLOW_MS`), or at `reconnect()`.
   */
  let nothingToFollow = false;
  /** Set by `reconnect()`: the next connection is made at once, not after a wait. */
  let immediate = false;
  const cleanups = [];
  let controller;
  let lastEventId;
  let attempt = 0;
  let wake;
  /** The turn this chat resumed last: `{ turnId, reason }` (`reason` once it ended). */
  let following;
  /**
   * A turn a sync named running whose reply this chat held already, its own stream of it ended:
   * the sync was read before that end. The feed's next event of the turn says why it ended: a
   * question (`turn-waiting`: the reply is whole as far as it goes), or not (`turn-end`: the
   * reply may be cut short, as by a `stop()` of this chat's own while the turn ran on).
   */
  let ahead;

  const busy = () => chat.status === "submitted" || chat.status === "streaming";
  const headersNow = async () => ({ ...(typeof headers === "function" ? await headers() : headers) });

  /**
   * The newest page of the current branch, in place of the chat's messages. A page read while the
   * chat moved (a send of its own began, or ran to its end) is older than the chat: it is read
   * again once the chat is idle, and never put over a message the chat holds and it lacks.
   */
  async function loadHistory() {
    while (!closed) {
      while (busy() && !closed) await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      const before = shape(chat.messages);
      const at = typeof historyUrl === "function" ? historyUrl() : historyUrl;
      const { messages } = await loadPage(at, { headers: headersNow, fetch: fetchFn });
      if (closed) return;
      if (!busy() && shape(chat.messages) === before) {
        chat.messages = messages;
        return;
      }
    }
  }

  /** Resumes turn `turnId` (its reply, if this chat has one, is taken out first: the resume brings it whole). */
  function resume(turnId) {
    following = { turnId, reason: undefined };
    ahead = undefined;
    if (chat.messages.at(-1)?.id === turnId) chat.messages = chat.messages.slice(0, -1);
    Promise.resolve(chat.resumeStream()).then(
      () => {
        unstick();
        return settle(turnId);
      },
      (error) => onError?.(error),
    );
  }

  /**
   * ai 5.0.0 and 5.0.1 leave a chat whose resume found nothing in flight (a 204: the turn ended
   * before the resume reached the worker) `submitted` for good; 5.0.2 set it back `ready`
   * (vercel/ai#7685). A resume that returned and left the chat `submitted` is that: it is set
   * back with the chat's own `setStatus`, which those versions have.
   */
  function unstick() {
    if (chat.status === "submitted" && typeof chat.setStatus === "function") chat.setStatus({ status: "ready" });
  }

  /**
   * Whether this chat, idle, may not hold turn `turnId` as it ended: it has no reply of it (its
   * stream missed the turn), or the turn was stopped (a `stop()` here closes this chat's stream
   * before the turn's last words reach it).
   */
  const behind = (turnId, reason) => chat.messages.at(-1)?.id !== turnId || reason === "canceled";

  /** After a resume: a turn that ended meanwhile is whole in the history only. */
  async function settle(turnId) {
    if (following?.turnId !== turnId || following.reason === undefined || busy()) return;
    if (behind(turnId, following.reason)) await loadHistory().catch((error) => onError?.(error));
  }

  async function apply(event) {
    switch (event.type) {
      case "sync": {
        // Busy: this chat streams the one turn there is, and its own stream brings it.
        if (busy()) return;
        const mine = chat.messages.slice();
        if (event.turn && mine.at(-1)?.id === event.turn.turnId) mine.pop();
        // Holding more than the sync names is no reason to reload: a sync read before this
        // chat's own turn started arrives after it (the feed's connection took longer than the
        // prompt), and the turn's own events follow it. Holding older pages than it names is
        // none either. Holding other messages, or not its newest, is.
        if (keptFor(mine, event.messageIds) < 0) await loadHistory();
        const held = event.turn && chat.messages.at(-1)?.id === event.turn.turnId;
        // A turn waiting on a question that this chat shows already: its stream ended there.
        if (held && event.turn.questionId !== undefined) return;
        // This chat's own stream of the turn ended after the sync was read (an error is no end:
        // it resumes): resumed, the turn's reply would leave the chat, then come again whole.
        if (held && chat.status === "ready") {
          ahead = event.turn.turnId;
          return;
        }
        if (event.turn) resume(event.turn.turnId);
        return;
      }
      case "turn-start": {
        if (busy()) return;
        // This chat holds the turn already (its own, whose stream ended at a question before this
        // event came): nothing to add, nothing to resume.
        const held = chat.messages.slice(0, -1);
        const asked = event.message ? [...event.branch, event.message.id] : event.branch;
        if (chat.messages.at(-1)?.id === event.turnId && keptFor(held, asked) === held.length) return;
        // The messages the turn follows, as this chat holds them (older pages kept), then its
        // user message; a chat that does not hold them shows another branch: the newest page.
        const kept = keptFor(chat.messages, event.branch);
        if (event.message && kept >= 0) chat.messages = [...chat.messages.slice(0, kept), event.message];
        else await loadHistory();
        // The history holds the turn's reply only once the turn ended (before the page was read):
        // there is nothing to resume, and its reply stays where it is.
        if (chat.messages.at(-1)?.id === event.turnId) return;
        resume(event.turnId);
        return;
      }
      case "turn-continue":
        if (!busy()) resume(event.turnId);
        return;
      case "turn-end": {
        if (following?.turnId === event.turnId) following.reason = event.reason;
        const cut = ahead === event.turnId;
        ahead = undefined;
        if (!busy() && (cut || behind(event.turnId, event.reason))) await loadHistory();
        return;
      }
      case "turn-waiting":
        // The resumed stream (or this chat's own) showed the question and ended there.
        if (ahead === event.turnId) ahead = undefined;
        return;
      case "deleted":
        // The session was deleted (here or elsewhere): nothing of it is kept, so the chat shows
        // none of it once a stream of its own has ended (saying so), and there is nothing left
        // to follow. The app learns it from `onEvent`.
        gone = true;
        while (busy() && !closed) await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
        chat.messages = [];
        return;
      default:
        // An event of a newer feed: nothing.
        return;
    }
  }

  /** Events are applied one at a time, in order, wherever they come from. */
  let applying = Promise.resolve();
  function receive(event) {
    applying = applying
      .then(() => apply(event))
      .catch((error) => onError?.(error))
      .then(() => onEvent?.(event));
    return applying;
  }

  /** The other tabs of this session, where they share the feed. */
  const channel = shareTabs ? new BroadcastChannel(`session-feed ${url}`) : undefined;
  let leading = !shareTabs;

  /** One connection: its events applied in order (and handed to the other tabs), until it ends. */
  async function connect() {
    controller = new AbortController();
    const extra = lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId };
    const response = await fetchFn(url, { headers: { ...(await headersNow()), ...extra }, signal: controller.signal });
    // 204: the session's agent keeps no `init`, and there is nothing to follow.
    if (response.status === 204) {
      nothingToFollow = true;
      return;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      const retryAfter = Number(response.headers.get("retry-after"));
      const error = new Error(`session feed: ${response.status}`);
      error.retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
      throw error;
    }
    attempt = 0;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id;
        let data;
        for (const line of block.split("\n")) {
          if (line.startsWith("id: ")) id = line.slice(4);
          else if (line.startsWith("data: ")) data = line.slice(6);
        }
        if (data === undefined) continue;
        const event = JSON.parse(data);
        channel?.postMessage({ id, event });
        await receive(event);
        if (id !== undefined) lastEventId = id;
      }
    }
  }

  /** Reads the feed, connecting again after each end, until `stillLeading()` says no more. */
  async function lead(stillLeading) {
    while (stillLeading() && !gone) {
      let retryAfterMs;
      try {
        await connect();
      } catch (error) {
        if (!stillLeading()) return;
        if (error?.name !== "AbortError") onError?.(error);
        retryAfterMs = error?.retryAfterMs;
      }
      if (!stillLeading() || gone) return;
      if (immediate) {
        immediate = false;
        continue;
      }
      const wait = nothingToFollow ? NOTHING_TO_FOLLOW_MS : (retryAfterMs ?? RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      nothingToFollow = false;
      attempt += 1;
      // Woken early (`reconnect()`, `close()`), the wait's timer goes with it: a timer left
      // behind keeps a page's (or a Node process's) event loop busy for up to a minute.
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, wait);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  if (!shareTabs) {
    lead(() => !closed);
  } else {
    channel.onmessage = ({ data }) => {
      // A tab that just opened: the tab that reads the feed reads it anew, and every tab gets a
      // `sync` of the session as it is.
      if (data.join) {
        if (leading) reconnectNow(true);
        return;
      }
      if (leading) return;
      if (data.id !== undefined) lastEventId = data.id;
      receive(data.event);
    };
    channel.postMessage({ join: true });
    // The session's lock: held by one visible tab, which reads the feed until it closes or hides.
    let lock;
    const compete = () => {
      if (closed || lock !== undefined || page.visibilityState === "hidden") return;
      lock = new AbortController();
      const mine = lock;
      navigator.locks
        .request(`session-feed ${url}`, { signal: mine.signal }, async () => {
          leading = true;
          try {
            await lead(() => !closed && lock === mine);
          } finally {
            leading = false;
          }
        })
        .catch(() => {
          // Withdrawn (hidden or closed) before it was granted.
        });
    };
    const onVisibility = () => {
      if (page.visibilityState === "hidden") {
        lock?.abort();
        lock = undefined;
        controller?.abort();
        wake?.();
      } else {
        compete();
      }
    };
    page.addEventListener("visibilitychange", onVisibility);
    compete();
    const close = () => {
      page.removeEventListener("visibilitychange", onVisibility);
      lock?.abort();
      lock = undefined;
      channel.close();
    };
    cleanups.push(close);
  }

  function reconnectNow(fresh) {
    attempt = 0;
    immediate = true;
    if (fresh) lastEventId = undefined;
    controller?.abort();
    wake?.();
  }

  return {
    close() {
      closed = true;
      controller?.abort();
      wake?.();
      for (const cleanup of cleanups) cleanup();
    },
    reconnect() {
      reconnectNow(false);
    },
  };
}
