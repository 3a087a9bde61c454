// One card per tool call (a `dynamic-tool` part): its name and state, and its input and output
// as formatted JSON, collapsed unless the trace mode is verbose. A failed tool shows its error.
// In the normal trace mode the worker sends no input, output or error text of a tool's (they are
// null, or empty): the card is then its name and state, with nothing to expand.
import { useStrings } from "./strings.js";

/** The part's state → [class, label key (locale.js)]. */
const STATES = {
  "input-streaming": ["pending", "toolPending"],
  "input-available": ["running", "toolRunning"],
  "output-available": ["done", "toolDone"],
  "output-error": ["failed", "toolFailed"],
};

function json(value) {
  return JSON.stringify(value, null, 2) ?? "undefined";
}

/** A block of JSON: focusable, since it scrolls and a keyboard must be able to scroll it. */
function Json({ label, value }) {
  return (
    <section>
      <h3>{label}</h3>
      <pre tabIndex={0}>{json(value)}</pre>
    </section>
  );
}

export function ToolCard({ part, expanded }) {
  const { messages: t } = useStrings();
  const [state, label] = STATES[part.state] ?? [part.state];
  const input = part.input ?? undefined;
  const output = part.state === "output-available" ? (part.output ?? undefined) : undefined;
  const summary = (
    <>
      <span class="tool-name">{part.toolName}</span>
      <span class="tool-state">{label ? t[label] : state}</span>
      {part.state === "output-error" && part.errorText && <span class="tool-error">{part.errorText}</span>}
    </>
  );
  if (input === undefined && output === undefined) {
    return (
      <div class={`tool tool-${state}`}>
        <p class="tool-summary">{summary}</p>
      </div>
    );
  }
  return (
    <details class={`tool tool-${state}`} open={expanded}>
      <summary class="tool-summary">{summary}</summary>
      {input !== undefined && <Json label={t.input} value={input} />}
      {output !== undefined && <Json label={t.output} value={output} />}
    </details>
  );
}
