// A session's branches and pages with a stock AI SDK `Chat` (ai 5, 6 and 7): which messages have
// siblings (the edits of a user message, the retries of a reply: "‹ 2/3 ›"), showing another
// branch, and loading older messages a page at a time. It reads what the history route gives
// (docs/sessions.md, "Pages and branches"): each message's `metadata.ref` and
// `metadata.siblings`, `GET …/messages?leaf=<ref>` (the branch through a message, to its newest
// descendant), `?before=<ref>` (the page before a message) and the `x-history-before` header (an
// older page exists). It calls nothing but the chat's `messages` (get and set) and `fetch`: no
// dependency, not even on `ai`. After a switch, a send or a regenerate goes on on the branch the
// chat shows: the agent attaches a turn where the chat's list says.

/** The header that names the next, older page (its value is the `?before=` to ask). */
export const OLDER_HEADER = "x-history-before";

/**
 * Where `message` stands among its siblings, from its `metadata.siblings`: `{ index, count, refs }`
 * (`index` from 0; `refs[i]` the sibling to ask `?leaf=` for), or `null` when it has none (no
 * picker to show).
 */
export function siblingsOf(message) {
  const siblings = message?.metadata?.siblings;
  if (siblings === null || typeof siblings !== "object") return null;
  const { index, count, refs } = siblings;
  const valid = Array.isArray(refs) && refs.length === count && count > 1 && Number.isInteger(index) && index >= 0 && index < count;
  return valid && refs.every((ref) => typeof ref === "string") ? { index, count, refs } : null;
}

/**
 * Where a turn that follows `branch` (the ids of the messages before its user message, as the
 * session feed names them: the newest of them, as many as the feed knows) goes in `messages` (a
 * chat's, perhaps only the newest pages of a long conversation): how many of them it keeps, or -1
 * when the chat does not hold the branch's last message where the branch says (it shows another
 * branch, or too little of this one). `[]`: the turn starts a conversation, and keeps nothing.
 */
export function keptFor(messages, branch) {
  if (branch.length === 0) return 0;
  const ids = messages.map((m) => m.id);
  const at = ids.lastIndexOf(branch.at(-1));
  if (at < 0) return -1;
  // Where both name messages, they name the same ones: the chat may hold older pages the branch
  // leaves out, or the branch older messages the chat has not loaded.
  const both = Math.min(at + 1, branch.length);
  for (let i = 1; i <= both; i++) if (ids[at + 1 - i] !== branch[branch.length - i]) return -1;
  return at + 1;
}

/** The page at `url`: `{ messages, older }` (`older`: whether a page before it exists). */
export async function loadPage(url, options = {}) {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const headers = typeof options.headers === "function" ? await options.headers() : options.headers;
  const response = await fetchFn(url, { headers: { ...headers } });
  if (!response.ok) {
    const error = new Error(`history: ${response.status}`);
    error.status = response.status;
    error.body = await response.text().catch(() => "");
    throw error;
  }
  return { messages: await response.json(), older: response.headers.get(OLDER_HEADER) !== null };
}

/** `historyUrl` (`…/messages`, or a function that gives it) with `query`. */
function withQuery(historyUrl, query) {
  const at = typeof historyUrl === "function" ? historyUrl() : historyUrl;
  return `${at}${at.includes("?") ? "&" : "?"}${new URLSearchParams(query)}`;
}

/**
 * Shows in `chat` the branch through the message `ref` (a sibling's ref from `siblingsOf`), on to
 * its newest message: the newest page of it replaces the chat's messages. Resolves to `{ older }`.
 * Options: `historyUrl` (the session's `…/messages`, or a function that gives it), `headers` (the
 * transport's credentials and `X-Questions`, or a function), `fetch`, `limit`.
 */
export async function loadBranch(chat, ref, options) {
  const query = { leaf: ref, ...(options.limit ? { limit: String(options.limit) } : {}) };
  const page = await loadPage(withQuery(options.historyUrl, query), options);
  chat.messages = page.messages;
  return { older: page.older };
}

/**
 * Adds the page of messages before the chat's first one (a long conversation scrolled up): they
 * go first, the chat's own after them. Resolves to `{ added, older }` (`older`: whether there is
 * yet another page); `{ added: 0, older: false }` when the first message has no `ref` (nothing
 * before it, or an agent that keeps no pages). Options as `loadBranch`'s.
 */
export async function loadOlder(chat, options) {
  const first = chat.messages[0];
  const ref = first?.metadata?.ref;
  if (typeof ref !== "string") return { added: 0, older: false };
  const query = { before: ref, ...(options.limit ? { limit: String(options.limit) } : {}) };
  const page = await loadPage(withQuery(options.historyUrl, query), options);
  // The chat may have changed while the page came: added only before the same first message.
  if (chat.messages[0]?.id !== first.id) return { added: 0, older: page.older };
  chat.messages = [...page.messages, ...chat.messages];
  return { added: page.messages.length, older: page.older };
}

/**
 * Brings the chat's messages' `metadata.ref` and `metadata.siblings` up to date, from the page of
 * the branch it shows: a turn of the chat's own adds a sibling (a retried reply, an edited
 * message), which its stream cannot tell. Only metadata changes; no message is added or taken
 * away. Call it when a turn ends. Resolves to whether anything changed. Options as `loadBranch`'s.
 */
export async function refreshBranches(chat, options) {
  const messages = chat.messages;
  // The newest message the route can name: its ref, or a reply's id (a reply's ref is its id).
  const last = messages.findLast((m) => typeof m.metadata?.ref === "string" || m.role === "assistant");
  if (last === undefined) return false;
  const limit = String(Math.min(MAX_PAGE, Math.max(1, messages.length)));
  const page = await loadPage(withQuery(options.historyUrl, { leaf: last.metadata?.ref ?? last.id, limit }), options);
  const fresh = new Map(page.messages.map((m) => [m.id, m.metadata]));
  let changed = false;
  const next = chat.messages.map((message) => {
    const { ref, siblings } = fresh.get(message.id) ?? {};
    if (typeof ref !== "string") return message;
    const metadata = { ...message.metadata, ref };
    if (siblings) metadata.siblings = siblings;
    else delete metadata.siblings;
    if (JSON.stringify(metadata) === JSON.stringify(message.metadata)) return message;
    changed = true;
    return { ...message, metadata };
  });
  if (changed) chat.messages = next;
  return changed;
}

/** The most messages a page holds (the route's bound). */
const MAX_PAGE = 200;

