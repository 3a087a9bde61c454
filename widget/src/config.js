// The panel's settings: the embedding <script> tag's data-attributes (data-session, data-api,
// data-token, data-trace, data-trace-switch, data-title, data-mount, data-locale,
// data-color-scheme, data-position, data-accent, data-allow-images), under what the page passes
// to `AgentChat("init", {…})` (the same names in camelCase, plus `getToken`, `user`, `context`,
// `labels` and `theme`; see global.js).
import { isTraceMode } from "./trace.js";
import { readStored, removeStored, writeStored } from "./storage.js";
import { authorizedFetch, replaceableSource, tokenSource } from "./auth.js";

const SESSION_KEY = "session-agent-chat:session";

/** The settings a page can pass in JavaScript; anything else is refused with a console error. */
export const OPTION_NAMES = [
  "session", "api", "token", "getToken", "trace", "traceSwitch", "title", "mount", "user", "context",
  "locale", "labels", "theme", "colorScheme", "position", "allowImages",
];

/**
 * The data-attributes of `script` (the widget's own <script> element, document.currentScript),
 * as options: only those present.
 */
export function scriptOptions(script) {
  const data = script?.dataset ?? {};
  const options = {};
  for (const name of ["session", "api", "token", "trace", "title", "mount", "locale", "colorScheme", "position"]) {
    if (data[name]) options[name] = data[name];
  }
  if (data.accent) options.theme = { accent: data.accent };
  // Flags: present (`data-trace-switch`, or `="true"`) unless it says "false".
  for (const name of ["traceSwitch", "allowImages"]) {
    if (data[name] !== undefined && data[name] !== "false") options[name] = true;
  }
  return options;
}

/**
 * The panel's config from `options` (data-attributes, then the page's init over them);
 * `script` and `location` give the default API origin and `?session=`. The session is the
 * option, else the page's `?session=`, else an id this browser keeps (one per `user`).
 */
export function makeConfig(options, script, location) {
  const api = (options.api || new URL(script?.src || location.href).origin).replace(/\/+$/, "");
  const user = userKey(options.user);
  const tokens = replaceableSource(tokenSource(options));
  return {
    api,
    session: options.session || new URLSearchParams(location.search).get("session") || keptSession(user),
    user,
    tokens,
    /** `fetch` with the current token, renewed once after a 401 (auth.js): every request's. */
    fetch: authorizedFetch(tokens),
    trace: isTraceMode(options.trace) ? options.trace : "normal",
    /** Whether the visitor may choose the trace mode (a switch in the header); the site's call. */
    traceSwitch: options.traceSwitch === true,
    mount: options.mount || undefined,
    /** Images in the agent's Markdown load only where the site allows it (they reach other servers). */
    allowImages: options.allowImages === true,
  };
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

function sessionKey(user) {
  return user === undefined ? SESSION_KEY : `${SESSION_KEY}:${user}`;
}

/** A random session id kept in localStorage, so a reload comes back to the same session. */
function keptSession(user) {
  const key = sessionKey(user);
  const kept = readStored(key);
  if (kept) return kept;
  const id = `web-${crypto.randomUUID()}`;
  writeStored(key, id);
  return id;
}

/** Forgets the session kept for `user` (`logout`): the next panel starts a new one. */
export function forgetSession(user) {
  removeStored(sessionKey(user));
}
