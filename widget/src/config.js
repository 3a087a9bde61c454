// The panel's settings, read from the embedding <script> tag's data-attributes:
// data-session, data-api, data-token, data-trace, data-title and data-mount.
import { isTraceMode } from "./trace.js";
import { readStored, writeStored } from "./storage.js";

const SESSION_KEY = "session-agent-chat:session";

/**
 * `script` is the widget's own <script> element (document.currentScript), `location` the page's.
 * The session is data-session, else the page's `?session=`, else an id this browser keeps.
 */
export function readConfig(script, location) {
  const data = script?.dataset ?? {};
  const api = (data.api || new URL(script?.src || location.href).origin).replace(/\/+$/, "");
  return {
    api,
    session: data.session || new URLSearchParams(location.search).get("session") || keptSession(),
    token: data.token || undefined,
    trace: isTraceMode(data.trace) ? data.trace : "normal",
    title: data.title || "Agent",
    mount: data.mount || undefined,
  };
}

/** A random session id kept in localStorage, so a reload comes back to the same session. */
function keptSession() {
  const kept = readStored(SESSION_KEY);
  if (kept) return kept;
  const id = `web-${crypto.randomUUID()}`;
  writeStored(SESSION_KEY, id);
  return id;
}
