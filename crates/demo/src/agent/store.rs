//! A session's messages, kept as its persona keeps them ([`crate::persona`]): the tree of protocol
//! 5 ([`crate::tree_store`], with what a prompt stores and a page lists in
//! [`crate::conversation`]), or the `proto4-` persona's list, which a prompt cuts by protocol 4's
//! rule ([`crate::proto4`]). The session asks it for an `init`, a turn's start, a finished
//! message's storing and a `history` page, and never needs to know which it is.

use worker::SqlStorage;

use super::fresh::{new_id, now};
use super::list_store::List;
use super::sql::DoSql;
use crate::client_frame::{HistoryRequest, Prompt};
use crate::conversation::{self, Full, Start};
use crate::persona::Persona;
use crate::platform::log;
use crate::record::Record;
use crate::rows::{history_frame, init_frame, message_json, user_message};
use crate::session::Message;
use crate::tree::{Place, Want, MAX_PAGE_MESSAGES, MAX_SESSION_MESSAGES};
use crate::tree_store::TreeStore;
use crate::{frames, grow, proto4, seen};

/// The stored messages of one session.
pub(crate) enum Store {
    Tree(TreeStore<DoSql>),
    List(List),
}

/// A turn started: its reply, what its `message.create` adds, and what the turn says when the
/// store makes its words (`/seen`, `/grow`).
pub(crate) struct Begun {
    pub(crate) reply: Message,
    pub(crate) create_fields: Option<String>,
    pub(crate) says: Option<String>,
}

fn warn(what: &str, err: &worker::Error) {
    log::warn("demo_agent", None, &format!("could not {what}: {err}"));
}

impl Store {
    /// The store of a session played as `persona`, in the object's database `sql`.
    pub(crate) fn new(persona: Persona, sql: SqlStorage) -> Self {
        if persona.keeps_tree() {
            Store::Tree(TreeStore::new(DoSql { sql }))
        } else {
            Store::List(List::new(sql))
        }
    }

    /// Forgets what it knew of its tables, once the object's storage was deleted whole
    /// (protocol 7's `forget`).
    pub(crate) fn forget(&self) {
        match self {
            Store::Tree(tree) => tree.forget(),
            Store::List(list) => list.forget(),
        }
    }

    /// The `init` frame of a new socket: the newest messages, then `live` (the turn in flight as
    /// far as it got) when `persona` lists it.
    pub(crate) fn init(
        &self,
        persona: Persona,
        session_id: &str,
        live: Option<&Message>,
    ) -> String {
        let messages = match self {
            Store::Tree(tree) => {
                let page = conversation::page_messages(
                    tree,
                    Want::Current,
                    MAX_PAGE_MESSAGES,
                    live,
                    persona.lists_in_flight(),
                );
                page.unwrap_or_default()
            }
            Store::List(list) => {
                let max = MAX_PAGE_MESSAGES - usize::from(live.is_some());
                let mut rows = list.recent(max).unwrap_or_else(|err| {
                    warn("read the history", &err);
                    Vec::new()
                });
                rows.extend(live.map(message_json));
                rows
            }
        };
        init_frame(session_id, &messages, persona.protocol())
    }

    /// Whether the session holds no message yet (a list's is never asked).
    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, Store::Tree(tree) if tree.is_empty())
    }

    /// Starts turn `turn_id` for `prompt`: stores what it adds, or refuses when the store is full
    /// (then nothing is stored).
    pub(crate) fn begin(&self, prompt: &Prompt, turn_id: &str) -> Result<Begun, Full> {
        match self {
            Store::Tree(tree) => begin_in_tree(tree, prompt, turn_id),
            Store::List(list) => begin_in_list(list, prompt, turn_id),
        }
    }

    /// Stores `message`, finished.
    pub(crate) fn finish(&self, message: &Message) {
        match self {
            Store::Tree(tree) => tree.finish(message),
            Store::List(list) => {
                if let Err(err) = list.append(message) {
                    // The id is the client's (protocol 4): the line escapes and cuts it.
                    warn(&format!("store message {}", message.id), &err);
                }
            }
        }
    }

    /// Stores `message`, its turn still running (the list stores a reply only when it finishes).
    pub(crate) fn progress(&self, message: &Message) {
        if let Store::Tree(tree) = self {
            tree.progress(message);
        }
    }

    /// The answer to a `history` frame: its page, or `not_found`; `None` for a list, which has
    /// no branches (an agent of protocol 4 ignores the frame).
    pub(crate) fn history(
        &self,
        persona: Persona,
        request: &HistoryRequest,
        live: Option<&Message>,
    ) -> Option<String> {
        let Store::Tree(tree) = self else {
            return None;
        };
        let want = match (&request.before, &request.leaf) {
            (Some(before), _) => Want::Before(before),
            (None, Some(leaf)) => Want::Leaf(leaf),
            (None, None) => Want::Current,
        };
        let limit = request.limit.unwrap_or(MAX_PAGE_MESSAGES);
        let page = conversation::page_messages(tree, want, limit, live, persona.lists_in_flight());
        Some(match (page, want) {
            (Some(messages), _) => history_frame(&request.request_id, &messages),
            (None, Want::Before(named) | Want::Leaf(named)) => frames::not_found_frame(named),
            (None, Want::Current) => history_frame(&request.request_id, &[]),
        })
    }
}

/// Protocol 5: the turn attaches by the core's rule, and nothing is deleted.
fn begin_in_tree(tree: &TreeStore<DoSql>, prompt: &Prompt, turn_id: &str) -> Result<Begun, Full> {
    let asked = grow::asked(&prompt.content);
    let started = conversation::start(
        tree,
        Start {
            content: &prompt.content,
            attachments: &prompt.attachments,
            place: Place {
                message_id: prompt.message_id.as_deref(),
                branch: prompt.branch.as_deref(),
            },
            turn_id,
            fresh_ref: new_id("u_"),
            fresh_id: new_id("user_"),
            now: now(),
            // 16 random hex digits: the grown messages' refs are `u_<them>_g<i>`.
            grow: asked.map(|n| (n, new_id(""))),
        },
    )?;
    let says = if seen::is_seen(&prompt.content) {
        let rows = conversation::model_input(tree, &started.user, &started.user_json);
        Some(seen::model_input(&rows))
    } else {
        asked.map(|asked| grow::reply(asked, started.grown))
    };
    Ok(Begun {
        reply: started.reply,
        create_fields: Some(started.create_fields),
        says,
    })
}

/// Protocol 4: what the turn does not follow is deleted ([`proto4::kept`]), then the user message
/// is stored; the reply is stored when it finishes.
fn begin_in_list(list: &List, prompt: &Prompt, turn_id: &str) -> Result<Begun, Full> {
    let held = list.len().unwrap_or_else(|err| {
        warn("count the messages", &err);
        0
    });
    if held + 2 > MAX_SESSION_MESSAGES {
        return Err(Full);
    }
    take_back(list, prompt);
    let now = now();
    let id = prompt.message_id.clone().unwrap_or_else(|| new_id("user_"));
    let user = user_message(id, &prompt.content, &prompt.attachments, Some(now.clone()));
    if let Err(err) = list.append(&user) {
        warn(&format!("store message {}", user.id), &err);
    }
    let says = if seen::is_seen(&prompt.content) {
        let rows = list.recent(MAX_PAGE_MESSAGES).unwrap_or_else(|err| {
            warn("read the history", &err);
            Vec::new()
        });
        Some(seen::model_input(&rows))
    } else {
        grow::asked(&prompt.content).map(|_| grow::LIST_REPLY.to_owned())
    };
    let mut reply = Message::assistant(turn_id);
    reply.created_at = Some(now);
    Ok(Begun {
        reply,
        create_fields: None,
        says,
    })
}

/// Deletes the stored messages that the prompt's turn does not follow: the message the prompt
/// replaces and all after it, or all after the newest message of its branch ([`proto4::kept`]).
/// A storage that cannot be read deletes nothing (the turn is appended).
fn take_back(list: &List, prompt: &Prompt) {
    let ids = match list.ids() {
        Ok(ids) => ids,
        Err(err) => return warn("read the history's ids", &err),
    };
    let stored: Vec<&str> = ids.iter().map(|(_, id)| id.as_str()).collect();
    let keep = proto4::kept(
        &stored,
        prompt.message_id.as_deref(),
        prompt.branch.as_deref(),
    );
    if let Some((seq, _)) = ids.get(keep) {
        if let Err(err) = list.take_back(*seq) {
            warn("take messages back", &err);
        }
    }
}
