//! What the demo agent received from and sent to adapters, with times, and the headers each
//! adapter connected with, for tests and demos.
//!
//! Received frames are kept in the object's storage (one key each), so they outlive an eviction
//! of the object between a test's POST and its look at `GET /demo/sessions/:id/received`. Sent
//! frames, which can be many (`/flood`), are kept in memory only, up to [`MAX_SENT`] of them and
//! [`MAX_SENT_BYTES`] in all. A frame broadcast to every socket of the session is logged once,
//! on the connection of the prompt that started its turn.

use std::cell::{Cell, RefCell};

use serde_json::{json, Value};
use worker::{ListOptions, Storage};

use crate::platform::clock::now_ms;

/// Storage key prefix of the received log; keys sort by time, then arrival order.
const RECEIVED_PREFIX: &str = "received:";

/// Most sent frames remembered: a `/flood` of the maximum size still fits, at ~200 bytes each
/// about 20 MB, well inside a Durable Object's 128 MB.
const MAX_SENT: usize = 100_000;
/// Most bytes of sent log kept: an `init` can carry megabytes of history and every socket gets
/// one, so the count alone does not bound it; 32 MiB is a quarter of a Durable Object's 128 MB.
const MAX_SENT_BYTES: usize = 32 * 1024 * 1024;

/// The logs of one session's demo agent.
pub(crate) struct Logs {
    storage: Storage,
    seq: Cell<u64>,
    sent: RefCell<Vec<String>>,
    sent_bytes: Cell<usize>,
    connections: RefCell<Vec<String>>,
}

/// One log entry: when (ms since the epoch), on which connection, which frame. The frame is
/// its JSON, or the raw text when it is not JSON.
fn entry(conn: u32, frame: &str) -> String {
    let frame = serde_json::from_str::<Value>(frame).unwrap_or_else(|_| json!(frame));
    json!({"at": now_ms(), "conn": conn, "frame": frame}).to_string()
}

impl Logs {
    pub(crate) fn new(storage: Storage) -> Self {
        Logs {
            storage,
            seq: Cell::new(0),
            sent: RefCell::new(Vec::new()),
            sent_bytes: Cell::new(0),
            connections: RefCell::new(Vec::new()),
        }
    }

    /// Records a frame received on connection `conn`.
    pub(crate) async fn received(&self, conn: u32, frame: &str) -> worker::Result<()> {
        let seq = self.seq.get() + 1;
        self.seq.set(seq);
        let key = format!("{RECEIVED_PREFIX}{:015}:{seq:09}", now_ms());
        self.storage.put(&key, entry(conn, frame)).await
    }

    /// Deletes the object's whole storage (the received log with it) and the sent log: protocol
    /// 7's `forget` keeps nothing of the session, and these logs hold its prompts and replies.
    pub(crate) async fn delete_all(&self) -> worker::Result<()> {
        self.sent.borrow_mut().clear();
        self.sent_bytes.set(0);
        self.storage.delete_all().await
    }

    /// Records a frame sent on connection `conn`.
    pub(crate) fn sent(&self, conn: u32, frame: &str) {
        let mut sent = self.sent.borrow_mut();
        let bytes = self.sent_bytes.get() + frame.len();
        if sent.len() < MAX_SENT && bytes <= MAX_SENT_BYTES {
            self.sent_bytes.set(bytes);
            sent.push(entry(conn, frame));
        }
    }

    /// The received log as a JSON array, oldest first.
    pub(crate) async fn received_json(&self) -> worker::Result<String> {
        let map = self
            .storage
            .list_with_options(ListOptions::new().prefix(RECEIVED_PREFIX))
            .await?;
        let mut entries = Vec::new();
        map.for_each(&mut |value, _key| {
            if let Some(entry) = value.as_string() {
                entries.push(entry);
            }
        });
        Ok(format!("[{}]", entries.join(",")))
    }

    /// Records the adapter headers of connection `conn` (in memory: a test reads them at once).
    pub(crate) fn connected(&self, conn: u32, headers: Value) {
        let entry = json!({"at": now_ms(), "conn": conn, "headers": headers});
        self.connections.borrow_mut().push(entry.to_string());
    }

    /// The connections log as a JSON array, oldest first.
    pub(crate) fn connections_json(&self) -> String {
        format!("[{}]", self.connections.borrow().join(","))
    }

    /// The sent log as a JSON array, oldest first.
    pub(crate) fn sent_json(&self) -> String {
        format!("[{}]", self.sent.borrow().join(","))
    }
}
