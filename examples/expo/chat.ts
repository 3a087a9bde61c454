// The session's chat as the screen uses it: useChat over the worker's transport, the history it
// starts from, the turn picked up again when the app returns from the background, and the session
// feed, which shows here as it streams a turn sent from another device (the web panel, a tablet).
import { Chat, useChat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { fetch as expoFetch } from 'expo/fetch';
import { useEffect, useRef, useState } from 'react';
import { followSession } from '../../clients/follow-session.js';
import { sessionUrl, TRACE } from './config';
import { useOnForeground } from './foreground';
import { chatTransport, loadHistory, type RequestHeaders } from './session';

export function useSessionChat(sessionId: string, history: UIMessage[], headers: RequestHeaders) {
  const url = sessionUrl(sessionId);
  // One `Chat`, for the hook and for the session feed.
  const [instance] = useState(
    () =>
      new Chat({
        id: sessionId,
        messages: history, // the finished turns, from GET …/messages
        transport: chatTransport(url, headers, TRACE),
      }),
  );
  const chat = useChat({ chat: instance });
  const { stop, setMessages, resumeStream } = chat;

  // Picks the turn up: the resume (GET …/chat/:chatId/stream) streams a turn still running from
  // its start, replacing a copy the phone cut; once it settles, the history, where a turn that
  // ended while the app was away (the resume's 204), or during the resume, is whole.
  const pickUp = async () => {
    try {
      await resumeStream();
    } finally {
      setMessages(await loadHistory(url, headers, TRACE));
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

  // #region feed
  // The session feed (GET …/events): every turn of the session, from any device, as it streams.
  const feed = useRef<ReturnType<typeof followSession> | null>(null);
  useEffect(() => {
    const following = followSession(instance, {
      url: `${url}/events`,
      historyUrl: `${url}/messages?trace=${TRACE}`,
      headers,
      // React Native's own fetch has no streaming body; expo/fetch streams.
      fetch: expoFetch as unknown as typeof globalThis.fetch,
    });
    feed.current = following;
    return () => following.close();
  }, [instance, url, headers]);

  // Back from the background: drop the requests the phone may have cut (detached, the turn ran
  // on): this chat's own, and the feed's, which comes back at once with what it missed; then pick
  // the turn up.
  useOnForeground(async () => {
    await stop();
    feed.current?.reconnect();
    await pickUp();
  });
  // #endregion feed
  return chat;
}
