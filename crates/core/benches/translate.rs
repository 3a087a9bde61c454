//! Native micro-benchmarks: the translator + SSE encoder beside a `serde_json` floor (issue 5).
//!
//! Each synthetic turn is a list of V2 frames (JSON text, as the Durable Object sends them),
//! generated here, not read from fixtures. Sizes come from issue 5:
//!
//! * `text-heavy`: 100k small text deltas (issue 5: "text-heavy: 100k small deltas");
//! * `tool-heavy`: 10k tool calls (issue 5: "10k tool calls with JSON args/results"), each
//!   `pending` → `running` with JSON args → `completed` with a result of a few hundred bytes;
//! * `mixed`: issue 5 names it without a size; it is sized like `text-heavy` (~100k events):
//!   1,500 rounds of thinking status, reasoning, a tool, text and ignored statuses.
//!
//! Every turn is run through [`TurnStream::push_frame`] into one reused `Vec<u8>`, cleared
//! before each frame as the worker's pump does (one write per WebSocket message). Beside it,
//! the floor: `serde_json` parses each frame into a `Value` and writes one chunk-sized JSON
//! object (that value again) as `data: …\n\n` into the same kind of buffer, with no
//! translation. Events are V2 frames in; bytes are SSE bytes out.
//!
//! `cargo bench --bench translate` runs the divan benchmarks, then prints a table of paired,
//! interleaved runs (`BENCH_ROUNDS`, default 9; medians) with the ratio to the floor. Under
//! `cargo test --all-targets` each benchmark runs once and no table is printed.

use std::hint::black_box;
use std::sync::LazyLock;
use std::time::Instant;

use divan::counter::{BytesCount, ItemsCount};
use divan::Bencher;
use serde_json::{json, Value};
use session_agent_core::turn_stream::TurnStream;

const REQUEST_ID: &str = "req_01HZX3Q8W2";
const TURN_ID: &str = "turn_01HZX3Q8W2K7";
const TURNS: [&str; 3] = ["text-heavy", "tool-heavy", "mixed"];

/// Text-heavy: issue 5's 100k small deltas.
const TEXT_DELTAS: usize = 100_000;
/// Tool-heavy: issue 5's 10k tool calls (three frames each).
const TOOL_CALLS: usize = 10_000;
/// Mixed: rounds of ~66 frames, ~100k events in all, like text-heavy.
const MIXED_ROUNDS: usize = 1_500;

/// Small model tokens; a few need JSON escaping (quote, newline, backslash, non-ASCII).
const TOKENS: [&str; 16] = [
    "The",
    " quick",
    " brown",
    " fox",
    ",",
    " jumps",
    " over",
    " the",
    " lazy",
    " dog",
    ".\n",
    " \"quoted\"",
    " path\\to",
    " café",
    " 42",
    " `code`",
];
const TOOL_NAMES: [&str; 5] = ["read_file", "grep", "bash", "list_dir", "edit_file"];

/// A deterministic xorshift generator: the same turn on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A synthetic turn: its frames and the SSE bytes one run of each side writes for it.
struct Turn {
    frames: Vec<String>,
    translator_bytes: u64,
    floor_bytes: u64,
}

struct Gen {
    frames: Vec<String>,
    rng: Rng,
}

impl Gen {
    fn new() -> Self {
        let mut gen = Gen {
            frames: Vec::new(),
            rng: Rng(0x9E37_79B9_7F4A_7C15),
        };
        gen.push(json!({"type": "agentStatus", "status": "thinking"}));
        gen.push(json!({"type": "message.create", "turnId": TURN_ID, "requestId": REQUEST_ID}));
        gen
    }

    /// Writes `frame` with `type` first, as the agent's `JSON.stringify` does (the other keys
    /// come sorted: serde_json's map is ordered).
    fn push(&mut self, mut frame: Value) {
        let kind = frame.as_object_mut().and_then(|m| m.remove("type"));
        let rest = frame.to_string();
        let rest = &rest[1..];
        let sep = if rest == "}" { "" } else { "," };
        self.frames
            .push(format!("{{\"type\":{}{sep}{rest}", kind.expect("a type")));
    }

    fn delta(&mut self, kind: &str) {
        let token = TOKENS[self.rng.below(TOKENS.len())];
        self.push(json!({"type": kind, "turnId": TURN_ID, "delta": token}));
    }

    fn status(&mut self, status: &str, detail: Option<&str>) {
        let mut frame = json!({"type": "agentStatus", "status": status});
        if let Some(detail) = detail {
            frame["detail"] = json!(detail);
        }
        self.push(frame);
    }

    /// One tool call: `pending`, `running` with args, `completed` with a ~300-byte result.
    fn tool(&mut self, i: usize) {
        let name = TOOL_NAMES[i % TOOL_NAMES.len()];
        let call_id = format!("toolu_01{i:016}");
        let base = json!({
            "type": "message.part.tool-update", "turnId": TURN_ID,
            "callId": call_id, "toolName": name,
        });
        let with = |extra: Value| {
            let mut frame = base.clone();
            let (Value::Object(frame_map), Value::Object(extra)) = (&mut frame, extra) else {
                unreachable!()
            };
            frame_map.extend(extra);
            frame
        };
        self.push(with(json!({"status": "pending"})));
        let path = format!("/workspace/src/module_{i}.rs");
        let args = json!({"path": path, "pattern": "fn main", "limit": 50});
        self.push(with(json!({"status": "running", "args": args})));
        let content: String = (0..6)
            .map(|l| {
                format!(
                    "{:>4}: fn item_{i}_{l}() -> Result<(), Error> {{ … }}\n",
                    l * 7
                )
            })
            .collect();
        let result = json!({"success": true, "content": content, "lines": 6, "truncated": false});
        self.push(with(json!({"status": "completed", "result": result})));
    }

    fn finish(mut self) -> Vec<String> {
        // The pump stops at the ending: the `complete` that follows is never pushed.
        self.push(json!({"type": "message.finalize", "turnId": TURN_ID, "reason": "end_turn"}));
        self.frames
    }
}

fn generate(name: &str) -> Vec<String> {
    let mut gen = Gen::new();
    match name {
        "text-heavy" => (0..TEXT_DELTAS).for_each(|_| gen.delta("message.part.text-delta")),
        "tool-heavy" => (0..TOOL_CALLS).for_each(|i| gen.tool(i)),
        "mixed" => {
            for round in 0..MIXED_ROUNDS {
                gen.status("thinking", None);
                (0..20).for_each(|_| gen.delta("message.part.reasoning-delta"));
                gen.status("tool_calling", Some(TOOL_NAMES[round % TOOL_NAMES.len()]));
                gen.tool(round);
                gen.status("streaming", None);
                (0..40).for_each(|_| gen.delta("message.part.text-delta"));
            }
        }
        _ => unreachable!("unknown turn {name}"),
    }
    gen.finish()
}

static WORKLOADS: LazyLock<Vec<(&'static str, Turn)>> = LazyLock::new(|| {
    TURNS
        .iter()
        .map(|&name| {
            let frames = generate(name);
            let mut out = Vec::new();
            let translator_bytes = translate(&frames, &mut out);
            assert!(out.ends_with(b"data: [DONE]\n\n"), "{name}: no [DONE]");
            let floor_bytes = floor(&frames, &mut out);
            let turn = Turn {
                frames,
                translator_bytes,
                floor_bytes,
            };
            (name, turn)
        })
        .collect()
});

fn turn(name: &str) -> &'static Turn {
    &WORKLOADS.iter().find(|(n, _)| *n == name).unwrap().1
}

/// The translator as the worker drives it: one `push_frame` per message, buffer reused.
/// Returns the SSE bytes written. The last frame's bytes stay in `out`.
fn translate(frames: &[String], out: &mut Vec<u8>) -> u64 {
    let mut stream = TurnStream::new(Some(REQUEST_ID));
    let mut bytes = 0;
    for frame in frames {
        out.clear();
        black_box(stream.push_frame(black_box(frame), out));
        bytes += out.len() as u64;
        black_box(&*out);
    }
    bytes
}

/// The floor: parse each frame into a `Value` and write it back as one SSE event.
fn floor(frames: &[String], out: &mut Vec<u8>) -> u64 {
    let mut bytes = 0;
    for frame in frames {
        out.clear();
        let value: Value = serde_json::from_str(black_box(frame)).expect("frames are JSON");
        out.extend_from_slice(b"data: ");
        serde_json::to_writer(&mut *out, &value).expect("a Value serialises");
        out.extend_from_slice(b"\n\n");
        bytes += out.len() as u64;
        black_box(&*out);
    }
    bytes
}

type Run = fn(&[String], &mut Vec<u8>) -> u64;

fn bench_with(bencher: Bencher, frames: &[String], bytes: u64, run: Run) {
    let mut out = Vec::new();
    bencher
        .counter(ItemsCount::new(frames.len()))
        .counter(BytesCount::new(bytes))
        .bench_local(|| run(frames, &mut out));
}

#[divan::bench(args = TURNS, sample_count = 20)]
fn translator(bencher: Bencher, name: &str) {
    let turn = turn(name);
    bench_with(bencher, &turn.frames, turn.translator_bytes, translate);
}

#[divan::bench(args = TURNS, sample_count = 20)]
fn serde_floor(bencher: Bencher, name: &str) {
    let turn = turn(name);
    bench_with(bencher, &turn.frames, turn.floor_bytes, floor);
}

fn time(run: Run, frames: &[String], out: &mut Vec<u8>) -> f64 {
    let start = Instant::now();
    black_box(run(frames, out));
    start.elapsed().as_secs_f64()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Paired, interleaved runs of translator and floor, so machine noise hits both alike.
fn table() {
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(9)
        .max(1);
    println!("\nnative translator vs serde_json floor ({rounds} paired rounds, medians)");
    let row = |cells: [&str; 5]| {
        let [turn, side, events, mbs, ratio] = cells;
        println!("{turn:<11} {side:<10} {events:>10} {mbs:>8} {ratio:>9}");
    };
    row(["turn", "side", "events/s", "MB/s", "vs floor"]);
    let mut out = Vec::new();
    for (name, turn) in WORKLOADS.iter() {
        let (mut t, mut f, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..rounds {
            let tt = time(translate, &turn.frames, &mut out);
            let ft = time(floor, &turn.frames, &mut out);
            ratios.push(ft / tt);
            t.push(tt);
            f.push(ft);
        }
        let ratio = format!("{:.2}x", median(ratios));
        let events = turn.frames.len() as f64;
        let sides = [
            (
                "translator",
                median(t),
                turn.translator_bytes,
                ratio.as_str(),
            ),
            ("floor", median(f), turn.floor_bytes, ""),
        ];
        for (side, secs, bytes, ratio) in sides {
            let rate = format!("{:.2}M", events / secs / 1e6);
            let mbs = format!("{:.0}", bytes as f64 / secs / 1e6);
            row([name, side, &rate, &mbs, ratio]);
        }
    }
    println!("events: V2 frames in; MB/s: SSE bytes out; vs floor: floor time / translator time,");
    println!("i.e. translator throughput / the floor's (issue 5's goal: >= 0.80x).");
}

/// `BENCH_TABLE_ONLY=1` skips divan (a quicker run, or one to profile); `BENCH_NO_TABLE=1`
/// skips the table.
fn main() {
    let env = |name| std::env::var_os(name).is_some_and(|v| v != "0");
    if !env("BENCH_TABLE_ONLY") {
        divan::main();
    }
    if std::env::args().any(|a| a == "--bench") && !env("BENCH_NO_TABLE") {
        table();
    }
}
