// The conversation of one session through the AI SDK's useChat: the messages, the status
// line, errors with a Retry, answers to questions, Stop, and resume of a turn in flight.
import { useEffect, useMemo, useRef } from "preact/hooks";
import { useChat } from "@ai-sdk/react";
import { chatTransport, stopTurn, useReportedError } from "./api.js";
import { useStatusLine } from "./status.js";
import { useStrings } from "./strings.js";
import { MessageView } from "./MessageView.jsx";
import { Composer } from "./Composer.jsx";

/** `history`: the session's finished messages, loaded before the chat starts (see Panel). */
export function Conversation({ config, history, trace }) {
  const traceNow = useRef(trace);
  traceNow.current = trace;
  const transport = useMemo(() => chatTransport(config, () => traceNow.current), [config]);
  const { messages: t } = useStrings();
  const status = useStatusLine(t);
  const chat = useChat({
    id: config.session,
    messages: history,
    resume: true,
    transport,
    onData: status.onData,
    // The whole message, as it ended (`chat.messages` may still lag it by the throttle).
    onFinish: ({ message, isAbort, isError }) => {
      if (message?.role !== "assistant" || isError) return;
      // Stopped here: the stream closed before a stop's metadata could arrive; say so as the
      // worker would have (and as the history will after a reload).
      if (isAbort && message.metadata?.stopped !== true) {
        const metadata = { ...message.metadata, stopped: true };
        message = { ...message, metadata };
        chat.setMessages((messages) => messages.map((m) => (m.id === message.id ? message : m)));
      }
      finished(config, message);
    },
    experimental_throttle: 50,
  });
  const busy = chat.status === "submitted" || chat.status === "streaming";
  const error = useReportedError(config, chat.error, t);
  // Unmounted (`logout`, `destroy`, a new `init`): this client's stream closes; a detached turn
  // goes on at the agent.
  useEffect(() => () => chat.stop(), []);
  const line = status.line(chat.messages, busy);

  /** Sends a message of the visitor's; resolves once its turn has ended. */
  const send = (message) => {
    status.reset();
    // The session is worth coming back to from now on: a reload finds it.
    config.keepSession?.();
    return chat.sendMessage(message);
  };
  const answer = (questionId, value) =>
    send({
      parts: [
        { type: "text", text: value },
        { type: "data-answer", data: { questionId, answer: value } },
      ],
    });
  const stop = async () => {
    try {
      await stopTurn(config);
    } catch {
      // The worker is unreachable: closing this client's stream is all that can be done.
    }
    chat.stop();
  };
  // The page's `AgentChat.send(text)`: sent as the user would, one at a time, whenever the chat
  // is idle (control.js).
  useEffect(() => (busy ? undefined : config.control?.attachSender((text) => send({ text }))), [busy]);
  const retry = () => {
    status.reset();
    chat.regenerate();
  };

  const list = useRef(null);
  const pinned = useRef(true);
  useEffect(() => {
    if (pinned.current && list.current) list.current.scrollTop = list.current.scrollHeight;
  });
  const onScroll = () => {
    const el = list.current;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };

  return (
    <div class="conversation">
      <div class="messages" ref={list} onScroll={onScroll} role="log" aria-live="polite">
        {chat.messages.length === 0 && <p class="empty">{t.empty}</p>}
        {chat.messages.map((message, i) => (
          <MessageView
            key={message.id}
            message={message}
            trace={trace}
            waiting={!busy && i === chat.messages.length - 1}
            onAnswer={answer}
            allowImages={config.allowImages}
          />
        ))}
        {line && (
          <p class="status" role="status">
            {line}
          </p>
        )}
        {error && (
          <div class="error" role="alert">
            <span>{error}</span>
            <button type="button" onClick={retry}>
              {t.retry}
            </button>
          </div>
        )}
      </div>
      <Composer busy={busy} onSend={(text) => send({ text })} onStop={stop} />
    </div>
  );
}

/**
 * What the page's `message` event says of an assistant message: `text`, what the visitor reads
 * in it (its text, then the question it asks, if any), `question` ({ id, text, options }) when it
 * ends waiting for an answer, and `stopped: true` when it was stopped.
 */
export function messageEvent(message) {
  const text = message.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("");
  const questions = message.parts.filter((part) => part.type === "data-question").map((part) => part.data);
  const pending = questions.findLast((q) => q.answer === undefined);
  const read = [text, ...questions.map((q) => q.text)].filter((piece) => piece.trim() !== "").join("\n\n");
  return {
    id: message.id,
    text: read,
    ...(pending ? { question: { id: pending.questionId, text: pending.text, options: pending.options ?? [] } } : {}),
    ...(message.metadata?.stopped === true ? { stopped: true } : {}),
  };
}

/**
 * The page's `message` event for an assistant message that ended (finished, stopped, or waiting
 * on a question), and the unread count while a launcher's panel is closed (control.js).
 */
function finished(config, message) {
  config.emit?.("message", messageEvent(message));
  config.control?.messageFinished();
}
