//! A feed's place in the isolate: the isolate's one [`FeedCount`] (an isolate is
//! single-threaded, so the count is plain data shared by its requests) and the [`Slot`] that
//! gives its place back when dropped, however its feed ended.

use std::cell::RefCell;

use super::slots::{Caps, FeedCount};
use crate::config::Config;
use crate::refusal::Refusal;

thread_local! {
    static OPEN: RefCell<FeedCount> = RefCell::new(FeedCount::default());
}

/// A feed's place, held while it is open.
pub(crate) struct Slot {
    session: String,
    caller: Option<String>,
}

/// A place for a feed of `session` opened by `caller` (`slots::caller`), or the refusal of a cap
/// (`MAX_SESSION_FEEDS`, `MAX_USER_FEEDS`, `MAX_FEEDS`).
pub(crate) fn reserve(
    config: &Config,
    session: &str,
    caller: Option<String>,
) -> Result<Slot, Refusal> {
    let caps = Caps {
        per_session: config.max_session_feeds,
        per_caller: config.max_user_feeds,
        total: config.max_feeds,
    };
    OPEN.with(|open| open.borrow_mut().take(session, caller.as_deref(), caps))?;
    Ok(Slot {
        session: session.to_owned(),
        caller,
    })
}

/// A place for a live list (`crate::index::follow`) counted under `key`, against the isolate's
/// `MAX_FEEDS` alone: its list's cap is its object's (`MAX_LIST_FEEDS`, wherever its feeds are
/// open), and the caller's is the session feeds'.
pub(crate) fn reserve_list(config: &Config, key: &str) -> Result<Slot, Refusal> {
    let caps = Caps {
        per_session: usize::MAX,
        per_caller: usize::MAX,
        total: config.max_feeds,
    };
    OPEN.with(|open| open.borrow_mut().take(key, None, caps))?;
    Ok(Slot {
        session: key.to_owned(),
        caller: None,
    })
}

impl Drop for Slot {
    fn drop(&mut self) {
        OPEN.with(|open| {
            open.borrow_mut()
                .give_back(&self.session, self.caller.as_deref())
        });
    }
}
