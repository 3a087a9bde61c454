//! The demo agent's turns as scripts: the frames it sends and how long it waits before each.
//!
//! A prompt that starts with a command drives the agent for tests and demos; any other prompt
//! gets the default turn, a believable agent that thinks, calls a tool and answers word by word.
//!
//! | prompt | turn |
//! | --- | --- |
//! | `/replay` + newline + V2 frames, one a line | the lines verbatim, ~1 ms apart, then close 1000 |
//! | `/slow N [MS]` | N deltas MS apart (default 100) |
//! | `/work N [MS]` | a `work` call (args `{"steps": N}`) running ceil(N/2) pauses of MS, then `completed` (result the same); then floor(N/2) (at least 1) of `/slow`'s deltas MS apart (`/slow`'s defaults and caps) |
//! | `/flood N [RATE]` | N deltas (up to 1,000,000), no delay, sent in batches; at most RATE a second when given |
//! | `/stamp N [MS]` | N deltas (up to 1,000,000) MS apart (default 0), each carrying its send time |
//! | `/hang` | `message.create`, then silence until an abort |
//! | `/drop` | a few deltas, then close every socket of the session with 1011 |
//! | `/error TEXT` | `message.finalize` with reason `error` and TEXT |
//! | `/panic [now]` | `message.create`, a `work` call left `running`, three deltas (a text part left open), then the agent panics (the wasm instance is lost: tests only); with `now`, it panics before `message.create` |
//! | `/ask [TEXT]` | a `question` (TEXT, default [`DEFAULT_QUESTION`]; options `yes`, `no`), then a wait for its answer; then `You answered: <answer>.` |
//! | `/ask-free [TEXT]` | the same question without options: the user writes the answer |
//! | `/tool-error` | a `read_file` call whose `completed` result reports failure (`success: false`), then a short reply |
//! | `/seen` | the conversation its model would be given, as JSON (`[{"id","role","text"}]`, [`crate::seen`]): the branch from the first message to this prompt's |
//! | `/grow [N]` | N exchanges (default 100, at most 5,000 and what the session's cap leaves room for), each a user message `g<i>` and a finished reply `r<i>`, stored where the turn attaches in one statement, no frame each ([`crate::grow`]); then this prompt's message after them, and a reply saying how many |
//! | `/extras` | protocol 6's parts ([`extras_turn`]): a transient `data-progress`, a `data-weather` (id `w1`) sent twice (the second replaces the first), a `source-url` and a `source-document`, two `message.metadata` (`{"app":{"lang":"en"}}`, then `{"app":{"tone":"brief"}}`), each beside a short text, 100 ms apart, the last text 1.5 s after them |
//! | `/deploy [TARGET]` | a `deploy` call (`pending`, args `{ target }`; TARGET default `production`) gated by an approval question (`toolCallId`); approved: the call runs and completes, `Deployed to TARGET.`; denied: the call ends `error` `Denied[: reason]`, `I did not deploy to TARGET.` |
//!
//! `/flood` and `/stamp` are for benchmarks (`bench/`): their deltas are generated one at a
//! time as they are sent ([`super::lazy`]), and are not kept in the sent log. A `/stamp`
//! delta's text is `{i}@{ms} `: its number (from 1) and the agent's `Date.now()` when it sent
//! it.

use std::collections::VecDeque;

use serde_json::{json, Value};

use super::frames::{
    answer_reply, complete, create, data_part, delta, finalize, metadata, numbered_delta, question,
    question_id, source, status, tool_update,
};
use super::lazy::{LazyDeltas, LazyKind, MAX_LAZY_DELTAS};
use super::step::{Action, ScriptStep};
use crate::questions::approves;

/// Most deltas `/slow` sends: keeps one scripted turn under ~10 MB of memory.
const MAX_DELTAS: u64 = 100_000;
/// Highest `/flood` rate accepted, in deltas a second (beyond it, a flood is unpaced anyway).
const MAX_RATE: u64 = 10_000_000;
/// `/stamp`'s pause when none is given: none, deltas go back to back like `/flood`'s.
const DEFAULT_STAMP_INTERVAL_MS: u64 = 0;
/// Most frames sent back to back before the agent yields to the event loop (a 0 ms timer), so
/// a flood lets the sockets drain and an `abort` get through between batches.
pub const SEND_BATCH: usize = 256;
/// Longest pause `/slow` takes between deltas: one minute.
const MAX_INTERVAL_MS: u64 = 60_000;
/// Longest single wait of a step: `worker::Delay` hands its milliseconds to `setTimeout` as an
/// `i32`, so a longer one would wrap and fire at once. Only `/work`'s call can wait longer (all
/// its pauses are one step's wait): it is cut to this (~24.8 days).
const MAX_STEP_WAIT_MS: u64 = i32::MAX as u64;
/// `/slow`'s pause when none is given: ten deltas a second, slow enough to stop by hand.
const DEFAULT_INTERVAL_MS: u64 = 100;
/// `/slow`, `/work` and `/flood`'s count when none is given.
const DEFAULT_DELTAS: u64 = 10;
/// Pause between replayed lines: ~1 ms apart, a recorded turn at the agent's own pace.
const REPLAY_INTERVAL_MS: u64 = 1;
/// Deltas `/drop` sends before it breaks the session's sockets.
const DROP_AFTER_DELTAS: u64 = 3;
/// Deltas `/panic` sends before it panics: enough to show a text part left open.
const PANIC_AFTER_DELTAS: u64 = 3;
/// Pause between the words of the default reply: a plausible model speed (25 tokens/s).
const WORD_INTERVAL_MS: u64 = 40;
/// The `model` the demo reports on a turn's finalize (it has none: the name says so).
pub const DEMO_MODEL: &str = "demo-script";
/// `/ask`'s question when the prompt gives none.
pub const DEFAULT_QUESTION: &str = "Shall I go on?";

/// What the demo's title of a session starts with: it searched the docs ([`Script::title_session`]).
pub const TITLE_PREFIX: &str = "Docs search: ";

/// The most characters of the search a title holds: 60, so that the whole title stays within
/// the 80 a list's row shows (the adapter's own titles' bound, `conversations::title`).
const TITLE_TOPIC_CHARS: usize = 60;
/// Most deltas `/ask`'s reply is cut into (one a word, the rest in the last): an answer can be
/// a whole POST body (megabytes), which word by word at [`WORD_INTERVAL_MS`] would take hours.
const MAX_REPLY_DELTAS: usize = 64;
/// WebSocket close codes (RFC 6455, 7.4.1): normal closure, and "unexpected condition".
pub const CLOSE_NORMAL: u16 = 1000;
pub const CLOSE_INTERNAL_ERROR: u16 = 1011;

/// A turn in progress.
#[derive(Debug, Default)]
pub struct Script {
    /// The turn's id; `None` for a replay, which sends only what the log holds.
    pub turn_id: Option<String>,
    /// The steps still to run (before the lazy deltas, if any).
    steps: VecDeque<ScriptStep>,
    /// Deltas still to generate once `steps` runs out (`/flood`, `/stamp`).
    lazy: Option<LazyDeltas>,
    /// The turn stays open when its steps are done (`/hang`): only an abort ends it.
    pub hangs: bool,
    /// What the turn does with the answer to its question.
    on_answer: OnAnswer,
    /// What a default turn searched the docs for: what titles a session from its first exchange
    /// ([`Script::title_session`]); a command's turn has none.
    topic: Option<String>,
}

/// What a turn does once its question is answered.
#[derive(Debug, Default)]
enum OnAnswer {
    /// `/ask`: says what the answer was.
    #[default]
    Echo,
    /// `/deploy`: runs the gated call `call` when approved, ends it denied otherwise.
    Deploy { call: String, target: String },
}

impl Script {
    fn new(turn_id: Option<&str>) -> Self {
        Script {
            turn_id: turn_id.map(str::to_owned),
            steps: VecDeque::new(),
            lazy: None,
            hangs: false,
            on_answer: OnAnswer::Echo,
            topic: None,
        }
    }

    /// Titles the session from this exchange (`title`, protocol 7): [`TITLE_PREFIX`] and what the
    /// turn searched for (cut to [`TITLE_TOPIC_CHARS`] characters), sent just before the turn's
    /// finalize, once the exchange is made. A command's turn titles nothing.
    pub fn title_session(&mut self) {
        let Some(topic) = self.topic.take().filter(|topic| !topic.is_empty()) else {
            return;
        };
        let finalize = |step: &ScriptStep| matches!(&step.action, Action::Send(text) if text.contains(r#""message.finalize""#));
        let Some(at) = self.steps.iter().position(finalize) else {
            return;
        };
        let mut title: String = topic.chars().take(TITLE_TOPIC_CHARS).collect();
        if topic.chars().nth(TITLE_TOPIC_CHARS).is_some() {
            title = format!("{}…", title.trim_end());
        }
        let frame = json!({"type": "title", "title": format!("{TITLE_PREFIX}{title}")});
        let action = Action::Send(frame.to_string());
        self.steps.insert(at, ScriptStep { wait_ms: 0, action });
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
                    finish(self, &lazy.turn, lazy.final_text().as_deref());
                }
            }
        }
    }

    /// How long the next step waits after the previous one; `None` when no step is left.
    pub fn next_wait(&mut self) -> Option<u64> {
        self.refill();
        self.steps.front().map(|step| step.wait_ms)
    }

    /// Takes the next step.
    pub fn pop(&mut self) -> Option<ScriptStep> {
        self.refill();
        self.steps.pop_front()
    }

    fn send(&mut self, wait_ms: u64, frame: Value) {
        self.steps.push_back(ScriptStep {
            wait_ms,
            action: Action::Send(frame.to_string()),
        });
    }

    /// Adds `usage` and `model` to the turn's `end_turn` finalize, as a model reports them: the
    /// demo counts the words of `prompt` as input tokens and each text delta it sends before the
    /// finalize as an output token; its model is [`DEMO_MODEL`].
    fn report_usage(&mut self, prompt: &str) {
        let input_tokens = prompt.split_whitespace().count();
        let mut output_tokens = 0usize;
        for step in &mut self.steps {
            let Action::Send(text) = &mut step.action else {
                continue;
            };
            if text.contains(r#""message.part.text-delta""#) {
                output_tokens += 1;
            } else if text.contains(r#""message.finalize""#) && text.contains(r#""end_turn""#) {
                let Ok(mut frame) = serde_json::from_str::<Value>(text) else {
                    continue;
                };
                if let Some(map) = frame.as_object_mut() {
                    let usage = json!({"inputTokens": input_tokens, "outputTokens": output_tokens});
                    map.insert("usage".into(), usage);
                    map.insert("model".into(), DEMO_MODEL.into());
                }
                *text = frame.to_string();
            }
        }
    }

    fn act(&mut self, wait_ms: u64, action: Action) {
        self.steps.push_back(ScriptStep { wait_ms, action });
    }

    /// Goes on after [`Action::AwaitAnswer`] with `answer`: streaming, the reply
    /// ([`answer_reply`]) a word a delta, and the normal ending.
    pub fn answered(&mut self, answer: &Value) {
        let Some(turn) = self.turn_id.clone() else {
            return;
        };
        let reply = match std::mem::take(&mut self.on_answer) {
            OnAnswer::Echo => answer_reply(answer),
            OnAnswer::Deploy { call, target } => self.deployed(&turn, &call, &target, answer),
        };
        self.send(0, status("streaming", None));
        for piece in word_deltas(&reply, MAX_REPLY_DELTAS) {
            self.send(WORD_INTERVAL_MS, delta(&turn, piece));
        }
        finish(self, &turn, Some(&reply));
    }

    /// A turn that says `reply` at once (a word a delta, at most [`MAX_REPLY_DELTAS`]), and reports
    /// usage for `prompt`: `/seen`'s ([`crate::seen`]), which the session makes, as only it knows
    /// the conversation.
    pub fn reply(reply: &str, prompt: &str, turn: &str, request_id: Option<&str>) -> Script {
        let mut script = Script::new(Some(turn));
        script.send(0, create(turn, request_id));
        script.send(0, status("streaming", None));
        for piece in word_deltas(reply, MAX_REPLY_DELTAS) {
            script.send(0, delta(turn, piece));
        }
        finish(&mut script, turn, Some(reply));
        script.report_usage(prompt);
        script
    }

    /// `/deploy`'s call after its approval question was answered, and the reply to say.
    fn deployed(&mut self, turn: &str, call: &str, target: &str, answer: &Value) -> String {
        let args = json!({"args": {"target": target}});
        let options = json!(DEPLOY_OPTIONS);
        if approves(answer, Some(&options)) {
            self.send(0, status("tool_calling", Some("deploy")));
            self.send(0, tool_update(turn, call, "deploy", "running", args));
            let done = json!({"result": {"deployed": target}});
            self.send(
                DEPLOY_MS,
                tool_update(turn, call, "deploy", "completed", done),
            );
            return format!("Deployed to {target}.");
        }
        let denial = match answer.get("reason").and_then(Value::as_str) {
            Some(reason) if !reason.is_empty() => format!("Denied: {reason}"),
            _ => "Denied".to_owned(),
        };
        let failed = json!({"error": denial});
        self.send(0, tool_update(turn, call, "deploy", "error", failed));
        format!("I did not deploy to {target}.")
    }
}

/// `/deploy`'s approval question's options: the first approves (`docs/agent-protocol.md`).
const DEPLOY_OPTIONS: [&str; 2] = ["Approve", "Deny"];
/// How long `/deploy`'s call runs once approved: long enough to be seen running.
const DEPLOY_MS: u64 = 200;

/// `/deploy [TARGET]`: the gated call announced, then its approval question, then a wait.
fn deploy_turn(target: &str, turn: &str, request_id: Option<&str>) -> Script {
    let call = format!("{turn}-deploy");
    let mut script = Script::new(Some(turn));
    script.send(0, create(turn, request_id));
    script.send(0, status("tool_calling", Some("deploy")));
    let args = json!({"args": {"target": target}});
    script.send(0, tool_update(turn, &call, "deploy", "pending", args));
    let question = json!({"type": "question", "questionId": question_id(turn),
        "text": format!("Deploy to {target}?"), "toolCallId": call, "options": DEPLOY_OPTIONS});
    script.send(0, question);
    script.act(0, Action::AwaitAnswer);
    script.on_answer = OnAnswer::Deploy {
        call,
        target: target.to_owned(),
    };
    script
}

/// `/extras`'s pause before its last text.
const EXTRAS_LAST_MS: u64 = 1_500;

/// `/extras`: protocol 6's data parts, sources and metadata, between texts, at `/slow`'s pace so
/// that a resume can join it part way.
pub fn extras_turn(turn: &str, request_id: Option<&str>) -> Script {
    let ms = DEFAULT_INTERVAL_MS;
    let mut script = Script::new(Some(turn));
    script.send(0, create(turn, request_id));
    let progress = json!({"step": 1, "of": 2});
    script.send(0, data_part(turn, "progress", None, progress, true));
    script.send(ms, delta(turn, "Looking it up. "));
    let weather = json!({"city": "Paris", "temperature": null});
    script.send(ms, data_part(turn, "weather", Some("w1"), weather, false));
    script.send(ms, metadata(turn, json!({"app": {"lang": "en"}})));
    let weather = json!({"city": "Paris", "temperature": 18});
    script.send(ms, data_part(turn, "weather", Some("w1"), weather, false));
    let page = json!({"sourceId": "s1", "url": "https://example.com/paris", "title": "Paris"});
    script.send(ms, source(turn, page));
    let doc = json!({"sourceId": "s2", "mediaType": "application/pdf", "title": "Climate",
        "filename": "climate.pdf"});
    script.send(ms, source(turn, doc));
    script.send(ms, metadata(turn, json!({"app": {"tone": "brief"}})));
    // A longer pause before the last text: a client that reloads once it saw the sources resumes
    // a turn that still runs, whose replay holds every part before them.
    script.send(EXTRAS_LAST_MS, delta(turn, "It is 18 degrees."));
    finish(&mut script, turn, None);
    script
}

/// `text` cut after each space into at most `max` pieces, the last holding the rest.
fn word_deltas(text: &str, max: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = match rest.find(' ') {
            Some(space) if pieces.len() + 1 < max => space + 1,
            _ => rest.len(),
        };
        let (piece, tail) = rest.split_at(end);
        pieces.push(piece);
        rest = tail;
    }
    pieces
}

/// The normal ending: finalize `end_turn` (with `finalText` when given), idle, `complete`.
fn finish(script: &mut Script, turn: &str, final_text: Option<&str>) {
    script.send(0, finalize(turn, "end_turn", final_text, None));
    script.send(0, status("idle", None));
    script.send(0, complete());
}

fn count(arg: Option<&str>, default: u64, max: u64) -> u64 {
    arg.and_then(|a| a.parse().ok()).unwrap_or(default).min(max)
}

/// The script for `content`, the prompt's text; its normal ending reports usage
/// ([`Script::report_usage`]), except a `/replay`'s, which sends the log as it is.
pub fn for_prompt(content: &str, turn: &str, request_id: Option<&str>) -> Script {
    let mut script = scripted(content, turn, request_id);
    if !content.starts_with("/replay") {
        script.report_usage(content);
    }
    script
}

fn scripted(content: &str, turn: &str, request_id: Option<&str>) -> Script {
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
        Some("/work") => {
            let n = count(words.next(), DEFAULT_DELTAS, MAX_DELTAS);
            let ms = count(words.next(), DEFAULT_INTERVAL_MS, MAX_INTERVAL_MS);
            work_turn(turn, request_id, n, ms)
        }
        Some("/flood") => {
            let n = count(words.next(), DEFAULT_DELTAS, MAX_LAZY_DELTAS);
            let rate = count(words.next(), 0, MAX_RATE);
            let per_second = (rate > 0).then_some(rate);
            lazy(turn, request_id, LazyKind::Numbered, n, 0, per_second)
        }
        Some("/stamp") => {
            let n = count(words.next(), DEFAULT_DELTAS, MAX_LAZY_DELTAS);
            let ms = count(words.next(), DEFAULT_STAMP_INTERVAL_MS, MAX_INTERVAL_MS);
            lazy(turn, request_id, LazyKind::Stamped, n, ms, None)
        }
        Some("/hang") => {
            let mut script = Script::new(Some(turn));
            script.send(0, create(turn, request_id));
            script.hangs = true;
            script
        }
        Some("/panic") if words.next() == Some("now") => {
            let mut script = Script::new(Some(turn));
            // A pause first, so that the adapter's stream is under way when the panic comes.
            script.act(DEFAULT_INTERVAL_MS, Action::Panic);
            script
        }
        Some("/panic") => {
            let mut script = Script::new(Some(turn));
            script.send(0, create(turn, request_id));
            let args = json!({"args": {"steps": 1}});
            script.send(
                0,
                tool_update(turn, &format!("{turn}-work"), "work", "running", args),
            );
            for i in 1..=PANIC_AFTER_DELTAS {
                script.send(0, delta(turn, &numbered_delta(i)));
            }
            // A pause first, so that the adapter has shown all of it when the panic comes.
            script.act(DEFAULT_INTERVAL_MS, Action::Panic);
            script
        }
        Some("/drop") => {
            let mut script = Script::new(Some(turn));
            script.send(0, create(turn, request_id));
            for i in 1..=DROP_AFTER_DELTAS {
                script.send(DEFAULT_INTERVAL_MS, delta(turn, &numbered_delta(i)));
            }
            let action = Action::Drop {
                code: CLOSE_INTERNAL_ERROR,
                reason: "demo agent dropped the connection",
            };
            script.act(DEFAULT_INTERVAL_MS, action);
            script
        }
        Some("/error") => {
            let text = first_line["/error".len()..].trim();
            let text = if text.is_empty() {
                "The demo agent failed."
            } else {
                text
            };
            let mut script = Script::new(Some(turn));
            script.send(0, create(turn, request_id));
            script.send(0, status("thinking", None));
            let end = finalize(turn, "error", None, Some(text));
            script.send(DEFAULT_INTERVAL_MS, end);
            script.send(0, status("error", Some(text)));
            script.send(0, complete());
            script
        }
        Some(command @ ("/ask" | "/ask-free")) => {
            let text = first_line[command.len()..].trim();
            let text = if text.is_empty() {
                DEFAULT_QUESTION
            } else {
                text
            };
            let mut asked = question(&question_id(turn), text);
            if let (Some(fields), "/ask-free") = (asked.as_object_mut(), command) {
                // No options: the user writes the answer.
                fields.remove("options");
            }
            let mut script = Script::new(Some(turn));
            script.send(0, create(turn, request_id));
            script.send(0, status("thinking", None));
            script.send(0, asked);
            script.act(0, Action::AwaitAnswer);
            script
        }
        Some("/tool-error") => tool_error_turn(turn, request_id),
        Some("/extras") => extras_turn(turn, request_id),
        Some("/deploy") => deploy_turn(words.next().unwrap_or("production"), turn, request_id),
        _ => default_turn(content, turn, request_id),
    }
}

fn replay(log: &str) -> Script {
    let mut script = Script::new(None);
    for line in log.split('\n') {
        let line = line.trim_end_matches('\r');
        if !line.trim().is_empty() {
            script.steps.push_back(ScriptStep {
                wait_ms: REPLAY_INTERVAL_MS,
                action: Action::Send(line.to_owned()),
            });
        }
    }
    let action = Action::Close {
        code: CLOSE_NORMAL,
        reason: "replay finished",
    };
    script.act(REPLAY_INTERVAL_MS, action);
    script
}

fn numbered(turn: &str, request_id: Option<&str>, n: u64, interval_ms: u64) -> Script {
    let mut script = Script::new(Some(turn));
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

/// `/work N MS`: a `work` call running for ceil(N/2) pauses of MS (one step's wait: the turn
/// sends nothing meanwhile, and an abort stops it as it stops `/slow`), then completed, then
/// floor(N/2) (at least 1) of `/slow`'s deltas, MS apart.
fn work_turn(turn: &str, request_id: Option<&str>, n: u64, interval_ms: u64) -> Script {
    let call = format!("{turn}-work");
    let steps = json!({"steps": n});
    let mut script = Script::new(Some(turn));
    script.send(0, create(turn, request_id));
    script.send(0, status("tool_calling", Some("work")));
    let running = json!({"args": steps});
    script.send(0, tool_update(turn, &call, "work", "running", running));
    let running_ms = n.div_ceil(2).saturating_mul(interval_ms);
    let done = json!({"result": steps});
    script.send(
        running_ms.min(MAX_STEP_WAIT_MS),
        tool_update(turn, &call, "work", "completed", done),
    );
    script.send(0, status("streaming", None));
    let mut text = String::new();
    for i in 1..=(n / 2).max(1) {
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
    per_second: Option<u64>,
) -> Script {
    let mut script = Script::new(Some(turn));
    script.send(0, create(turn, request_id));
    script.send(0, status("streaming", None));
    script.lazy = Some(LazyDeltas::new(kind, turn, count, interval_ms, per_second));
    script
}

/// The name of the default turn's tool.
const TOOL_NAME: &str = "search_docs";

/// The default turn: think, search the docs with a tool, answer word by word.
fn default_turn(content: &str, turn: &str, request_id: Option<&str>) -> Script {
    let query: String = content.split_whitespace().collect::<Vec<_>>().join(" ");
    let query: String = query.chars().take(80).collect();
    let call = format!("{turn}-call-1");
    let tool = |status: &str, extra: Value| tool_update(turn, &call, TOOL_NAME, status, extra);
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

    let mut script = Script::new(Some(turn));
    script.topic = Some(query.clone());
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

/// `/tool-error`: a tool that reports failure in a `completed` result, then a reply.
fn tool_error_turn(turn: &str, request_id: Option<&str>) -> Script {
    let call = format!("{turn}-call-1");
    let args = json!({"args": {"path": "/missing"}});
    let failed = json!({"result": {"success": false, "error": {"message": "no such file"}}});
    let reply = "The file is missing.";
    let mut script = Script::new(Some(turn));
    script.send(0, create(turn, request_id));
    script.send(0, status("tool_calling", Some("read_file")));
    script.send(0, tool_update(turn, &call, "read_file", "running", args));
    script.send(
        50,
        tool_update(turn, &call, "read_file", "completed", failed),
    );
    script.send(0, status("streaming", None));
    for word in reply.split_inclusive(' ') {
        script.send(WORD_INTERVAL_MS, delta(turn, word));
    }
    finish(&mut script, turn, Some(reply));
    script
}

#[cfg(test)]
#[path = "script_tests.rs"]
mod tests;
