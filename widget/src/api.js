// The worker's session endpoints as the panel uses them: the chat transport, history and stop.
import { DefaultChatTransport } from "ai";

function base(config) {
  return `${config.api}/api/sessions/${encodeURIComponent(config.session)}`;
}

function authHeaders(config) {
  return config.token ? { authorization: `Bearer ${config.token}` } : {};
}

/**
 * The AI SDK transport of `POST …/chat` (and `GET …/chat/:id/stream` for resume). Every
 * request is detached, so a reload does not stop the turn, and carries the trace mode that
 * `trace()` returns at send time: in the body, or as `?trace=` on a resume (a GET, no body).
 */
export function chatTransport(config, trace) {
  return new DefaultChatTransport({
    api: `${base(config)}/chat`,
    headers: authHeaders(config),
    body: () => ({ onDisconnect: "detach", trace: trace() }),
    prepareReconnectToStreamRequest: ({ api, id }) => ({
      api: `${api}/${encodeURIComponent(id)}/stream?trace=${encodeURIComponent(trace())}`,
    }),
  });
}

/** The session's finished messages (`GET …/messages`); the turn in flight comes with the resume. */
export async function loadHistory(config) {
  const response = await fetch(`${base(config)}/messages`, { headers: authHeaders(config) });
  if (!response.ok) throw new Error(await response.text());
  return response.json();
}

/** Stops the session's turn in flight for every client (`POST …/chat/stop`). */
export async function stopTurn(config) {
  await fetch(`${base(config)}/chat/stop`, { method: "POST", headers: authHeaders(config) });
}

/**
 * A sentence for an error: the transport's errors carry the worker's JSON error body
 * (`{"error":{"message":…}}`) as their message; network failures say so.
 */
export function readableError(error) {
  const text = error?.message ?? String(error);
  try {
    const message = JSON.parse(text)?.error?.message;
    if (typeof message === "string") return message;
  } catch {
    // Not the worker's JSON: the text as it is.
  }
  if (error?.name === "TypeError") return "The agent cannot be reached. Check the connection.";
  return text || "Something went wrong.";
}
