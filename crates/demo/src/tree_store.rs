//! The demo agent's tree of messages in SQLite (`demo_tree`, [`crate::tree_sql`]): every message a
//! session ever stored, kept for good (R-keep), each naming the message it follows. It answers the
//! core's [`TreeRead`] with one query a question (a branch in one recursive query), and is written
//! a row at a time (a turn's user message and reply), or thousands of rows in one statement
//! (`/grow`).
//!
//! Generic over [`Sql`]: the Durable Object's storage in the agent, a real SQLite in the native
//! tests. A failure is reported once, through [`Sql::failed`], and the store then answers as if it
//! held nothing there: the turn goes on.

use std::cell::Cell;

use sha2::{Digest, Sha256};

use crate::record::end_failed;
use crate::rows::row_json;
use crate::session::{parse_message, Message, Part, Role};
use crate::sql::{Sql, SqlRow, SqlValue};
use crate::tree::{Node, TreeRead};
use crate::tree_sql as q;
use crate::v2::Attachment;

/// One message of a branch, with its stored row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchRow {
    pub node: Node,
    /// The message as stored (JSON, with its `ref` and `parent`).
    pub json: String,
    /// How many messages follow its parent: its siblings and itself.
    pub siblings: usize,
}

/// One session's tree.
pub struct TreeStore<S> {
    sql: S,
    /// Whether the table is known to exist (created at the first use, which also finishes the
    /// turns an earlier instance of the object left running).
    ready: Cell<bool>,
    /// How many messages it holds, once counted.
    count: Cell<Option<usize>>,
}

/// The digest of a user message's content: its text and its files, as SHA-256 in hex. Two
/// messages say the same when their digests are equal (the core's `attach`, "same content").
pub fn content_digest(text: &str, files: &[Attachment]) -> String {
    // A string and a list of plain structs: serialising them cannot fail.
    let canonical = serde_json::to_string(&(text, files)).unwrap_or_default();
    Sha256::digest(canonical.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The digest of the content a stored row says (its text parts, joined by newlines, and its
/// files): for a row stored whole, the digest of the prompt that made it.
fn row_digest(json: &str) -> Option<String> {
    let message = parse_message(json).ok()?;
    let mut texts = Vec::new();
    let mut files = Vec::new();
    for part in message.parts {
        match part {
            Part::Text { text, .. } => texts.push(text),
            Part::File(file) => files.push(file),
            _ => {}
        }
    }
    Some(content_digest(&texts.join("\n"), &files))
}

fn role_of(text: &str) -> Role {
    match text {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        _ => Role::Other,
    }
}

fn role_text(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Other => "other",
    }
}

/// A node from the first five columns of `row` ([`q::NODE`]'s); `None` when they are not.
fn node_of(row: &[SqlValue]) -> Option<Node> {
    let [seq, key, id, parent, role, ..] = row else {
        return None;
    };
    Some(Node {
        seq: u64::try_from(seq.integer()?).ok()?,
        key: key.text()?.to_owned(),
        id: id.text()?.to_owned(),
        parent: match parent {
            SqlValue::Null => None,
            other => Some(other.text()?.to_owned()),
        },
        role: role_of(role.text()?),
    })
}

impl<S: Sql> TreeStore<S> {
    pub fn new(sql: S) -> Self {
        TreeStore {
            sql,
            ready: Cell::new(false),
            count: Cell::new(None),
        }
    }

    /// The database under it.
    pub fn sql(&self) -> &S {
        &self.sql
    }

    /// Forgets what it knew of its table, once the object's storage was deleted whole (protocol
    /// 7's `forget`): the next use creates the table again, and counts from nothing.
    pub fn forget(&self) {
        self.ready.set(false);
        self.count.set(None);
    }

    /// Creates the table at the first use, then finishes the turns that were running when an
    /// earlier instance stopped: none of this instance can run yet.
    fn ready(&self) -> Result<(), String> {
        if self.ready.get() {
            return Ok(());
        }
        for statement in [q::CREATE, q::INDEX_ID, q::INDEX_PARENT, q::INDEX_OPEN] {
            self.sql.run(statement, Vec::new())?;
        }
        self.ready.set(true);
        self.finish_open();
        Ok(())
    }

    /// Runs `statement`; `None` when it failed (reported as `what`).
    fn run(&self, what: &str, statement: &str, params: Vec<SqlValue>) -> Option<Vec<SqlRow>> {
        match self.ready().and_then(|()| self.sql.run(statement, params)) {
            Ok(rows) => Some(rows),
            Err(err) => {
                self.sql.failed(what, &err);
                None
            }
        }
    }

    fn nodes(&self, what: &str, statement: &str, params: Vec<SqlValue>) -> Vec<Node> {
        let rows = self.run(what, statement, params).unwrap_or_default();
        rows.iter().filter_map(|row| node_of(row)).collect()
    }

    /// R-restart: each message whose turn was running when the object stopped is finished as
    /// failed ([`crate::frames::RESTARTED_TEXT`]); one whose row does not read is closed as it is.
    fn finish_open(&self) {
        let open = self.run("read the turns left running", q::OPEN, Vec::new());
        for row in open.unwrap_or_default() {
            let mut row = row.into_iter();
            let (Some(key), Some(json)) = (
                row.next().and_then(SqlValue::into_text),
                row.next().and_then(SqlValue::into_text),
            ) else {
                continue;
            };
            let json = match parse_message(&json) {
                Ok(mut message) => {
                    end_failed(&mut message, crate::frames::RESTARTED_TEXT);
                    row_json(&message)
                }
                Err(_) => json,
            };
            let params = vec![json.into(), key.into()];
            self.run("finish a turn left running", q::FINISH, params);
        }
    }

    /// How many messages it holds (counted once, then kept up to date).
    pub fn len(&self) -> usize {
        if let Some(count) = self.count.get() {
            return count;
        }
        let rows = self.run("count the messages", q::COUNT, Vec::new());
        let counted = rows
            .and_then(|rows| rows.first()?.first()?.integer())
            .and_then(|n| usize::try_from(n).ok());
        if let Some(count) = counted {
            self.count.set(Some(count));
        }
        counted.unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn added(&self, n: usize) {
        if let Some(count) = self.count.get() {
            self.count.set(Some(count + n));
        }
    }

    /// Stores `message` (its `key` and `parent` set) as the newest, with its content digest (a
    /// user message's) and `open` while its turn runs. False when it could not be stored.
    pub fn insert(&self, message: &Message, content: Option<&str>, open: bool) -> bool {
        let Some(key) = message.key.as_deref() else {
            return false;
        };
        let parent = message.parent.clone().flatten();
        let params = vec![
            key.into(),
            message.id.as_str().into(),
            parent.as_deref().into(),
            role_text(message.role).into(),
            content.into(),
            SqlValue::Integer(i64::from(open)),
            row_json(message).into(),
        ];
        let stored = self.run("store a message", q::INSERT, params).is_some();
        if stored {
            self.added(1);
        }
        stored
    }

    /// Stores `message` (its `key` set) again, finished: its turn ended.
    pub fn finish(&self, message: &Message) {
        let Some(key) = message.key.as_deref() else {
            return;
        };
        let params = vec![row_json(message).into(), key.into()];
        self.run("store a finished message", q::FINISH, params);
    }

    /// Stores `message` (its `key` set) as far as its turn got, still running: what a restart of
    /// the object keeps of it (then finished as failed).
    pub fn progress(&self, message: &Message) {
        let Some(key) = message.key.as_deref() else {
            return;
        };
        let params = vec![row_json(message).into(), key.into()];
        self.run("store a running turn", q::PROGRESS, params);
    }

    /// The digest of what the stored message `key` says: the one stored with it, or for a
    /// message stored without one (grown), its row's.
    pub fn content(&self, key: &str) -> Option<String> {
        let rows = self.run("read a message's content", q::CONTENT, vec![key.into()])?;
        let mut row = rows.into_iter().next()?.into_iter();
        match (row.next(), row.next()) {
            (Some(SqlValue::Text(digest)), _) => Some(digest),
            (_, Some(SqlValue::Text(json))) => row_digest(&json),
            _ => None,
        }
    }

    /// The message `end` and the ones before it on its branch, nearest first, at most `limit`,
    /// each with its row.
    pub fn branch_rows(&self, end: &str, limit: usize) -> Vec<BranchRow> {
        if limit == 0 {
            return Vec::new();
        }
        let params = vec![end.into(), SqlValue::count(limit)];
        let rows = self.run("read a branch", q::BRANCH_ROWS, params);
        let read = |row: SqlRow| {
            let node = node_of(&row)?;
            let mut rest = row.into_iter().skip(5);
            let json = rest.next()?.into_text()?;
            let siblings = usize::try_from(rest.next()?.integer()?).ok()?;
            Some(BranchRow {
                node,
                json,
                siblings,
            })
        };
        rows.unwrap_or_default()
            .into_iter()
            .filter_map(read)
            .collect()
    }

    /// Stores `exchanges` grown exchanges (`/grow`: [`q::GROW`]) after `after` (`None`: as a new
    /// conversation), named after `base`, written at `created_at`. The last one's reply, when
    /// any was stored.
    pub fn grow(
        &self,
        after: Option<&str>,
        exchanges: usize,
        base: &str,
        created_at: &str,
    ) -> Option<Node> {
        if exchanges == 0 {
            return None;
        }
        let params = vec![
            SqlValue::count(exchanges),
            base.into(),
            after.into(),
            created_at.into(),
        ];
        self.run("grow the conversation", q::GROW, params)?;
        self.added(exchanges * 2);
        self.node(&format!("msg_{base}_r{exchanges}"))
    }
}

impl<S: Sql> TreeRead for TreeStore<S> {
    fn node(&self, key: &str) -> Option<Node> {
        self.nodes("read a message", q::NODE, vec![key.into()])
            .into_iter()
            .next()
    }

    fn newest(&self) -> Option<Node> {
        self.nodes("read the newest message", q::NEWEST, Vec::new())
            .into_iter()
            .next()
    }

    fn with_id(&self, id: &str) -> Vec<Node> {
        self.nodes("read the messages of an id", q::WITH_ID, vec![id.into()])
    }

    fn children(&self, parent: Option<&str>) -> Vec<Node> {
        match parent {
            Some(parent) => self.nodes("read siblings", q::CHILDREN, vec![parent.into()]),
            None => self.nodes("read the first messages", q::ROOTS, Vec::new()),
        }
    }

    fn newest_under(&self, key: &str) -> Option<Node> {
        self.nodes("read a subtree", q::NEWEST_UNDER, vec![key.into()])
            .into_iter()
            .next()
    }

    fn lineage(&self, key: &str, limit: usize) -> Vec<Node> {
        if limit == 0 {
            return Vec::new();
        }
        let params = vec![key.into(), SqlValue::count(limit)];
        self.nodes("read a branch", q::LINEAGE, params)
    }
}

#[cfg(test)]
#[path = "tree_store_tests.rs"]
mod tests;
