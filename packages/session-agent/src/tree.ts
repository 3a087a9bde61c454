// A session's messages as a tree (protocol 5, docs/agent-protocol.md, "Branches"): every message
// the agent ever stored, each naming the message it follows (its parent), so that a regenerate, an
// edit, a fork or a stale device's send makes a new branch and sets the old one aside instead of
// deleting it. The rules are here, on any store that can answer a few questions (`TreeRead`); the
// Durable Object keeps the messages in SQLite (./store.ts), a test keeps them in memory. They are
// the Rust core's rules (crates/core/src/tree/: attach.rs, page.rs, mod.rs), ported one for one;
// tests/fixtures/tree_cases.json holds cases both implementations run.
//
// - `attach`: where a prompt's turn goes: the message it follows, and whether its user message is
//   one already stored (a regenerate) or a new one (a send, an edit, a fork).
// - `page`: the current branch (the branch of the newest message: what `init` and a reload show),
//   the branch through any message to its newest descendant, and older pages.
// - `siblings`: the messages that follow the same one (the edits of a user message, the retries of
//   a reply), which is how a client finds the branches it does not show.
//
// Pure: no storage, no clock.

/** Most messages one page holds (an `init`, a `history` answer): the newest 200 of a branch, a
 * long conversation's worth on one screen and more, and what `init` carried before pages
 * (crates/core/src/tree/page.rs, MAX_PAGE_MESSAGES). */
export const MAX_PAGE_MESSAGES = 200;

/** Most bytes of messages one page holds (each message's JSON, summed): three quarters of the
 * adapter's default frame limit (`MAX_FRAME_BYTES`, 4 MiB), so that a page with its envelope
 * always fits in one frame the adapter accepts (crates/core/src/tree/page.rs, MAX_PAGE_BYTES). */
export const MAX_PAGE_BYTES = ((4 * 1024 * 1024) / 4) * 3;

/** Most messages a session's store holds (crates/core/src/tree/mod.rs, MAX_SESSION_MESSAGES, which
 * docs/agent-protocol.md states): a turn adds two; past the cap a prompt is refused
 * (`session_full`) and nothing is deleted. 5,000 turns are many times the longest conversation a
 * person keeps. */
export const MAX_SESSION_MESSAGES = 10_000;

/** The largest `ref`, in bytes: the session id's bound, so that a ref fits in a URL's query as
 * plainly as a session id fits in its path (crates/core/src/tree/mod.rs, MAX_REF_BYTES). */
export const MAX_REF_BYTES = 128;

/** Whether `value` can be a message's `ref`: 1 to MAX_REF_BYTES characters of `[A-Za-z0-9._:~-]`
 * (unreserved in a URL, so a ref goes into a query as it is). */
export function isRef(value: string): boolean {
  return value.length >= 1 && value.length <= MAX_REF_BYTES && /^[A-Za-z0-9._:~-]+$/.test(value);
}

export type Role = "user" | "assistant";

/** One stored message as the rules see it (its parts are the store's business). */
export interface TreeNode {
  /** Its name in the store (`ref` on the wire): unique in the session for good. */
  key: string;
  /** The client's id (a user message's; the same for every edit of one message) or the turn's id
   * (an assistant message's, which is also its key). */
  id: string;
  role: Role;
  /** The key of the message it follows; null for a conversation's first message (a root). */
  parent: string | null;
  /** Its place in the order of storing: larger is newer. */
  seq: number;
}

/** What the rules ask of a store. Every answer is about stored messages only. */
export interface TreeRead {
  /** The message `key`. */
  node(key: string): TreeNode | undefined;
  /** The newest message: the end of the current branch. */
  newest(): TreeNode | undefined;
  /** The messages whose id is `id`, oldest first. */
  withId(id: string): TreeNode[];
  /** The messages that follow `parent` (null: the roots), oldest first. */
  children(parent: string | null): TreeNode[];
  /** The newest message of `key`'s subtree (`key` itself when nothing follows it). */
  newestUnder(key: string): TreeNode | undefined;
  /** `key` and the messages before it on its branch, nearest first, at most `limit`: optional,
   * for a store that reads a branch in one query (SQLite's `WITH RECURSIVE`). */
  lineage?(key: string, limit: number): TreeNode[];
}

/** `key` and the messages before it on its branch, nearest first, at most `limit`. */
export function lineage(store: TreeRead, key: string, limit: number): TreeNode[] {
  if (store.lineage) return store.lineage(key, limit);
  const out: TreeNode[] = [];
  let next = store.node(key);
  while (next && out.length < limit) {
    out.push(next);
    next = next.parent === null ? undefined : store.node(next.parent);
  }
  return out;
}

/** Where a prompt says its message goes: the `prompt`'s `messageId` and `branch`. */
export interface Place {
  /** The id the client gave its user message. */
  messageId?: string;
  /** The ids of the client's messages before it, oldest first. */
  branch?: readonly string[];
}

/** The turn's user message: a stored one (the turn is a new reply to it), or a new one after
 * `parent` (null: a new conversation's first message). */
export type Attach = { existing: TreeNode } | { existing?: undefined; parent: string | null };

/** The key of the message the turn's user message follows. */
export const parentOf = (attached: Attach): string | null => (attached.existing ? attached.existing.parent : attached.parent);

/**
 * Where a prompt with `place` puts its turn in `store` (docs/agent-protocol.md, "Where a turn
 * attaches"). `sameContent(node)` tells whether the stored user message `node` says what the prompt
 * says (its text and files). In two steps:
 *
 * 1. the anchor, the message the user message follows: the newest id of `branch` that names a
 *    stored message (of several, the one whose earlier messages match the ids before it in `branch`
 *    the furthest back, then the newest); when no id of `branch` is stored, `messageId` decides: a
 *    first message with that id stays first (the root); else the parent of the newest user message
 *    with that id (a regenerate or an edit of it); else the newest message;
 * 2. the user message: a user message with `messageId` and the same content that already follows
 *    the anchor is the turn's own (a regenerate); else a new one follows the anchor.
 */
export function attach(store: TreeRead, place: Place, sameContent: (node: TreeNode) => boolean): Attach {
  const parent = anchor(store, place)?.key ?? null;
  const id = place.messageId;
  const own = id === undefined ? undefined : [...store.children(parent)].reverse().find((node) => node.role === "user" && node.id === id && sameContent(node));
  return own ? { existing: own } : { parent };
}

/** The message the turn's user message follows (undefined: the root). */
function anchor(store: TreeRead, place: Place): TreeNode | undefined {
  const branch = place.branch ?? [];
  for (let at = branch.length - 1; at >= 0; at--) {
    const named = store.withId(branch[at]);
    if (named.length > 0) return bestMatch(store, named, branch.slice(0, at));
  }
  const named = place.messageId === undefined ? [] : store.withId(place.messageId).filter((node) => node.role === "user");
  // A first message edited or regenerated (its list had nothing before it) stays first.
  if (named.some((node) => node.parent === null)) return undefined;
  const edited = newestOf(named);
  if (!edited) return store.newest();
  return edited.parent === null ? undefined : store.node(edited.parent);
}

/** Of `named` (stored messages of one id), the one whose earlier messages match `before` (the
 * branch's ids before that id) the furthest back; among equals, the newest. */
function bestMatch(store: TreeRead, named: TreeNode[], before: readonly string[]): TreeNode {
  if (named.length === 1) return named[0];
  let best = named[0];
  let bestMatched = -1;
  for (const node of named) {
    const matched = matching(store, node, before);
    if (matched > bestMatched || (matched === bestMatched && node.seq > best.seq)) [best, bestMatched] = [node, matched];
  }
  return best;
}

/** How many of `node`'s earlier messages, nearest first, have the ids of `before`, newest first. */
function matching(store: TreeRead, node: TreeNode, before: readonly string[]): number {
  const earlier = node.parent === null ? [] : lineage(store, node.parent, before.length);
  let count = 0;
  while (count < earlier.length && earlier[count].id === before[before.length - 1 - count]) count++;
  return count;
}

function newestOf(nodes: TreeNode[]): TreeNode | undefined {
  return nodes.reduce<TreeNode | undefined>((newest, node) => (newest === undefined || node.seq > newest.seq ? node : newest), undefined);
}

/** Whether a store holding `count` messages has room for the turn `attached` stores: its reply,
 * and its user message when that is a new one (MAX_SESSION_MESSAGES). */
export function roomFor(count: number, attached: Attach): boolean {
  return count + (attached.existing ? 1 : 2) <= MAX_SESSION_MESSAGES;
}

/** Which page of which branch: the current branch's newest page (neither), the newest page of the
 * branch through `leaf` to its newest descendant, or the messages just before `before` on its
 * branch (an older page). */
export type Want = { leaf?: undefined; before?: undefined } | { leaf: string; before?: undefined } | { leaf?: undefined; before: string };

/** A page: its messages, oldest first, and whether the branch has older ones. */
export interface Page {
  nodes: TreeNode[];
  more: boolean;
}

/** The page `want` asks for, at most `limit` messages (1 to MAX_PAGE_MESSAGES; anything else is
 * brought into that range, and a limit that is no number is MAX_PAGE_MESSAGES); undefined when it
 * names a message the store does not hold. */
export function page(store: TreeRead, want: Want, limit: number = MAX_PAGE_MESSAGES): Page | undefined {
  const bounded = Number.isFinite(limit) ? Math.min(Math.max(Math.floor(limit), 1), MAX_PAGE_MESSAGES) : MAX_PAGE_MESSAGES;
  let end: TreeNode | undefined;
  if (want.leaf !== undefined) {
    if (!store.node(want.leaf)) return undefined;
    end = store.newestUnder(want.leaf);
  } else if (want.before !== undefined) {
    const node = store.node(want.before);
    if (!node) return undefined;
    end = node.parent === null ? undefined : store.node(node.parent);
  } else {
    end = store.newest();
  }
  if (!end) return { nodes: [], more: false };
  const nodes = lineage(store, end.key, bounded + 1);
  const more = nodes.length > bounded;
  return { nodes: nodes.slice(0, bounded).reverse(), more };
}

/** The keys of `node`'s siblings and its own, oldest first; empty when it has none (a client shows
 * no branch picker then). */
export function siblings(store: TreeRead, node: TreeNode): string[] {
  return siblingKeys(store.children(node.parent).map((sibling) => sibling.key));
}

/** The keys of the messages that follow one message (oldest first) as each of them lists them:
 * all of them when there are two or more, none otherwise. */
export function siblingKeys(children: string[]): string[] {
  return children.length < 2 ? [] : children;
}

/** Of `items` (a page, oldest first), the newest whose sizes sum to at most `max` bytes: what a
 * page holds within MAX_PAGE_BYTES. The newest item stays even alone above `max`, so that a branch
 * is never unreadable (docs/agent-protocol.md does not say what a page holds when one message is
 * larger than its bound). */
export function newestWithin<T>(items: T[], size: (item: T) => number, max: number = MAX_PAGE_BYTES): T[] {
  let total = 0;
  let from = items.length;
  while (from > 0) {
    total += size(items[from - 1]);
    if (total > max && from < items.length) break;
    from--;
  }
  return items.slice(from);
}
