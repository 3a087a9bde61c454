// The worker's session routes as the app uses them: the chat transport (POST …/chat and its
// resume, GET …/chat/:chatId/stream), the history (GET …/messages) and stop (POST …/chat/stop).
import { DefaultChatTransport, type UIMessage } from 'ai';
import { fetch as expoFetch } from 'expo/fetch';

/** How much of the agent's work is sent (docs/sessions.md, "Trace modes"). */
export type TraceMode = 'minimal' | 'normal' | 'full';
/** The transport's `headers` function (auth.ts): asked before each request. */
export type RequestHeaders = () => Promise<Record<string, string>>;

// #region transport
export function chatTransport(sessionUrl: string, headers: RequestHeaders, trace: TraceMode) {
  return new DefaultChatTransport({
    api: `${sessionUrl}/chat`,
    // React Native's own fetch has no streaming body; expo/fetch streams.
    fetch: expoFetch as unknown as typeof globalThis.fetch,
    // Asked before every request, the resume's included: a fresh token each time.
    headers,
    // detach: a turn runs on when the app's connection drops (backgrounded, a tunnel);
    // trace: the operator's TRACE_MAX caps it, whatever is asked.
    body: { onDisconnect: 'detach', trace },
    // The resume is the AI SDK's default URL, GET {api}/{chatId}/stream; a GET has no body, so
    // the trace mode goes in its query.
    prepareReconnectToStreamRequest: ({ api, id }) => ({
      api: `${api}/${encodeURIComponent(id)}/stream?trace=${trace}`,
    }),
  });
}
// #endregion transport

// #region history
/** The session's finished messages; the turn in flight, if any, comes with the resume. */
export async function loadHistory(sessionUrl: string, headers: RequestHeaders, trace: TraceMode): Promise<UIMessage[]> {
  const response = await expoFetch(`${sessionUrl}/messages?trace=${trace}`, { headers: await headers() });
  if (!response.ok) throw new Error(`The history answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as UIMessage[];
}

/** Stops the turn for every client: under detach, closing this app's request does not. */
export async function stopTurn(sessionUrl: string, headers: RequestHeaders): Promise<void> {
  await expoFetch(`${sessionUrl}/chat/stop`, { method: 'POST', headers: await headers() });
}
// #endregion history
