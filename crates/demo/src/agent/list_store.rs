//! The `proto4-` persona's messages (an agent of protocol 4, [`crate::persona`]): a list in the
//! Durable Object's SQLite storage (`demo_list`), one JSON row a finished message (and its id),
//! from which a prompt that takes messages back deletes the rows after the one it follows
//! ([`crate::proto4`]). Every `init` reads the newest of them. The agent of protocol 5 keeps a tree
//! instead ([`crate::tree_store`]).

use std::cell::Cell;

use worker::{SqlStorage, SqlStorageValue};

use crate::rows::{recent_rows, row_json};
use crate::session::Message;

// A list of its own (an `id` column: the ids a prompt's branch names). The table of the demo
// agent of protocol 4, `demo_history`, which pruned to 200 rows, stays in an older object's
// storage, unread.
const CREATE: &str = "CREATE TABLE IF NOT EXISTS demo_list \
    (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, json TEXT NOT NULL)";
const INSERT: &str = "INSERT INTO demo_list (id, json) VALUES (?, ?)";
const NEWEST: &str = "SELECT json FROM demo_list ORDER BY seq DESC LIMIT ?";
const IDS: &str = "SELECT seq, id FROM demo_list ORDER BY seq";
const TAKE_BACK: &str = "DELETE FROM demo_list WHERE seq >= ?";
const COUNT: &str = "SELECT count(*) FROM demo_list";

/// The stored list of one session.
pub(crate) struct List {
    sql: SqlStorage,
    /// Whether the table is known to exist (created at the first use).
    ready: Cell<bool>,
}

fn count(n: usize) -> SqlStorageValue {
    SqlStorageValue::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}

impl List {
    /// Forgets that its table exists, once the object's storage was deleted whole: the next use
    /// creates it again.
    pub(crate) fn forget(&self) {
        self.ready.set(false);
    }

    pub(crate) fn new(sql: SqlStorage) -> Self {
        List {
            sql,
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

    /// Stores `message` as the newest row ([`row_json`] bounds its size).
    pub(crate) fn append(&self, message: &Message) -> worker::Result<()> {
        let row = vec![message.id.clone().into(), row_json(message).into()];
        self.table()?.exec(INSERT, row)?;
        Ok(())
    }

    /// How many messages it holds.
    pub(crate) fn len(&self) -> worker::Result<usize> {
        let cursor = self.table()?.exec(COUNT, None)?;
        let counted = cursor.raw().next().and_then(|row| match row.ok()?.first() {
            Some(SqlStorageValue::Integer(n)) => usize::try_from(*n).ok(),
            _ => None,
        });
        Ok(counted.unwrap_or(0))
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
