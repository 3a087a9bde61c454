// What the page's `AgentChat` calls reach inside a mounted panel: whether the launcher's panel
// is open, its strings, the unread count, messages to send, and the conversation it shows (or
// its Conversations view). A small store, in the loader (widget.js): the launcher and the
// panel's components subscribe, the global calls.

/**
 * A store for one mounted panel. `emit` sends the page's events; `inline`: a panel without a
 * launcher is always open (nothing it says goes unread); `locale`: resolveLocale's (locale.js);
 * `sessions`: the config's (config.js) `session`, `newSession()`, `keepSession(id)` and
 * `conversations` (whether the view is on).
 */
export function createControl(emit, inline, initialContext, locale, sessions = {}) {
  let open = inline;
  /** The session the panel shows, and what it shows: its conversation ("chat") or "conversations". */
  let session = sessions.session;
  let view = "chat";
  let context = initialContext;
  let strings = locale;
  let unread = 0;
  const listeners = new Set();
  /** Texts the page sent that wait their turn, oldest first. */
  const waiting = [];
  /**
   * The conversation's send while it is idle (loaded, no turn or resume under way, no question
   * of the agent's waiting for the visitor or answered and about to be posted), else null.
   */
  let sender = null;
  /** Whether a send of the page's is under way: the next waits for its turn to end. */
  let sending = false;
  const notify = () => {
    for (const listener of listeners) listener();
  };
  /**
   * Sends the oldest waiting text when the conversation is idle and no send of the page's is
   * under way; the next goes once that turn has ended. One at a time, in order, every time.
   */
  const pump = () => {
    if (sending || !sender || waiting.length === 0) return;
    sending = true;
    const send = sender;
    const text = waiting.shift();
    Promise.resolve()
      .then(() => send(text))
      .catch(() => {
        // The conversation shows its own error; the next text still goes.
      })
      .finally(() => {
        sending = false;
        pump();
      });
  };
  return {
    isOpen: () => open,
    /** The page's context for the next prompts (`setContext`), or undefined. */
    context: () => context,
    setContext(value) {
      context = value;
    },
    /** The locale's { locale, lang, dir, messages } (locale.js). */
    strings: () => strings,
    setStrings(value) {
      strings = value;
      notify();
    },
    /** Opens or closes the launcher's panel; the page hears `open` or `close`. */
    setOpen(value) {
      if (inline || open === value) return;
      open = value;
      emit(open ? "open" : "close");
      if (open && unread > 0) {
        unread = 0;
        emit("unread", { count: 0 });
      }
      notify();
    },
    /** Messages that finished while the launcher's panel was closed. */
    unread: () => unread,
    /** An assistant message finished: unread while the panel is closed. */
    messageFinished() {
      if (open) return;
      unread += 1;
      emit("unread", { count: unread });
      notify();
    },
    session: () => session,
    view: () => view,
    /** Whether the Conversations view is on (the site's `conversations`). */
    conversations: sessions.conversations,
    /** Shows the conversation ("chat") or the Conversations view. */
    setView(value) {
      if (view === value || (value === "conversations" && !sessions.conversations)) return;
      view = value;
      notify();
    },
    /**
     * Shows session `id` (kept in this browser: a reload comes back to it), or a new one when `id`
     * is null (kept once the visitor writes); the page hears `conversation` when it changed.
     * `stay`: the Conversations view stays (a delete of the open one). Returns the session.
     */
    openSession(id, stay = false) {
      const next = id ?? sessions.newSession();
      if (id != null) sessions.keepSession(id);
      if (!stay) view = "chat";
      if (next !== session) {
        session = next;
        // Texts the page sent for the conversation before wait for the new one's composer.
        sender = null;
        emit("conversation", { session });
      }
      notify();
      return session;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Sends `text` as the user, after every text sent before it, each once the last turn ended. */
    send(text) {
      waiting.push(text);
      pump();
    },
    /**
     * The conversation, whenever it is idle, offers its send (which returns a promise of the
     * turn's end); it takes it back (the returned function) when it is busy again.
     */
    attachSender(send) {
      sender = send;
      pump();
      return () => {
        if (sender === send) sender = null;
      };
    },
  };
}
