// Trace modes: how much of the agent's work the panel shows, and asks the worker to stream
// (the POST body's `trace`). The site decides: its `trace` is the mode, and the visitor may
// choose another (a switch, remembered in localStorage) only where it sets `traceSwitch`. The
// worker's TRACE_MAX caps whatever is asked.
import { readStored, writeStored } from "./storage.js";

const TRACE_KEY = "session-agent-chat:trace";

/** Wire value → its label's key (locale.js): minimal shows the final text only, normal collapsed tool cards, full expanded ones. */
export const TRACE_MODES = [
  ["minimal", "traceMinimal"],
  ["normal", "traceNormal"],
  ["full", "traceFull"],
];

export function isTraceMode(value) {
  return TRACE_MODES.some(([mode]) => mode === value);
}

/** The mode the visitor chose on a page that allowed it, if any. */
export function storedTraceMode() {
  const stored = readStored(TRACE_KEY);
  return isTraceMode(stored) ? stored : null;
}

export function storeTraceMode(mode) {
  writeStored(TRACE_KEY, mode);
}
