// Trace modes: how much of the agent's work the panel shows, and asks the worker to stream
// (the POST body's `trace`). The reader's choice is remembered in localStorage.
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

/** [mode, setMode]: the remembered mode, else `fallback` (the page's data-trace). */
export function useTraceMode(fallback) {
  const [mode, setMode] = useState(() => {
    const stored = readStored(TRACE_KEY);
    return isTraceMode(stored) ? stored : fallback;
  });
  const choose = (next) => {
    writeStored(TRACE_KEY, next);
    setMode(next);
  };
  return [mode, choose];
}
