// The session's messages in the Durable Object's SQLite storage, as a tree (protocol 5, ./tree.ts):
// one row per message ever stored, with its `ref` (the key a client names it by), its `id`, its
// role, the ref of the message it follows (`parent`) and its body; nothing is ever deleted but by a
// `forget`, which deletes everything (below). The rows answer the questions of the tree's rules
// (`TreeRead`), each in one query. A row whose message is not finished is the turn in flight as it
// was last saved: saved when the turn starts (so a restart mid-turn can tell that the turn died)
// and when it waits on a question (so the question survives hibernation, when memory is gone).
// Beside the messages, a waiting turn's memo (what its model keeps across a question, ./model.ts):
// one row per waiting turn, never part of a message, so no client ever reads it.
//
// The tables' names carry the library's prefix, so that an agent's own tables (a `messages` of its
// own) never meet them. An object that kept a protocol-4 history (the library's former `messages`
// and `memos` tables) has it copied in on its first start (./legacy.ts).
//
// The tables are made when the store is built, if they do not exist yet. A `forget` (protocol 7,
// ./session.ts) deletes all of the object's storage, these tables with it: the session then says so
// (`tablesDropped`), and the store makes them again, empty, on its next use, so that a forgotten
// session holds nothing until it is used again.

import { migrateProtocol4 } from "./legacy.js";
import type { Message } from "./protocol.js";
import { MAX_SESSION_MESSAGES, type Role, type TreeNode, type TreeRead } from "./tree.js";

/** The messages' table. */
export const MESSAGES_TABLE = "session_agent_messages";
/** The waiting turns' memos. */
export const MEMOS_TABLE = "session_agent_memos";

/** Runs `fn` as one transaction of the object's storage (`ctx.storage.transactionSync`): all of its
 * writes, or none of them when it throws. */
export type Transaction = <T>(fn: () => T) => T;

type NodeRow = { ref: string; id: string; role: string; parent: string | null; seq: number };
const NODE_COLUMNS = "ref, id, role, parent, seq";

const toNode = (row: NodeRow): TreeNode => ({ key: row.ref, id: row.id, role: row.role as Role, parent: row.parent, seq: row.seq });

export class TreeStore implements TreeRead {
  /** Whether the tables are known to exist (this store made or found them, and no `forget` has
   * deleted them since). */
  private ready = false;

  constructor(
    private readonly sql: SqlStorage,
    private readonly inTransaction: Transaction,
  ) {
    this.db();
  }

  /** Runs `fn` as one transaction of the object's storage: all of its writes, or none of them when
   * it throws. The tables are made first, outside it: made inside, a transaction taken back would
   * take them back too while the store believed they exist. */
  readonly transaction: Transaction = (fn) => {
    this.db();
    return this.inTransaction(fn);
  };

  /** The object's storage deleted everything (a `forget`): the tables are made again on the next
   * use. */
  tablesDropped(): void {
    this.ready = false;
  }

  /** The storage, its tables made if they do not exist (a new object, or one whose storage was
   * deleted), in one transaction with the copy of a protocol-4 history (./legacy.ts). */
  private db(): SqlStorage {
    if (!this.ready) {
      if (!this.exists()) this.inTransaction(() => this.create());
      this.ready = true;
    }
    return this.sql;
  }

  private exists(): boolean {
    return this.sql.exec(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, MESSAGES_TABLE).toArray().length > 0;
  }

  private create(): void {
    this.sql.exec(`CREATE TABLE ${MESSAGES_TABLE} (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      ref TEXT NOT NULL UNIQUE,
      id TEXT NOT NULL,
      role TEXT NOT NULL,
      parent TEXT,
      finished INTEGER NOT NULL,
      body TEXT NOT NULL
    )`);
    this.sql.exec(`CREATE INDEX ${MESSAGES_TABLE}_by_id ON ${MESSAGES_TABLE} (id)`);
    this.sql.exec(`CREATE INDEX ${MESSAGES_TABLE}_by_parent ON ${MESSAGES_TABLE} (parent)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS ${MEMOS_TABLE} (turn_id TEXT PRIMARY KEY, body TEXT NOT NULL)`);
    // Straight to the rows: the tables are not `ready` yet, and a subclass's `insert` (the tests'
    // store that fails on purpose) is for the session's own writes.
    migrateProtocol4(this.sql, (key, parent, message, finished) => this.insertRow(key, parent, message, finished), (turnId, memo) => this.memoRow(turnId, memo));
  }

  private nodes(where: string, ...bindings: SqlStorageValue[]): TreeNode[] {
    return this.db().exec<NodeRow>(`SELECT ${NODE_COLUMNS} FROM ${MESSAGES_TABLE} ${where}`, ...bindings).toArray().map(toNode);
  }

  node(key: string): TreeNode | undefined {
    return this.nodes(`WHERE ref = ?`, key)[0];
  }

  newest(): TreeNode | undefined {
    return this.nodes(`ORDER BY seq DESC LIMIT 1`)[0];
  }

  withId(id: string): TreeNode[] {
    return this.nodes(`WHERE id = ? ORDER BY seq`, id);
  }

  children(parent: string | null): TreeNode[] {
    return parent === null ? this.nodes(`WHERE parent IS NULL ORDER BY seq`) : this.nodes(`WHERE parent = ? ORDER BY seq`, parent);
  }

  newestUnder(key: string): TreeNode | undefined {
    const rows = this.db().exec<NodeRow>(
      `WITH RECURSIVE under(ref) AS (
         SELECT ref FROM ${MESSAGES_TABLE} WHERE ref = ?
         UNION SELECT m.ref FROM ${MESSAGES_TABLE} m JOIN under u ON m.parent = u.ref
       )
       SELECT ${NODE_COLUMNS} FROM ${MESSAGES_TABLE} WHERE ref IN (SELECT ref FROM under) ORDER BY seq DESC LIMIT 1`,
      key,
    );
    return rows.toArray().map(toNode)[0];
  }

  lineage(key: string, limit: number): TreeNode[] {
    if (limit < 1) return [];
    const rows = this.db().exec<NodeRow & { depth: number }>(
      `WITH RECURSIVE up(ref, id, role, parent, seq, depth) AS (
         SELECT ${NODE_COLUMNS}, 1 FROM ${MESSAGES_TABLE} WHERE ref = ?
         UNION ALL SELECT m.ref, m.id, m.role, m.parent, m.seq, up.depth + 1 FROM ${MESSAGES_TABLE} m JOIN up ON m.ref = up.parent WHERE up.depth < ?
       )
       SELECT ${NODE_COLUMNS}, depth FROM up ORDER BY depth`,
      key,
      Math.min(limit, Number.MAX_SAFE_INTEGER),
    );
    return rows.toArray().map(toNode);
  }

  /** How many messages the session holds. */
  count(): number {
    return this.db().exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${MESSAGES_TABLE}`).one().n;
  }

  /** Stores `message` under `key` after `parent` (its id and role are the message's). */
  insert(key: string, parent: string | null, message: Message, finished: boolean): void {
    this.db();
    this.insertRow(key, parent, message, finished);
  }

  private insertRow(key: string, parent: string | null, message: Message, finished: boolean): void {
    this.sql.exec(
      `INSERT INTO ${MESSAGES_TABLE} (ref, id, role, parent, finished, body) VALUES (?, ?, ?, ?, ?, ?)`,
      key,
      message.id,
      message.role,
      parent,
      finished ? 1 : 0,
      JSON.stringify(message),
    );
  }

  /** Saves again a message stored under its id (an assistant message: its ref is its id). */
  save(message: Message, finished: boolean): void {
    this.db().exec(`UPDATE ${MESSAGES_TABLE} SET finished = ?, body = ? WHERE ref = ?`, finished ? 1 : 0, JSON.stringify(message), message.id);
  }

  /** The bodies of the messages `keys`, by key (a key not stored is left out). */
  bodies(keys: string[]): Map<string, Message> {
    const rows = this.db().exec<{ ref: string; body: string }>(`SELECT ref, body FROM ${MESSAGES_TABLE} WHERE ref IN (SELECT value FROM json_each(?))`, JSON.stringify(keys));
    return new Map(rows.toArray().map((row) => [row.ref, JSON.parse(row.body) as Message]));
  }

  /** The keys of the messages that follow each of `parents` (null: the roots), oldest first. */
  childKeys(parents: (string | null)[]): Map<string | null, string[]> {
    const found = new Map<string | null, string[]>(parents.map((parent) => [parent, []]));
    const keys = parents.filter((parent): parent is string => parent !== null);
    const rows = this.db().exec<{ ref: string; parent: string | null }>(
      `SELECT ref, parent FROM ${MESSAGES_TABLE} WHERE parent IN (SELECT value FROM json_each(?))${parents.includes(null) ? " OR parent IS NULL" : ""} ORDER BY seq`,
      JSON.stringify(keys),
    );
    for (const row of rows.toArray()) found.get(row.parent)?.push(row.ref);
    return found;
  }

  /** The messages of `key`'s branch, from the conversation's first to `key`, oldest first: what a
   * turn's model is given. */
  branchTo(key: string): Message[] {
    const rows = this.db().exec<{ body: string }>(
      `WITH RECURSIVE up(ref, parent, body, depth) AS (
         SELECT ref, parent, body, 1 FROM ${MESSAGES_TABLE} WHERE ref = ?
         UNION ALL SELECT m.ref, m.parent, m.body, up.depth + 1 FROM ${MESSAGES_TABLE} m JOIN up ON m.ref = up.parent WHERE up.depth < ?
       )
       SELECT body FROM up ORDER BY depth DESC`,
      key,
      MAX_SESSION_MESSAGES,
    );
    return rows.toArray().map((row) => JSON.parse(row.body) as Message);
  }

  /** The newest unfinished message, if any: the turn in flight as last saved. */
  unfinished(): Message | null {
    const row = this.db().exec<{ body: string }>(`SELECT body FROM ${MESSAGES_TABLE} WHERE finished = 0 ORDER BY seq DESC LIMIT 1`).toArray()[0];
    return row ? (JSON.parse(row.body) as Message) : null;
  }

  /** Keeps `memo` for the waiting turn `turnId` (replacing the one it had). */
  saveMemo(turnId: string, memo: unknown): void {
    this.db();
    this.memoRow(turnId, memo);
  }

  private memoRow(turnId: string, memo: unknown): void {
    this.sql.exec(`INSERT OR REPLACE INTO ${MEMOS_TABLE} (turn_id, body) VALUES (?, ?)`, turnId, JSON.stringify(memo));
  }

  /** The memo kept for `turnId`, if any. */
  memo(turnId: string): unknown {
    const row = this.db().exec<{ body: string }>(`SELECT body FROM ${MEMOS_TABLE} WHERE turn_id = ?`, turnId).toArray()[0];
    return row ? JSON.parse(row.body) : undefined;
  }

  /** Drops every memo: a turn's memo lives only while the turn waits, and at most one turn does. */
  dropMemos(): void {
    this.db().exec(`DELETE FROM ${MEMOS_TABLE}`);
  }
}
