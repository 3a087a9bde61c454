// The status line: the agent's transient `data-status` ("Thinking…", "Running grep…",
// "Compacting…") while a turn runs, gone as soon as text streams after it.
import { useRef, useState } from "preact/hooks";
import { format } from "./locale.js";

/** A status phase → its line, in the panel's language (`t`: the locale's messages). */
const LABELS = {
  thinking: (t) => t.thinking,
  tool_use: (t, label) => (label ? format(t.runningTool, { tool: label }) : t.runningAnyTool),
  compacting: (t) => t.compacting,
};

/** Characters of text in the turn's answer so far (0 while the user's message is the last). */
function answerTextLength(messages) {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return 0;
  return last.parts.reduce((sum, part) => sum + (part.type === "text" ? part.text.length : 0), 0);
}

/**
 * Returns { onData, reset, line(messages, busy) }: `onData` goes to useChat, `reset` before a
 * new request (`reset(true)` before an answer, whose turn goes on in the last message), `line`
 * gives the text to show (or null). A status shows until the answer's text grows past what it
 * was when the status came; before any status or new text, "Working…". `t`: the
 * locale's messages, read when a line is shown (a setLocale mid-turn applies at once).
 */
export function useStatusLine(t) {
  const [status, setStatus] = useState(null);
  const textNow = useRef(0);
  /** The answer's text when the request started: more than 0 when a turn goes on after an answer. */
  const textAtStart = useRef(0);
  return {
    onData(part) {
      if (part.type !== "data-status") return;
      const { phase, label } = part.data ?? {};
      if (LABELS[phase]) setStatus({ phase, label, textAt: textNow.current });
    },
    reset(continuing = false) {
      setStatus(null);
      textAtStart.current = continuing ? textNow.current : 0;
    },
    line(messages, busy) {
      textNow.current = answerTextLength(messages);
      if (!busy) return null;
      if (status && status.textAt === textNow.current) return LABELS[status.phase](t, status.label);
      return textNow.current === textAtStart.current ? t.working : null;
    },
  };
}
