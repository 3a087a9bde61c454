//! What a prompt does to the demo agent's tree, and what a client reads of it (protocol 5,
//! docs/agent-protocol.md, "Branches"), on the rules of the core's `tree`. In turn:
//!
//! - [`start`]: where the turn goes (`tree::attach`; the same content is the same digest of text
//!   and files, [`content_digest`]), what it stores at once (its user message when new, then its
//!   reply: the newest message, so the current branch goes through the turn in flight), what its
//!   `message.create` carries, and a full store's refusal (nothing stored);
//! - [`model_input`]: the path from the first message to the turn's user message (R-branch-model);
//! - [`page_messages`]: a page (`tree::page`) as `init` and a `history` answer list it: each
//!   message's row with its siblings, the turn in flight as far as it got, within a page's bytes.
//!
//! Pure: the store is any [`Sql`], the clock and the random refs are passed in.

use serde_json::Value;

use crate::record::Record;
use crate::rows::{message_json, siblings_field, user_message, with_siblings};
use crate::session::Message;
use crate::sql::Sql;
use crate::tree::{self, Attach, Place, TreeRead, Want, MAX_PAGE_BYTES, MAX_SESSION_MESSAGES};
use crate::tree_store::{content_digest, BranchRow, TreeStore};
use crate::v2::Attachment;

/// A prompt's turn, as the session starts it.
pub struct Start<'a> {
    pub content: &'a str,
    pub attachments: &'a [Attachment],
    /// The prompt's `messageId` and `branch`.
    pub place: Place<'a>,
    /// The turn's id: its reply's id and ref.
    pub turn_id: &'a str,
    /// The ref of the user message, when a new one is stored (unique in the session for good).
    pub fresh_ref: String,
    /// The id of a new user message when the prompt names none.
    pub fresh_id: String,
    /// Now: the new messages' `createdAt`.
    pub now: Value,
    /// `/grow`: how many exchanges to store before the turn's user message, and a fresh base for
    /// their refs ([`TreeStore::grow`]).
    pub grow: Option<(usize, String)>,
}

/// A turn started: what its session keeps of it.
#[derive(Debug, Clone)]
pub struct Started {
    /// The reply as it starts: in flight, with its `ref` (the turn's id) and `parent`.
    pub reply: Message,
    /// The user message's ref.
    pub user: String,
    /// The user message as `init` lists it (with its siblings).
    pub user_json: String,
    /// What the turn's `message.create` adds: `"message":{…}`, then `"siblings":[…]` when the
    /// reply has siblings (a regenerate's: the earlier replies to the same user message).
    pub create_fields: String,
    /// How many exchanges `/grow` stored.
    pub grown: usize,
}

/// A prompt refused because the store is full (R-keep: nothing is deleted to make room).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

/// A row as it is listed: with its siblings' refs (the core's `siblings`) when it has any.
fn listed(store: &TreeStore<impl Sql>, row: &BranchRow, json: &str) -> String {
    if row.siblings < 2 {
        return json.to_owned();
    }
    with_siblings(json, &tree::siblings(store, &row.node))
}

/// Starts a turn for a prompt in `store`: stores what it adds (or nothing, when the store cannot
/// hold it: [`Full`]). A message that could not be stored is reported by the store, and the turn
/// goes on.
pub fn start(store: &TreeStore<impl Sql>, start: Start<'_>) -> Result<Started, Full> {
    let digest = content_digest(start.content, start.attachments);
    let same_content = |node: &tree::Node| store.content(&node.key).as_deref() == Some(&digest);
    let attached = tree::attach(store, start.place, same_content);
    let mut parent = attached.parent().map(str::to_owned);
    // `/grow` puts its exchanges before its own user message: always a new one.
    let existing = match attached {
        Attach::Existing(node) if start.grow.is_none() => Some(node),
        _ => None,
    };
    let own = if existing.is_some() { 1 } else { 2 };
    let room = MAX_SESSION_MESSAGES.saturating_sub(store.len());
    if room < own {
        return Err(Full);
    }
    let mut grown = 0;
    if let Some((asked, base)) = &start.grow {
        let exchanges = (*asked).min((room - own) / 2);
        let now = start.now.as_str().unwrap_or_default();
        if let Some(last) = store.grow(parent.as_deref(), exchanges, base, now) {
            parent = Some(last.key);
            grown = exchanges;
        }
    }
    let (user, user_row) = match existing {
        Some(node) => (node.key, None),
        None => {
            let id = start.place.message_id.map(str::to_owned);
            let created = Some(start.now.clone());
            let mut message = user_message(
                id.unwrap_or(start.fresh_id),
                start.content,
                start.attachments,
                created,
            );
            message.key = Some(start.fresh_ref.clone());
            message.parent = Some(parent);
            store.insert(&message, Some(&digest), false);
            (start.fresh_ref, Some(message))
        }
    };
    let mut reply = Message::assistant(start.turn_id);
    reply.created_at = Some(start.now);
    reply.key = Some(start.turn_id.to_owned());
    reply.parent = Some(Some(user.clone()));
    store.insert(&reply, None, true);

    let user_json = match store.branch_rows(&user, 1).first() {
        Some(row) => listed(store, row, &row.json),
        // Not stored (the store failed): as it would have been.
        None => user_row
            .as_ref()
            .map(crate::rows::row_json)
            .unwrap_or_default(),
    };
    let mut create_fields = format!(r#""message":{user_json}"#);
    let replies = store
        .node(start.turn_id)
        .map(|node| tree::siblings(store, &node))
        .unwrap_or_default();
    if replies.len() >= 2 {
        create_fields = format!("{create_fields},{}", siblings_field(&replies));
    }
    Ok(Started {
        reply,
        user,
        user_json,
        create_fields,
        grown,
    })
}

/// What the turn's model is given: the rows from the first message to the turn's user message
/// `user`, oldest first (R-branch-model); `user_json` alone when the store cannot read them.
pub fn model_input(store: &TreeStore<impl Sql>, user: &str, user_json: &str) -> Vec<String> {
    let mut rows: Vec<String> = store
        .branch_rows(user, MAX_SESSION_MESSAGES)
        .into_iter()
        .map(|row| row.json)
        .collect();
    if rows.is_empty() {
        rows.push(user_json.to_owned());
    }
    rows.reverse();
    rows
}

/// The page `want` asks for, at most `limit` messages, as `init` or a `history` answer lists it,
/// oldest first, within [`MAX_PAGE_BYTES`] (the newest message always, even alone over it).
/// `live` is the turn in flight: listed as far as it got in place of its stored row when
/// `list_live`, else left out. `None`: `want` names a message the store does not hold.
pub fn page_messages(
    store: &TreeStore<impl Sql>,
    want: Want<'_>,
    limit: usize,
    live: Option<&Message>,
    list_live: bool,
) -> Option<Vec<String>> {
    let page = tree::page(store, want, limit)?;
    let rows = match page.nodes.last() {
        Some(end) => store.branch_rows(&end.key, page.nodes.len()),
        None => Vec::new(),
    };
    let live_key = live.and_then(|m| m.key.as_deref());
    let mut listed_live = false;
    let mut newest_first = Vec::with_capacity(rows.len() + 1);
    for row in &rows {
        if Some(row.node.key.as_str()) == live_key {
            if let (true, Some(live)) = (list_live, live) {
                newest_first.push(listed(store, row, &message_json(live)));
                listed_live = true;
            }
            continue;
        }
        newest_first.push(listed(store, row, &row.json));
    }
    // The turn in flight on the current branch, when its reply could not be stored.
    if let (Want::Current, true, false, Some(live)) = (want, list_live, listed_live, live) {
        if live.key.is_some() && !live.is_finished() {
            newest_first.insert(0, message_json(live));
        }
    }
    let mut bytes = 0;
    let mut kept = Vec::with_capacity(newest_first.len());
    for message in newest_first {
        bytes += message.len() + 1;
        if bytes > MAX_PAGE_BYTES && !kept.is_empty() {
            break;
        }
        kept.push(message);
    }
    kept.reverse();
    Some(kept)
}

#[cfg(test)]
#[path = "conversation_tests.rs"]
mod tests;
