//! What a turn's record costs natively: `n` request lines of a finished 100-event turn, alone
//! (`none`), with the turn's record in them (`record`), or with its data point's JSON too
//! (`point`). Counted with callgrind (bench/README.md, "The turn's record in the request's line"):
//!
//!   cargo build --release -p session-agent-core --example record_cost
//!   valgrind --tool=callgrind target/release/examples/record_cost 100 record
//!
//! and compared with the same `n` of `none`: the difference over `n` is one record's cost.
use session_agent_core::request_log::RequestLog;
use session_agent_core::translator::StreamOutcome;
use session_agent_core::turn_record::{Trigger, TurnFacts, TurnRecord, TurnRequest};
use session_agent_core::v2::Usage;
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(what)) = (args.get(1).and_then(|n| n.parse().ok()), args.get(2)) else {
        eprintln!("usage: record_cost <n> none|record|point");
        std::process::exit(2);
    };
    let with_record = what != "none";
    let with_point = what == "point";
    let mut total = 0usize;
    for i in 0..n {
        let log = RequestLog {
            request_id: black_box("0f6c2d3e-8a9b-4c1d-9e2f-3a4b5c6d7e8f".to_owned()),
            method: "POST".into(),
            path: "/api/sessions/s-1234567890/chat".into(),
            session: Some("s-1234567890".into()),
            user: None,
            status: 200,
            outcome: "finished".into(),
            chunks: 104,
            bytes: 9_000 + i as u64,
            skipped_frames: 0,
            duration_ms: 35,
        };
        let line = if with_record {
            let request = TurnRequest {
                request_id: &log.request_id,
                session: log.session.as_deref().unwrap_or_default(),
                caller: log.user.as_deref(),
                trigger: Some(Trigger::Submit),
                started_at: 1_795_514_400_000,
                ended_at: 1_795_514_400_035,
                bytes: log.bytes,
            };
            let facts = TurnFacts {
                turn_id: Some(black_box("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d")),
                agent_protocol: Some(3),
                first_frame_at: Some(1_795_514_400_003),
                first_text_at: Some(1_795_514_400_004),
                events: 100,
                chunks: 104,
                tool_calls: 0,
                tool_errors: 0,
                ended: Some(StreamOutcome::Finished),
                error_code: None,
                usage: Some(Usage {
                    input_tokens: Some(12),
                    output_tokens: Some(97),
                }),
                model: Some("scripted"),
            };
            let record = TurnRecord::of_stream(request, facts, false);
            if with_point {
                total += black_box(record.data_point_json()).len();
            }
            log.line(Some(&record))
        } else {
            log.line(None)
        };
        total += black_box(line).len();
    }
    println!("{total}");
}
