//! Uploads no message has named yet (docs/files.md, "What is kept, and for how long"). Each
//! upload leaves a marker beside it in the bucket, `pending/<session id>/<file id>`, holding
//! when it was made; a chat turn whose message names the file deletes the marker, and the file is
//! then the message's, kept until its session is deleted. The worker's sweep (a Cron Trigger,
//! every hour: `wrangler.toml`) deletes each file whose marker is older than `UPLOAD_TTL_H`, and
//! its marker. The keys and the rule are here; the bucket's calls are the adapter's
//! (`crates/adapter/src/sweep.rs`).

use crate::files::{object_key, FileId};

/// Where every marker is: one prefix, so that the sweep lists the uploads waiting for a message,
/// never the files messages hold.
pub const PENDING_ROOT: &str = "pending/";

/// Default life of an upload no message named, in hours: a day, time enough for a message
/// written slowly or sent again after a failure, short enough that abandoned uploads do not pile up.
pub const DEFAULT_UPLOAD_TTL_HOURS: u64 = 24;

/// The longest `UPLOAD_TTL_H`: 30 days (720 hours), past which an upload nobody sent is kept in
/// the bucket for no one.
pub const MAX_UPLOAD_TTL_HOURS: u64 = 30 * 24;

/// Most markers one sweep reads: 10 pages of R2's 1,000 keys a list call (its most). A sweep
/// that finds more leaves the rest to the next hour's; the log line says so.
pub const MAX_SWEPT_MARKERS: usize = 10_000;

/// Milliseconds in an hour.
const HOUR_MS: u64 = 3_600_000;

/// The marker of the upload `file` of `session`.
pub fn marker_key(session: &str, file: &FileId) -> String {
    format!("{PENDING_ROOT}{session}/{}", file.as_str())
}

/// The prefix of `session`'s markers (a deleted session's go with its files).
pub fn marker_prefix(session: &str) -> String {
    format!("{PENDING_ROOT}{session}/")
}

/// The key of the file a marker stands for; none for a key that is no marker (the sweep leaves
/// it alone).
pub fn file_of_marker(marker: &str) -> Option<String> {
    let rest = marker.strip_prefix(PENDING_ROOT)?;
    let (session, id) = rest.split_once('/')?;
    let valid_session = !session.is_empty() && !id.contains('/');
    let id = FileId::parse(id).filter(|_| valid_session)?;
    Some(object_key(session, &id))
}

/// What a sweep at `now_ms` deletes of `markers` (each line a marker's key, a tab, and when it
/// was made in milliseconds since the epoch, as the adapter lists them): each expired marker
/// and its file, marker first. A line that does not parse is left alone: the sweep deletes
/// nothing it cannot name.
pub fn expired_keys(markers: &str, now_ms: u64, ttl_hours: u64) -> Vec<String> {
    let life = ttl_hours.saturating_mul(HOUR_MS);
    let mut keys = Vec::new();
    for line in markers.lines() {
        let Some((marker, made)) = line.split_once('\t') else {
            continue;
        };
        let (Ok(made), Some(file)) = (made.parse::<u64>(), file_of_marker(marker)) else {
            continue;
        };
        if now_ms >= made.saturating_add(life) {
            keys.push(marker.to_owned());
            keys.push(file);
        }
    }
    keys
}

#[cfg(test)]
#[path = "pending_tests.rs"]
mod tests;
