//! Frames in, response bytes out: the translator and the SSE encoder of one POST.
//!
//! The worker's pump and the `v2-to-sse` CLI both drive a [`TurnStream`], so a log
//! replayed natively yields exactly the bytes the worker streams for it.

use crate::questions::QuestionView;
use crate::session::Message;
use crate::sse;
use crate::trace::Trace;
use crate::translator::{Clock, Step, Translator};
use crate::turn_record::TurnFacts;
use crate::ui::UiChunk;
use crate::v2::{read_frame, DeltaKind, DeltaShape, Frame, FrameRead, PlainDelta};

pub use crate::translator::{EndCause, StreamOutcome};

/// What one WebSocket message did to the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameOutcome {
    /// It was ours; zero or more chunks were written.
    Forwarded,
    /// It was valid but not for the client (another turn, a domain event, …).
    Ignored,
    /// It was not a usable V2 frame; skipped. The text says why, for the log.
    Malformed(String),
    /// It ended the stream; the ending and `[DONE]` were written.
    Ended,
}

/// The UI message stream of one POST, as SSE bytes.
#[derive(Debug)]
pub struct TurnStream {
    translator: Translator,
    trace: Trace,
    scratch: Vec<UiChunk>,
    chunks: u64,
    done: bool,
    /// For the turn's record ([`TurnStream::facts`]).
    seen: Seen,
    /// The open part's deltas, known by their bytes, kept in step with the translator by
    /// [`TurnStream::sync_streaming`]: `None` while no part is open that the trace streams.
    /// A copy of what the translator knows, kept because it pays: a delta frame matched by its
    /// bytes took a 100-event turn from 1.233 M to 1.027 M instructions beyond the agent in
    /// workerd, and 2,781 to 1,786 a delta natively (`bench/README.md`, "The open part's deltas
    /// known by their bytes"); the tests hold its bytes to the full path's for random turns.
    streaming: Option<Streaming>,
    /// Whether the ending of [`TurnStream::fault_ending`] may have changed since it was last
    /// written: set by every frame the translator takes (not one it ignores) but a delta of the
    /// open part or a status, which change nothing an ending holds; so a delta costs it nothing.
    ending_moved: bool,
}

/// What the stream saw of the turn, for its record: kept as frames pass, a count and a few
/// clock reads a turn (the first frame's, the first text's).
#[derive(Debug, Default)]
struct Seen {
    events: u64,
    first_frame_at: Option<u64>,
    first_text_at: Option<u64>,
    agent_protocol: Option<u64>,
    /// The agent's latest title for the session (`title`, protocol 7): for the caller's list.
    agent_title: Option<String>,
}

/// What the deltas that extend one open part look like, and what each is written as.
#[derive(Debug)]
struct Streaming {
    kind: DeltaKind,
    turn_id: String,
    part_id: String,
    /// The part's delta frames ([`DeltaShape`]).
    shape: DeltaShape,
    /// Each delta's event up to its text ([`sse::write_plain_delta_head`]).
    head: Vec<u8>,
}

impl Streaming {
    fn new(kind: DeltaKind, turn_id: &str, part_id: &str) -> Self {
        let mut head = Vec::new();
        sse::write_plain_delta_head(&mut head, kind, part_id);
        Streaming {
            kind,
            turn_id: turn_id.to_owned(),
            part_id: part_id.to_owned(),
            shape: DeltaShape::new(kind, turn_id),
            head,
        }
    }

    /// [`sse::write_plain_delta`] of `delta` in this part.
    fn write(&self, out: &mut Vec<u8>, delta: &str) {
        sse::write_plain_delta(out, &self.head, delta);
    }
}

impl TurnStream {
    /// A stream following the turn of the prompt sent with `request_id`. Its metadata's times
    /// are 0 (no clock): what the replay CLI writes, since a log has no clock of its turn.
    pub fn new(request_id: Option<&str>) -> Self {
        TurnStream::with_clock(request_id, crate::translator::no_clock)
    }

    /// [`TurnStream::new`], timing the metadata with `clock` (the worker's `Date.now`).
    pub fn with_clock(request_id: Option<&str>, clock: Clock) -> Self {
        TurnStream {
            translator: Translator::with_clock(request_id, clock),
            trace: Trace::default(),
            scratch: Vec::new(),
            chunks: 0,
            done: false,
            seen: Seen::default(),
            streaming: None,
            ending_moved: true,
        }
    }

    /// A stream that resumes `message`, the turn in flight of a session's `init`, from `start`
    /// (see [`Translator::resume`]). The replay is written by [`TurnStream::write_pending`] (or
    /// ahead of the first frame's bytes).
    /// Questions show as `questions` says.
    pub fn resume(message: &Message, clock: Clock, questions: QuestionView) -> Self {
        let mut scratch = Vec::new();
        let translator = Translator::resume(message, clock, questions, &mut scratch);
        Self::opened(translator, scratch)
    }

    /// A stream of the rest of `message`, the turn in flight, after the user answered its
    /// question in the client's message `message_id` (see [`Translator::answered_in`]); its
    /// opening waits like a resume's.
    pub fn answered_in(
        message: &Message,
        message_id: String,
        denied_call: Option<&str>,
        clock: Clock,
        questions: QuestionView,
    ) -> Self {
        let mut scratch = Vec::new();
        let translator = Translator::answered_in(
            message,
            message_id,
            denied_call,
            clock,
            questions,
            &mut scratch,
        );
        Self::opened(translator, scratch)
    }

    /// The stream showing questions as `questions` says (see [`Translator::with_questions`]).
    /// Set before the first frame.
    pub fn with_questions(mut self, questions: QuestionView) -> Self {
        self.translator = self.translator.with_questions(questions);
        self
    }

    /// A stream of turn `turn_id`, already under way, as the new message `message_id` (see
    /// [`Translator::continuing`]); its opening waits like a resume's.
    pub fn continuing(turn_id: &str, message_id: String, clock: Clock) -> Self {
        let mut scratch = Vec::new();
        let translator = Translator::continuing(turn_id, message_id, clock, &mut scratch);
        Self::opened(translator, scratch)
    }

    /// A stream of whichever turn sends the first turn event, as the new message `message_id`
    /// (see [`Translator::adopting`]): the rest of an answered turn that `init` did not name.
    pub fn adopting(message_id: String, clock: Clock) -> Self {
        Self::opened(Translator::adopting(message_id, clock), Vec::new())
    }

    fn opened(translator: Translator, scratch: Vec<UiChunk>) -> Self {
        let mut stream = TurnStream {
            translator,
            trace: Trace::default(),
            scratch,
            chunks: 0,
            done: false,
            seen: Seen::default(),
            streaming: None,
            ending_moved: true,
        };
        stream.sync_streaming();
        stream
    }

    /// Appends the chunks made before any frame (a resume's replay, a continuation's `start`).
    pub fn write_pending(&mut self, out: &mut Vec<u8>) {
        self.flush(out);
    }

    /// The stream in trace mode `trace` (the default is [`crate::trace::TraceMode::Full`]).
    pub fn with_trace(mut self, trace: Trace) -> Self {
        self.trace = trace;
        self.sync_streaming();
        self
    }

    /// Consumes one WebSocket text message, appending the SSE bytes it causes to `out`.
    ///
    /// Most of a stream is deltas that extend the open part. One whose strings need no
    /// escaping ([`crate::v2::read_plain_delta`]) is written straight from the frame's text,
    /// with nothing parsed into a tree or copied; the bytes are those the full path writes for
    /// it. Any other frame is parsed once ([`read_frame`]).
    pub fn push_frame(&mut self, text: &str, out: &mut Vec<u8>) -> FrameOutcome {
        if self.done {
            return FrameOutcome::Ignored;
        }
        if self
            .push_streamed(text.as_bytes(), |end| end == text.len(), out)
            .is_some()
        {
            return FrameOutcome::Forwarded;
        }
        self.push_unmatched(text, out)
    }

    /// [`TurnStream::push_frame`] of a frame already found not to be a delta in the open part's
    /// shape: what [`crate::delivery::Delivery::next`] hands back ([`crate::delivery::Next::Frame`]),
    /// whose check ([`TurnStream::push_leading_delta`]) is not made a second time. The stream
    /// must be as that check left it (nothing pushed in between).
    pub fn push_unmatched(&mut self, text: &str, out: &mut Vec<u8>) -> FrameOutcome {
        if self.done {
            return FrameOutcome::Ignored;
        }
        let frame = match read_frame(text) {
            Ok(FrameRead::Plain(delta)) if self.extend_open_part(delta, out) => {
                return FrameOutcome::Forwarded
            }
            Ok(FrameRead::Plain(delta)) => delta.to_frame(),
            Ok(FrameRead::Parsed(Frame::Title(title))) => {
                // Not the stream's: the list's, once the stream ends.
                self.seen.agent_title = Some(title);
                return FrameOutcome::Ignored;
            }
            Ok(FrameRead::Parsed(frame)) => {
                if let Frame::Init { protocol } = frame {
                    self.seen.agent_protocol = Some(protocol);
                }
                frame
            }
            Err(err) => return FrameOutcome::Malformed(err.0),
        };
        let moves_nothing = self.moves_nothing(&frame);
        let step = self.translator.push(frame, &mut self.scratch);
        let taken = step != Step::Ignored;
        if taken {
            self.saw_event();
        }
        self.ending_moved |= taken && !moves_nothing;
        self.sync_streaming();
        self.flush(out);
        match step {
            Step::Forwarded => FrameOutcome::Forwarded,
            Step::Ignored => FrameOutcome::Ignored,
            Step::Ended => FrameOutcome::Ended,
        }
    }

    /// Counts a frame of the turn; the first is timed.
    fn saw_event(&mut self) {
        self.seen.events += 1;
        if self.seen.first_frame_at.is_none() {
            self.seen.first_frame_at = Some(self.translator.now());
        }
    }

    /// Tells the stream the protocol the agent keeps, from an `init` read before the stream
    /// (a resume's, an answer's), when one was read: for the turn's record.
    pub fn with_agent_protocol(mut self, protocol: Option<u64>) -> Self {
        self.seen.agent_protocol = protocol.or(self.seen.agent_protocol);
        self
    }

    /// The agent's latest title for the session while this stream read its frames (`title`,
    /// protocol 7): what the caller's list is told once the stream ends.
    pub fn agent_title(&self) -> Option<&str> {
        self.seen.agent_title.as_deref()
    }

    /// What the stream knew of its turn so far: for the turn's record.
    pub fn facts(&self) -> TurnFacts<'_> {
        let (tool_calls, tool_errors) = self.translator.tool_counts();
        let (usage, model) = self.translator.usage();
        TurnFacts {
            turn_id: self.translator.turn_id(),
            agent_protocol: self.seen.agent_protocol,
            first_frame_at: self.seen.first_frame_at,
            first_text_at: self.seen.first_text_at,
            events: self.seen.events,
            chunks: self.chunks,
            tool_calls,
            tool_errors,
            ended: self.translator.outcome(),
            error_code: self.translator.error_code(),
            usage,
            model,
        }
    }

    /// Writes the delta of the frame at the start of `bytes` when the frame extends the open
    /// part in that part's shape ([`DeltaShape::match_start`]), ends at the end of `bytes` or
    /// at a `separator`, and is at most `max_len` bytes long; returns the frame's length. `None`,
    /// with nothing written, for any other frame: the caller finds its end and pushes it
    /// ([`TurnStream::push_frame`]), which then reads it as it reads any frame.
    pub fn push_leading_delta(
        &mut self,
        bytes: &[u8],
        separator: u8,
        max_len: usize,
        out: &mut Vec<u8>,
    ) -> Option<usize> {
        let ends_there =
            |end: usize| end <= max_len && bytes.get(end).is_none_or(|&b| b == separator);
        self.push_streamed(bytes, ends_there, out)
    }

    /// The shortcut of [`TurnStream::push_frame`] and [`TurnStream::push_leading_delta`]: writes
    /// the non-empty delta of the frame at the start of `bytes` when the frame has the open
    /// part's shape and `ends_there` accepts its end; returns that end. The stream must not be
    /// done: a done stream has no open part ([`TurnStream::sync_streaming`]).
    fn push_streamed(
        &mut self,
        bytes: &[u8],
        ends_there: impl FnOnce(usize) -> bool,
        out: &mut Vec<u8>,
    ) -> Option<usize> {
        let streaming = self.streaming.as_ref().filter(|_| !self.done)?;
        let found = streaming.shape.match_start(bytes)?;
        if found.delta.is_empty() || !ends_there(found.end) {
            return None;
        }
        // The delta's ends sit next to ASCII quotes; its bytes are UTF-8 wherever `bytes` is.
        let delta = std::str::from_utf8(&bytes[found.delta]).ok()?;
        streaming.write(out, delta);
        self.chunks += 1;
        self.seen.events += 1;
        Some(found.end)
    }

    /// Writes `delta`'s one chunk when it extends the open part of its kind and streams as it
    /// is ([`Translator::extended_part`], [`Trace::keeps_parts`]); `false`, with nothing
    /// written, when it takes the full path (it opens a part, is empty, is not ours, …).
    fn extend_open_part(&mut self, delta: PlainDelta<'_>, out: &mut Vec<u8>) -> bool {
        if delta.delta.is_empty() || !self.trace.keeps_parts(delta.kind) {
            return false;
        }
        let Some(id) = self.translator.extended_part(delta.kind, delta.turn_id) else {
            return false;
        };
        // The part's `Streaming` is there ([`TurnStream::sync_streaming`]); were it not, the
        // full path would write the same chunk.
        let Some(streaming) = self.streaming.as_ref().filter(|s| s.part_id == id) else {
            return false;
        };
        streaming.write(out, delta.delta);
        self.chunks += 1;
        self.seen.events += 1;
        true
    }

    /// Keeps [`Streaming`] in step with the translator after every frame it reads in full (and
    /// every ending): the open part's, when a part is open and streamed, else none.
    fn sync_streaming(&mut self) {
        let current = self.streaming.as_ref().is_some_and(|s| {
            self.trace.keeps_parts(s.kind)
                && self.translator.extended_part(s.kind, &s.turn_id) == Some(s.part_id.as_str())
        });
        if current {
            return;
        }
        let translator = &self.translator;
        let trace = &self.trace;
        self.streaming = translator.turn_id().and_then(|turn| {
            [DeltaKind::Text, DeltaKind::Reasoning]
                .into_iter()
                .filter(|&kind| trace.keeps_parts(kind))
                .find_map(|kind| {
                    Some(Streaming::new(
                        kind,
                        turn,
                        translator.extended_part(kind, turn)?,
                    ))
                })
        });
    }

    /// Ends the stream for `cause`, appending the closing chunks and `[DONE]`.
    /// Does nothing once the stream has ended.
    pub fn end(&mut self, cause: EndCause, out: &mut Vec<u8>) {
        self.translator.end(cause, &mut self.scratch);
        self.sync_streaming();
        self.flush(out);
    }

    /// Writes into `out` (cleared first) the ending that [`TurnStream::end`] would append now for
    /// `cause`, `[DONE]` included, when it may differ from the one the last call wrote; `false`,
    /// with `out` untouched, when it cannot, or once the stream has ended. The stream itself does
    /// not end: its translator's clone does. The worker's pump hands it to JavaScript, which
    /// sends it in place of Rust code that can no longer run ([`EndCause::Crashed`]); so it is
    /// made only when a part or a tool opens or closes, never for a delta of the open part.
    /// The finish metadata's `durationMs` is the time of this call.
    pub fn fault_ending(&mut self, cause: EndCause, out: &mut Vec<u8>) -> bool {
        if self.done || !std::mem::take(&mut self.ending_moved) {
            return false;
        }
        out.clear();
        // A stream of the translator's clone, ended as this one would be: no part of it streams
        // (`streaming` is for deltas), and its chunks are not this stream's.
        let mut copy = TurnStream {
            translator: self.translator.clone(),
            trace: self.trace,
            scratch: Vec::new(),
            chunks: 0,
            done: false,
            seen: Seen::default(),
            streaming: None,
            ending_moved: false,
        };
        copy.end(cause, out);
        true
    }

    /// What to hand over with the next write as the stream's crash ending ([`EndCause::Crashed`],
    /// which JavaScript sends should the instance be lost): `Some` of no bytes once the stream
    /// has ended (nothing may follow its own ending); `None` before its turn opens (the ending
    /// every such stream shares, [`TurnStream::unopened_fault_ending`], is held once for all);
    /// else its [`TurnStream::fault_ending`], made into `buf`, when it may have changed, and
    /// `None` when it cannot have (a delta of the open part).
    pub fn crash_ending_update<'b>(&mut self, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
        if self.done {
            Some(&[])
        } else if !self.turn_started() {
            None
        } else if self.fault_ending(EndCause::Crashed, buf) {
            Some(buf.as_slice())
        } else {
            None
        }
    }

    /// [`TurnStream::fault_ending`] of every stream whose turn has not opened
    /// ([`TurnStream::turn_started`]: a POST's until its `message.create`, an adopting stream's
    /// until its first turn event): with no part, step or metadata yet, only `error` and `finish`,
    /// the same bytes for every such stream, so a caller may make them once and keep them.
    pub fn unopened_fault_ending(cause: EndCause, out: &mut Vec<u8>) {
        TurnStream::new(None).fault_ending(cause, out);
    }

    /// Whether `frame`, pushed now, would change nothing an ending holds: a delta that extends
    /// the open part ([`Translator::extended_part`]: one delta chunk and nothing else; a legacy
    /// `chunk` is a text delta of the turn followed), or a status (a transient chunk, or none).
    fn moves_nothing(&self, frame: &Frame) -> bool {
        let (kind, turn_id) = match frame {
            Frame::TextDelta(d) => (DeltaKind::Text, d.turn_id.as_str()),
            Frame::ReasoningDelta(d) => (DeltaKind::Reasoning, d.turn_id.as_str()),
            Frame::Chunk(_) => match self.translator.turn_id() {
                Some(turn_id) => (DeltaKind::Text, turn_id),
                None => return false,
            },
            Frame::AgentStatus(_) => return true,
            _ => return false,
        };
        self.translator.extended_part(kind, turn_id).is_some()
    }

    /// Whether the ending and `[DONE]` were written.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Whether the turn followed has started (its `message.create` arrived).
    pub fn turn_started(&self) -> bool {
        self.translator.turn_id().is_some()
    }

    /// How the stream ended, once it has (see [`Translator::outcome`]).
    pub fn outcome(&self) -> Option<StreamOutcome> {
        self.translator.outcome()
    }

    /// How many chunks were written so far (`[DONE]` not counted).
    pub fn chunks_emitted(&self) -> u64 {
        self.chunks
    }

    fn flush(&mut self, out: &mut Vec<u8>) {
        for chunk in self.scratch.drain(..) {
            if let Some(chunk) = self.trace.apply(chunk) {
                if self.seen.first_text_at.is_none() && matches!(chunk, UiChunk::TextDelta { .. }) {
                    self.seen.first_text_at = Some(self.translator.now());
                }
                sse::write_chunk(out, &chunk);
                self.chunks += 1;
            }
        }
        if !self.done && self.translator.phase() == crate::translator::Phase::Ended {
            out.extend_from_slice(sse::DONE);
            self.done = true;
        }
    }
}

#[cfg(test)]
#[path = "turn_stream_tests.rs"]
mod tests;
