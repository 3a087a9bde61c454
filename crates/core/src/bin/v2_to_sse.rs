//! `v2-to-sse`: replays a captured V2 log as the exact SSE body the worker would stream.
//!
//! ```text
//! v2-to-sse [--request-id ID] [--questions tools|approvals|data] [FILE]
//! ```
//!
//! `--questions` says what the agent's questions become, as a request's `X-Questions` does
//! (default `tools`, as the worker's `QUESTIONS`).
//!
//! Reads one V2 frame per line from FILE (or stdin) and writes the UI message stream to
//! stdout. Blank lines are skipped; lines that are not V2 frames are skipped and named
//! on stderr, as the worker logs them. The end of input without an ending is the socket
//! closing. Exits 0 on any input, and when stdout is closed early (EPIPE, e.g. piped into
//! `head`); 1 on an I/O error (input that cannot be read, output that cannot be written), named
//! in one line on stderr; 2 on a usage error or a file that cannot be opened.
#![forbid(unsafe_code)]

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::ExitCode;

use session_agent_core::questions::{QuestionParts, QuestionView};
use session_agent_core::trace::Trace;
use session_agent_core::turn_stream::{EndCause, FrameOutcome, TurnStream};

const USAGE: &str = "usage: v2-to-sse [--request-id ID] [--questions tools|approvals|data] [FILE]";

/// Exit status of an I/O error mid-replay: 1, the usual "it failed" status, apart from 2 for
/// a command line that could not run at all (as `grep` and `diff` keep them apart).
const EXIT_IO_ERROR: u8 = 1;
/// Exit status of a usage error or a FILE that cannot be opened.
const EXIT_USAGE: u8 = 2;

/// Where a replay failed: reading the log or writing the stream.
enum Failure {
    Read(io::Error),
    Write(io::Error),
}

/// Prints one line on stderr; a stderr that cannot take it is no reason to panic.
fn say(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr(), "v2-to-sse: {line}");
}

struct Args {
    request_id: Option<String>,
    questions: QuestionParts,
    file: Option<String>,
}

/// `--questions`' value.
fn questions(value: &str) -> Result<QuestionParts, String> {
    QuestionParts::parse(value).ok_or_else(|| {
        format!(
            "--questions must be {}, not {value:?}",
            QuestionParts::NAMES
        )
    })
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        request_id: None,
        questions: QuestionParts::default(),
        file: None,
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--request-id" => {
                parsed.request_id = Some(args.next().ok_or("--request-id needs a value")?)
            }
            "--questions" => {
                parsed.questions = questions(&args.next().ok_or("--questions needs a value")?)?
            }
            "-h" | "--help" => return Err(String::new()),
            "-" if parsed.file.is_none() => parsed.file = None,
            s if s.starts_with("--request-id=") => {
                parsed.request_id = Some(s["--request-id=".len()..].to_owned())
            }
            s if s.starts_with("--questions=") => {
                parsed.questions = questions(&s["--questions=".len()..])?
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
                say(format_args!("{why}"));
            }
            let _ = writeln!(io::stderr(), "{USAGE}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let input: Box<dyn Read> = match &args.file {
        Some(path) => match std::fs::File::open(path) {
            Ok(file) => Box::new(file),
            Err(err) => {
                say(format_args!("cannot read {path}: {err}"));
                return ExitCode::from(EXIT_USAGE);
            }
        },
        None => Box::new(io::stdin()),
    };
    let name = args.file.as_deref().unwrap_or("stdin");
    let view = QuestionView::new(args.questions, Trace::default());
    match replay(
        input,
        args.request_id.as_deref(),
        view,
        &mut io::stdout().lock(),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (e.g. piped into `head`): the reader has all it wanted.
        Err(Failure::Write(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Write(err)) => {
            say(format_args!("cannot write the output: {err}"));
            ExitCode::from(EXIT_IO_ERROR)
        }
        Err(Failure::Read(err)) => {
            say(format_args!("cannot read {name}: {err}"));
            ExitCode::from(EXIT_IO_ERROR)
        }
    }
}

/// Streams the replay of `input` into `output`, flushing after every frame.
fn replay(
    input: impl Read,
    request_id: Option<&str>,
    questions: QuestionView,
    output: &mut impl Write,
) -> Result<(), Failure> {
    let mut write = |bytes: &[u8]| {
        output
            .write_all(bytes)
            .and_then(|()| output.flush())
            .map_err(Failure::Write)
    };
    let mut stream = TurnStream::new(request_id).with_questions(questions);
    let mut reader = BufReader::new(input);
    let mut line = Vec::new();
    let mut out = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).map_err(Failure::Read)? == 0 {
            break;
        }
        number += 1;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            continue;
        }
        if let FrameOutcome::Malformed(why) = stream.push_frame(text, &mut out) {
            say(format_args!("line {number} skipped: {why}"));
        }
        write(&out)?;
        out.clear();
    }
    stream.end(EndCause::SocketClosed, &mut out);
    write(&out)
}
