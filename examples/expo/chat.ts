// The session's chat as the screen uses it: useChat over the worker's transport, the history it
// starts from, and the turn picked up again when the app returns from the background.
import { useChat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { useEffect, useMemo, useRef } from 'react';
import { SESSION_ID, SESSION_URL, TRACE } from './config';
import { useOnForeground } from './foreground';
import { chatTransport, loadHistory, type RequestHeaders } from './session';

export function useSessionChat(history: UIMessage[], headers: RequestHeaders) {
  const transport = useMemo(() => chatTransport(SESSION_URL, headers, TRACE), [headers]);
  const chat = useChat({
    id: SESSION_ID,
    messages: history, // the finished turns, from GET …/messages
    transport,
  });
  const { stop, setMessages, resumeStream } = chat;

  // Picks the turn up: the resume (GET …/chat/:chatId/stream) streams a turn still running from
  // its start, replacing a copy the phone cut; once it settles, the history, where a turn that
  // ended while the app was away (the resume's 204), or during the resume, is whole.
  const pickUp = async () => {
    try {
      await resumeStream();
    } finally {
      setMessages(await loadHistory(SESSION_URL, headers, TRACE));
    }
  };

  // On mount, what `useChat({ resume: true })` does, and the history after it: a turn that ended
  // between the first history and this resume is not lost either. Once, also in React's dev
  // mode, which mounts twice.
  const pickedUp = useRef(false);
  useEffect(() => {
    if (pickedUp.current) return;
    pickedUp.current = true;
    pickUp().catch((error: unknown) => console.warn('Could not pick the turn up', error));
  }, []);

  // Back from the background: drop the request the phone may have cut (detached, the turn ran
  // on), then pick the turn up.
  useOnForeground(async () => {
    await stop();
    await pickUp();
  });
  return chat;
}
