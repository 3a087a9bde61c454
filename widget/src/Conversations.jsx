// The Conversations view: the visitor's conversations in the panel, the newest activity first,
// more as the list scrolls to its end (or by its button), each to open, rename or delete (asked
// first), and a new conversation. It opens over the session shown (the header's button, or the
// page's `showConversations()`), its heading focused; Escape or Back leaves it. Deleting the
// conversation the panel shows moves the panel to a new one; a deleted row's place gives the
// focus to the next row (else the one before, else New conversation), and a status line says so.
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { useReportedError } from "./api.js";
import { useStrings } from "./strings.js";
import { format } from "./locale.js";
import { LIST_SENTENCES, useConversationList } from "./conversation-list.js";
import { ConversationRow } from "./ConversationRow.jsx";

/** The view's id, for the header button's `aria-controls`. */
export const CONVERSATIONS_ID = "agent-chat-conversations";

/** How near its end (px) a scroll loads the next page. */
const NEAR_END_PX = 80;

/** `current`: the session the panel shows; `onOpen(id)` shows `id` (a new one for null); `onBack()` leaves. */
export function Conversations({ config, current, onOpen, onBack }) {
  const { messages: t } = useStrings();
  const list = useConversationList(config, t);
  const error = useReportedError(config, list.error, t, LIST_SENTENCES);
  const [now] = useState(() => Date.now());
  const [said, setSaid] = useState("");
  const heading = useRef(null);
  const view = useRef(null);
  /** The row whose open button takes the focus once a delete has taken its neighbour, or "new". */
  const [focusNext, setFocusNext] = useState(null);
  useLayoutEffect(() => heading.current.focus(), []);
  useLayoutEffect(() => {
    if (focusNext === null) return;
    const row = [...view.current.querySelectorAll(".row")].find((el) => el.dataset.session === focusNext);
    (row?.querySelector(".open") ?? view.current.querySelector(".new")).focus();
    setFocusNext(null);
  }, [focusNext]);
  const remove = async (id) => {
    const at = list.sessions.findIndex((s) => s.id === id);
    const title = list.sessions[at]?.title || t.untitled;
    const neighbour = list.sessions[at + 1] ?? list.sessions[at - 1];
    const problem = await list.remove(id);
    if (problem) return problem;
    setSaid(format(t.deletedNamed, { title }));
    setFocusNext(neighbour?.id ?? "new");
    if (id === current) {
      config.forgetSession(id);
      config.control.openSession(null, true);
    }
    return null;
  };
  /** The index of the first row of a page asked for by its button, which takes the focus once it shows. */
  const firstOfPage = useRef(null);
  const moreButton = useRef(null);
  const more = () => {
    if (list.loading) return;
    firstOfPage.current = list.sessions.length;
    list.more();
  };
  useLayoutEffect(() => {
    const at = firstOfPage.current;
    if (at === null || list.loading) return;
    firstOfPage.current = null;
    view.current.querySelectorAll(".row .open")[at]?.focus();
  }, [list.loading]);
  // Not while Show more has the focus (the keyboard scrolled to it): pressed, it loads the page.
  const onScroll = (event) => {
    const el = event.currentTarget;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_END_PX;
    if (near && !list.loading && !error && el.getRootNode().activeElement !== moreButton.current) list.more();
  };
  return (
    <div
      class="conversations"
      id={CONVERSATIONS_ID}
      ref={view}
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.stopPropagation();
        onBack();
      }}
    >
      <div class="conversations-head">
        <button type="button" class="back" onClick={onBack}>
          {t.back}
        </button>
        <h3 tabindex={-1} ref={heading}>
          {t.conversations}
        </h3>
        <button type="button" class="new" onClick={() => onOpen(null)}>
          {t.newConversation}
        </button>
      </div>
      <div class="list" onScroll={onScroll} aria-busy={list.loading ? "true" : undefined}>
        {list.sessions.length > 0 && (
          <ul aria-label={t.conversations}>
            {list.sessions.map((session) => (
              <ConversationRow
                key={session.id}
                session={session}
                current={session.id === current}
                now={now}
                onOpen={onOpen}
                onRename={list.rename}
                onDelete={remove}
              />
            ))}
          </ul>
        )}
        {list.loading && list.sessions.length === 0 && <p class="loading">{t.loadingConversations}</p>}
        {!list.loading && !error && list.sessions.length === 0 && <p class="empty">{t.noConversations}</p>}
        {/* Kept while its page loads (aria-disabled): the focus stays on it, then goes to the page's first row. */}
        {list.next && !error && (
          <button type="button" class="more" ref={moreButton} aria-disabled={list.loading ? "true" : undefined} onClick={more}>
            {t.moreConversations}
          </button>
        )}
        {error && (
          <div class="error" role="alert">
            <span>{format(t.listFailed, { error })}</span>
            <button type="button" onClick={list.retry}>
              {t.retry}
            </button>
          </div>
        )}
      </div>
      <p class="said" role="status">
        {said}
      </p>
    </div>
  );
}
