// One card per tool call (a `dynamic-tool` part): its name and state, and its input and output
// as formatted JSON, collapsed unless the trace mode is verbose. A failed tool shows its error.
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

export function ToolCard({ part, expanded }) {
  const { messages: t } = useStrings();
  const [state, label] = STATES[part.state] ?? [part.state];
  return (
    <details class={`tool tool-${state}`} open={expanded}>
      <summary>
        <span class="tool-name">{part.toolName}</span>
        <span class="tool-state">{label ? t[label] : state}</span>
        {part.state === "output-error" && <span class="tool-error">{part.errorText}</span>}
      </summary>
      {part.input !== undefined && (
        <section>
          <h4>{t.input}</h4>
          <pre>{json(part.input)}</pre>
        </section>
      )}
      {part.state === "output-available" && (
        <section>
          <h4>{t.output}</h4>
          <pre>{json(part.output)}</pre>
        </section>
      )}
    </details>
  );
}
