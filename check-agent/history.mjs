// What check-agent's protocol-5 scenarios share about pages (docs/agent-protocol.md, "Branches",
// the `history` frame): asking a socket for one, the bounds a page keeps (R-init-bounds), a page's
// messages as refs, and a listed message's text.

/** Most messages a page (an `init`, a `history` answer) may hold: docs/agent-protocol.md's
 * R-init-bounds. */
export const MAX_PAGE_MESSAGES = 200;

/** Most bytes of messages a page may hold, each message's JSON summed: R-init-bounds' 3 MiB. */
export const MAX_PAGE_BYTES = 3 * 1024 * 1024;

/** How long a `history` frame may wait for its answer: the adapter's own wait (docs/agent-protocol.md,
 * "What the adapter enforces": 5 s). */
export const HISTORY_WAIT_MS = 5000;

let asked = 0;

/** Sends a `history` frame on `conn` (`fields`: leaf, before, limit) and resolves to its answer: a
 * `history` frame of its requestId, an `error` (one naming another requestId excepted), or null
 * after HISTORY_WAIT_MS. One request at a time per socket. */
export async function askHistory(conn, fields = {}) {
  const requestId = `check-h${++asked}`;
  const mark = conn.frames.length;
  conn.send({ type: "history", requestId, ...fields });
  const answer = await conn.waitFor(
    (f) => (f.type === "history" && f.requestId === requestId) || (f.type === "error" && (f.requestId === undefined || f.requestId === requestId)),
    HISTORY_WAIT_MS,
    mark,
  );
  return { requestId, answer, messages: answer?.type === "history" && Array.isArray(answer.messages) ? answer.messages.filter(isMessage) : null };
}

/** Whether `m` is a listed message: an object with a role. */
const isMessage = (m) => typeof m === "object" && m !== null && (m.role === "user" || m.role === "assistant");

/** The messages of an `init` (those with a role). */
export const initMessages = (init) => (Array.isArray(init?.messages) ? init.messages.filter(isMessage) : []);

/** The bytes of `messages` as R-init-bounds counts them: each message's JSON, summed. */
export const pageBytes = (messages) => messages.reduce((sum, m) => sum + Buffer.byteLength(JSON.stringify(m)), 0);

/** Where a page breaks R-init-bounds, in words (null: within them); `limit` the page's own. */
export function outOfBounds(messages, limit = MAX_PAGE_MESSAGES) {
  const most = Math.min(limit, MAX_PAGE_MESSAGES);
  if (messages.length > most) return `${messages.length} messages (at most ${most})`;
  const bytes = pageBytes(messages);
  return bytes > MAX_PAGE_BYTES ? `${bytes} bytes of messages (at most ${MAX_PAGE_BYTES})` : null;
}

/** The text parts of a listed message, joined by newlines. */
export const textOf = (message) => (Array.isArray(message?.parts) ? message.parts.filter((p) => p?.type === "text").map((p) => p.text ?? "").join("\n") : "");

/** Whether `text` names `id`: holds it with no letter, digit, `_`, `-`, `.`, `:` or `~` right before
 * or after it (so that "msg_1" is not read in "msg_10", nor "1" in "msg_1"). */
export function names(text, id) {
  const part = /[A-Za-z0-9_.:~-]/;
  for (let at = text.indexOf(id); at !== -1; at = text.indexOf(id, at + 1)) {
    if (!part.test(text[at - 1] ?? "") && !part.test(text[at + id.length] ?? "")) return true;
  }
  return false;
}

/** The refs of a page, oldest first. */
export const refsOf = (messages) => messages.map((m) => m.ref);
