//! Retention (`SESSION_TTL_DAYS`, docs/sessions.md "Retention"): a session idle longer than the
//! operator's days is deleted as a user's delete deletes it, by the worker's hourly Cron Trigger.
//! Off unless set. Who has something to expire is a directory of the users' lists, in one object
//! of the index's namespace ([`DIRECTORY`]): a row a list, written when the list is first made
//! (never at a turn), holding the oldest activity the list may have; a run asks it for the lists
//! whose oldest is past the cutoff, each list for its sessions past it, and puts the list's new
//! oldest back. Bounded per run ([`MAX_LISTS_PER_RUN`], [`MAX_SESSIONS_PER_RUN`]): what is left
//! waits an hour.

/// The name of the directory's object in `SESSION_INDEX` (`idFromName`): a list's name is
/// `user:…` or `key:…` (`super::owner`), so no list is named this.
pub const DIRECTORY: &str = "directory";

/// The longest `SESSION_TTL_DAYS`: ten years.
pub const MAX_TTL_DAYS: u64 = 3_650;

/// Most lists a run visits: 50. With [`MAX_SESSIONS_PER_RUN`], a run's subrequests stay under a
/// few hundred (a list's two calls, a session's four: its agent, its files twice, its row),
/// within what an invocation of the Workers Paid plan may make.
pub const MAX_LISTS_PER_RUN: usize = 50;

/// Most sessions a run deletes: 50 (see [`MAX_LISTS_PER_RUN`]); an hourly trigger then deletes up
/// to 1,200 a day.
pub const MAX_SESSIONS_PER_RUN: usize = 50;

const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// `SESSION_TTL_DAYS`: `None` (retention off) when it is not set; a whole number of days from 1
/// to [`MAX_TTL_DAYS`], else why not.
pub fn ttl_days(value: Option<&str>) -> Result<Option<u64>, String> {
    let Some(text) = value else {
        return Ok(None);
    };
    match text.trim().parse::<u64>() {
        Ok(days @ 1..=MAX_TTL_DAYS) => Ok(Some(days)),
        _ => Err(format!(
            "SESSION_TTL_DAYS must be a whole number of days from 1 to {MAX_TTL_DAYS}"
        )),
    }
}

/// The activity before which a session is expired at `now_ms` (the trigger's time) with a life
/// of `days`.
pub fn cutoff(now_ms: u64, days: u64) -> u64 {
    now_ms.saturating_sub(days.saturating_mul(DAY_MS))
}

#[cfg(test)]
#[path = "retention_tests.rs"]
mod tests;
