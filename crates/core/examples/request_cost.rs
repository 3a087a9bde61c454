//! What reading a chat POST costs natively: `n` parses of a stock AI SDK body whose `messages`
//! hold a conversation of `m` messages (a user message, then the reply: `step-start`, a tool part
//! and ~400 characters of text, and so on, the last the user's). Counted with callgrind
//! (bench/README.md, "Reading the branch's ids"):
//!
//!   cargo build --release -p session-agent-core --example request_cost
//!   valgrind --tool=callgrind target/release/examples/request_cost 1000 20
//!
//! and compared with the same run of a build before the ids were read: the difference over `n` is
//! what reading them costs a request. Uses only `parse_chat_request`, which both builds have.
use session_agent_core::request::{parse_chat_request, Limits};
use std::hint::black_box;

/// The body: `m` messages with AI SDK ids (16 characters) and turn ids, alternating user and
/// assistant, the last a user message.
fn body(m: usize) -> String {
    let text = "The quick brown fox jumps over the lazy dog. ".repeat(9);
    let mut messages = Vec::new();
    for i in 0..m {
        let from_user = (m - 1 - i).is_multiple_of(2);
        messages.push(if from_user {
            format!(r#"{{"id":"XcQdnZXkRZhv{i:04}","role":"user","parts":[{{"type":"text","text":"Question {i}: {text}"}}]}}"#)
        } else {
            format!(
                r#"{{"id":"msg_7d2e9f00aa{i:06}","role":"assistant","metadata":{{"turnId":"msg_7d2e9f00aa{i:06}","createdAt":1795514400000,"durationMs":1200,"toolCalls":1,"toolErrors":0}},"parts":[{{"type":"step-start"}},{{"type":"dynamic-tool","toolName":"search_docs","toolCallId":"c{i}","state":"output-available","input":{{"query":"limits"}},"output":{{"hits":3}}}},{{"type":"text","text":"{text}","state":"done"}}]}}"#
            )
        });
    }
    format!(
        r#"{{"id":"chat-1","messages":[{}],"trigger":"submit-message","onDisconnect":"detach","trace":"full"}}"#,
        messages.join(",")
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(m)) = (
        args.get(1).and_then(|n| n.parse::<usize>().ok()),
        args.get(2)
            .and_then(|m| m.parse::<usize>().ok())
            .filter(|m| *m > 0),
    ) else {
        eprintln!("usage: request_cost <n> <messages (1 or more)>");
        std::process::exit(2);
    };
    let body = body(m);
    let limits = Limits::default();
    let mut total = 0usize;
    for _ in 0..n {
        let request =
            parse_chat_request(black_box(body.as_bytes()), &limits).expect("a valid body");
        total += request.text.len();
    }
    println!(
        "{n} parses of a body of {m} messages ({} bytes): {total}",
        body.len()
    );
}
