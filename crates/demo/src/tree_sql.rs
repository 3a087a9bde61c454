//! The SQL of the demo agent's tree of messages (`demo_tree`, [`crate::tree_store`]): the table,
//! the questions of the core's `TreeRead`, and the writes. A branch is read in one recursive
//! query (`WITH RECURSIVE`), so a branch of 5,000 messages costs one statement, not 5,000.
//!
//! The table of protocol 4 (`demo_history`: one row a message, deleted on a take-back) and the
//! one before it (`demo_messages`) stay in an older object's storage, unread.

/// The tree: one row a message, for good. `ref` is the message's name in the session (the wire's
/// `ref`), `id` the client's id (a user message's) or the turn's (an assistant's), `parent` the
/// `ref` it follows (`NULL`: a conversation's first). `content` is the digest of a user
/// message's text and files as the prompt sent them (its row may be shortened: `rows.rs`),
/// `open` is 1 while the message's turn runs, and `json` the message as `init` lists it, with
/// its `ref` and `parent` (its siblings change, and are added when it is read).
pub const CREATE: &str = "CREATE TABLE IF NOT EXISTS demo_tree (\
    seq INTEGER PRIMARY KEY AUTOINCREMENT, \
    ref TEXT NOT NULL UNIQUE, \
    id TEXT NOT NULL, \
    parent TEXT, \
    role TEXT NOT NULL, \
    content TEXT, \
    open INTEGER NOT NULL DEFAULT 0, \
    json TEXT NOT NULL)";
/// The messages of one id: where a prompt's `branch` points.
pub const INDEX_ID: &str = "CREATE INDEX IF NOT EXISTS demo_tree_id ON demo_tree (id)";
/// The messages that follow one: siblings, and a branch walked down.
pub const INDEX_PARENT: &str = "CREATE INDEX IF NOT EXISTS demo_tree_parent ON demo_tree (parent)";
/// The turns left running: read once an object starts, so it costs nothing to keep.
pub const INDEX_OPEN: &str =
    "CREATE INDEX IF NOT EXISTS demo_tree_open ON demo_tree (seq) WHERE open = 1";

/// The columns a `Node` is read from, in its order (`tree_store::node_of`).
macro_rules! node_columns {
    () => {
        "t.seq, t.ref, t.id, t.parent, t.role"
    };
}

/// The nodes of `demo_tree` (as `t`) that `$tail` (`WHERE …`, `ORDER BY …`) picks.
macro_rules! select_nodes {
    ($tail:literal) => {
        concat!("SELECT ", node_columns!(), " FROM demo_tree t ", $tail)
    };
}

/// The walk up a branch, nearest first: the message `?` (first parameter) and at most `?`
/// (second) messages in all, each with its `depth` (1 for the first).
macro_rules! walk_up {
    () => {
        "WITH RECURSIVE up(ref, parent, depth) AS (\
            SELECT ref, parent, 1 FROM demo_tree WHERE ref = ? \
            UNION ALL \
            SELECT t.ref, t.parent, up.depth + 1 FROM up JOIN demo_tree t ON t.ref = up.parent \
            WHERE up.depth < ?) "
    };
}

/// The message of one `ref`.
pub const NODE: &str = select_nodes!("WHERE t.ref = ?");
/// The newest message: the end of the current branch.
pub const NEWEST: &str = select_nodes!("ORDER BY t.seq DESC LIMIT 1");
/// The messages of one id, oldest first.
pub const WITH_ID: &str = select_nodes!("WHERE t.id = ? ORDER BY t.seq");
/// The messages that follow one, oldest first.
pub const CHILDREN: &str = select_nodes!("WHERE t.parent = ? ORDER BY t.seq");
/// The conversations' first messages, oldest first.
pub const ROOTS: &str = select_nodes!("WHERE t.parent IS NULL ORDER BY t.seq");
/// The newest message of a subtree: walks down from `?` through every message that follows.
pub const NEWEST_UNDER: &str = concat!(
    "WITH RECURSIVE down(ref) AS (\
        SELECT ref FROM demo_tree WHERE ref = ? \
        UNION ALL \
        SELECT t.ref FROM down JOIN demo_tree t ON t.parent = down.ref) \
    SELECT ",
    node_columns!(),
    " FROM down JOIN demo_tree t ON t.ref = down.ref ORDER BY t.seq DESC LIMIT 1"
);
/// A message and the ones before it on its branch, nearest first, at most `?` in all.
pub const LINEAGE: &str = concat!(
    walk_up!(),
    "SELECT ",
    node_columns!(),
    " FROM up JOIN demo_tree t ON t.ref = up.ref ORDER BY up.depth"
);
/// [`LINEAGE`] with each message's row and how many messages follow its parent (its siblings
/// and itself: the roots, for a first message).
pub const BRANCH_ROWS: &str = concat!(
    walk_up!(),
    "SELECT ",
    node_columns!(),
    ", t.json, (SELECT count(*) FROM demo_tree c WHERE c.parent IS t.parent) \
    FROM up JOIN demo_tree t ON t.ref = up.ref ORDER BY up.depth"
);

/// A new message: `ref`, `id`, `parent`, `role`, `content`, `open`, `json`.
pub const INSERT: &str = "INSERT INTO demo_tree (ref, id, parent, role, content, open, json) \
    VALUES (?, ?, ?, ?, ?, ?, ?)";
/// A turn's message at its end: its `json`, then its `ref`.
pub const FINISH: &str = "UPDATE demo_tree SET json = ?, open = 0 WHERE ref = ?";
/// A running turn's message as far as it got: its `json`, then its `ref` (what a restart keeps).
pub const PROGRESS: &str = "UPDATE demo_tree SET json = ? WHERE ref = ? AND open = 1";
/// The messages whose turn was running: after a restart, nothing runs them any more.
pub const OPEN: &str = "SELECT ref, json FROM demo_tree WHERE open = 1 ORDER BY seq";
/// How many messages the session holds.
pub const COUNT: &str = "SELECT count(*) FROM demo_tree";
/// A message's content digest (`NULL` for a grown message) and its row.
pub const CONTENT: &str = "SELECT content, json FROM demo_tree WHERE ref = ?";

/// `/grow`'s exchanges, in one statement: `?1` exchanges, each a user message `g<i>` and a
/// finished reply `r<i>`, the first after `?3` (`NULL`: a new conversation), each next one after
/// the reply before it. Their refs (and ids) are `u_<?2>_g<i>` and `msg_<?2>_r<i>` (`?2`: 16
/// random hex digits: unique in the session), their rows the JSON `rows::row_json` writes for
/// such messages, `createdAt` (and a reply's `completedAt`) `?4` (an RFC 3339 string: no
/// character to escape, as none of the other values has).
pub const GROW: &str = "INSERT INTO demo_tree (ref, id, parent, role, open, json) \
    SELECT ref, ref, parent, role, 0, \
        '{\"id\":\"' || ref || '\",\"ref\":\"' || ref || '\",\"parent\":' \
        || coalesce('\"' || parent || '\"', 'null') || ',\"role\":\"' || role \
        || '\",\"parts\":[{\"type\":\"text\",\"text\":\"' || text || '\"}' || finish \
        || '],\"createdAt\":\"' || ?4 || '\"' || done || '}' \
    FROM (WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?1 * 2) \
        SELECT i, \
            CASE i % 2 WHEN 1 THEN 'u_' || ?2 || '_g' || ((i + 1) / 2) \
                ELSE 'msg_' || ?2 || '_r' || (i / 2) END AS ref, \
            CASE WHEN i = 1 THEN ?3 \
                WHEN i % 2 = 1 THEN 'msg_' || ?2 || '_r' || ((i - 1) / 2) \
                ELSE 'u_' || ?2 || '_g' || (i / 2) END AS parent, \
            CASE i % 2 WHEN 1 THEN 'user' ELSE 'assistant' END AS role, \
            CASE i % 2 WHEN 1 THEN 'g' ELSE 'r' END || ((i + 1) / 2) AS text, \
            CASE i % 2 WHEN 1 THEN '' \
                ELSE ',{\"type\":\"finish\",\"reason\":\"end_turn\"}' END AS finish, \
            CASE i % 2 WHEN 1 THEN '' ELSE ',\"completedAt\":\"' || ?4 || '\"' END AS done \
        FROM k) \
    WHERE ?1 > 0 ORDER BY i";
