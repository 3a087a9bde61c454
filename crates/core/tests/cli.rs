//! The `v2-to-sse` CLI, run as a user runs it: stdin or a file in, the worker's bytes out, and
//! its exit status when reading or writing fails.

mod support;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use session_agent_core::turn_stream::{EndCause, TurnStream};
use support::validator::{chunk_types, validate};

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_v2-to-sse"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn v2-to-sse");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin).expect("write stdin");
    drop(input);
    child.wait_with_output().expect("wait")
}

const LOG: &str = r#"{"type":"init","messages":[]}
{"type":"message.create","turnId":"old","requestId":"r0"}
{"type":"message.create","turnId":"t1","requestId":"r1"}
{"type":"agentStatus","status":"thinking"}
{"type":"message.part.text-delta","turnId":"t1","delta":"Looking"}

not json at all
{"type":"message.part.tool-update","turnId":"t1","callId":"c","toolName":"ls","status":"completed","result":["a"]}
{"type":"message.part.text-delta","turnId":"t1","delta":"Done."}
{"type":"message.finalize","turnId":"t1","reason":"end_turn"}
"#;

#[test]
fn output_is_what_the_worker_streams() {
    let out = run(&["--request-id", "r1"], LOG.as_bytes());
    assert!(out.status.success());
    let mut stream = TurnStream::new(Some("r1"));
    let mut expected = Vec::new();
    for line in LOG.lines().filter(|l| !l.trim().is_empty()) {
        stream.push_frame(line, &mut expected);
    }
    stream.end(EndCause::SocketClosed, &mut expected);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&expected)
    );
    let chunks = validate(&String::from_utf8_lossy(&out.stdout)).expect("valid stream");
    assert_eq!(chunks[0]["messageId"], "t1");
    assert_eq!(
        chunk_types(&chunks).last().map(String::as_str),
        Some("finish")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 7 skipped"), "{stderr}");
}

#[test]
fn a_file_argument_and_crlf_lines_work() {
    let dir = std::env::temp_dir().join(format!("v2-to-sse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("log.jsonl");
    std::fs::write(&path, LOG.replace('\n', "\r\n")).unwrap();
    let from_file = run(&["--request-id=r1", path.to_str().unwrap()], b"");
    let from_stdin = run(&["--request-id", "r1", "-"], LOG.as_bytes());
    assert!(from_file.status.success());
    assert_eq!(from_file.stdout, from_stdin.stdout);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn end_of_input_is_a_lost_socket() {
    let out = run(&[], b"{\"type\":\"message.create\",\"turnId\":\"t\"}\n{\"type\":\"message.part.text-delta\",\"turnId\":\"t\",\"delta\":\"par\"}");
    let body = String::from_utf8_lossy(&out.stdout);
    let chunks = validate(&body).expect("valid stream");
    assert_eq!(
        chunk_types(&chunks)[chunks.len() - 4..],
        ["text-end", "finish-step", "error", "finish"]
    );
    assert!(body.contains("connection to the agent was lost"));
}

#[test]
fn any_input_exits_zero_with_a_valid_stream() {
    let inputs: [&[u8]; 5] = [
        b"",
        b"\n\n\n",
        b"\xff\xfe\x00garbage\n[1,2]\n42\n",
        b"{\"type\":\"complete\"}",
        &[b'x'; 100_000],
    ];
    for input in inputs {
        let out = run(&[], input);
        assert!(out.status.success());
        validate(&String::from_utf8_lossy(&out.stdout)).expect("valid stream");
    }
}

#[test]
fn usage_errors_exit_two() {
    for args in [
        &["--request-id"][..],
        &["--bogus"],
        &["a", "b"],
        &["/no/such/file.jsonl"],
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
    let out = run(&["/no/such/file.jsonl"], b"");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "v2-to-sse: cannot read /no/such/file.jsonl: No such file or directory (os error 2)\n"
    );
}

#[test]
fn input_that_cannot_be_read_exits_one_with_a_message() {
    // A directory opens but cannot be read.
    let dir = std::env::temp_dir();
    let out = run(&[dir.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&format!("v2-to-sse: cannot read {}: ", dir.display())),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_exits_one_with_a_message() {
    // /dev/full fails every write with ENOSPC, as a full disk does.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut child = Command::new(env!("CARGO_BIN_EXE_v2-to-sse"))
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn v2-to-sse");
    // Write errors from a child that already gave up are expected: only its exit matters.
    let _ = child.stdin.take().expect("stdin").write_all(LOG.as_bytes());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.ends_with(
            "v2-to-sse: cannot write the output: No space left on device (os error 28)\n"
        ),
        "{stderr}"
    );
}

#[test]
fn a_reader_that_hangs_up_early_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_v2-to-sse"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn v2-to-sse");
    // Close the read end of stdout before a byte is written: the first write is EPIPE.
    drop(child.stdout.take());
    let _ = child.stdin.take().expect("stdin").write_all(LOG.as_bytes());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("cannot write"), "{stderr}");
}
