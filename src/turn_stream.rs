//! Frames in, response bytes out: the translator and the SSE encoder of one POST.
//!
//! The worker's pump and the `v2-to-sse` CLI both drive a [`TurnStream`], so a log
//! replayed natively yields exactly the bytes the worker streams for it.

use crate::session::Message;
use crate::sse;
use crate::trace::Trace;
use crate::translator::{Clock, Step, Translator};
use crate::ui::UiChunk;
use crate::v2::parse_frame;

pub use crate::translator::EndCause;

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
        }
    }

    /// A stream that resumes `message`, the turn in flight of a session's `init`, from `start`
    /// (see [`Translator::resume`]). The replay is written by [`TurnStream::write_pending`] (or
    /// ahead of the first frame's bytes).
    pub fn resume(message: &Message, clock: Clock) -> Self {
        let mut scratch = Vec::new();
        let translator = Translator::resume(message, clock, &mut scratch);
        Self::opened(translator, scratch)
    }

    /// A stream of turn `turn_id`, already under way, as the new message `message_id` (see
    /// [`Translator::continuing`]); its opening waits like a resume's.
    pub fn continuing(turn_id: &str, message_id: String, clock: Clock) -> Self {
        let mut scratch = Vec::new();
        let translator = Translator::continuing(turn_id, message_id, clock, &mut scratch);
        Self::opened(translator, scratch)
    }

    fn opened(translator: Translator, scratch: Vec<UiChunk>) -> Self {
        TurnStream {
            translator,
            trace: Trace::default(),
            scratch,
            chunks: 0,
            done: false,
        }
    }

    /// Appends the chunks made before any frame (a resume's replay, a continuation's `start`).
    pub fn write_pending(&mut self, out: &mut Vec<u8>) {
        self.flush(out);
    }

    /// The stream in trace mode `trace` (the default is [`crate::trace::TraceMode::Full`]).
    pub fn with_trace(mut self, trace: Trace) -> Self {
        self.trace = trace;
        self
    }

    /// Consumes one WebSocket text message, appending the SSE bytes it causes to `out`.
    pub fn push_frame(&mut self, text: &str, out: &mut Vec<u8>) -> FrameOutcome {
        if self.done {
            return FrameOutcome::Ignored;
        }
        let frame = match parse_frame(text) {
            Ok(frame) => frame,
            Err(err) => return FrameOutcome::Malformed(err.0),
        };
        let step = self.translator.push(frame, &mut self.scratch);
        self.flush(out);
        match step {
            Step::Forwarded => FrameOutcome::Forwarded,
            Step::Ignored => FrameOutcome::Ignored,
            Step::Ended => FrameOutcome::Ended,
        }
    }

    /// Ends the stream for `cause`, appending the closing chunks and `[DONE]`.
    /// Does nothing once the stream has ended.
    pub fn end(&mut self, cause: EndCause, out: &mut Vec<u8>) {
        self.translator.end(cause, &mut self.scratch);
        self.flush(out);
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
    pub fn outcome(&self) -> Option<&'static str> {
        self.translator.outcome()
    }

    /// How many chunks were written so far (`[DONE]` not counted).
    pub fn chunks_emitted(&self) -> u64 {
        self.chunks
    }

    fn flush(&mut self, out: &mut Vec<u8>) {
        for chunk in self.scratch.drain(..) {
            if let Some(chunk) = self.trace.apply(chunk) {
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
mod tests {
    use super::*;

    fn body(frames: &[&str], end: Option<EndCause>) -> String {
        let mut stream = TurnStream::new(Some("r1"));
        let mut out = Vec::new();
        for f in frames {
            stream.push_frame(f, &mut out);
        }
        if let Some(cause) = end {
            stream.end(cause, &mut out);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_turn_is_framed_exactly() {
        let out = body(
            &[
                r#"{"type":"message.create","turnId":"t1","requestId":"r1"}"#,
                r#"{"type":"message.part.text-delta","turnId":"t1","delta":"Hi"}"#,
                r#"{"type":"message.finalize","turnId":"t1","reason":"end_turn"}"#,
            ],
            None,
        );
        assert_eq!(
            out,
            "data: {\"type\":\"start\",\"messageId\":\"t1\",\"messageMetadata\":{\"turnId\":\"t1\",\"createdAt\":0}}\n\n\
             data: {\"type\":\"start-step\"}\n\n\
             data: {\"type\":\"text-start\",\"id\":\"text-1\"}\n\n\
             data: {\"type\":\"text-delta\",\"id\":\"text-1\",\"delta\":\"Hi\"}\n\n\
             data: {\"type\":\"text-end\",\"id\":\"text-1\"}\n\n\
             data: {\"type\":\"finish-step\"}\n\n\
             data: {\"type\":\"finish\",\"messageMetadata\":{\"turnId\":\"t1\",\"durationMs\":0,\"toolCalls\":0,\"toolErrors\":0}}\n\n\
             data: [DONE]\n\n"
        );
    }

    #[test]
    fn socket_loss_before_the_turn_is_an_error_and_done() {
        assert_eq!(
            body(&[], Some(EndCause::SocketClosed)),
            "data: {\"type\":\"error\",\"errorText\":\"connection to the agent was lost\"}\n\n\
             data: {\"type\":\"finish\"}\n\n\
             data: [DONE]\n\n"
        );
    }

    #[test]
    fn a_resume_writes_its_replay_at_once() {
        let init = crate::session::parse_init(
            r#"{"type":"init","messages":[{"id":"t1","role":"assistant","parts":[{"type":"text","text":"Hi"}]}]}"#,
        )
        .unwrap();
        let mut out = Vec::new();
        let mut stream = TurnStream::resume(init.in_flight().unwrap(), crate::translator::no_clock);
        assert!(stream.turn_started());
        assert_eq!(
            stream.chunks_emitted(),
            0,
            "nothing written before it is asked for"
        );
        stream.write_pending(&mut out);
        assert_eq!(stream.chunks_emitted(), 4);
        stream.push_frame(
            r#"{"type":"message.finalize","turnId":"t1","reason":"canceled"}"#,
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "data: {\"type\":\"start\",\"messageId\":\"t1\",\"messageMetadata\":{\"turnId\":\"t1\",\"createdAt\":0}}\n\n\
             data: {\"type\":\"start-step\"}\n\n\
             data: {\"type\":\"text-start\",\"id\":\"text-1\"}\n\n\
             data: {\"type\":\"text-delta\",\"id\":\"text-1\",\"delta\":\"Hi\"}\n\n\
             data: {\"type\":\"text-end\",\"id\":\"text-1\"}\n\n\
             data: {\"type\":\"finish-step\"}\n\n\
             data: {\"type\":\"abort\"}\n\n\
             data: [DONE]\n\n"
        );
        assert_eq!(stream.outcome(), Some("canceled"));
    }

    #[test]
    fn an_answer_opens_its_message_at_once() {
        let mut out = Vec::new();
        let mut stream = TurnStream::continuing("t1", "m2".into(), crate::translator::no_clock);
        stream.write_pending(&mut out);
        assert!(stream.turn_started() && !stream.is_done());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "data: {\"type\":\"start\",\"messageId\":\"m2\",\"messageMetadata\":{\"turnId\":\"t1\",\"createdAt\":0}}\n\n\
             data: {\"type\":\"start-step\"}\n\n"
        );
    }

    #[test]
    fn outcomes_are_reported_and_nothing_follows_done() {
        let mut stream = TurnStream::new(None);
        let mut out = Vec::new();
        assert!(matches!(
            stream.push_frame("{oops", &mut out),
            FrameOutcome::Malformed(_)
        ));
        assert_eq!(
            stream.push_frame(r#"{"type":"git-state"}"#, &mut out),
            FrameOutcome::Ignored
        );
        assert_eq!(
            stream.push_frame(r#"{"type":"message.create","turnId":"t"}"#, &mut out),
            FrameOutcome::Forwarded
        );
        assert!(stream.turn_started());
        assert_eq!(
            stream.push_frame(r#"{"type":"complete"}"#, &mut out),
            FrameOutcome::Ended
        );
        assert!(stream.is_done());
        assert_eq!(stream.chunks_emitted(), 4);
        let len = out.len();
        stream.end(EndCause::SocketClosed, &mut out);
        assert_eq!(
            stream.push_frame(r#"{"type":"complete"}"#, &mut out),
            FrameOutcome::Ignored
        );
        assert_eq!(out.len(), len);
        assert!(String::from_utf8(out)
            .unwrap()
            .ends_with("data: [DONE]\n\n"));
    }
}
