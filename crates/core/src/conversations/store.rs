//! One user's index in its Durable Object's SQLite storage: the tables, and each operation of
//! [`super::wire`] as the statements it runs and what it answers. The object runs a batch of
//! statements in one step (one call, one implicit transaction at the edge,
//! `crates/adapter/src/index/object.js`); a real SQLite runs the same in the native tests.
//!
//! `sessions` holds a row a session: its title, when its first listed turn came and when its
//! latest did. `moves` keeps, for [`MOVES_KEPT_MS`], where a turn moved a session from, so that
//! a walk through the list by pages places it where it was at the walk's first page
//! ([`super::walk`]): only the moves a walk can need (a session last active before a walk
//! began), so that the turns of a chat nobody lists in between write one row each. Times are
//! the object's clock ([`Index::tick`]): every write and every first page a new millisecond,
//! later than all before it, so that a walk's `as_of` splits the writes into those before it and
//! those after (a new instance starts later than its predecessor's last time: an object's
//! restart takes longer than a millisecond).

use std::cell::{Cell, RefCell};

use serde_json::Value;

use super::cursor::Cursor;
use super::live;
use super::walk::{page, page_json, session_json, Listed, Page, Placed};
use super::wire::Op;
use super::{MAX_LIMIT, MOVES_KEPT_MS, PRUNE_EVERY_MS};
use crate::json_out;

/// A value bound to a statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    Int(u64),
    Text(String),
}

/// One statement and its values, bound to its `?`s in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub sql: &'static str,
    pub params: Vec<Param>,
}

/// A SQLite database that runs a batch of statements in one step.
pub trait IndexSql {
    /// Each statement's rows, in order, as JSON reads them (`[[column, …], …]`, each column a
    /// text, a whole number or `null`: as the object's JavaScript hands them over, read by the
    /// `Value` reader the wasm has anyway); the first failure's text, and then nothing of the
    /// batch is kept.
    fn batch(&self, statements: &[Statement]) -> Result<Vec<Value>, String>;
}

/// A statement's rows, as [`IndexSql::batch`] gives them.
fn rows(rows: &Value) -> &[Value] {
    rows.as_array().map_or(&[], Vec::as_slice)
}

/// `[["sql",[1,"a"]],…]`: a batch as the object's JavaScript runs it.
pub fn batch_json(statements: &[Statement]) -> String {
    json_out::to_string(256 * statements.len(), |out| {
        json_out::array(out, statements, |out, statement| {
            out.push(b'[');
            json_out::string(out, statement.sql);
            out.push(b',');
            json_out::array(out, &statement.params, |out, param| match param {
                Param::Int(n) => out.extend_from_slice(itoa::Buffer::new().format(*n).as_bytes()),
                Param::Text(text) => json_out::string(out, text),
            });
            out.push(b']');
        });
    })
}

/// The tables and their indexes, made where missing. `meta`: whether the list is in the
/// retention's directory (`super::retention`); `renamed`: the sessions a rename titled, which
/// an agent's title never titles again.
const SCHEMA: [&str; 6] = [
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS sessions_by_activity ON sessions (updated_at, id)",
    "CREATE TABLE IF NOT EXISTS moves (id TEXT NOT NULL, from_at INTEGER NOT NULL, to_at INTEGER NOT NULL, PRIMARY KEY (id, to_at))",
    "CREATE INDEX IF NOT EXISTS moves_by_time ON moves (to_at)",
    "CREATE TABLE IF NOT EXISTS renamed (id TEXT PRIMARY KEY)",
];

/// The latest write's time: where the clock goes on from in a new instance.
const LAST: &str = "SELECT coalesce(max(updated_at), 0) FROM sessions";

/// A turn of a listed session: where it was, kept as a move (`to_at`, `id`), if it was there
/// before a walk began (the latest walk's start, or the instance's, `?` last).
const MOVE: &str = "INSERT INTO moves (id, from_at, to_at) SELECT id, updated_at, ? FROM sessions WHERE id = ? AND updated_at < ?";

/// A turn: the session listed with its title and times, or, listed already, moved to the top
/// (its title kept: a rename always wins, and a made title is its first turn's).
const UPSERT: &str = "INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at";

/// The moves no cursor can need any more.
const PRUNE: &str = "DELETE FROM moves WHERE to_at < ?";

/// A page's sessions that no turn moved since the walk's first page (`as_of`), after the place
/// `(at, id)`, newest first (the index `sessions_by_activity`, read backwards).
const UNMOVED: &str = "SELECT id, title, created_at, updated_at FROM sessions WHERE updated_at < ? AND (updated_at < ? OR (updated_at = ? AND id < ?)) ORDER BY updated_at DESC, id DESC LIMIT ?";

/// The sessions made before the walk's first page (`as_of`) that a turn moved since, each with
/// where it was then: what its first move after `as_of` moved it from.
const MOVED: &str = "SELECT id, title, created_at, updated_at, (SELECT from_at FROM moves WHERE moves.id = sessions.id AND to_at > ? ORDER BY to_at LIMIT 1) FROM sessions WHERE updated_at > ? AND created_at < ?";

const RENAME_ROW: &str =
    "UPDATE sessions SET title = ? WHERE id = ? RETURNING id, title, created_at, updated_at";

/// A rename wins over every title an agent gives later.
const MARK_RENAMED: &str =
    "INSERT OR IGNORE INTO renamed (id) SELECT id FROM sessions WHERE id = ?";

/// An agent's title (`title`, protocol 7), for a session no rename titled.
const AGENT_TITLE: &str =
    "UPDATE sessions SET title = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM renamed WHERE renamed.id = sessions.id)";

const DELETE_RENAMED: &str = "DELETE FROM renamed WHERE id = ?";

const DELETE_ROW: &str = "DELETE FROM sessions WHERE id = ? RETURNING id";

const DELETE_MOVES: &str = "DELETE FROM moves WHERE id = ?";

const HOLDS_ROW: &str = "SELECT id FROM sessions WHERE id = ?";

/// A session's row as the list shows it.
const ROW: &str = "SELECT id, title, created_at, updated_at FROM sessions WHERE id = ?";

/// Whether the list is in the directory.
const ENLISTED_FLAG: &str = "SELECT value FROM meta WHERE key = 'enlisted'";
const SET_ENLISTED: &str = "INSERT OR REPLACE INTO meta (key, value) VALUES ('enlisted', 1)";
const UNSET_ENLISTED: &str = "DELETE FROM meta WHERE key = 'enlisted'";

/// The list's oldest activity.
const OLDEST: &str = "SELECT coalesce(min(updated_at), 0) FROM sessions";

/// The least active sessions, the oldest first (the index `sessions_by_activity`).
const LEAST_ACTIVE: &str = "SELECT id, updated_at FROM sessions ORDER BY updated_at, id LIMIT ?";

/// The directory's table: a list, and the oldest activity it may have (never later than its
/// real oldest: a turn moves a session without telling the directory).
const DIRECTORY_SCHEMA: [&str; 2] = [
    "CREATE TABLE IF NOT EXISTS lists (list TEXT PRIMARY KEY, oldest INTEGER NOT NULL)",
    "CREATE INDEX IF NOT EXISTS lists_by_age ON lists (oldest)",
];
const ENLIST_ROW: &str = "INSERT INTO lists (list, oldest) VALUES (?, ?) ON CONFLICT (list) DO UPDATE SET oldest = min(oldest, excluded.oldest)";
const DUE_ROWS: &str = "SELECT list FROM lists WHERE oldest < ? ORDER BY oldest LIMIT ?";
const SETTLE_ROW: &str = "UPDATE lists SET oldest = ? WHERE list = ?";
const FORGET_ROW: &str = "DELETE FROM lists WHERE list = ?";

fn statement(sql: &'static str, params: Vec<Param>) -> Statement {
    Statement { sql, params }
}

/// What the object answers: a status and its body (JSON, or for a failure its text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    fn json(body: String) -> Self {
        Answer { status: 200, body }
    }

    fn status(status: u16) -> Self {
        Answer {
            status,
            body: String::new(),
        }
    }
}

/// What a write tells a list's open feeds: the session's row as it is then, the renamed session
/// the answer holds, a session gone, or nothing (a read).
enum Told<'a> {
    Row(&'a str),
    Renamed,
    Deleted(&'a str),
    Nothing,
}

/// One user's index on `S`: the object holds one for its life.
pub struct Index<S> {
    sql: S,
    /// The clock's last time; `None` until the first operation made the tables and read it.
    last: Cell<Option<u64>>,
    /// Whether the list is in the retention's directory (read with the clock).
    enlisted: Cell<bool>,
    /// The latest time a walk may have begun at: this instance's latest first page, or before
    /// any, its first time (every earlier instance's walks began before it). A session last
    /// active since then is where no walk can need it to have been.
    walks_from: Cell<Option<u64>>,
    /// The session this instance touched last, and when: its activity, without a read.
    touched: RefCell<Option<(String, u64)>>,
    /// When this instance last pruned the moves.
    pruned_at: Cell<Option<u64>>,
}

impl<S: IndexSql> Index<S> {
    pub fn new(sql: S) -> Self {
        Index {
            sql,
            last: Cell::new(None),
            enlisted: Cell::new(false),
            walks_from: Cell::new(None),
            touched: RefCell::new(None),
            pruned_at: Cell::new(None),
        }
    }

    /// The answer to operation `op` with `body` at `now` (the object's clock, ms since the Unix
    /// epoch): `200` with the JSON a client reads, `204`, `404` for a session the list does not
    /// hold, `400` for an operation the worker never sends, `500` with the storage's error.
    pub fn serve(&self, op: &str, body: &str, now: u64) -> Answer {
        self.answer(Op::read(op, body), now)
    }

    /// [`Index::serve`] of an operation read (`None`: one the worker never sends).
    fn answer(&self, op: Option<Op>, now: u64) -> Answer {
        let answer = match op {
            Some(Op::Touch { id, title }) => {
                self.touch(id, title, now).map(|touched| match touched {
                    // Not in the directory yet: the worker puts it there, with its oldest activity.
                    Some(oldest) => Answer {
                        status: 201,
                        body: oldest.to_string(),
                    },
                    None => Answer::status(204),
                })
            }
            Some(Op::List { limit, cursor }) => self
                .list(limit, cursor.as_ref(), now)
                .map(|page| Answer::json(page_json(&page))),
            Some(Op::Rename { id, title }) => self.rename(id, title).map(|renamed| match renamed {
                Some(session) => Answer::json(session_json(&session)),
                None => Answer::status(404),
            }),
            Some(Op::Title { id, title }) => self.titled(id, title).map(|()| Answer::status(204)),
            Some(Op::Delete { id }) => self
                .delete(id)
                .map(|gone| Answer::status(if gone { 204 } else { 404 })),
            Some(Op::Holds { id }) => self
                .holds(id)
                .map(|held| Answer::status(if held { 204 } else { 404 })),
            Some(Op::Expired { before, limit }) => self.expired(before, limit).map(|text| Answer {
                status: 200,
                body: text,
            }),
            Some(Op::Enlisted) => self.mark_enlisted().map(|()| Answer::status(204)),
            Some(Op::Enlist { list, oldest }) => self
                .directory(vec![statement(
                    ENLIST_ROW,
                    vec![Param::Text(list.to_owned()), Param::Int(oldest)],
                )])
                .map(|_| Answer::status(204)),
            Some(Op::Due { before, limit }) => self
                .directory(vec![statement(
                    DUE_ROWS,
                    vec![Param::Int(before), Param::Int(limit as u64)],
                )])
                .map(|done| Answer {
                    status: 200,
                    body: texts(&done, 0).join("\n"),
                }),
            Some(Op::Settle { list, oldest }) => {
                let list = Param::Text(list.to_owned());
                let settled = match oldest {
                    0 => statement(FORGET_ROW, vec![list]),
                    oldest => statement(SETTLE_ROW, vec![Param::Int(oldest), list]),
                };
                self.directory(vec![settled]).map(|_| Answer::status(204))
            }
            None => return Answer::status(400),
        };
        answer.unwrap_or_else(|body| Answer { status: 500, body })
    }

    /// [`Index::serve`], and when `followed` (the list has feeds open), the event its write makes
    /// for them ([`super::live`]): none for a read, a refusal, or a title on no listed session.
    pub fn serve_live(
        &self,
        op: &str,
        body: &str,
        now: u64,
        followed: bool,
    ) -> (Answer, Option<String>) {
        let op = Op::read(op, body);
        // What the write tells, read before the operation is spent (its ids are `body`'s).
        let told = match &op {
            Some(Op::Touch { id, .. } | Op::Title { id, .. }) => Told::Row(id),
            Some(Op::Rename { .. }) => Told::Renamed,
            Some(Op::Delete { id }) => Told::Deleted(id),
            _ => Told::Nothing,
        };
        let answer = self.answer(op, now);
        if !followed || !(200..300).contains(&answer.status) {
            return (answer, None);
        }
        let event = match told {
            Told::Row(id) => self.row(id).ok().flatten().map(|row| live::changed(&row)),
            Told::Renamed => Some(live::changed_json(&answer.body)),
            Told::Deleted(id) => Some(live::deleted(id)),
            Told::Nothing => None,
        };
        (answer, event)
    }

    /// Session `id` as the list shows it; `None` if the list does not hold it.
    fn row(&self, id: &str) -> Result<Option<Listed>, String> {
        let done = self
            .sql
            .batch(&[statement(ROW, vec![Param::Text(id.to_owned())])])?;
        Ok(done
            .first()
            .and_then(|found| rows(found).first())
            .and_then(listed))
    }

    /// The tables made and the clock read, once an instance.
    fn last(&self) -> Result<u64, String> {
        if let Some(last) = self.last.get() {
            return Ok(last);
        }
        let mut batch: Vec<Statement> = SCHEMA.iter().map(|sql| statement(sql, vec![])).collect();
        batch.push(statement(LAST, vec![]));
        batch.push(statement(ENLISTED_FLAG, vec![]));
        let done = self.sql.batch(&batch)?;
        let first = |at: usize| {
            done.get(at)
                .and_then(|rows_of| rows(rows_of).first())
                .and_then(|row| row.get(0))
                .and_then(Value::as_u64)
        };
        let last = first(SCHEMA.len()).unwrap_or(0);
        self.enlisted.set(first(SCHEMA.len() + 1) == Some(1));
        self.last.set(Some(last));
        Ok(last)
    }

    /// A new time: `now`, or a millisecond after the last time given when that is not earlier
    /// (two writes in one millisecond, or a clock that went back).
    pub fn tick(&self, now: u64) -> Result<u64, String> {
        let at = now.max(self.last()? + 1);
        self.last.set(Some(at));
        if self.walks_from.get().is_none() {
            self.walks_from.set(Some(at));
        }
        Ok(at)
    }

    /// A turn of session `id`: listed with `title` if it is not, else moved to the top. `Some`
    /// with the list's oldest activity while the list is not in the retention's directory.
    ///
    /// One statement for a chat's later turns (the upsert): where the session was is kept only
    /// if a walk can need it ([`MOVE`]; not at all when this instance touched it last, since
    /// every walk began), and the moves are pruned once in [`PRUNE_EVERY_MS`].
    pub fn touch(&self, id: &str, title: &str, now: u64) -> Result<Option<u64>, String> {
        let at = self.tick(now)?;
        let walks_from = self.walks_from.get().unwrap_or(at);
        let text = |text: &str| Param::Text(text.to_owned());
        let mut batch = Vec::with_capacity(4);
        let unwalked = matches!(&*self.touched.borrow(), Some((last, when)) if last == id && *when >= walks_from);
        if !unwalked {
            batch.push(statement(
                MOVE,
                vec![Param::Int(at), text(id), Param::Int(walks_from)],
            ));
        }
        batch.push(statement(
            UPSERT,
            vec![text(id), text(title), Param::Int(at), Param::Int(at)],
        ));
        let prune = self
            .pruned_at
            .get()
            .is_none_or(|pruned| at.saturating_sub(pruned) >= PRUNE_EVERY_MS);
        if prune {
            batch.push(statement(
                PRUNE,
                vec![Param::Int(at.saturating_sub(MOVES_KEPT_MS))],
            ));
        }
        let enlisted = self.enlisted.get();
        if !enlisted {
            batch.push(statement(OLDEST, vec![]));
        }
        let done = self.sql.batch(&batch)?;
        *self.touched.borrow_mut() = Some((id.to_owned(), at));
        if prune {
            self.pruned_at.set(Some(at));
        }
        if enlisted {
            return Ok(None);
        }
        let oldest = done
            .last()
            .and_then(|oldest| rows(oldest).first())
            .and_then(|row| row.get(0))
            .and_then(Value::as_u64)
            .unwrap_or(at);
        Ok(Some(oldest))
    }

    /// The list is in the directory: its touches answer `204` from now on.
    fn mark_enlisted(&self) -> Result<(), String> {
        self.last()?;
        self.sql.batch(&[statement(SET_ENLISTED, vec![])])?;
        self.enlisted.set(true);
        Ok(())
    }

    /// The sessions idle since before `before`, the least active first, at most `limit`: the
    /// oldest activity left once they are gone (`0`: none left), then their ids, a line each.
    pub fn expired(&self, before: u64, limit: usize) -> Result<String, String> {
        self.last()?;
        let done = self
            .sql
            .batch(&[statement(LEAST_ACTIVE, vec![Param::Int(limit as u64 + 1)])])?;
        let found = done.first().map_or(&[][..], |found| rows(found));
        let at = |row: &Value| row.get(1).and_then(Value::as_u64).unwrap_or(0);
        let gone: Vec<&Value> = found
            .iter()
            .take(limit)
            .take_while(|row| at(row) < before)
            .collect();
        let left = found.get(gone.len()).map_or(0, at);
        if left == 0 {
            // Nothing left once these go: the run takes the list out of the directory, and its
            // next session (a new turn) puts it back.
            self.sql.batch(&[statement(UNSET_ENLISTED, vec![])])?;
            self.enlisted.set(false);
        }
        let mut lines = vec![left.to_string()];
        lines.extend(
            gone.iter()
                .filter_map(|row| row.get(0)?.as_str().map(str::to_owned)),
        );
        Ok(lines.join("\n"))
    }

    /// Runs `statements` on the directory's table, made where missing.
    fn directory(&self, statements: Vec<Statement>) -> Result<Vec<Value>, String> {
        let mut batch: Vec<Statement> = DIRECTORY_SCHEMA
            .iter()
            .map(|sql| statement(sql, vec![]))
            .collect();
        batch.extend(statements);
        let done = self.sql.batch(&batch)?;
        Ok(done.into_iter().skip(DIRECTORY_SCHEMA.len()).collect())
    }

    /// A page of at most `limit` sessions (1 to [`MAX_LIMIT`]): the first (`cursor` `None`), or
    /// the one after `cursor`.
    pub fn list(&self, limit: usize, cursor: Option<&Cursor>, now: u64) -> Result<Page, String> {
        let limit = limit.clamp(1, MAX_LIMIT);
        let (as_of, at, after) = match cursor {
            Some(cursor) => (cursor.as_of, cursor.at, cursor.id.as_str()),
            // A first page: a new time, later than every write so far and earlier than any to
            // come, which no session has (so the place before it is before every session).
            None => {
                let as_of = self.tick(now)?;
                self.walks_from.set(Some(as_of));
                (as_of, as_of, "")
            }
        };
        let mut batch = vec![statement(
            UNMOVED,
            vec![
                Param::Int(as_of),
                Param::Int(at),
                Param::Int(at),
                Param::Text(after.to_owned()),
                Param::Int(limit as u64 + 1),
            ],
        )];
        // Nothing moved since a first page's `as_of`, made just now.
        if cursor.is_some() {
            batch.push(statement(MOVED, vec![Param::Int(as_of); 3]));
        }
        let done = self.sql.batch(&batch)?;
        let of = |at: usize, column: usize| -> Vec<Placed> {
            let found = done.get(at).map_or(&[][..], rows);
            found.iter().filter_map(|row| placed(row, column)).collect()
        };
        // A moved session without its move (none is kept past a cursor's life) cannot be placed:
        // it is at the top of a new first page.
        let (unmoved, moved) = (of(0, 3), of(1, 4));
        Ok(page(unmoved, moved, as_of, (at, after), limit))
    }

    /// Session `id` titled `title`, as it is then; `None` if the list does not hold it.
    pub fn rename(&self, id: &str, title: &str) -> Result<Option<Listed>, String> {
        self.last()?;
        let id = || Param::Text(id.to_owned());
        let done = self.sql.batch(&[
            statement(RENAME_ROW, vec![Param::Text(title.to_owned()), id()]),
            statement(MARK_RENAMED, vec![id()]),
        ])?;
        Ok(done
            .first()
            .and_then(|renamed| rows(renamed).first())
            .and_then(listed))
    }

    /// Session `id` titled `title` by its agent, unless a rename titled it (or the list does
    /// not hold it: a title never lists a session, a turn does).
    pub fn titled(&self, id: &str, title: &str) -> Result<(), String> {
        self.last()?;
        self.sql.batch(&[statement(
            AGENT_TITLE,
            vec![Param::Text(title.to_owned()), Param::Text(id.to_owned())],
        )])?;
        Ok(())
    }

    /// Whether the list holds session `id`.
    pub fn holds(&self, id: &str) -> Result<bool, String> {
        self.last()?;
        let done = self
            .sql
            .batch(&[statement(HOLDS_ROW, vec![Param::Text(id.to_owned())])])?;
        Ok(done.first().is_some_and(|held| !rows(held).is_empty()))
    }

    /// Session `id` out of the list, with its moves and its rename's mark; whether the list held
    /// it.
    pub fn delete(&self, id: &str) -> Result<bool, String> {
        self.last()?;
        let id = || Param::Text(id.to_owned());
        let done = self.sql.batch(&[
            statement(DELETE_ROW, vec![id()]),
            statement(DELETE_MOVES, vec![id()]),
            statement(DELETE_RENAMED, vec![id()]),
        ])?;
        Ok(done
            .first()
            .is_some_and(|deleted| !rows(deleted).is_empty()))
    }
}

/// Column `at` of each row of `done`'s first statement, as text.
fn texts(done: &[Value], at: usize) -> Vec<String> {
    let found = done.first().map_or(&[][..], |found| rows(found));
    found
        .iter()
        .filter_map(|row| row.get(at)?.as_str().map(str::to_owned))
        .collect()
}

/// A session of a row `id, title, created_at, updated_at`.
fn listed(row: &Value) -> Option<Listed> {
    Some(Listed {
        id: row.get(0)?.as_str()?.to_owned(),
        title: row.get(1)?.as_str()?.to_owned(),
        created_at: row.get(2)?.as_u64()?,
        updated_at: row.get(3)?.as_u64()?,
    })
}

/// A session and its place, the time in column `at`.
fn placed(row: &Value, at: usize) -> Option<Placed> {
    Some(Placed {
        at: row.get(at)?.as_u64()?,
        session: listed(row)?,
    })
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
