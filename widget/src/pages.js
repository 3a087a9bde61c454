// The conversation's scroll, pages and branches (clients/branches.js; docs/sessions.md, "Pages and
// branches"). The list follows the newest message while the reader is at its bottom. The page
// before the first message shown loads when the reader scrolls near the top, or presses "Load
// older messages" (the keyboard's way); the messages in view stay where they were. A picker
// ("‹ 2/3 ›", BranchPicker.jsx) shows another branch of the conversation in place of this one, the
// focus kept on the picker; and the pickers are brought up to date when a turn ends, since a
// turn's own stream cannot say that it added a sibling (a retried reply, an edited message).
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { loadBranch, loadOlder, refreshBranches } from "../../clients/branches.js";

/** A reader this near the bottom follows the newest message: 40 px, within a line of text. */
const PINNED_PX = 40;

/** A reader this near the top gets the page before: 120 px, two short messages above the view,
 * so the page is usually in before the reader reaches the top. */
const NEAR_TOP_PX = 120;

/** Runs `then` two frames on: the last render painted, and handed to the accessibility tree. */
const afterPaint = (then) => requestAnimationFrame(() => requestAnimationFrame(then));

/**
 * The pages of `chat` (an AI SDK `Chat`) as the list shows them (`shown`: the hook's messages,
 * which lag the chat's by its throttle). `pages`: the history's options (api.js
 * historyOptions); `olderAtFirst`: the first page said older messages exist; `turnRuns()`:
 * whether a turn runs (or waits on a question) now.
 *
 * Returns the list's `ref` and `onScroll`; `follow()` (back to the newest message); `older` (a
 * page before the first message exists) and `setOlder` (another load said so);
 * `loadOlderPage()`; `showBranch(ref, which)` (`which`: the picker's button pressed, "prev" or
 * "next"); `loading` (a page on its way or not yet painted, "older" or "branch": the log is busy
 * meanwhile); and `error` (the last load's, until the next).
 */
export function usePages({ chat, shown, pages, olderAtFirst, turnRuns }) {
  const list = useRef(null);
  const pinned = useRef(true);
  const [older, setOlder] = useState(olderAtFirst);
  const [loading, setLoading] = useState(null);
  /** A page on its way (not yet shown): no other load starts. */
  const loadingNow = useRef(false);
  /** The loads started, counted: a load's end clears `loading` unless another has started since. */
  const loads = useRef(0);
  const [error, setError] = useState(null);
  /** What to do once the list shows the page loaded: `{ then, mine }` (`mine`: the load's count),
   * taken once; `land()` renders the list again to get there. */
  const landing = useRef(null);
  const [, land] = useState(0);
  // One load or refresh at a time: a refresh matches messages by id, and the versions of an
  // edited message share one.
  const queue = useRef(Promise.resolve());
  const run = (work) => {
    const done = queue.current.then(work);
    queue.current = done.catch(() => {});
    return done;
  };

  /** Loads a page of `kind` with `work`, then, once the list shows it, `then(result)`. */
  const load = (kind, work, then) => {
    if (loadingNow.current) return;
    loadingNow.current = true;
    const mine = ++loads.current;
    setLoading(kind);
    setError(null);
    run(work).then(
      (result) => {
        setOlder(result.older);
        landing.current = { then: () => then(result), mine };
        land((n) => n + 1);
      },
      (failure) => {
        loadingNow.current = false;
        setLoading(null);
        setError(failure);
      },
    );
  };

  // The page shown: the next load may start; the log is busy until it is painted.
  useLayoutEffect(() => {
    const landed = landing.current;
    if (landed === null || shown !== chat.messages) return;
    landing.current = null;
    loadingNow.current = false;
    landed.then();
    afterPaint(() => loads.current === landed.mine && setLoading(null));
  });
  // Following the newest message.
  useEffect(() => {
    if (pinned.current && list.current) list.current.scrollTop = list.current.scrollHeight;
  });

  const loadOlderPage = () => {
    if (!older) return;
    const el = list.current;
    // The first message in view stays where it is: what the reader was reading does not move.
    const first = el.querySelector(".message");
    const top = first?.getBoundingClientRect().top;
    const hadFocus = el.getRootNode().activeElement?.classList.contains("older");
    load(
      "older",
      () => loadOlder(chat, pages),
      ({ added, older: more }) => {
        if (added === 0 || !first?.isConnected) return;
        pinned.current = false;
        el.scrollTop += first.getBoundingClientRect().top - top;
        // The button pressed is gone with the last page: the focus stays in the list.
        if (hadFocus && !more) el.focus({ preventScroll: true });
      },
    );
  };

  const showBranch = (ref, which) =>
    load(
      "branch",
      () => loadBranch(chat, ref, pages),
      () => {
        // The focus goes to the button pressed, on the picker of the sibling now shown (at an
        // end it is aria-disabled, and a keyboard user hears so), and into view; to the message
        // box when the page shown does not reach that sibling (a branch longer than a page).
        const el = list.current;
        const button = el.querySelector(`.branches[data-ref="${CSS.escape(ref)}"] .${which}`);
        (button ?? el.parentElement.querySelector("textarea"))?.focus();
        pinned.current = atBottom(el);
      },
    );

  // A turn that ended may have added a sibling: to its user message (an edit) or its reply (a
  // retry), the chat's last two. Not with an agent that keeps no branches (before protocol 5):
  // its history's messages have no `ref`, and the route answers a refresh 409.
  const branching = useRef(shown.length === 0 ? undefined : shown.some((m) => typeof m.metadata?.ref === "string"));
  const wasRunning = useRef(false);
  useEffect(() => {
    const running = turnRuns();
    if (wasRunning.current && !running && branching.current !== false) {
      run(() => refreshBranches(lastTurn(chat), pages)).then(
        () => (branching.current = true),
        (failure) => (branching.current = failure.status === 409 ? false : branching.current),
      );
    }
    wasRunning.current = running;
  });

  const onScroll = () => {
    const el = list.current;
    pinned.current = atBottom(el);
    if (el.scrollTop < NEAR_TOP_PX) loadOlderPage();
  };
  /** Follows the newest message again (the visitor sent one). */
  const follow = () => {
    pinned.current = true;
  };

  return { list, onScroll, follow, older, setOlder, loadOlderPage, showBranch, loading, error };
}

/**
 * The last two messages of `chat` (a turn's user message and reply), as a chat of their own for
 * refreshBranches: it reads a page of two, not of the whole conversation, and what it sets goes
 * back in their place, while the chat still ends with them.
 */
function lastTurn(chat) {
  return {
    get messages() {
      return chat.messages.slice(-2);
    },
    set messages(next) {
      const now = chat.messages;
      const tail = now.slice(-next.length);
      if (tail.every((m, i) => m.id === next[i].id)) chat.messages = [...now.slice(0, now.length - next.length), ...next];
    },
  };
}

/** Whether the list `el` is scrolled to its bottom (within PINNED_PX). */
const atBottom = (el) => el.scrollHeight - el.scrollTop - el.clientHeight < PINNED_PX;
