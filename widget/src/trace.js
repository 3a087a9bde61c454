// Trace modes: how much of the agent's work the panel shows, and asks the worker to stream
// (the POST body's `trace`). The site decides: its `trace` is the mode, and the visitor may
// choose another (a switch, remembered in localStorage) only where it sets `traceSwitch`. The
// worker's TRACE_MAX caps whatever is asked.
import { useState } from "preact/hooks";
import { readStored, writeStored } from "./storage.js";

const TRACE_KEY = "session-agent-chat:trace";

/** Wire value → label: minimal shows the final text only, normal collapsed tool cards, full expanded ones. */
export const TRACE_MODES = [
  ["minimal", "Minimal"],
  ["normal", "Normal"],
  ["full", "Verbose"],
];

export function isTraceMode(value) {
  return TRACE_MODES.some(([mode]) => mode === value);
}

/**
 * [mode, setMode]: with `switchable`, the visitor's remembered mode, else `fallback` (the site's
 * `trace`); without, always `fallback`.
 */
export function useTraceMode(fallback, switchable) {
  const [mode, setMode] = useState(() => {
    const stored = switchable ? readStored(TRACE_KEY) : null;
    return isTraceMode(stored) ? stored : fallback;
  });
  const choose = (next) => {
    writeStored(TRACE_KEY, next);
    setMode(next);
  };
  return [mode, choose];
}
