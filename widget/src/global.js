// The page's handle on the panel: `window.AgentChat`, which works before the script has loaded.
//
// The embed snippet defines a stub that queues its calls:
//
//   <script>window.AgentChat=window.AgentChat||function(){(AgentChat.q=AgentChat.q||[]).push(arguments)}</script>
//   <script src="https://chat.example.com/widget.js" async></script>
//
// When the script runs it replaces the stub with the real one and makes the queued calls, in
// order, before the panel first mounts. `AgentChat("init", {…})` and `AgentChat.init({…})` are
// the same call.
import { OPTION_NAMES, forgetSession, labelsOf, userKey } from "./config.js";
import { tokenSource } from "./auth.js";

export const GLOBAL_NAME = "AgentChat";

/** The events a page can listen to with `on(name, fn)`. */
export const EVENT_NAMES = ["ready", "open", "close", "message", "unread", "error"];

/**
 * Installs the global over the stub, whose queued calls are then made. `panel` mounts and
 * unmounts: { mount(options, emit), unmount(), current() → the mounted config or null,
 * setLocale(locale, labels), setTheme(theme) }.
 * `defaults()`: the options of the script tag's data-attributes.
 */
export function installGlobal(window, panel, defaults) {
  const stub = window[GLOBAL_NAME];
  const queued = typeof stub === "function" && Array.isArray(stub.q) ? [...stub.q] : [];
  const listeners = new Map(EVENT_NAMES.map((name) => [name, new Set()]));
  let options = defaults();
  let booted = false;
  let destroyed = false;
  /** `send` calls made before the panel mounted. */
  const pendingSends = [];

  const emit = (name, detail) => {
    for (const listener of listeners.get(name) ?? []) {
      try {
        listener(detail);
      } catch (error) {
        console.error(`${GLOBAL_NAME}: a "${name}" listener threw`, error);
      }
    }
  };
  const remount = () => {
    panel.unmount();
    if (booted && !destroyed) panel.mount(options, emit);
  };

  const methods = {
    /** Mounts the panel with these options over the script tag's (again, if it was mounted). */
    init(given = {}) {
      const unknown = Object.keys(given).filter((name) => !OPTION_NAMES.includes(name));
      if (unknown.length > 0) console.error(`${GLOBAL_NAME}: unknown option ${unknown.join(", ")} (known: ${OPTION_NAMES.join(", ")})`);
      options = { ...defaults(), ...given };
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
    /** Forgets the visitor: their kept session id and token; the panel starts anew without them. */
    logout() {
      forgetSession(panel.current()?.user ?? userKey(options.user));
      const { token: _t, getToken: _g, user: _u, session: _s, ...rest } = options;
      options = { ...rest, ...defaults() };
      remount();
    },
    /** Removes the panel from the page (its streams closed); `init` brings it back. */
    destroy() {
      destroyed = true;
      panel.unmount();
    },
    /** Opens the launcher's panel (an inline panel is always open). */
    open() {
      panel.current()?.control.setOpen(true);
    },
    close() {
      panel.current()?.control.setOpen(false);
    },
    toggle() {
      const control = panel.current()?.control;
      control?.setOpen(!control.isOpen());
    },
    /**
     * Sends `text` as the visitor would; the launcher's panel opens to show it. Before the panel
     * has mounted, the text waits for it.
     */
    send(text) {
      if (typeof text !== "string" || text.trim() === "") {
        console.error(`${GLOBAL_NAME}: send needs a non-empty string`);
        return;
      }
      const control = panel.current()?.control;
      if (control) {
        control.setOpen(true);
        control.send(text);
      } else pendingSends.push(text);
    },
    /**
     * What the page says about where the visitor is (a plain object, at most 16 KiB of JSON),
     * sent with every later prompt for the agent to read; `null` clears it.
     */
    setContext(context) {
      if (context !== null && (typeof context !== "object" || Array.isArray(context))) {
        console.error(`${GLOBAL_NAME}: setContext needs a plain object, or null to clear it`);
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
    on(name, listener) {
      if (!listeners.has(name)) console.error(`${GLOBAL_NAME}: no event "${name}" (events: ${EVENT_NAMES.join(", ")})`);
      else if (typeof listener === "function") listeners.get(name).add(listener);
    },
    off(name, listener) {
      listeners.get(name)?.delete(listener);
    },
  };

  const api = (name, ...args) => {
    const method = methods[name];
    if (!method) {
      console.error(`${GLOBAL_NAME}: no method "${name}" (methods: ${Object.keys(methods).join(", ")})`);
      return undefined;
    }
    return method(...args);
  };
  Object.assign(api, methods);
  window[GLOBAL_NAME] = api;

  for (const args of queued) api(...args);
  return {
    /** Mounts the panel for the first time (the page is ready), unless a queued call destroyed it. */
    boot() {
      booted = true;
      if (destroyed) return;
      panel.mount(options, emit);
      for (const text of pendingSends.splice(0)) methods.send(text);
    },
  };
}
