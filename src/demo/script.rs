//! The demo agent's turns as scripts: the frames it sends and how long it waits before each.
//!
//! A prompt that starts with a command drives the agent for tests and demos; any other prompt
//! gets the default turn, a believable agent that thinks, calls a tool and answers word by word.
//!
//! | prompt | turn |
//! | --- | --- |
//! | `/replay` + newline + V2 frames, one a line | the lines verbatim, ~1 ms apart, then close 1000 |
//! | `/slow N [MS]` | N deltas MS apart (default 100) |
//! | `/flood N [RATE]` | N deltas (up to 1,000,000), no delay, sent in batches; at most RATE a second when given |
//! | `/stamp N [MS]` | N deltas (up to 1,000,000) MS apart (default 0), each carrying its send time |
//! | `/hang` | `message.create`, then silence |
//! | `/drop` | a few deltas, then close 1011 |
//! | `/error TEXT` | `message.finalize` with reason `error` and TEXT |
//!
//! `/flood` and `/stamp` are for benchmarks (`bench/`): their deltas are generated one at a
//! time as they are sent, never held as a list, and are not kept in the sent log, so a turn of
//! a million deltas costs the agent no memory that grows with it. A `/stamp` delta's text is
//! `{i}@{ms} `: its number (from 1) and the agent's `Date.now()` when it sent it.

use std::collections::VecDeque;

use serde_json::{json, Value};

/// Most deltas `/slow` sends: keeps one scripted turn under ~10 MB of memory.
const MAX_DELTAS: u64 = 100_000;
/// Most deltas `/flood` and `/stamp` send; they are generated lazily, so memory stays flat.
const MAX_LAZY_DELTAS: u64 = 1_000_000;
/// Largest `/flood` whose `message.finalize` carries the whole text as `finalText` (as it did
/// when this was its maximum); a larger one sends none rather than a frame of megabytes.
const MAX_FINAL_TEXT_DELTAS: u64 = 100_000;
/// Highest `/flood` rate accepted, in deltas a second (beyond it, a flood is unpaced anyway).
const MAX_RATE: u64 = 10_000_000;
/// `/stamp`'s pause when none is given: none, deltas go back to back like `/flood`'s.
const DEFAULT_STAMP_INTERVAL_MS: u64 = 0;
/// Most frames sent back to back before the agent yields to the event loop (a 0 ms timer), so
/// a flood lets the sockets drain and an `abort` get through between batches.
pub(crate) const SEND_BATCH: usize = 256;
/// Longest pause `/slow` takes between deltas: one minute.
const MAX_INTERVAL_MS: u64 = 60_000;
/// `/slow`'s pause when none is given (issue 3).
const DEFAULT_INTERVAL_MS: u64 = 100;
/// `/slow` and `/flood`'s count when none is given.
const DEFAULT_DELTAS: u64 = 10;
/// Pause between replayed lines (issue 3: "~1 ms apart").
const REPLAY_INTERVAL_MS: u64 = 1;
/// Deltas `/drop` sends before it breaks the socket.
const DROP_AFTER_DELTAS: u64 = 3;
/// Pause between the words of the default reply: a plausible model speed (25 tokens/s).
const WORD_INTERVAL_MS: u64 = 40;
/// WebSocket close codes (RFC 6455, 7.4.1): normal closure, and "unexpected condition".
pub(crate) const CLOSE_NORMAL: u16 = 1000;
pub(crate) const CLOSE_INTERNAL_ERROR: u16 = 1011;

/// What a step does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    /// Send this text frame.
    Send(String),
    /// Send this text frame without keeping it in the sent log (`/flood`'s deltas).
    SendUnlogged(String),
    /// Send delta `i` of a `/stamp` turn, stamped with the time it is sent ([`stamp_frame`]);
    /// not kept in the sent log.
    Stamp(u64),
    /// Close the socket; the connection ends.
    Close { code: u16, reason: &'static str },
}

/// One step of a turn: wait `wait_ms` after the previous step, then act.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Step {
    pub(crate) wait_ms: u64,
    pub(crate) action: Action,
}

/// Which deltas a lazy run generates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LazyKind {
    /// `/flood`: `w1`, ` w2`, … ([`numbered_delta`]).
    Numbered,
    /// `/stamp`: each delta stamped when sent ([`Action::Stamp`]).
    Stamped,
}

/// The deltas of `/flood` and `/stamp`, made one at a time as the turn reaches them; when they
/// run out, the turn's ending follows.
#[derive(Debug)]
struct LazyDeltas {
    kind: LazyKind,
    turn: String,
    /// The next delta's number, from 1.
    next: u64,
    count: u64,
    interval_ms: u64,
    /// `/flood`'s RATE: delta `i` is due `(i - 1) / RATE` seconds after the first was made
    /// (late timers are caught up on, never exceeded on average).
    per_second: Option<u64>,
    /// When the first delta was made (`Date.now()`), for the rate.
    started_ms: Option<f64>,
}

impl LazyDeltas {
    /// How long delta `i` waits after the previous step: the interval, or what the rate needs.
    fn wait_ms(&mut self, i: u64) -> u64 {
        let Some(rate) = self.per_second else {
            return self.interval_ms;
        };
        let now = js_sys::Date::now();
        let started = *self.started_ms.get_or_insert(now);
        let due = started + (i - 1) as f64 * 1000.0 / rate as f64;
        // Timers are whole milliseconds: a delta due within the next one goes now.
        if due > now + 1.0 {
            (due - now).ceil() as u64
        } else {
            0
        }
    }

    fn next_step(&mut self) -> Option<Step> {
        if self.next > self.count {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let wait_ms = self.wait_ms(i);
        let action = match self.kind {
            LazyKind::Numbered => {
                Action::SendUnlogged(delta(&self.turn, &numbered_delta(i)).to_string())
            }
            LazyKind::Stamped => Action::Stamp(i),
        };
        Some(Step { wait_ms, action })
    }

    /// The frames after the last delta. A `/flood` small enough repeats its text as
    /// `finalText`, built only now, from the numbers.
    fn ending(&self, script: &mut Script) {
        let final_text = (self.kind == LazyKind::Numbered && self.count <= MAX_FINAL_TEXT_DELTAS)
            .then(|| (1..=self.count).map(numbered_delta).collect::<String>());
        finish(script, &self.turn, final_text.as_deref());
    }
}

/// A turn in progress.
#[derive(Debug, Default)]
pub(crate) struct Script {
    /// The turn's id; `None` for a replay, which sends only what the log holds.
    pub(crate) turn_id: Option<String>,
    /// The `requestId` of the prompt that started it.
    pub(crate) request_id: Option<String>,
    /// The steps still to run (before the lazy deltas, if any).
    steps: VecDeque<Step>,
    /// Deltas still to generate once `steps` runs out (`/flood`, `/stamp`).
    lazy: Option<LazyDeltas>,
    /// The turn stays open when its steps are done (`/hang`): only an abort ends it.
    pub(crate) hangs: bool,
}

impl Script {
    fn new(turn_id: Option<&str>, request_id: Option<&str>) -> Self {
        Script {
            turn_id: turn_id.map(str::to_owned),
            request_id: request_id.map(str::to_owned),
            steps: VecDeque::new(),
            lazy: None,
            hangs: false,
        }
    }

    /// Makes sure the next step, if the turn has one, is in `steps`.
    fn refill(&mut self) {
        if !self.steps.is_empty() {
            return;
        }
        let Some(lazy) = self.lazy.as_mut() else {
            return;
        };
        match lazy.next_step() {
            Some(step) => self.steps.push_back(step),
            None => {
                if let Some(lazy) = self.lazy.take() {
                    lazy.ending(self);
                }
            }
        }
    }

    /// How long the next step waits after the previous one; `None` when no step is left.
    pub(crate) fn next_wait(&mut self) -> Option<u64> {
        self.refill();
        self.steps.front().map(|step| step.wait_ms)
    }

    /// Takes the next step.
    pub(crate) fn pop(&mut self) -> Option<Step> {
        self.refill();
        self.steps.pop_front()
    }

    fn send(&mut self, wait_ms: u64, frame: Value) {
        self.steps.push_back(Step {
            wait_ms,
            action: Action::Send(frame.to_string()),
        });
    }

    fn close(&mut self, wait_ms: u64, code: u16, reason: &'static str) {
        self.steps.push_back(Step {
            wait_ms,
            action: Action::Close { code, reason },
        });
    }

    /// The frames that end the turn when the adapter aborts it: finalize `canceled`, idle,
    /// `complete`. A replay has no turn of its own, so nothing is added to it.
    pub(crate) fn cancel(&self) -> Vec<String> {
        let Some(turn) = &self.turn_id else {
            return Vec::new();
        };
        vec![
            json!({"type": "message.finalize", "turnId": turn, "reason": "canceled"}).to_string(),
            status("idle", None).to_string(),
            json!({"type": "complete"}).to_string(),
        ]
    }
}

/// The `init` frame sent when a client connects: no turn is in flight.
pub(crate) fn init_frame(session_id: &str) -> String {
    json!({"type": "init", "messages": [], "session": {"id": session_id, "agent": "demo"}})
        .to_string()
}

/// The error frame for a prompt that arrives while a turn is running.
pub(crate) fn busy_frame() -> String {
    json!({"type": "error", "message": "A turn is already running on this connection."}).to_string()
}

fn status(status: &str, detail: Option<&str>) -> Value {
    match detail {
        Some(detail) => json!({"type": "agentStatus", "status": status, "detail": detail}),
        None => json!({"type": "agentStatus", "status": status}),
    }
}

fn create(turn: &str, request_id: Option<&str>) -> Value {
    match request_id {
        Some(id) => json!({"type": "message.create", "turnId": turn, "requestId": id}),
        None => json!({"type": "message.create", "turnId": turn}),
    }
}

fn delta(turn: &str, text: &str) -> Value {
    json!({"type": "message.part.text-delta", "turnId": turn, "delta": text})
}

fn finish(script: &mut Script, turn: &str, final_text: Option<&str>) {
    let end = match final_text {
        Some(text) => {
            json!({"type": "message.finalize", "turnId": turn, "reason": "end_turn", "finalText": text})
        }
        None => json!({"type": "message.finalize", "turnId": turn, "reason": "end_turn"}),
    };
    script.send(0, end);
    script.send(0, status("idle", None));
    script.send(0, json!({"type": "complete"}));
}

/// Delta `i` (from 1) of a `/stamp` turn, sent at `now_ms` (the agent's `Date.now()`):
/// its text is `{i}@{now_ms} `.
pub(crate) fn stamp_frame(turn: &str, i: u64, now_ms: f64) -> String {
    delta(turn, &format!("{i}@{now_ms} ")).to_string()
}

/// The text of delta `i` (from 1) of `/slow` and `/flood`: `w1`, ` w2`, ` w3`, …
pub(crate) fn numbered_delta(i: u64) -> String {
    if i == 1 {
        "w1".to_owned()
    } else {
        format!(" w{i}")
    }
}

fn count(arg: Option<&str>, default: u64, max: u64) -> u64 {
    arg.and_then(|a| a.parse().ok()).unwrap_or(default).min(max)
}

/// The script for `content`, the prompt's text.
pub(crate) fn for_prompt(content: &str, turn: &str, request_id: Option<&str>) -> Script {
    let (first_line, rest) = content.split_once('\n').unwrap_or((content, ""));
    let mut words = first_line.split_whitespace();
    let command = if first_line.starts_with('/') {
        words.next()
    } else {
        None
    };
    match command {
        Some("/replay") => replay(rest),
        Some("/slow") => {
            let n = count(words.next(), DEFAULT_DELTAS, MAX_DELTAS);
            let ms = count(words.next(), DEFAULT_INTERVAL_MS, MAX_INTERVAL_MS);
            numbered(turn, request_id, n, ms)
        }
        Some("/flood") => {
            let n = count(words.next(), DEFAULT_DELTAS, MAX_LAZY_DELTAS);
            let rate = count(words.next(), 0, MAX_RATE);
            let mut script = lazy(turn, request_id, LazyKind::Numbered, n, 0);
            if let Some(deltas) = script.lazy.as_mut() {
                deltas.per_second = (rate > 0).then_some(rate);
            }
            script
        }
        Some("/stamp") => {
            let n = count(words.next(), DEFAULT_DELTAS, MAX_LAZY_DELTAS);
            let ms = count(words.next(), DEFAULT_STAMP_INTERVAL_MS, MAX_INTERVAL_MS);
            lazy(turn, request_id, LazyKind::Stamped, n, ms)
        }
        Some("/hang") => {
            let mut script = Script::new(Some(turn), request_id);
            script.send(0, create(turn, request_id));
            script.hangs = true;
            script
        }
        Some("/drop") => {
            let mut script = Script::new(Some(turn), request_id);
            script.send(0, create(turn, request_id));
            for i in 1..=DROP_AFTER_DELTAS {
                script.send(DEFAULT_INTERVAL_MS, delta(turn, &numbered_delta(i)));
            }
            script.close(
                DEFAULT_INTERVAL_MS,
                CLOSE_INTERNAL_ERROR,
                "demo agent dropped the connection",
            );
            script
        }
        Some("/error") => {
            let text = first_line["/error".len()..].trim();
            let text = if text.is_empty() {
                "The demo agent failed."
            } else {
                text
            };
            let mut script = Script::new(Some(turn), request_id);
            script.send(0, create(turn, request_id));
            script.send(0, status("thinking", None));
            let end = json!({"type": "message.finalize", "turnId": turn, "reason": "error", "error": text});
            script.send(DEFAULT_INTERVAL_MS, end);
            script.send(0, status("error", Some(text)));
            script.send(0, json!({"type": "complete"}));
            script
        }
        _ => default_turn(content, turn, request_id),
    }
}

fn replay(log: &str) -> Script {
    let mut script = Script::new(None, None);
    for line in log.split('\n') {
        let line = line.trim_end_matches('\r');
        if !line.trim().is_empty() {
            script.steps.push_back(Step {
                wait_ms: REPLAY_INTERVAL_MS,
                action: Action::Send(line.to_owned()),
            });
        }
    }
    script.close(REPLAY_INTERVAL_MS, CLOSE_NORMAL, "replay finished");
    script
}

fn numbered(turn: &str, request_id: Option<&str>, n: u64, interval_ms: u64) -> Script {
    let mut script = Script::new(Some(turn), request_id);
    script.send(0, create(turn, request_id));
    script.send(0, status("streaming", None));
    let mut text = String::new();
    for i in 1..=n {
        let piece = numbered_delta(i);
        text.push_str(&piece);
        script.send(interval_ms, delta(turn, &piece));
    }
    finish(&mut script, turn, Some(&text));
    script
}

/// `/flood` and `/stamp`: create and status now, the deltas and the ending as they come due.
fn lazy(
    turn: &str,
    request_id: Option<&str>,
    kind: LazyKind,
    count: u64,
    interval_ms: u64,
) -> Script {
    let mut script = Script::new(Some(turn), request_id);
    script.send(0, create(turn, request_id));
    script.send(0, status("streaming", None));
    script.lazy = Some(LazyDeltas {
        kind,
        turn: turn.to_owned(),
        next: 1,
        count,
        interval_ms,
        per_second: None,
        started_ms: None,
    });
    script
}

/// The name of the default turn's tool.
const TOOL_NAME: &str = "search_docs";

/// The default turn: think, search the docs with a tool, answer word by word.
fn default_turn(content: &str, turn: &str, request_id: Option<&str>) -> Script {
    let query: String = content.split_whitespace().collect::<Vec<_>>().join(" ");
    let query: String = query.chars().take(80).collect();
    let call = format!("{turn}-call-1");
    let tool = |status: &str, extra: Value| {
        let mut frame = json!({"type": "message.part.tool-update", "turnId": turn,
            "callId": call, "toolName": TOOL_NAME, "status": status});
        if let (Some(frame), Value::Object(extra)) = (frame.as_object_mut(), extra) {
            frame.extend(extra);
        }
        frame
    };
    let hits = [
        ("Streaming an agent turn to the AI SDK", "docs/streaming.md"),
        ("Stopping a turn from the client", "docs/abort.md"),
    ];
    let reply = format!(
        "I searched the docs for \"{query}\" and found {} pages: \"{}\" and \"{}\". \
         I am the demo agent, so this answer is canned, but it streams word by word, \
         the way a real agent's does.",
        hits.len(),
        hits[0].0,
        hits[1].0
    );
    let args = json!({"query": query, "limit": hits.len()});
    let result = json!({"query": query, "hits": hits.iter()
        .map(|(title, path)| json!({"title": title, "path": path})).collect::<Vec<_>>()});

    let mut script = Script::new(Some(turn), request_id);
    script.send(0, create(turn, request_id));
    script.send(0, status("thinking", None));
    script.send(300, tool("pending", json!({})));
    script.send(0, status("tool_calling", Some(TOOL_NAME)));
    script.send(150, tool("running", json!({"args": args})));
    script.send(
        400,
        tool("completed", json!({"args": args, "result": result})),
    );
    script.send(0, status("streaming", None));
    for word in reply.split_inclusive(' ') {
        script.send(WORD_INTERVAL_MS, delta(turn, word));
    }
    finish(&mut script, turn, Some(&reply));
    script
}
