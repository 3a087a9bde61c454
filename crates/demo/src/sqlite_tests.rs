//! A real SQLite (rusqlite's, in memory) behind [`Sql`], for the native tests of the stores: the
//! SQL the Durable Object runs, run here too. Failures it is told of are kept, to be looked at.

use std::cell::{Cell, RefCell};

use rusqlite::types::{Value, ValueRef};
use rusqlite::Connection;

use crate::sql::{Sql, SqlRow, SqlValue};

/// An in-memory database, and the failures the store reported on it.
pub struct Sqlite {
    pub db: Connection,
    pub failures: RefCell<Vec<String>>,
    /// A statement containing this text fails (a store's failure, on purpose).
    pub fail_on: RefCell<Option<&'static str>>,
    /// How many statements ran.
    pub runs: Cell<usize>,
}

impl Sqlite {
    pub fn new() -> Self {
        Sqlite {
            db: Connection::open_in_memory().expect("an in-memory database"),
            failures: RefCell::new(Vec::new()),
            fail_on: RefCell::new(None),
            runs: Cell::new(0),
        }
    }
}

fn value_of(value: ValueRef<'_>) -> SqlValue {
    match value {
        ValueRef::Integer(n) => SqlValue::Integer(n),
        ValueRef::Text(text) => SqlValue::Text(String::from_utf8_lossy(text).into_owned()),
        _ => SqlValue::Null,
    }
}

impl Sql for Sqlite {
    fn run(&self, statement: &str, params: Vec<SqlValue>) -> Result<Vec<SqlRow>, String> {
        self.runs.set(self.runs.get() + 1);
        if let Some(text) = *self.fail_on.borrow() {
            if statement.contains(text) {
                return Err(format!("failing on purpose at {text:?}"));
            }
        }
        let params: Vec<Value> = params
            .into_iter()
            .map(|p| match p {
                SqlValue::Null => Value::Null,
                SqlValue::Integer(n) => Value::Integer(n),
                SqlValue::Text(text) => Value::Text(text),
            })
            .collect();
        let mut prepared = self.db.prepare(statement).map_err(|e| e.to_string())?;
        let columns = prepared.column_count();
        let mut rows = prepared
            .query(rusqlite::params_from_iter(params))
            .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(|e| e.to_string())? {
            let values = (0..columns)
                .map(|i| row.get_ref(i).map(value_of).map_err(|e| e.to_string()))
                .collect::<Result<SqlRow, String>>()?;
            out.push(values);
        }
        Ok(out)
    }

    fn failed(&self, what: &str, err: &str) {
        self.failures.borrow_mut().push(format!("{what}: {err}"));
    }
}
