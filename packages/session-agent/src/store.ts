// The session's history in the Durable Object's SQLite storage: one row per message, in order.
// A row whose message is not finished is the turn in flight as it was last saved: saved when the
// turn starts (so a restart mid-turn can tell that the turn died) and when it waits on a question
// (so the question survives hibernation, when memory is gone). A prompt that takes messages back
// (protocol 4) deletes the rows after the point its turn attaches (./branch.ts). Beside the
// messages, a waiting turn's memo (what its model keeps across a question, ./model.ts): one row
// per waiting turn, never part of a message, so no client ever reads it.

import { kept } from "./branch.js";
import type { Message } from "./protocol.js";

/** Most messages an `init` carries: the newest ones. */
export const MAX_INIT_MESSAGES = 200;

export class Store {
  constructor(private sql: SqlStorage) {
    sql.exec(`CREATE TABLE IF NOT EXISTS messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      finished INTEGER NOT NULL,
      body TEXT NOT NULL
    )`);
    sql.exec(`CREATE TABLE IF NOT EXISTS memos (turn_id TEXT PRIMARY KEY, body TEXT NOT NULL)`);
  }

  /** Keeps `memo` for the waiting turn `turnId` (replacing the one it had). */
  saveMemo(turnId: string, memo: unknown): void {
    this.sql.exec(`INSERT OR REPLACE INTO memos (turn_id, body) VALUES (?, ?)`, turnId, JSON.stringify(memo));
  }

  /** The memo kept for `turnId`, if any. */
  memo(turnId: string): unknown {
    const row = this.sql.exec<{ body: string }>(`SELECT body FROM memos WHERE turn_id = ?`, turnId).toArray()[0];
    return row ? JSON.parse(row.body) : undefined;
  }

  /** Drops every memo: a turn's memo lives only while the turn waits, and at most one turn does. */
  dropMemos(): void {
    this.sql.exec(`DELETE FROM memos`);
  }

  /** Inserts or replaces `message` (its order is that of its first save). */
  save(message: Message, finished: boolean): void {
    this.sql.exec(
      `INSERT INTO messages (id, finished, body) VALUES (?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET finished = excluded.finished, body = excluded.body`,
      message.id,
      finished ? 1 : 0,
      JSON.stringify(message),
    );
  }

  /** The newest `limit` finished messages, oldest first. */
  finished(limit = MAX_INIT_MESSAGES): Message[] {
    const rows = this.sql
      .exec<{ body: string }>(`SELECT body FROM messages WHERE finished = 1 ORDER BY seq DESC LIMIT ?`, limit)
      .toArray();
    return rows.reverse().map((row) => JSON.parse(row.body) as Message);
  }

  /** Deletes the messages a turn that stores `messageId` after `branch` does not follow
   * (./branch.ts). Called only when no turn is in flight. */
  takeBack(messageId?: string, branch?: string[]): void {
    const rows = this.sql.exec<{ seq: number; id: string }>(`SELECT seq, id FROM messages ORDER BY seq`).toArray();
    const keep = kept(rows.map((row) => row.id), messageId, branch);
    if (keep < rows.length) this.sql.exec(`DELETE FROM messages WHERE seq >= ?`, rows[keep].seq);
  }

  /** The unfinished message, if any: the turn in flight as last saved. */
  unfinished(): Message | null {
    const row = this.sql.exec<{ body: string }>(`SELECT body FROM messages WHERE finished = 0 ORDER BY seq DESC LIMIT 1`).toArray()[0];
    return row ? (JSON.parse(row.body) as Message) : null;
  }
}
