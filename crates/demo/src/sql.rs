//! What the demo agent's stores ask of SQLite: one statement at a time, its rows as plain values,
//! and somewhere to report a failure. The Durable Object's storage answers it in the agent
//! (`agent/sql.rs`); a real SQLite answers it in the native tests, so the same SQL runs in both.

/// A value bound to a statement or read from a row (the kinds the stores use).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SqlValue {
    Null,
    Integer(i64),
    Text(String),
}

impl From<&str> for SqlValue {
    fn from(text: &str) -> Self {
        SqlValue::Text(text.to_owned())
    }
}

impl From<String> for SqlValue {
    fn from(text: String) -> Self {
        SqlValue::Text(text)
    }
}

impl From<Option<&str>> for SqlValue {
    fn from(text: Option<&str>) -> Self {
        text.map_or(SqlValue::Null, SqlValue::from)
    }
}

impl SqlValue {
    /// A count or a limit (saturating: a store never holds `i64::MAX` rows).
    pub fn count(n: usize) -> Self {
        SqlValue::Integer(i64::try_from(n).unwrap_or(i64::MAX))
    }

    /// The text, when it is one.
    pub fn text(&self) -> Option<&str> {
        match self {
            SqlValue::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The text, taken, when it is one.
    pub fn into_text(self) -> Option<String> {
        match self {
            SqlValue::Text(text) => Some(text),
            _ => None,
        }
    }

    /// The integer, when it is one.
    pub fn integer(&self) -> Option<i64> {
        match self {
            SqlValue::Integer(n) => Some(*n),
            _ => None,
        }
    }
}

/// One row of a result, its columns in the statement's order.
pub type SqlRow = Vec<SqlValue>;

/// A SQLite database.
pub trait Sql {
    /// Runs one statement with `params` bound to its `?`s, in order; its rows, all read.
    fn run(&self, statement: &str, params: Vec<SqlValue>) -> Result<Vec<SqlRow>, String>;

    /// Reports that `what` failed with `err` (the agent writes it as one JSON log line); the
    /// store then goes on as if it held nothing there.
    fn failed(&self, what: &str, err: &str);
}

impl<T: Sql> Sql for &T {
    fn run(&self, statement: &str, params: Vec<SqlValue>) -> Result<Vec<SqlRow>, String> {
        (**self).run(statement, params)
    }

    fn failed(&self, what: &str, err: &str) {
        (**self).failed(what, err);
    }
}
