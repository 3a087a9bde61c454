// The chat panel: a header (title, the Conversations view's button, trace mode, close) over the
// session it shows (Session.jsx), or over the Conversations view (Conversations.jsx): the
// visitor's conversations, to open, rename, delete, or start anew. Which session and which view
// live in the control store (control.js), so the page's `AgentChat.openConversation()` and the
// like reach them. The focus goes into the view when it opens, and back to its button when the
// visitor leaves it (another conversation's message box takes it as it loads).
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { capped, modesUpTo, storeTraceMode, storedTraceMode } from "./trace.js";
import { useStrings } from "./strings.js";
import { Session } from "./Session.jsx";
import { Conversations, CONVERSATIONS_ID } from "./Conversations.jsx";

/**
 * [mode, setMode]: with `switchable`, the visitor's remembered mode, else `fallback` (the site's
 * `trace`); without, always `fallback`. Either at most `max` (the worker's TRACE_MAX, once the
 * history said it): the panel never shows, nor asks for, more than the worker sends.
 */
function useTraceMode(fallback, switchable, max) {
  const [mode, setMode] = useState(() => (switchable && storedTraceMode()) || fallback);
  const choose = (next) => {
    storeTraceMode(next);
    setMode(next);
  };
  return [capped(mode, max), choose];
}

/** Two speech bubbles: the Conversations view's button. */
const ListIcon = () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
    <path d="M3 4h13v9H7l-4 3zM8 15v2h9l4 3V8h-3" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round" />
  </svg>
);

export function Panel({ config, onClose }) {
  const { messages: t } = useStrings();
  const { control } = config;
  const session = control.session();
  const view = control.view();
  // The panel's config for the session shown: a new one (and a new Session) at each switch.
  const shown = useMemo(
    () => ({ ...config, session, keepSession: () => config.keepSession(session) }),
    [config, session],
  );
  const [traceMax, setTraceMax] = useState(null);
  const [loaded, setLoaded] = useState(false);
  const [trace, setTrace] = useTraceMode(config.trace, config.traceSwitch, traceMax);
  const onLoaded = (max) => {
    setLoaded(true);
    if (max) setTraceMax(max);
  };
  const button = useRef(null);
  const section = useRef(null);
  /**
   * Where the focus goes once the visitor has left the view for the same conversation: its
   * button ("button"), or the message box ("message", the conversation itself chosen). Another
   * conversation's message box takes it as it loads; a page's call moves none.
   */
  const returnFocus = useRef(null);
  useLayoutEffect(() => {
    const target = returnFocus.current;
    returnFocus.current = null;
    if (view !== "chat" || !target) return;
    if (target === "message") section.current.querySelector(".session textarea")?.focus();
    else button.current?.focus();
  }, [view, session]);
  const leave = () => {
    returnFocus.current = "button";
    control.setView("chat");
  };
  const open = (id) => {
    returnFocus.current = id === session ? "message" : null;
    control.openSession(id);
  };
  /** From the session shown, deleted elsewhere: the view's New conversation, the deleted one forgotten. */
  const replaceDeleted = () => {
    config.forgetSession(session);
    open(null);
  };
  const showList = () => control.setView("conversations");
  return (
    <section class="panel" aria-label={t.title} ref={section}>
      <header>
        <h2>{t.title}</h2>
        {config.conversations && (
          <button
            type="button"
            class="icon"
            ref={button}
            aria-label={t.conversations}
            aria-expanded={String(view === "conversations")}
            aria-controls={CONVERSATIONS_ID}
            onClick={() => (view === "conversations" ? leave() : showList())}
          >
            <ListIcon />
          </button>
        )}
        {/* Once a history has said the worker's cap: no mode above it is ever offered. */}
        {config.traceSwitch && loaded && (
          <select aria-label={t.trace} value={trace} onChange={(event) => setTrace(event.currentTarget.value)}>
            {modesUpTo(traceMax).map(([mode, label]) => (
              <option key={mode} value={mode}>
                {t[label]}
              </option>
            ))}
          </select>
        )}
        {onClose && (
          <button type="button" class="close" aria-label={t.closeChat} onClick={onClose}>
            ×
          </button>
        )}
      </header>
      <div class="panel-body">
        <Session
          key={session}
          config={shown}
          trace={trace}
          onLoaded={onLoaded}
          covered={view !== "chat"}
          onNew={replaceDeleted}
          onList={config.conversations ? showList : undefined}
        />
        {view === "conversations" && <Conversations config={config} current={session} onOpen={open} onBack={leave} />}
      </div>
    </section>
  );
}
