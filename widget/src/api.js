// The worker's session endpoints as the panel uses them: the chat transport, the history's pages
// and branches, stop, and what a visitor is told when one fails. Every request goes through `config.fetch` with the
// token of `config.tokens` (auth.js): a function of the site's is asked before each request, and
// once more after a 401, whose request is then sent again.
import { useEffect } from "preact/hooks";
import { DefaultChatTransport } from "ai";
import { TRACE_MAX_HEADER, isTraceMode } from "./trace.js";
import { QUESTIONS_HEADERS } from "./questions.js";
import { OLDER_HEADER } from "../../clients/branches.js";

/**
 * The most messages a send carries: 200, the most one page of the history holds (the route's
 * bound), and a fifth of the worker's MAX_MESSAGES default (1,000). The agent places a turn by
 * the newest ids of the list (docs/agent-protocol.md, "Where a turn attaches"), so a visitor who
 * scrolled back through many older pages still sends a small request, on the branch shown.
 */
const SENT_MESSAGES = 200;

export function sessionBase(config) {
  return `${config.api}/api/sessions/${encodeURIComponent(config.session)}`;
}

/**
 * The AI SDK transport of `POST …/chat` (and `GET …/chat/:id/stream` for resume). Every
 * request is detached, so a reload does not stop the turn, and carries the trace mode that
 * `trace()` returns at send time: in the body, or as `?trace=` on a resume (a GET, no body);
 * and the page's `context` (`AgentChat.setContext`), when it set one, in the body.
 * The token comes from the transport's `headers` function, asked at each request; beside it,
 * `X-Questions: approvals` (questions.js), which the POST and its resume must both name. A send
 * carries the newest SENT_MESSAGES messages of the list.
 */
export function chatTransport(config, trace) {
  return new DefaultChatTransport({
    api: `${sessionBase(config)}/chat`,
    headers: async () => ({ ...QUESTIONS_HEADERS, ...(await config.tokens.header()) }),
    fetch: config.fetch,
    body: () => {
      const context = config.control?.context();
      return { onDisconnect: "detach", trace: trace(), ...(context === undefined ? {} : { context }) };
    },
    prepareSendMessagesRequest: ({ id, messages, body, trigger, messageId }) => ({
      body: { ...body, id, messages: messages.slice(-SENT_MESSAGES), trigger, messageId },
    }),
    prepareReconnectToStreamRequest: ({ api, id }) => ({
      api: `${api}/${encodeURIComponent(id)}/stream?trace=${encodeURIComponent(trace())}`,
    }),
  });
}

/** The session's history (`…/messages`) in the trace mode `trace`. */
const historyUrl = (config, trace) => `${sessionBase(config)}/messages?trace=${encodeURIComponent(trace)}`;

/**
 * The newest page of the session's finished messages (`GET …/messages`), shown as `trace` shows
 * a stream; whether older messages exist (`older`, the route's `x-history-before`); and the most
 * the worker shows (`traceMax`, its TRACE_MAX, or null from a worker that does not say). The
 * turn in flight comes with the resume. Its questions are the parts the stream's would be.
 */
export async function loadHistory(config, trace) {
  const response = await config.fetch(historyUrl(config, trace), { headers: QUESTIONS_HEADERS });
  if (!response.ok) throw refused(response, await response.text());
  const traceMax = response.headers.get(TRACE_MAX_HEADER);
  return {
    messages: await response.json(),
    older: response.headers.get(OLDER_HEADER) !== null,
    traceMax: isTraceMode(traceMax) ? traceMax : null,
  };
}

/**
 * The error of a request the worker refused: its JSON error body as the message (describeError
 * reads it), with `retryAfterMs` when the worker said when to come back (`Retry-After`: a
 * `503 agent_not_ready` does).
 */
function refused(response, text) {
  const error = new Error(text);
  const seconds = Number(response.headers.get("retry-after"));
  if (response.headers.has("retry-after") && Number.isFinite(seconds) && seconds >= 0) error.retryAfterMs = seconds * 1000;
  return error;
}

/**
 * What clients/branches.js and the session feed read the history with: its URL in the trace
 * mode `trace()` gives at each request, the header the transport sends (a question comes back
 * as the part it streamed as), and `fetch` (`config.fetch`: with the visitor's token).
 */
export function historyOptions(config, trace) {
  return { historyUrl: () => historyUrl(config, trace()), headers: QUESTIONS_HEADERS, fetch: config.fetch };
}

/** Stops the session's turn in flight for every client (`POST …/chat/stop`); true when one was stopped (`202`). */
export async function stopTurn(config) {
  const response = await config.fetch(`${sessionBase(config)}/chat/stop`, { method: "POST" });
  return response.status === 202;
}

/**
 * The worker's error codes (docs/endpoint.md) by what the visitor is told: the key of a
 * sentence in the panel's language (locale.js). A code not listed (a request the panel should
 * not have made) is `somethingWrong`.
 */
const SENTENCES = {
  unauthorized: "notAllowed",
  invalid_token: "notAllowed",
  token_expired: "notAllowed",
  token_not_yet_valid: "notAllowed",
  forbidden: "notAllowed",
  rate_limited: "tooMany",
  body_too_large: "tooLong",
  too_many_messages: "tooLong",
  prompt_too_long: "tooLong",
  misconfigured: "unavailable",
  internal_error: "unavailable",
  agent_bad_response: "unavailable",
  agent_connection_failed: "unavailable",
  agent_unavailable: "unavailable",
  agent_not_ready: "notReady",
  auth_unavailable: "unavailable",
  agent_timeout: "unavailable",
  agent_cannot_take_back: "cannotTakeBack",
  stale_conversation: "staleConversation",
  invalid_attachment: "attachmentRefused",
};

/**
 * What to tell the visitor of `error` ({ message, code, detail }): for a request the worker
 * refused (the transport's errors carry its JSON error body as their message), a sentence meant
 * for a visitor, in the panel's language (`t`, its messages), by the error's `code`, and the
 * worker's own words as `detail` (for the console and the page's `error` event, never the
 * panel); a network failure says so; anything else (the agent's in-band error, its words for
 * the visitor) as it is. `sentences`: a caller's own sentence keys by code, over SENTENCES.
 */
export function describeError(error, t, sentences = {}) {
  const text = error?.message ?? String(error);
  let body = null;
  try {
    body = JSON.parse(text)?.error;
  } catch {
    // Not the worker's JSON.
  }
  // clients/conversations.js's refusals carry the code themselves, the worker's words as the message.
  if (error?.name === "ConversationsError") body = { code: error.code, message: text };
  if (typeof body?.code === "string") {
    return { message: t[sentences[body.code] ?? SENTENCES[body.code] ?? "somethingWrong"], code: body.code, detail: body.message };
  }
  if (error?.name === "TypeError") return { message: t.unreachable, code: "unreachable", detail: text };
  return { message: text || t.somethingWrong, code: "agent_error", detail: text };
}

/**
 * Tells the page (its `error` event: { message, code, detail, instance }) and the console (the
 * worker's own words) about `error` once; returns the sentence the visitor reads, or null.
 * `sentences`: a caller's own sentence keys by code, over SENTENCES.
 */
export function useReportedError(config, error, t, sentences) {
  const described = error ? describeError(error, t, sentences) : null;
  useEffect(() => {
    if (!described) return;
    if (described.detail && described.detail !== described.message) console.warn(`AgentChat: ${described.detail}`);
    config.emit?.("error", described);
  }, [error]);
  return described?.message ?? null;
}
