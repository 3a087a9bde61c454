//! The Durable Object's SQLite storage behind [`Sql`]: the statements of the demo agent's stores
//! run here, and a failure is written as one JSON log line (`demo_agent`), after which the store
//! goes on as if it held nothing there.
//!
//! SQLite calls of a Durable Object are synchronous, which lets the session read a page, build an
//! `init` and add its socket to the broadcast in one step; and the statements one step runs, with
//! no `await` between them, are written together (the runtime's implicit transaction).

use worker::{SqlStorage, SqlStorageValue};

use crate::platform::log;
use crate::sql::{Sql, SqlRow, SqlValue};

/// One object's SQLite database.
pub(crate) struct DoSql {
    pub(crate) sql: SqlStorage,
}

fn binding(value: SqlValue) -> SqlStorageValue {
    match value {
        SqlValue::Null => SqlStorageValue::Null,
        SqlValue::Integer(n) => SqlStorageValue::Integer(n),
        SqlValue::Text(text) => SqlStorageValue::String(text),
    }
}

/// A value read: texts and whole numbers; anything else (a float, a blob) the stores never write.
fn value_of(value: SqlStorageValue) -> SqlValue {
    match value {
        SqlStorageValue::Integer(n) => SqlValue::Integer(n),
        SqlStorageValue::String(text) => SqlValue::Text(text),
        _ => SqlValue::Null,
    }
}

impl Sql for DoSql {
    fn run(&self, statement: &str, params: Vec<SqlValue>) -> Result<Vec<SqlRow>, String> {
        let bindings: Vec<SqlStorageValue> = params.into_iter().map(binding).collect();
        let cursor = self
            .sql
            .exec(statement, bindings)
            .map_err(|err| err.to_string())?;
        cursor
            .raw()
            .map(|row| {
                row.map(|values| values.into_iter().map(value_of).collect())
                    .map_err(|err| err.to_string())
            })
            .collect()
    }

    fn failed(&self, what: &str, err: &str) {
        log::warn("demo_agent", None, &format!("could not {what}: {err}"));
    }
}
