// A whole chat page on the session routes, with nothing of this project's: React, `useChat` of
// @ai-sdk/react and `DefaultChatTransport` (docs/sessions.md). The history is loaded before the
// chat starts, with the same `X-Questions` header as the transport, so a question reloads as the
// part it streamed as; the turn in flight is resumed; Stop stops the turn for every client of the
// session; the agent's free questions are answered with `addToolOutput`, its approvals with
// `addToolApprovalResponse`, and the SDK's helpers post each answer by themselves; the session
// feed (clients/follow-session.js) shows every turn of the session, sent from any tab or device,
// as it streams; clients/branches.js shows a picker ("‹ 2/3 ›") on an edited message or a
// retried reply, switches branches, and loads older messages a page at a time; and files chosen
// to go with a message are uploaded once (clients/upload-files.js) and sent as their signed URLs;
// beside the chat, this browser's conversations (clients/conversations.js): new, open, rename,
// delete. tests/browser/stock_react.test.mjs bundles it (with ./main.tsx) and drives it in Chromium.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Chat, useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type FileUIPart,
  type UIMessage,
} from 'ai';
import { followSession, type FeedEvent } from '../../clients/follow-session.js';
import { loadBranch, loadOlder, loadPage, refreshBranches, siblingsOf } from '../../clients/branches.js';
import { uploadFiles, type UploadedFilePart } from '../../clients/upload-files.js';
import { conversations, type Conversation as Listed, type ConversationEvent } from '../../clients/conversations.js';

// #region history
// Your worker's origin first when the page is on another one.
const base = (sessionId: string) => `/api/sessions/${sessionId}`;
// This browser's list of conversations: a key of its own, kept, that each turn and the list send
// (X-Conversations-Key); with sign-in, the token's `sub` names the list instead, on every device.
const listKey = (): string => (localStorage['conversations-key'] ??= crypto.randomUUID());
// Questions as tool approvals on ai 6 and 7 (on ai 5, 'tools'): the transport and the history ask
// for the same parts.
const headers = { 'X-Questions': 'approvals', 'X-Conversations-Key': listKey() };

/** Where the history's pages and branches are read: the same headers as the transport. */
const pages = (sessionId: string) => ({ historyUrl: `${base(sessionId)}/messages`, headers });

/** The newest page of the finished messages (the turn in flight comes with the resume), and
 * whether older ones exist. */
export async function loadHistory(sessionId: string): Promise<{ messages: UIMessage[]; older: boolean }> {
  return loadPage<UIMessage>(`${base(sessionId)}/messages`, { headers });
}
// #endregion history

// #region chat
export function ChatPage({ sessionId }: { sessionId: string }) {
  const [history, setHistory] = useState<{ messages: UIMessage[]; older: boolean } | null>(null);
  useEffect(() => {
    loadHistory(sessionId).then(setHistory);
  }, [sessionId]);
  return history ? <Conversation sessionId={sessionId} history={history.messages} older={history.older} /> : <p>Loading…</p>;
}

function Conversation({ sessionId, history, older: olderAtFirst }: { sessionId: string; history: UIMessage[]; older: boolean }) {
  const [input, setInput] = useState('');
  const [older, setOlder] = useState(olderAtFirst);
  // The files to go with the next message, and why the last ones could not go.
  const chooser = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // One `Chat` for the hook and for the session feed.
  const [chat] = useState(
    () =>
      new Chat({
        id: sessionId,
        messages: history,
        transport: new DefaultChatTransport({
          api: `${base(sessionId)}/chat`,
          headers,
          body: { onDisconnect: 'detach' }, // a reload does not stop the turn
        }),
        // Posts again by itself once the question of the last step is answered.
        sendAutomaticallyWhen: (options) =>
          lastAssistantMessageIsCompleteWithApprovalResponses(options) ||
          lastAssistantMessageIsCompleteWithToolCalls(options),
      }),
  );
  // resume: GET …/chat/:id/stream on mount: 204, or the turn in flight from its start.
  const { messages, sendMessage, regenerate, status, stop, addToolOutput, addToolApprovalResponse } = useChat({ chat, resume: true });
  // #region follow
  // Every turn of the session, sent from another tab or device, shown here as it streams; a
  // delete elsewhere empties the chat, and the page says so.
  const [deleted, setDeleted] = useState(false);
  useEffect(() => {
    const onEvent = (event: FeedEvent) => event.type === 'deleted' && setDeleted(true);
    const feed = followSession(chat, { url: `${base(sessionId)}/events`, headers, onEvent });
    return () => feed.close();
  }, [chat, sessionId]);
  // #endregion follow
  const busy = status === 'submitted' || status === 'streaming';
  // #region branches
  // A turn that ends may have added a branch (a retried reply, an edited message): the pickers
  // are brought up to date from the history.
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy) refreshBranches(chat, pages(sessionId)).catch(() => {});
    wasBusy.current = busy;
  }, [busy, chat, sessionId]);
  // Another branch: its newest page in place of the chat's messages; what is sent next goes on it.
  const showBranch = async (ref: string) => setOlder((await loadBranch(chat, ref, pages(sessionId))).older);
  const showOlder = async () => setOlder((await loadOlder(chat, pages(sessionId))).older);
  // #endregion branches
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = chooser.current?.files;
    if ((input.trim() === '' && !chosen?.length) || busy || uploading) return;
    // #region upload
    // Each file goes up once, to the worker's bucket (POST …/files, with the transport's
    // credentials, if it has any); the message names it by its signed URL, never its bytes.
    let files: UploadedFilePart[] = [];
    if (chosen?.length) {
      setUploading(true);
      try {
        files = await uploadFiles(chosen, { filesUrl: `${base(sessionId)}/files` });
      } catch (error) {
        // An UploadError says which file and why: too large, a type the worker does not take.
        setFailure(error instanceof Error ? error.message : String(error));
        return;
      } finally {
        setUploading(false);
      }
    }
    sendMessage(input.trim() === '' ? { files } : { text: input, files });
    // #endregion upload
    setFailure(null);
    setInput('');
    if (chooser.current) chooser.current.value = '';
  };
  // Stop for every client of the session (stop() alone only closes this fetch). 202: the agent
  // stops the turn, and every stream of it, this one too, ends with what it said; else nothing ran
  // there, and this fetch is closed.
  const stopTurn = async () => {
    const response = await fetch(`${base(sessionId)}/chat/stop`, { method: 'POST' });
    if (response.status !== 202) stop();
  };
  const answer = (toolCallId: string, output: string) => addToolOutput({ tool: 'askUser', toolCallId, output });
  return (
    <main>
      {older && <button onClick={showOlder}>Load older messages</button>}
      {messages.map((message, i) => (
        <div key={message.id} className={`message ${message.role}`}>
          {message.parts.map((part, i) =>
            part.type === 'file' ? <Attachment key={i} part={part} /> : <Part key={i} part={part} answer={answer} approve={addToolApprovalResponse} />,
          )}
          {!busy && <BranchPicker message={message} show={showBranch} />}
          {/* A new reply beside the last one: the old one stays, one click away. */}
          {!busy && message.role === 'assistant' && i === messages.length - 1 && <button onClick={() => regenerate()}>Try again</button>}
        </div>
      ))}
      <form onSubmit={send}>
        {/* The types the worker takes by default (FILE_TYPES); a phone offers its camera too. */}
        <input type="file" aria-label="Attach files" ref={chooser} multiple accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain" />
        <input aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} />
        {busy ? <button type="button" onClick={stopTurn}>Stop</button> : <button type="submit" disabled={uploading}>Send</button>}
      </form>
      {failure && <p role="alert">{failure}</p>}
      {deleted && (
        <p role="status">
          This conversation was deleted. <button onClick={() => open(crypto.randomUUID())}>New conversation</button>
        </p>
      )}
    </main>
  );
}
// #endregion chat

// #region sidebar
/** The page: this browser's conversations beside the chat of `sessionId`. */
export function App({ sessionId }: { sessionId: string }) {
  return (
    <div className="layout">
      <Sidebar current={sessionId} />
      <ChatPage sessionId={sessionId} />
    </div>
  );
}

/** The list, the newest activity first, a page at a time (clients/conversations.js): open one,
 * start a new one, rename, delete (asked first). Live: what another tab or device makes, renames
 * or deletes shows as it happens (`follow`), listed again each time the live list opens. */
function Sidebar({ current }: { current: string }) {
  const [list] = useState(() => conversations({ headers }));
  const [sessions, setSessions] = useState<Listed[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const show = (work: Promise<unknown>) => work.then(() => setFailure(null), (error) => setFailure(error instanceof Error ? error.message : String(error)));
  // The live list's changes that came while a page was read: applied again over the page, which
  // may have been read before them.
  const [since] = useState<{ events: ConversationEvent[] | null }>({ events: null });
  const refresh = () => {
    const events: ConversationEvent[] = (since.events = []);
    return list.page().then((page) => {
      since.events = null;
      setSessions(events.reduce(placed, page.sessions));
      setNext(page.next);
    });
  };
  const apply = (event: ConversationEvent) => {
    since.events?.push(event);
    setSessions((had) => placed(had, event));
  };
  useEffect(() => {
    const live = new AbortController();
    // Opened again a few seconds after it ends (the worker ended it, or refused it).
    const follow = (): unknown =>
      show(list.follow(apply, { signal: live.signal, onOpen: () => show(refresh()) })).finally(
        () => live.signal.aborted || setTimeout(follow, 3000),
      );
    follow();
    return () => live.abort();
  }, [current]);
  const more = () =>
    show(list.page({ cursor: next }).then((page) => (setSessions((had) => [...had, ...page.sessions.filter((s) => !had.some((h) => h.id === s.id))]), setNext(page.next))));
  const rename = (session: Listed) => {
    const title = prompt('New title', session.title)?.trim();
    if (title) show(list.rename(session.id, title).then(refresh));
  };
  const remove = (session: Listed) => {
    if (!confirm(`Delete “${session.title}” for good?`)) return;
    show(list.remove(session.id).then(() => (session.id === current ? open(crypto.randomUUID()) : refresh())));
  };
  return (
    <nav aria-label="Conversations">
      <button onClick={() => open(crypto.randomUUID())}>New conversation</button>
      <ul>
        {sessions.map((session) => (
          <li key={session.id}>
            <a href={`?session=${encodeURIComponent(session.id)}`} aria-current={session.id === current ? 'page' : undefined}>
              {session.title}
            </a>
            <button aria-label={`Rename ${session.title}`} onClick={() => rename(session)}>Rename</button>
            <button aria-label={`Delete ${session.title}`} onClick={() => remove(session)}>Delete</button>
          </li>
        ))}
      </ul>
      {next && <button onClick={more}>More conversations</button>}
      {failure && <p role="alert">{failure}</p>}
    </nav>
  );
}

const open = (sessionId: string) => location.assign(`?session=${encodeURIComponent(sessionId)}`);

/** `sessions` with a change of the live list: a session put in its place by `updatedAt`, or gone. */
function placed(sessions: Listed[], event: ConversationEvent): Listed[] {
  const id = event.type === 'deleted' ? event.id : event.session.id;
  const others = sessions.filter((session) => session.id !== id);
  return event.type === 'deleted' ? others : [event.session, ...others].sort((a, b) => b.updatedAt - a.updatedAt);
}
// #endregion sidebar

// #region files
/** A message's file: an image shows from its signed URL (the history signs it again on each
 * load); anything else is a link to it. */
function Attachment({ part }: { part: FileUIPart }) {
  if (part.mediaType.startsWith('image/')) return <img src={part.url} alt={part.filename ?? 'image'} />;
  return <a href={part.url}>{part.filename ?? part.mediaType}</a>;
}
// #endregion files

// #region picker
/** "‹ 2/3 ›" on a message with siblings (the edits of a user message, the retries of a reply). */
function BranchPicker({ message, show }: { message: UIMessage; show: (ref: string) => void }) {
  const siblings = siblingsOf(message);
  if (!siblings) return null;
  const { index, count, refs } = siblings;
  return (
    <nav className="branches" aria-label="Versions of this message">
      <button aria-label="Previous version" disabled={index === 0} onClick={() => show(refs[index - 1])}>
        ‹
      </button>
      <span>
        {index + 1}/{count}
      </span>
      <button aria-label="Next version" disabled={index === count - 1} onClick={() => show(refs[index + 1])}>
        ›
      </button>
    </nav>
  );
}
// #endregion picker

// #region questions
type Approve = (response: { id: string; approved: boolean; reason?: string }) => void;

function Part({ part, answer, approve }: { part: UIMessage['parts'][number]; answer: (id: string, output: string) => void; approve: Approve }) {
  if (part.type === 'text') return <p>{part.text}</p>;
  // A free question: a client-side tool call, answered with its output.
  if (part.type === 'tool-askUser' && part.state === 'input-available') {
    const { text, options = [] } = part.input as { text: string; options?: string[] };
    return (
      <div className="question">
        {text}
        {options.length > 0 ? (
          options.map((option) => (
            <button key={option} onClick={() => answer(part.toolCallId, option)}>
              {option}
            </button>
          ))
        ) : (
          <FreeAnswer onAnswer={(output) => answer(part.toolCallId, output)} />
        )}
      </div>
    );
  }
  if (part.type === 'tool-askUser' && part.state === 'output-available') return <p className="answered">{String(part.output)}</p>;
  // An approval question: on the gated call's own part (ai 6 and 7).
  if (part.type === 'dynamic-tool') {
    return (
      <div className="tool" data-state={part.state}>
        {part.toolName}: {part.state}
        {part.state === 'approval-requested' && (
          <>
            <button onClick={() => approve({ id: part.approval.id, approved: true })}>Approve</button>
            <button onClick={() => approve({ id: part.approval.id, approved: false })}>Deny</button>
          </>
        )}
      </div>
    );
  }
  return null;
}

function FreeAnswer({ onAnswer }: { onAnswer: (output: string) => void }) {
  const [text, setText] = useState('');
  return (
    <form onSubmit={(event) => (event.preventDefault(), onAnswer(text))}>
      <input aria-label="Answer" value={text} onChange={(event) => setText(event.target.value)} />
      <button type="submit">Answer</button>
    </form>
  );
}
// #endregion questions
