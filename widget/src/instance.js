// One chat panel of the page's, as `AgentChat` controls it: its options, its panel mounted and
// mounted again, who the visitor is, what the page sends it and what it tells the page. The
// page's first instance is what `AgentChat` itself calls; every other is `AgentChat.instance(name)`
// (global.js).
import { OPTION_NAMES, labelsOf, userKey } from "./config.js";
import { tokenSource } from "./auth.js";
import { GLOBAL_NAME, createEvents } from "./events.js";

/** A session id the worker takes (docs/endpoint.md). */
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The largest `context`, in bytes of JSON: the worker's own limit (MAX_CONTEXT_BYTES, crates/core/src/bounds.rs). */
export const MAX_CONTEXT_BYTES = 16 * 1024;

/**
 * Why `context` cannot be sent (a sentence for the console), or null when it can: a plain
 * object, or null, of at most MAX_CONTEXT_BYTES of JSON.
 */
export function contextProblem(context) {
  if (context === null || context === undefined) return null;
  if (typeof context !== "object" || Array.isArray(context)) return "needs a plain object, or null to clear it";
  let json;
  try {
    json = JSON.stringify(context);
  } catch (error) {
    return `cannot be sent as JSON (${error.message})`;
  }
  const bytes = new TextEncoder().encode(json).length;
  return bytes > MAX_CONTEXT_BYTES ? `is ${bytes} bytes of JSON, over the worker's limit of ${MAX_CONTEXT_BYTES}` : null;
}

/**
 * An instance named `name` (`first`: the page's first). `panel`: loader.js's panel of its
 * script; `defaults()`: that script tag's data-attributes as options; `emit(event, detail)`: the
 * page-wide listeners (every event's detail names the instance); `logout()`: the page's, which
 * forgets the visitor in every instance. Returns { name, methods, boot, forgetVisitor }.
 */
export function createInstance({ name, first, panel, defaults, emit, logout }) {
  const events = createEvents();
  let options = defaults();
  let booted = false;
  let destroyed = false;
  /** Calls made before the panel mounted (`send`, `newConversation`…), each with its store then. */
  const pending = [];

  const fire = (event, detail = {}) => {
    const full = { ...detail, instance: name };
    events.emit(event, full);
    emit(event, full);
  };
  const remount = () => {
    panel.unmount();
    if (booted && !destroyed) panel.mount(options, fire, { instance: name, first });
  };
  /** The mounted panel's store, put back into the page first if the page took it out. */
  const control = () => {
    panel.ensureConnected();
    return panel.current()?.control;
  };
  /** `call(store)` with the mounted panel's store now, or once it has mounted. */
  const withControl = (call) => {
    const store = control();
    if (store) call(store);
    else pending.push(call);
  };
  /** The options without a `context` that cannot be sent (named in the console). */
  const checkedContext = (given) => {
    const problem = contextProblem(given.context);
    if (!problem) return given;
    console.error(`${GLOBAL_NAME}: context ${problem}; it is not sent`);
    const { context: _dropped, ...rest } = given;
    return rest;
  };

  const methods = {
    /** Mounts the panel with these options over the script tag's (again, if it was mounted). */
    init(given = {}) {
      const unknown = Object.keys(given).filter((option) => !OPTION_NAMES.includes(option));
      if (unknown.length > 0) console.error(`${GLOBAL_NAME}: unknown option ${unknown.join(", ")} (known: ${OPTION_NAMES.join(", ")})`);
      options = checkedContext({ ...defaults(), ...given });
      destroyed = false;
      remount();
    },
    /**
     * Who the visitor is now: a new token (or token function) for every later request, and,
     * with `user`, their own kept session (a new user gets a panel of their own).
     */
    identify({ token, getToken, user } = {}) {
      const sameUser = user === undefined || userKey(user) === userKey(options.user);
      options = { ...options, token, getToken, ...(user === undefined ? {} : { user }) };
      const mounted = panel.current();
      if (mounted && sameUser) mounted.tokens.set(tokenSource({ token, getToken }));
      else remount();
    },
    /** Forgets the visitor in every instance of the page (global.js). */
    logout() {
      logout();
    },
    /** Removes the panel from the page (its streams closed); `init` brings it back. */
    destroy() {
      destroyed = true;
      panel.unmount();
    },
    /** Opens the launcher's panel (an inline panel is always open). */
    open() {
      control()?.setOpen(true);
    },
    close() {
      control()?.setOpen(false);
    },
    toggle() {
      const store = control();
      store?.setOpen(!store.isOpen());
    },
    /**
     * Sends `text` as the visitor would; the launcher's panel opens to show it. Texts wait
     * their turn: each goes once the turn before it has ended, in the order they were sent.
     */
    send(text) {
      if (typeof text !== "string" || text.trim() === "") {
        console.error(`${GLOBAL_NAME}: send needs a non-empty string`);
        return;
      }
      withControl((store) => {
        store.setOpen(true);
        store.send(text);
      });
    },
    /**
     * A new conversation (a new session id, kept once the visitor writes), shown in the panel,
     * which the launcher's opens; the page hears `conversation` with the new session.
     */
    newConversation() {
      withControl((store) => {
        store.setOpen(true);
        store.openSession(null);
      });
    },
    /** The conversation of session `id` (from the Conversations view's list, or the site's own), shown and kept. */
    openConversation(id) {
      if (typeof id !== "string" || !SESSION_ID.test(id)) {
        console.error(`${GLOBAL_NAME}: openConversation needs a session id (1 to 128 of A-Z, a-z, 0-9, ".", "_", ":", "-")`);
        return;
      }
      withControl((store) => {
        store.setOpen(true);
        store.openSession(id);
      });
    },
    /** The Conversations view, in the panel the launcher's opens (unless `conversations: false`). */
    showConversations() {
      withControl((store) => {
        if (!store.conversations) {
          console.error(`${GLOBAL_NAME}: the Conversations view is off (conversations: false)`);
          return;
        }
        store.setOpen(true);
        store.setView("conversations");
      });
    },
    /**
     * What the page says about where the visitor is (a plain object, at most 16 KiB of JSON),
     * sent with every later prompt for the agent to read; `null` clears it. One the worker would
     * refuse is refused here, in the console, and the context stays as it was.
     */
    setContext(context) {
      const problem = contextProblem(context);
      if (problem) {
        console.error(`${GLOBAL_NAME}: setContext ${problem}; the context stays as it was`);
        return;
      }
      const value = context ?? undefined;
      options = { ...options, context: value };
      panel.current()?.control.setContext(value);
    },
    /**
     * The panel's language from now on: a locale ("fr", "ar-EG"…; English where none is
     * shipped), and optionally single `labels` over its strings.
     */
    setLocale(locale, labels) {
      options = { ...options, locale, ...(labels === undefined ? {} : { labels }) };
      panel.setLocale(locale, labelsOf(options));
    },
    /**
     * The panel's look from now on, over what it has: `colorScheme` (light, dark, auto),
     * `position` (right, left) and the theme's properties (accent, background, radius…).
     */
    setTheme(theme) {
      if (typeof theme !== "object" || theme === null) {
        console.error(`${GLOBAL_NAME}: setTheme needs an object, such as { colorScheme: "dark" }`);
        return;
      }
      const { colorScheme, position, ...rest } = theme;
      options = {
        ...options,
        theme: { ...(options.theme ?? {}), ...rest },
        ...(colorScheme === undefined ? {} : { colorScheme }),
        ...(position === undefined ? {} : { position }),
      };
      panel.setTheme(theme);
    },
    /** Listens to this instance's events (`AgentChat.on` hears every instance's). */
    on: events.on,
    off: events.off,
  };

  return {
    name,
    methods,
    /** Mounts the panel for the first time (the page is ready), unless a call destroyed it. */
    boot() {
      booted = true;
      if (destroyed) return;
      panel.mount(options, fire, { instance: name, first });
      for (const call of pending.splice(0)) withControl(call);
    },
    /**
     * `logout`: the visitor's token, user, session and context are dropped (the script tag's
     * settings come back), the calls still waiting too, and a new panel with none of them mounts.
     */
    forgetVisitor() {
      const { token: _t, getToken: _g, user: _u, session: _s, context: _c, ...rest } = options;
      options = { ...rest, ...defaults() };
      pending.length = 0;
      remount();
    },
  };
}
