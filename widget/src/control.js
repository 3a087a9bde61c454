// What the page's `AgentChat` calls reach inside a mounted panel: whether the launcher's panel
// is open, its strings, and messages to send. A small store, in the loader (widget.js): the
// launcher and the panel's components subscribe, the global calls.

/**
 * A store for one mounted panel. `emit` sends the page's events; `inline`: a panel without a
 * launcher is always open (nothing it says goes unread); `locale`: resolveLocale's (locale.js).
 */
export function createControl(emit, inline, initialContext, locale) {
  let open = inline;
  let context = initialContext;
  let strings = locale;
  let unread = 0;
  const listeners = new Set();
  /** Texts the page sent while the conversation could not take them (loading, or a turn running). */
  const waiting = [];
  let sender = null;
  const notify = () => {
    for (const listener of listeners) listener();
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
    /** An assistant message finished: unread while the panel is closed. */
    messageFinished() {
      if (open) return;
      unread += 1;
      emit("unread", { count: unread });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Sends `text` as the user: now if the conversation is idle, else when it next is. */
    send(text) {
      waiting.push(text);
      if (sender) sender(waiting.shift());
    },
    /**
     * The conversation, whenever it is idle (loaded, no turn or resume under way), takes the
     * next send waiting; it detaches while busy, so sends go one turn at a time, in order.
     */
    attachSender(send) {
      if (waiting.length > 0) {
        send(waiting.shift());
        return () => {};
      }
      sender = send;
      return () => {
        if (sender === send) sender = null;
      };
    },
  };
}
