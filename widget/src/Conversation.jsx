// The conversation of one session through the AI SDK's useChat: the messages, the status
// line, errors with a Retry (the SDK's regenerate), an edit of the visitor's last message (the
// SDK's sendMessage with its messageId: the agent sets the old version aside, with what followed
// it, as another branch), answers to questions, Stop, and resume of a turn in flight. An edited
// message and a reply asked again have a picker of their versions; older pages load as the
// visitor scrolls up (pages.js).
// A question that waits (questions.js) keeps the turn going: Stop ends it, and the page's sends
// wait for its end; answered, the Chat posts by itself and the turn goes on in the same message.
// The session feed (follow.js) shows here, as it streams, every turn sent from another tab or
// device, and a question answered there; a session deleted says so, with the ways on
// (DeletedNotice.jsx).
// Files dropped anywhere on the conversation are attached to the message being written
// (attachments.js), as the composer's attach button and a paste attach them.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { Chat, useChat } from "@ai-sdk/react";
import { chatTransport, historyOptions, stopTurn, useReportedError } from "./api.js";
import { useFollow } from "./follow.js";
import { answerCall, answerToPost, canceled, messageEvent, sendAutomaticallyWhen, waitingQuestion } from "./questions.js";
import { useStatusLine } from "./status.js";
import { useStrings } from "./strings.js";
import { format } from "./locale.js";
import { usePages } from "./pages.js";
import { MessageView } from "./MessageView.jsx";
import { Composer } from "./Composer.jsx";
import { useAttachments } from "./attachments.js";
import { useDrop } from "./drop.js";
import { DeletedNotice } from "./DeletedNotice.jsx";

/** How long a stopped turn's stream may take to end by itself before the panel closes it: 3 s,
 * many times an agent's abort and its last frames (tens of milliseconds at the edge). */
const STOP_GRACE_MS = 3_000;

/** `history`: the newest page of the session's finished messages, loaded before the chat starts
 * (see Panel), and whether older ones exist (`older`); `onNew` and `onList`: the ways on once the
 * session is deleted (DeletedNotice.jsx). */
export function Conversation({ config, history, older, trace, onNew, onList }) {
  const traceNow = useRef(trace);
  traceNow.current = trace;
  const transport = useMemo(() => chatTransport(config, () => traceNow.current), [config]);
  const { messages: t } = useStrings();
  const status = useStatusLine(t);
  // One `Chat`, for the hook and for the session feed; made once, as the hook makes its own.
  const [instance] = useState(
    () =>
      new Chat({
        id: config.session,
        messages: history,
        transport,
        onData: status.onData,
        sendAutomaticallyWhen,
        // The whole message, as it ended (`chat.messages` may still lag it by the throttle).
        onFinish: ({ message, isAbort, isError }) => {
          if (message?.role !== "assistant" || isError) return;
          // Stopped here: the stream closed before a stop's metadata could arrive; say so as the
          // worker would have (and as the history will after a reload).
          if (isAbort && message.metadata?.stopped !== true) {
            const metadata = { ...message.metadata, stopped: true };
            message = { ...message, metadata };
            instance.messages = instance.messages.map((m) => (m.id === message.id ? message : m));
          }
          finished(config, message, t);
        },
      }),
  );
  const chat = useChat({ chat: instance, experimental_throttle: 50 });
  const historyPages = useMemo(() => historyOptions(config, () => traceNow.current), [config]);
  /** Whether a turn runs, waits on a question, or has an answer to post, by the chat's own state
   * (the hook's messages lag it by the throttle: a question that just came may not show yet). */
  const turnRuns = () =>
    instance.status === "submitted" ||
    instance.status === "streaming" ||
    waitingQuestion(instance.messages.at(-1)) !== null ||
    answerToPost(instance.messages);
  const pages = usePages({ chat: instance, shown: chat.messages, pages: historyPages, olderAtFirst: older, turnRuns });
  // The session deleted (from this page or another): its messages are gone, and the panel says so.
  const [deleted, setDeleted] = useState(false);
  useFollow(config, instance, () => traceNow.current, pages.setOlder, () => setDeleted(true));
  // The turn in flight, resumed on mount (the hook's `resume: true`, but known when it settles):
  // the Chat is "ready" while it asks, and a send then could start a turn the resume would
  // stream too (the same message finished twice).
  const [resumed, setResumed] = useState(false);
  useEffect(() => {
    chat.resumeStream().finally(() => setResumed(true));
  }, []);
  const busy = chat.status === "submitted" || chat.status === "streaming";
  const last = chat.messages.at(-1);
  /** The last message's question waits for the visitor: the turn is not over. */
  const asking = !busy && waitingQuestion(last) !== null;
  const error = useReportedError(config, chat.error, t);
  const pageError = useReportedError(config, pages.error, t);
  // Unmounted (`logout`, `destroy`, a new `init`): this client's stream closes; a detached turn
  // goes on at the agent.
  useEffect(() => () => chat.stop(), []);
  const line = status.line(chat.messages, busy);

  /** The visitor's message being edited, or null. */
  const [editing, setEditing] = useState(null);
  /** Sends a message of the visitor's; resolves once its turn has ended. */
  const send = (message) => {
    status.reset();
    // The session is worth coming back to from now on: a reload finds it.
    config.keepSession?.();
    // Read from its end: the visitor's message, then the reply.
    pages.follow();
    return chat.sendMessage(message);
  };
  /** Answers `question` (questions.js); the answer's buttons go, so the focus goes to the message box. */
  const answer = (question, value) => {
    status.reset(true);
    config.keepSession?.();
    const [method, argument] = answerCall(question, value);
    chat[method](argument);
    pages.list.current?.parentElement.querySelector("textarea")?.focus();
  };
  const stop = async () => {
    // A question waited: its buttons go, as the worker's history will show it.
    if (asking) {
      const ended = canceled(last);
      chat.setMessages((messages) => messages.map((m) => (m.id === ended.id ? ended : m)));
      finished(config, ended, t);
    }
    let stopped = false;
    try {
      stopped = await stopTurn(config);
    } catch {
      // The worker is unreachable: closing this client's stream is all that can be done.
    }
    if (!stopped) return chat.stop();
    // The agent stops the turn, and every stream of it, this one too, ends with what it said:
    // closed here, it would lose the words on their way. One that has not ended soon is closed.
    setTimeout(() => {
      if (instance.status === "submitted" || instance.status === "streaming") chat.stop();
    }, STOP_GRACE_MS);
  };
  // The page's `AgentChat.send(text)`: sent as the user would, one at a time, whenever the chat
  // is idle (control.js): no request, no question waiting, no answer about to be posted.
  const answering = chat.status === "ready" && answerToPost(chat.messages);
  /** A turn runs, or may (the resume has not said): no picker, no pencil, no Try again. */
  const running = !resumed || busy || asking || answering;
  // Another branch on its way: what is sent waits for it, to go on the branch shown.
  const idle = !running && pages.loading !== "branch";
  /** The last reply, which the visitor may ask again while nothing runs and nothing failed (an
   * error has its own Retry). */
  const retryable = idle && !error && last?.role === "assistant" ? last : undefined;
  const again = () => {
    status.reset();
    chat.regenerate();
  };
  /** The visitor's last message, which they may edit while nothing runs. */
  const editable = idle ? chat.messages.findLast((m) => m.role === "user") : undefined;
  /** Sends the edited text in place of the message (its files kept, `added` after them): the old
   * version, and what followed it, stay as another branch. */
  const sendEdit = (text, added) => {
    const files = [...editing.parts.filter((part) => part.type === "file"), ...added];
    setEditing(null);
    return send({ ...withFiles(text, files), messageId: editing.id });
  };
  const attachments = useAttachments(config);
  const drop = useDrop(attachments, config.attachments !== false);
  useEffect(() => (idle ? config.control?.attachSender((text) => send({ text })) : undefined), [idle]);
  // An answer that failed is posted again as it was; anything else asks for the reply again.
  const retry = () => {
    const answered = answerToPost(chat.messages);
    status.reset(answered);
    if (answered) chat.sendMessage();
    else chat.regenerate();
  };

  return (
    <div class="conversation" {...drop.handlers}>
      {drop.over && (
        <p class="drop" aria-hidden="true">
          {t.dropFiles}
        </p>
      )}
      {/* tabindex -1: the focus stays in the list when the last older page takes its button away. */}
      <div
        class="messages"
        ref={pages.list}
        onScroll={pages.onScroll}
        role="log"
        aria-live="polite"
        aria-busy={pages.loading ? "true" : undefined}
        tabindex={-1}
      >
        {pages.older && (
          <button type="button" class="older" aria-disabled={pages.loading ? "true" : undefined} onClick={pages.loadOlderPage}>
            {t.loadOlder}
          </button>
        )}
        {chat.messages.length === 0 && <p class="empty">{t.empty}</p>}
        {chat.messages.map((message, i) => (
          <MessageView
            key={message.id}
            message={message}
            trace={trace}
            waiting={!busy && i === chat.messages.length - 1}
            onAnswer={answer}
            onEdit={message === editable && editing === null ? () => setEditing(message) : undefined}
            onRetry={message === retryable && editing === null ? again : undefined}
            branches={{ hidden: running, onShow: pages.showBranch }}
            allowImages={config.allowImages}
            api={config.api}
            showUsage={config.showUsage}
          />
        ))}
        {line && (
          <p class="status" role="status">
            {line}
          </p>
        )}
        {deleted && <DeletedNotice onNew={onNew} onList={onList} />}
        {pageError && (
          <p class="error" role="alert">
            {format(t.loadFailed, { error: pageError })}
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
      <Composer
        busy={busy || asking || answering}
        ready={idle}
        onSend={(text, files) => (editing ? sendEdit(text, files) : send(withFiles(text, files)))}
        onStop={stop}
        editing={editing && textOf(editing)}
        onCancelEdit={() => setEditing(null)}
        attachments={attachments}
      />
    </div>
  );
}

/** What `sendMessage` takes for `text` and `files` (FileUIParts): a message may be files alone. */
function withFiles(text, files) {
  return { ...(text ? { text } : {}), ...(files.length > 0 ? { files } : {}) };
}

/** A message's text parts, joined as the panel shows them. */
function textOf(message) {
  return message.parts
    .filter((part) => part.type === "text")
    .map((part) => part.text)
    .join("\n");
}

/**
 * The page's `message` event for an assistant message that ended (finished, stopped, or waiting
 * on a question), and the unread count while a launcher's panel is closed (control.js).
 */
function finished(config, message, t) {
  config.emit?.("message", messageEvent(message, t));
  config.control?.messageFinished();
}
