// One card per tool call (a `dynamic-tool` part): its name and state, and its input and output
// as formatted JSON, collapsed unless the trace mode is verbose. A failed tool shows its error.
// In the normal trace mode the worker sends no input, output or error text of a tool's (they are
// null, or empty): the card is then its name and state, with nothing to expand. A call the agent
// asks leave to run (a tool approval, questions.js) shows its input and Approve / Deny while it
// waits, then whether it was approved.
import { useStrings } from "./strings.js";
import { format } from "./locale.js";

/** The part's state → [class, label key (locale.js)]. */
const STATES = {
  "input-streaming": ["pending", "toolPending"],
  "input-available": ["running", "toolRunning"],
  "approval-requested": ["pending", "toolAwaiting"],
  "approval-responded": ["pending", "toolPending"],
  "output-available": ["done", "toolDone"],
  "output-error": ["failed", "toolFailed"],
  "output-denied": ["denied", "toolDenied"],
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

/** Approve and Deny, in a group named by the question. */
function Approval({ question, onAnswer, t }) {
  const asked = format(t.approvalAsk, { tool: question.tool });
  return (
    <div class="tool-approve" role="group" aria-label={asked}>
      <p>{asked}</p>
      <button type="button" onClick={() => onAnswer(question, true)}>
        {t.approve}
      </button>
      <button type="button" onClick={() => onAnswer(question, false)}>
        {t.deny}
      </button>
    </div>
  );
}

/**
 * `question`: the part's approval (questions.js), if it has one; `pending`: it may be answered
 * now (the last message, no request running); `onAnswer(question, approved)`.
 */
export function ToolCard({ part, expanded, question, pending, onAnswer }) {
  const { messages: t } = useStrings();
  const [state, label] = STATES[part.state] ?? [part.state];
  const input = part.input ?? undefined;
  const output = part.state === "output-available" ? (part.output ?? undefined) : undefined;
  const answered = question?.answer !== undefined && part.state !== "output-denied";
  const summary = (
    <>
      <span class="tool-name">{part.toolName}</span>
      <span class="tool-state">{label ? t[label] : state}</span>
      {answered && <span class="tool-outcome">{question.answer ? t.approved : t.denied}</span>}
      {part.state === "output-error" && part.errorText && <span class="tool-error">{part.errorText}</span>}
    </>
  );
  if (question?.waiting && pending) {
    return (
      <div class={`tool tool-${state}`}>
        <p class="tool-summary">{summary}</p>
        {input !== undefined && <Json label={t.input} value={input} />}
        <Approval question={question} onAnswer={onAnswer} t={t} />
      </div>
    );
  }
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
