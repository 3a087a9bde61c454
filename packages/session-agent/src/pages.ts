// What a client reads of the session's tree (protocol 5, docs/agent-protocol.md, "Branches"): the
// messages of a page as `init`, a `history` answer and `message.create` list them, each with its
// `ref`, its `parent` and, when it has any, its `siblings`; a page within its bounds (at most
// MAX_PAGE_MESSAGES messages and MAX_PAGE_BYTES of them: the newest of the branch, R-init-bounds).

import type { Message, Part } from "./protocol.js";
import type { TreeStore } from "./store.js";
import { newestWithin, page, siblingKeys, type TreeNode, type Want } from "./tree.js";

/** The page `want` asks for (at most `limit` messages), listed; undefined when it names a message
 * the session does not hold. `live` is the turn in flight as it is now (its stored body is older). */
export function listPage(store: TreeStore, want: Want, limit: number | undefined, live?: Message): Message[] | undefined {
  const found = page(store, want, limit);
  return found && newestWithin(listed(store, found.nodes, live), jsonBytes);
}

/** `nodes` as a client reads them: each one's body with its ref, parent and siblings. */
export function listed(store: TreeStore, nodes: TreeNode[], live?: Message): Message[] {
  const bodies = store.bodies(nodes.map((node) => node.key));
  const children = store.childKeys([...new Set(nodes.map((node) => node.parent))]);
  return nodes.map((node) => {
    const body = live?.id === node.key ? live : (bodies.get(node.key) ?? { id: node.id, role: node.role, parts: [] });
    const siblings = siblingKeys(children.get(node.parent) ?? []);
    return { ...body, ref: node.key, parent: node.parent, ...(siblings.length ? { siblings } : {}) };
  });
}

/** A message as an agent of protocol 3 lists it: without the tree's fields. */
export function withoutRefs({ ref: _, parent: __, siblings: ___, ...message }: Message): Message {
  return message;
}

const encoder = new TextEncoder();

/** The bytes of a listed message's JSON: what MAX_PAGE_BYTES bounds. */
export const jsonBytes = (message: Message) => encoder.encode(JSON.stringify(message)).byteLength;

/** Whether a stored user message's parts say what a prompt's `parts` say: the same text and the same
 * files (docs/agent-protocol.md: "the same content (its text and its files)"). */
export function sameContent(stored: Part[] | undefined, parts: Part[]): boolean {
  const said = (list: Part[]) => JSON.stringify(list.map((p) => (p.type === "text" ? ["text", p.text] : p.type === "file" ? ["file", p.mediaType, p.url, p.filename ?? null] : [p.type])));
  return stored !== undefined && said(stored) === said(parts);
}
