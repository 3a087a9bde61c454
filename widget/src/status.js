// The status line: the agent's transient `data-status` ("Thinking…", "Running grep…",
// "Compacting…") while a turn runs, gone as soon as text streams after it.
import { useRef, useState } from "preact/hooks";

const LABELS = {
  thinking: () => "Thinking…",
  tool_use: (label) => (label ? `Running ${label}…` : "Running a tool…"),
  compacting: () => "Compacting…",
};

/** Characters of text in the turn's answer so far (0 while the user's message is the last). */
function answerTextLength(messages) {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return 0;
  return last.parts.reduce((sum, part) => sum + (part.type === "text" ? part.text.length : 0), 0);
}

/**
 * Returns { onData, reset, line(messages, busy) }: `onData` goes to useChat, `reset` before a
 * new request, `line` gives the text to show (or null). A status shows until the answer's text
 * grows past what it was when the status came; before any status or text, "Working…".
 */
export function useStatusLine() {
  const [status, setStatus] = useState(null);
  const textNow = useRef(0);
  return {
    onData(part) {
      if (part.type !== "data-status") return;
      const { phase, label } = part.data ?? {};
      const describe = LABELS[phase];
      if (describe) setStatus({ text: describe(label), textAt: textNow.current });
    },
    reset() {
      setStatus(null);
    },
    line(messages, busy) {
      textNow.current = answerTextLength(messages);
      if (!busy) return null;
      if (status && status.textAt === textNow.current) return status.text;
      return textNow.current === 0 ? "Working…" : null;
    },
  };
}
