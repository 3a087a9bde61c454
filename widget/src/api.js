// The worker's session endpoints as the panel uses them: the chat transport, history and stop.
// Every request goes through `config.fetch` with the token of `config.tokens` (auth.js): a
// function of the site's is asked before each request, and once more after a 401, whose request
// is then sent again.
import { DefaultChatTransport } from "ai";

function base(config) {
  return `${config.api}/api/sessions/${encodeURIComponent(config.session)}`;
}

/**
 * The AI SDK transport of `POST …/chat` (and `GET …/chat/:id/stream` for resume). Every
 * request is detached, so a reload does not stop the turn, and carries the trace mode that
 * `trace()` returns at send time: in the body, or as `?trace=` on a resume (a GET, no body);
 * and the page's `context` (`AgentChat.setContext`), when it set one, in the body.
 * The token comes from the transport's `headers` function, asked at each request.
 */
export function chatTransport(config, trace) {
  return new DefaultChatTransport({
    api: `${base(config)}/chat`,
    headers: () => config.tokens.header(),
    fetch: config.fetch,
    body: () => {
      const context = config.control?.context();
      return { onDisconnect: "detach", trace: trace(), ...(context === undefined ? {} : { context }) };
    },
    prepareReconnectToStreamRequest: ({ api, id }) => ({
      api: `${api}/${encodeURIComponent(id)}/stream?trace=${encodeURIComponent(trace())}`,
    }),
  });
}

/**
 * The session's finished messages (`GET …/messages`), shown as `trace` shows a stream; the turn
 * in flight comes with the resume.
 */
export async function loadHistory(config, trace) {
  const url = `${base(config)}/messages?trace=${encodeURIComponent(trace)}`;
  const response = await config.fetch(url);
  if (!response.ok) throw new Error(await response.text());
  return response.json();
}

/** Stops the session's turn in flight for every client (`POST …/chat/stop`). */
export async function stopTurn(config) {
  await config.fetch(`${base(config)}/chat/stop`, { method: "POST" });
}

/**
 * A sentence for an error: the transport's errors carry the worker's JSON error body
 * (`{"error":{"message":…}}`) as their message (in English: the worker's words); network
 * failures say so in the panel's language (`t`, its messages).
 */
export function readableError(error, t) {
  const text = error?.message ?? String(error);
  try {
    const message = JSON.parse(text)?.error?.message;
    if (typeof message === "string") return message;
  } catch {
    // Not the worker's JSON: the text as it is.
  }
  if (error?.name === "TypeError") return t.unreachable;
  return text || t.somethingWrong;
}
