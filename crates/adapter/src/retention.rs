//! Retention (`SESSION_TTL_DAYS`), run by the worker's Cron Trigger beside the uploads' sweep
//! ([`crate::Adapter::scheduled`]), at the trigger's `scheduledTime`: the lists the directory says
//! are due, each list's sessions idle past the cutoff, and each of those deleted as a user's
//! delete deletes it (its agent forgets it, its files, its row: `crate::handlers::conversations`),
//! then the list's new oldest activity put back in the directory. What is due, and the bounds of
//! a run, are `crate::conversations::retention`'s. One log line a run (`session_expiry`).

use js_sys::Array;
use wasm_bindgen::JsValue;
use worker::Env;

use crate::config::Config;
use crate::conversations::retention::{cutoff, DIRECTORY, MAX_LISTS_PER_RUN, MAX_SESSIONS_PER_RUN};
use crate::conversations::wire::{named, pair, DELETE, DUE, EXPIRED, SETTLE};
use crate::handlers::conversations::index_of;
use crate::handlers::files::bucket_of;
use crate::handlers::forget::forget_boxed;
use crate::handlers::message_files::delete_files_of;
use crate::index::stub::js_ask_text;
use crate::platform::log;
use crate::platform::promise::settled;
use crate::platform::settings;

/// What names a run's `forget` frames and lines: no request made them.
const RUN_ID: &str = "retention";

/// Deletes the sessions idle past `SESSION_TTL_DAYS` at `now_ms` (milliseconds since the epoch).
/// Nothing when the setting is not set, or the worker has no index (a request says why).
pub(crate) async fn expire_sessions(env: &Env, now_ms: u64) {
    let config = settings::load(env);
    let Ok(config) = config.as_ref() else {
        return;
    };
    let (Some(days), Some(index)) = (config.session_ttl_days, index_of(env)) else {
        return;
    };
    let before = cutoff(now_ms, days).to_string();
    let due = match ask(
        &index,
        DIRECTORY,
        DUE,
        &pair(&before, MAX_LISTS_PER_RUN as u64),
    )
    .await
    {
        Ok((_, lists)) => lists,
        Err(why) => return log::error("session_expiry", None, &why),
    };
    let mut run = Run {
        env,
        config,
        index: &index,
        budget: MAX_SESSIONS_PER_RUN,
        deleted: 0,
        failed: 0,
    };
    let mut lists = 0;
    for list in due.lines().filter(|list| !list.is_empty()) {
        if run.budget == 0 {
            break;
        }
        lists += 1;
        if let Err(why) = run.list(list, &before).await {
            run.failed += 1;
            log::warn("session_expiry", None, &why);
        }
    }
    let detail = format!(
        "{} session(s) idle more than {days} day(s) deleted from {lists} list(s); {} failed, left to the next run",
        run.deleted, run.failed
    );
    log::info("session_expiry", None, &detail);
}

/// One run's state: what it may still delete, and what it did.
struct Run<'a> {
    env: &'a Env,
    config: &'a Config,
    index: &'a JsValue,
    budget: usize,
    deleted: usize,
    failed: usize,
}

impl Run<'_> {
    /// The sessions of `list` idle since before `before`, each deleted; then the list's oldest
    /// activity put back (none left: out of the directory). A session that fails leaves the list
    /// as it was in the directory: due again at the next run.
    async fn list(&mut self, list: &str, before: &str) -> Result<(), String> {
        let (_, answer) = ask(self.index, list, EXPIRED, &pair(before, self.budget as u64)).await?;
        let mut lines = answer.lines();
        let left = lines.next().unwrap_or("0").to_owned();
        // A JWT's list is its `sub`'s: the agent hears whose session it forgets.
        let user = list.strip_prefix("user:");
        let mut failed = false;
        for session in lines {
            self.budget = self.budget.saturating_sub(1);
            match self.session(list, session, user).await {
                Ok(()) => self.deleted += 1,
                Err(why) => {
                    failed = true;
                    self.failed += 1;
                    log::warn("session_expiry", None, &format!("{session}: {why}"));
                }
            }
        }
        if failed {
            return Ok(());
        }
        let oldest: u64 = left.parse().unwrap_or(0);
        ask(self.index, DIRECTORY, SETTLE, &pair(list, oldest)).await?;
        Ok(())
    }

    /// Deletes `session` of `list` as a user's delete does, step by step.
    async fn session(&self, list: &str, session: &str, user: Option<&str>) -> Result<(), String> {
        forget_boxed(self.env, self.config, session, user, RUN_ID)
            .await
            .map_err(|failure| failure.to_string())?;
        if let Some(bucket) = bucket_of(self.env) {
            delete_files_of(&bucket, session).await.map_err(|err| {
                format!(
                    "the bucket's delete failed: {}",
                    err.as_string().unwrap_or_default()
                )
            })?;
        }
        ask(self.index, list, DELETE, &named(session)).await?;
        Ok(())
    }
}

/// `op` with `body` of the index's object `name`: its status and text, or why it failed.
async fn ask(index: &JsValue, name: &str, op: &str, body: &str) -> Result<(u16, String), String> {
    let answer = settled(&js_ask_text(index, name, op, body))
        .await
        .map_err(|err| {
            format!(
                "the index's {op} failed: {}",
                err.as_string().unwrap_or_default()
            )
        })?;
    let answer = Array::from(&answer);
    let status = answer.get(0).as_f64().unwrap_or(0.0) as u16;
    let text = answer.get(1).as_string().unwrap_or_default();
    match status {
        200 | 204 | 404 => Ok((status, text)),
        _ => Err(format!("the index's {op} answered {status}: {text}")),
    }
}
