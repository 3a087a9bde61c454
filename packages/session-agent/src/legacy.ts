// An object's protocol-4 history, brought into the tree on its first start with this version of the
// library (./store.ts calls it, in the transaction that creates the tree's tables, so it happens
// once and wholly or not at all). Protocol 4's library kept a list: a `messages` table (seq, id,
// finished, body), one conversation in order, and a `memos` table (turn_id, body) for a turn that
// waits on a question. The list is one straight branch of the tree: each row follows the row before
// it. User messages get a ref of their own (their ids are the client's); an assistant message's ref
// is its id, the turn's id.
//
// The old tables are left as they are, and never read again: they may be an agent's own tables of
// the same names (issue 67), which is also why a table that does not hold exactly the library's
// rows (its columns, a message body under each row's id) is not copied at all.

import { newId, type Message } from "./protocol.js";
import { isRef } from "./tree.js";

/** Stores one copied message: its key, the key it follows, its body, whether it is finished. */
type Insert = (key: string, parent: string | null, message: Message, finished: boolean) => void;

type LegacyRow = { id: string; finished: number; body: string };

/** Copies protocol 4's `messages` (and the memo of a turn that waits) through `insert` and `memo`,
 * when they are the library's own. */
export function migrateProtocol4(sql: SqlStorage, insert: Insert, memo: (turnId: string, memo: unknown) => void): void {
  const rows = legacyRows(sql);
  if (!rows) return;
  let parent: string | null = null;
  const unfinished = new Set<string>();
  for (const { message, finished } of rows) {
    const key = message.role === "assistant" && isRef(message.id) ? message.id : newId("u_");
    insert(key, parent, message, finished);
    if (!finished) unfinished.add(message.id);
    parent = key;
  }
  for (const { turn_id, body } of read<{ turn_id: string; body: string }>(sql, `SELECT turn_id, body FROM memos`) ?? []) {
    if (unfinished.has(turn_id)) memo(turn_id, parseJson(body));
  }
}

/** The rows of a `messages` table that is protocol 4's, in order; undefined when there is none, or
 * it is not the library's. */
function legacyRows(sql: SqlStorage): { message: Message; finished: boolean }[] | undefined {
  const table = sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages'`).toArray();
  if (table.length === 0) return undefined;
  const rows = read<LegacyRow>(sql, `SELECT id, finished, body FROM messages ORDER BY seq`);
  if (!rows || rows.length === 0) return undefined;
  const messages = rows.map((row) => ({ message: parseJson(row.body) as Message | undefined, row }));
  const ours = messages.every(({ message, row }) => message?.id === row.id && (message.role === "user" || message.role === "assistant") && Array.isArray(message.parts));
  return ours ? messages.map(({ message, row }) => ({ message: message!, finished: row.finished === 1 })) : undefined;
}

/** The rows of `query`, or undefined when it cannot run (no such table, other columns). */
function read<T extends Record<string, SqlStorageValue>>(sql: SqlStorage, query: string): T[] | undefined {
  try {
    return sql.exec<T>(query).toArray();
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
