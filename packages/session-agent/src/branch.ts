// Where a prompt's turn attaches in the conversation (docs/agent-protocol.md, "Taking messages
// back", protocol 4): how many stored messages stay, the rest being taken back before the turn
// starts (a regenerate, an edit, a fork).

/**
 * How many of `stored` (the stored messages' ids, oldest first) stay for a prompt whose user
 * message has `messageId` and follows `branch` (the ids of the client's messages before it,
 * oldest first). In order: a stored message with `messageId` is replaced (it and every message
 * after it go); else the newest message of `branch` that is stored is followed (every message
 * after it goes); else nothing goes (the turn is appended).
 */
export function kept(stored: string[], messageId?: string, branch?: string[]): number {
  const at = new Map(stored.map((id, i) => [id, i]));
  const replaced = messageId === undefined ? undefined : at.get(messageId);
  if (replaced !== undefined) return replaced;
  for (let i = (branch?.length ?? 0) - 1; i >= 0; i--) {
    const followed = at.get(branch![i]);
    if (followed !== undefined) return followed + 1;
  }
  return stored.length;
}
