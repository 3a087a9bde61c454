//! `v2-to-sse`: replays a captured V2 log as the exact SSE body the worker would stream.
//!
//! ```text
//! v2-to-sse [--request-id ID] [FILE]
//! ```
//!
//! Reads one V2 frame per line from FILE (or stdin) and writes the UI message stream to
//! stdout. Blank lines are skipped; lines that are not V2 frames are skipped and named
//! on stderr, as the worker logs them. The end of input without an ending is the socket
//! closing. Exits 0 on any input; 2 on a usage error or an unreadable file.
#![forbid(unsafe_code)]

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::ExitCode;

use session_agent_chat::turn_stream::{EndCause, FrameOutcome, TurnStream};

const USAGE: &str = "usage: v2-to-sse [--request-id ID] [FILE]";

struct Args {
    request_id: Option<String>,
    file: Option<String>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        request_id: None,
        file: None,
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--request-id" => {
                parsed.request_id = Some(args.next().ok_or("--request-id needs a value")?)
            }
            "-h" | "--help" => return Err(String::new()),
            "-" if parsed.file.is_none() => parsed.file = None,
            s if s.starts_with("--request-id=") => {
                parsed.request_id = Some(s["--request-id=".len()..].to_owned())
            }
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown option {s}")),
            _ if parsed.file.is_some() => return Err("only one FILE may be given".into()),
            _ => parsed.file = Some(arg),
        }
    }
    Ok(parsed)
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("v2-to-sse: {why}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let input: Box<dyn Read> = match &args.file {
        Some(path) => match std::fs::File::open(path) {
            Ok(file) => Box::new(file),
            Err(err) => {
                eprintln!("v2-to-sse: cannot read {path}: {err}");
                return ExitCode::from(2);
            }
        },
        None => Box::new(io::stdin()),
    };
    match replay(input, args.request_id.as_deref(), &mut io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (e.g. piped into `head`) is not the input's fault.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("v2-to-sse: {err}");
            ExitCode::SUCCESS
        }
    }
}

/// Streams the replay of `input` into `output`, flushing after every frame.
fn replay(input: impl Read, request_id: Option<&str>, output: &mut impl Write) -> io::Result<()> {
    let mut stream = TurnStream::new(request_id);
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    let mut out = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        number += 1;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            continue;
        }
        if let FrameOutcome::Malformed(why) = stream.push_frame(text, &mut out) {
            eprintln!("v2-to-sse: line {number} skipped: {why}");
        }
        output.write_all(&out)?;
        output.flush()?;
        out.clear();
    }
    stream.end(EndCause::SocketClosed, &mut out);
    output.write_all(&out)?;
    output.flush()
}
