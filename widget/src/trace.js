// Trace modes: how much of the agent's work the panel shows, and asks the worker to stream
// (the POST body's `trace`). The site decides: its `trace` is the mode, and the visitor may
// choose another (a switch, remembered in localStorage) only where it sets `traceSwitch`. The
// worker's TRACE_MAX caps whatever is asked (docs/sessions.md, "Trace modes"), and says so in
// its history's `X-Trace-Max`: the switch then offers no mode above it, and the panel shows no
// more than the worker sends.
import { STORAGE_PREFIX, readStored, writeStored } from "./storage.js";

const TRACE_KEY = `${STORAGE_PREFIX}trace`;

/** The history response's header that names the worker's TRACE_MAX (src/trace.rs). */
export const TRACE_MAX_HEADER = "x-trace-max";

/**
 * Wire value → its label's key (locale.js), from least to most: minimal shows the final text
 * only, normal each tool by its name and state, full the tools with their input and output.
 */
export const TRACE_MODES = [
  ["minimal", "traceMinimal"],
  ["normal", "traceNormal"],
  ["full", "traceFull"],
];

const rank = (mode) => TRACE_MODES.findIndex(([name]) => name === mode);

export function isTraceMode(value) {
  return rank(value) !== -1;
}

/** The modes at most `max` (all of them when the cap is not known). */
export function modesUpTo(max) {
  return isTraceMode(max) ? TRACE_MODES.slice(0, rank(max) + 1) : TRACE_MODES;
}

/** `mode`, lowered to `max` when it is above it. */
export function capped(mode, max) {
  return isTraceMode(max) && rank(mode) > rank(max) ? max : mode;
}

/** The mode the visitor chose on a page that allowed it, if any. */
export function storedTraceMode() {
  const stored = readStored(TRACE_KEY);
  return isTraceMode(stored) ? stored : null;
}

export function storeTraceMode(mode) {
  writeStored(TRACE_KEY, mode);
}
