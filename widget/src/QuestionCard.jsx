// The agent's question (questions.js: a free question, or an approval where no tool card shows
// it, with the tool's name). While it waits, one button per option, Approve and Deny for an
// approval, or a free-text answer when it has no options; answered, the answer.
import { useState } from "preact/hooks";
import { useStrings } from "./strings.js";
import { format } from "./locale.js";
import { questionText } from "./questions.js";

function shown(answer) {
  return typeof answer === "string" ? answer : JSON.stringify(answer);
}

/** What the card says of an answered (or ended) question, or null while none came. */
function outcome(question, approval, t) {
  if (question.error) return question.error;
  if (question.answer === undefined) return null;
  if (approval) return question.answer === true ? t.approved : t.denied;
  return format(t.answered, { answer: shown(question.answer) });
}

/** `onAnswer(question, value)`: an option, the free text, or true / false for an approval. */
export function QuestionCard({ question, pending, onAnswer }) {
  const { messages: t } = useStrings();
  const [text, setText] = useState("");
  const approval = question.kind === "approve" || question.kind === "approval";
  const choices = approval ? [[t.approve, true], [t.deny, false]] : question.options.map((option) => [option, option]);
  const said = outcome(question, approval, t);
  const submit = (event) => {
    event.preventDefault();
    if (text.trim()) onAnswer(question, text.trim());
  };
  return (
    <div class="question" role="group" aria-label={t.question}>
      {question.tool && <p class="question-tool">{question.tool}</p>}
      <p class="question-text">{questionText(question, t)}</p>
      {said !== null && <p class="question-answer">{said}</p>}
      {pending && choices.length > 0 && (
        <div class="question-options">
          {choices.map(([label, value]) => (
            <button type="button" key={label} onClick={() => onAnswer(question, value)}>
              {label}
            </button>
          ))}
        </div>
      )}
      {pending && choices.length === 0 && (
        <form class="question-free" onSubmit={submit}>
          <input aria-label={t.answer} value={text} onInput={(event) => setText(event.currentTarget.value)} />
          <button type="submit" disabled={!text.trim()}>
            {t.answer}
          </button>
        </form>
      )}
    </div>
  );
}
