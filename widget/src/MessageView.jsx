// One message of the conversation. The user's: its files (FilePart: images inline, else a card)
// above its text, and on the last one, while nothing runs, a pencil that edits it
// (Conversation). The agent's: its parts in order — its files as the user's are;
// Markdown text; reasoning and tool cards (hidden in the minimal trace mode, a tool's name and
// state in the normal one, open with its input and output in the verbose one); questions, and a
// tool call waiting for approval, which the minimal mode shows as a question —
// and, once finished (not while a question waits), how long it worked, or that it was stopped;
// on the last reply while nothing runs, a Try again that asks for a new one beside it. Either,
// edited or asked again, has a picker of its versions ("‹ 2/3 ›", BranchPicker).
import { Markdown } from "./Markdown.jsx";
import { ToolCard } from "./ToolCard.jsx";
import { QuestionCard } from "./QuestionCard.jsx";
import { questionOf, waitingQuestion } from "./questions.js";
import { workSummary } from "./summary.js";
import { useStrings } from "./strings.js";
import { BranchPicker } from "./BranchPicker.jsx";
import { FilePart } from "./FilePart.jsx";

function UserMessage({ message, onEdit, branches, t, files: shown }) {
  const text = message.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
  const files = message.parts.filter((part) => part.type === "file");
  return (
    <div class="message user">
      {files.length > 0 && (
        <div class="files">
          {files.map((file, i) => (
            <FilePart key={i} part={file} {...shown} />
          ))}
        </div>
      )}
      {text && <div class="bubble">{text}</div>}
      {onEdit && (
        <button type="button" class="edit" aria-label={t.editMessage} title={t.editMessage} onClick={onEdit} />
      )}
      <BranchPicker message={message} {...branches} />
    </div>
  );
}

function AssistantPart({ part, trace, waiting, onAnswer, t, allowImages, api }) {
  switch (part.type) {
    case "file":
      return <FilePart part={part} api={api} allowImages={allowImages} />;
    case "text":
      return <Markdown text={part.text} done={part.state !== "streaming"} allowImages={allowImages} imageLabel={t.image} />;
    case "reasoning":
      return trace === "minimal" || !part.text ? null : (
        <details class="reasoning" open={trace === "full"}>
          <summary>{t.reasoning}</summary>
          <p>{part.text}</p>
        </details>
      );
    case "dynamic-tool": {
      const question = questionOf(part);
      if (trace !== "minimal") {
        return <ToolCard part={part} expanded={trace === "full"} question={question} pending={waiting} onAnswer={onAnswer} />;
      }
      // No tool card: an approval the visitor must give shows as a question.
      return question?.waiting ? <QuestionCard question={question} pending={waiting} onAnswer={onAnswer} /> : null;
    }
    default: {
      const question = questionOf(part);
      return question && <QuestionCard question={question} pending={waiting && question.waiting} onAnswer={onAnswer} />;
    }
  }
}

/**
 * `waiting`: this is the last message and no request runs, so its unanswered question waits
 * for the reader. `onAnswer(question, value)` answers one (Conversation). `onEdit`, on the
 * visitor's last message while nothing runs, starts its edit; `onRetry`, on the last reply while
 * nothing runs, asks for a new reply beside it. `branches`: the picker's `hidden` and `onShow`.
 * `api`: the worker's origin, whose file URLs show as images (FilePart).
 */
export function MessageView({ message, trace, waiting, onAnswer, onEdit, onRetry, branches, allowImages, showUsage, api }) {
  const strings = useStrings();
  if (message.role === "user") {
    return <UserMessage message={message} onEdit={onEdit} branches={branches} t={strings.messages} files={{ api, allowImages }} />;
  }
  // The turn goes on once its question is answered: no "worked for" yet.
  const summary = waiting && waitingQuestion(message) ? null : workSummary(message.metadata, strings, { showUsage });
  return (
    <div class="message assistant">
      {message.parts.map((part, i) => (
        <AssistantPart
          key={i}
          part={part}
          trace={trace}
          waiting={waiting}
          onAnswer={onAnswer}
          t={strings.messages}
          allowImages={allowImages}
          api={api}
        />
      ))}
      {/* A failed turn, reloaded: the history's metadata keeps what the live error said. */}
      {typeof message.metadata?.error === "string" && <p class="failed">{message.metadata.error}</p>}
      {summary && <p class={message.metadata?.stopped ? "summary stopped" : "summary"}>{summary}</p>}
      <div class="actions">
        <BranchPicker message={message} {...branches} />
        {onRetry && (
          <button type="button" class="again" aria-label={strings.messages.tryAgain} title={strings.messages.tryAgain} onClick={onRetry} />
        )}
      </div>
    </div>
  );
}
