// The panel's settings: the embedding <script> tag's data-attributes (data-name, data-session,
// data-api, data-token, data-trace, data-trace-switch, data-title, data-mount, data-locale,
// data-color-scheme, data-position, data-accent, data-allow-images, data-allow-url-session,
// data-hide-launcher, data-attachments, data-conversations), under what the page passes to
// `AgentChat("init", {…})` (the same names in camelCase, plus `getToken`, `user`, `context`,
// `labels` and `theme`; see global.js).
import { isTraceMode } from "./trace.js";
import { STORAGE_PREFIX, readStored, removeStored, writeStored } from "./storage.js";
import { authorizedFetch, replaceableSource, tokenSource } from "./auth.js";
import { withListKey } from "./list-key.js";

const SESSION_KEY = `${STORAGE_PREFIX}session`;
const LIST_KEY = `${STORAGE_PREFIX}list`;

/** The settings a page can pass in JavaScript; anything else is refused with a console error. */
export const OPTION_NAMES = [
  "name", "session", "api", "token", "getToken", "trace", "traceSwitch", "title", "mount", "user", "context",
  "locale", "labels", "theme", "colorScheme", "position", "allowImages", "allowUrlSession", "showUsage", "hideLauncher",
  "attachments", "conversations",
];

/** The name of the page's first instance, the one `AgentChat`'s own calls reach. */
export const DEFAULT_INSTANCE = "default";

/** What an instance may be named: it goes into storage keys and the page's calls. */
const INSTANCE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function isInstanceName(name) {
  return typeof name === "string" && INSTANCE_NAME.test(name);
}

/**
 * The data-attributes of `script` (the widget's own <script> element, document.currentScript),
 * as options: only those present.
 */
export function scriptOptions(script) {
  const data = script?.dataset ?? {};
  const options = {};
  for (const name of ["name", "session", "api", "token", "trace", "title", "mount", "locale", "colorScheme", "position"]) {
    if (data[name]) options[name] = data[name];
  }
  if (data.accent) options.theme = { accent: data.accent };
  // Flags: present (`data-trace-switch`, or `="true"`) unless it says "false".
  for (const name of ["traceSwitch", "allowImages", "allowUrlSession", "showUsage", "hideLauncher"]) {
    if (data[name] !== undefined && data[name] !== "false") options[name] = true;
  }
  // On unless it says "false".
  for (const name of ["attachments", "conversations"]) {
    if (data[name] !== undefined) options[name] = data[name] !== "false";
  }
  return options;
}

/**
 * The panel's config from `options` (data-attributes, then the page's init over them) for the
 * instance named `instance` (`first`: the page's first); `script` and `location` give the
 * default API origin and the page's `?session=`. The session is the option, else the page's
 * `?session=` (the first instance only, and only where the site opts in with `allowUrlSession`:
 * otherwise any link someone sends a visitor could choose the session their panel uses), else
 * the id this browser keeps for this instance and user, else a new one, which is kept only once
 * the visitor sends something (`keepSession`): a visitor who never writes leaves nothing behind.
 * The Conversations view (on unless `conversations: false`) opens others (`keepSession(id)` then
 * keeps the one shown) and starts new ones (`newSession()`); the list's key (list-key.js) is
 * kept beside the session, from the visitor's first message too.
 */
export function makeConfig(options, script, location, { instance = DEFAULT_INSTANCE, first = true } = {}) {
  const api = (options.api || new URL(script?.src || location.href).origin).replace(/\/+$/, "");
  const user = userKey(options.user);
  const tokens = replaceableSource(tokenSource(options));
  const key = storageKey(SESSION_KEY, instance, user);
  const fromPage = first && options.allowUrlSession === true ? new URLSearchParams(location.search).get("session") : null;
  /** The site's session (or the link's): the site's to change, never kept in the browser. */
  const named = options.session || fromPage || null;
  const session = named || readStored(key) || newSession();
  const conversations = options.conversations !== false;
  const listKeyAt = storageKey(LIST_KEY, instance, user);
  const listKey = conversations ? readStored(listKeyAt) || crypto.randomUUID() : undefined;
  const authorized = authorizedFetch(tokens);
  return {
    instance,
    api,
    session,
    user,
    tokens,
    /** `fetch` with the current token, renewed once after a 401 (auth.js): every request's. */
    fetch: listKey ? withListKey(authorized, listKey) : authorized,
    trace: isTraceMode(options.trace) ? options.trace : "normal",
    /** Whether the visitor may choose the trace mode (a switch in the header); the site's call. */
    traceSwitch: options.traceSwitch === true,
    mount: options.mount || undefined,
    /** Images in the agent's Markdown load only where the site allows it (they reach other servers). */
    allowImages: options.allowImages === true,
    /** The tokens an answer used, under it, where the agent reported them and the site asks. */
    showUsage: options.showUsage === true,
    /** No launcher: the site opens the panel from its own button (`open()`, `toggle()`). */
    hideLauncher: options.hideLauncher === true,
    /** The visitor may attach files (attachments.js), unless the site says `attachments: false`. */
    attachments: options.attachments !== false,
    /** The Conversations view (Conversations.jsx), unless the site says `conversations: false`. */
    conversations,
    newSession,
    /**
     * Keeps session `id` (the first one by default) in this browser, so that a reload comes back
     * to it, unless it is the site's; and the list's key, so that its list is found again.
     */
    keepSession(id = session) {
      if (listKey && readStored(listKeyAt) === null) writeStored(listKeyAt, listKey);
      if (id !== named && readStored(key) !== id) writeStored(key, id);
    },
    /** A deleted session: a reload no longer comes back to it. */
    forgetSession(id) {
      if (readStored(key) === id) removeStored(key);
    },
  };
}

/** A new session's id. */
function newSession() {
  return `web-${crypto.randomUUID()}`;
}

/** The requested locale: the option, else the page's own language (`<html lang>`), else English. */
export function requestedLocale(options, document) {
  return options.locale || document.documentElement.lang || "en";
}

/**
 * The site's own labels: `labels`, with `title` (the header's, a label like any other: without
 * one, the locale's word for the agent) over them.
 */
export function labelsOf(options) {
  return options.title ? { ...options.labels, title: options.title } : options.labels;
}

/** The theme of `options`: `theme`, with the `colorScheme` and `position` shorthands over it. */
export function themeOf(options) {
  const theme = { ...(options.theme ?? {}) };
  if (options.colorScheme) theme.colorScheme = options.colorScheme;
  if (options.position) theme.position = options.position;
  return theme;
}

/** The key a user's kept session is stored under: their `id`, or the string given. */
export function userKey(user) {
  const id = typeof user === "object" && user !== null ? user.id : user;
  return id === undefined || id === null || id === "" ? undefined : String(id);
}

/**
 * Where an instance's session (or list key) for `user` is kept: `base`
 * (`session-agent-chat:session`, `…:list`), then `@name` for an instance other than the first,
 * then `:user` for a user's.
 */
function storageKey(base, instance, user) {
  const named = instance === DEFAULT_INSTANCE ? "" : `@${instance}`;
  return `${base}${named}${user === undefined ? "" : `:${user}`}`;
}
