// One message of the conversation. The user's: its text. The agent's: its parts in order —
// Markdown text; reasoning and tool cards (hidden in the minimal trace mode, a tool's name and
// state in the normal one, open with its input and output in the verbose one); questions —
// and, once finished, how long it worked, or that it was stopped.
import { Markdown } from "./Markdown.jsx";
import { ToolCard } from "./ToolCard.jsx";
import { QuestionCard } from "./QuestionCard.jsx";
import { workSummary } from "./summary.js";
import { useStrings } from "./strings.js";

function UserMessage({ message }) {
  const text = message.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
  const files = message.parts.filter((part) => part.type === "file");
  return (
    <div class="message user">
      <div class="bubble">
        {text}
        {files.map((file, i) => (
          <div class="file" key={i}>
            {file.filename ?? file.mediaType}
          </div>
        ))}
      </div>
    </div>
  );
}

function AssistantPart({ part, trace, questionPending, onAnswer, t, allowImages }) {
  switch (part.type) {
    case "text":
      return <Markdown text={part.text} done={part.state !== "streaming"} allowImages={allowImages} imageLabel={t.image} />;
    case "reasoning":
      return trace === "minimal" || !part.text ? null : (
        <details class="reasoning" open={trace === "full"}>
          <summary>{t.reasoning}</summary>
          <p>{part.text}</p>
        </details>
      );
    case "dynamic-tool":
      return trace === "minimal" ? null : <ToolCard part={part} expanded={trace === "full"} />;
    case "data-question":
      return (
        <QuestionCard
          question={part.data}
          pending={questionPending && part.data.answer === undefined}
          onAnswer={onAnswer}
        />
      );
    default:
      return null;
  }
}

/**
 * `waiting`: this is the last message and no request runs, so its unanswered question waits
 * for the reader.
 */
export function MessageView({ message, trace, waiting, onAnswer, allowImages }) {
  const strings = useStrings();
  if (message.role === "user") return <UserMessage message={message} />;
  const summary = workSummary(message.metadata, strings);
  return (
    <div class="message assistant">
      {message.parts.map((part, i) => (
        <AssistantPart
          key={i}
          part={part}
          trace={trace}
          questionPending={waiting}
          onAnswer={onAnswer}
          t={strings.messages}
          allowImages={allowImages}
        />
      ))}
      {summary && <p class={message.metadata?.stopped ? "summary stopped" : "summary"}>{summary}</p>}
    </div>
  );
}
