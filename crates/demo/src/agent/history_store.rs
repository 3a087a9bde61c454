//! The session's finished messages in the Durable Object's SQLite storage, one JSON row each (and
//! its id), so that they outlive an eviction of the object: every `init` reads the newest of them,
//! and a prompt that takes messages back deletes the rows after the one it follows
//! ([`crate::branch`]).
//!
//! SQLite calls of a Durable Object are synchronous, which lets the session read the history,
//! build an `init` and add its socket to the broadcast in one step.

use std::cell::Cell;

use worker::{SqlStorage, SqlStorageValue, Storage};

use crate::rows::{recent_rows, row_json, MAX_INIT_MESSAGES};
use crate::session::Message;

/// Rows kept in storage: as many as an `init` can carry, since nothing else reads them.
const KEEP_ROWS: usize = MAX_INIT_MESSAGES;

// The table of protocol 4 (an `id` column: the ids a prompt's branch names). A storage of an
// older demo agent keeps its `demo_messages` table, unread.
const CREATE: &str = "CREATE TABLE IF NOT EXISTS demo_history \
    (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, json TEXT NOT NULL)";
const INSERT: &str = "INSERT INTO demo_history (id, json) VALUES (?, ?)";
const PRUNE: &str = "DELETE FROM demo_history WHERE seq <= \
    (SELECT seq FROM demo_history ORDER BY seq DESC LIMIT 1 OFFSET ?)";
const NEWEST: &str = "SELECT json FROM demo_history ORDER BY seq DESC LIMIT ?";
const IDS: &str = "SELECT seq, id FROM demo_history ORDER BY seq";
const TAKE_BACK: &str = "DELETE FROM demo_history WHERE seq >= ?";

/// The stored history of one session.
pub(crate) struct History {
    sql: SqlStorage,
    /// Whether the table is known to exist (created at the first use).
    ready: Cell<bool>,
}

fn count(n: usize) -> SqlStorageValue {
    SqlStorageValue::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}

impl History {
    pub(crate) fn new(storage: &Storage) -> Self {
        History {
            sql: storage.sql(),
            ready: Cell::new(false),
        }
    }

    fn table(&self) -> worker::Result<&SqlStorage> {
        if !self.ready.get() {
            self.sql.exec(CREATE, None)?;
            self.ready.set(true);
        }
        Ok(&self.sql)
    }

    /// Stores `message` as the newest row ([`row_json`] bounds its size) and forgets rows
    /// beyond [`KEEP_ROWS`].
    pub(crate) fn append(&self, message: &Message) -> worker::Result<()> {
        let sql = self.table()?;
        let row = vec![message.id.clone().into(), row_json(message).into()];
        sql.exec(INSERT, row)?;
        sql.exec(PRUNE, vec![count(KEEP_ROWS)])?;
        Ok(())
    }

    /// The stored messages' ids, oldest first, each with its row's place.
    pub(crate) fn ids(&self) -> worker::Result<Vec<(i64, String)>> {
        let cursor = self.table()?.exec(IDS, None)?;
        let rows = cursor.raw().filter_map(|row| {
            let mut row = row.ok()?.into_iter();
            match (row.next(), row.next()) {
                (Some(SqlStorageValue::Integer(seq)), Some(SqlStorageValue::String(id))) => {
                    Some((seq, id))
                }
                _ => None,
            }
        });
        Ok(rows.collect())
    }

    /// Deletes the row at `seq` and every row after it.
    pub(crate) fn take_back(&self, seq: i64) -> worker::Result<()> {
        self.table()?
            .exec(TAKE_BACK, vec![SqlStorageValue::Integer(seq)])?;
        Ok(())
    }

    /// The newest rows an `init` carries ([`recent_rows`]), oldest first, at most `max`. Rows
    /// are read only until that is known; rows that cannot be read, or are not JSON text, are
    /// skipped.
    pub(crate) fn recent(&self, max: usize) -> worker::Result<Vec<String>> {
        let cursor = self.table()?.exec(NEWEST, vec![count(max)])?;
        let rows = cursor
            .raw()
            .filter_map(|row| match row.ok()?.into_iter().next() {
                Some(SqlStorageValue::String(json))
                    if serde_json::from_str::<serde::de::IgnoredAny>(&json).is_ok() =>
                {
                    Some(json)
                }
                _ => None,
            });
        Ok(recent_rows(rows, max))
    }
}
