// The agent's question (a `data-question` part). While it waits, one button per option, or a
// free-text answer when it has none; answered, the answer.
import { useState } from "preact/hooks";
import { useStrings } from "./strings.js";
import { format } from "./locale.js";

function shown(answer) {
  return typeof answer === "string" ? answer : JSON.stringify(answer);
}

export function QuestionCard({ question, pending, onAnswer }) {
  const { messages: t } = useStrings();
  const [text, setText] = useState("");
  const options = question.options ?? [];
  const submit = (event) => {
    event.preventDefault();
    if (text.trim()) onAnswer(question.questionId, text.trim());
  };
  return (
    <div class="question" role="group" aria-label={t.question}>
      <p class="question-text">{question.text}</p>
      {question.answer !== undefined && <p class="question-answer">{format(t.answered, { answer: shown(question.answer) })}</p>}
      {pending && options.length > 0 && (
        <div class="question-options">
          {options.map((option) => (
            <button type="button" key={option} onClick={() => onAnswer(question.questionId, option)}>
              {option}
            </button>
          ))}
        </div>
      )}
      {pending && options.length === 0 && (
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
