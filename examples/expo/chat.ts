// The session's chat as the screen uses it: useChat over the worker's transport, the history it
// starts from, and the turn picked up again when the app returns from the background.
import { useChat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { useMemo } from 'react';
import { SESSION_ID, SESSION_URL, TRACE } from './config';
import { useOnForeground } from './foreground';
import { chatTransport, loadHistory, type RequestHeaders } from './session';

export function useSessionChat(history: UIMessage[], headers: RequestHeaders) {
  const transport = useMemo(() => chatTransport(SESSION_URL, headers, TRACE), [headers]);
  const chat = useChat({
    id: SESSION_ID,
    messages: history, // the finished turns, from GET …/messages
    resume: true, // on mount: GET …/chat/:chatId/stream, a 204 or the turn in flight from its start
    transport,
  });
  const { stop, setMessages, resumeStream } = chat;

  // Back from the background: drop the request the phone may have cut (detached, the turn ran
  // on), resume (a turn still running streams again from its start, replacing the cut copy),
  // then, once that settles, take the history: a turn that ended while the app was away gets the
  // resume a 204 and is in the history whole, as is one that ended during the resume.
  useOnForeground(async () => {
    await stop();
    try {
      await resumeStream();
    } finally {
      setMessages(await loadHistory(SESSION_URL, headers, TRACE));
    }
  });
  return chat;
}
