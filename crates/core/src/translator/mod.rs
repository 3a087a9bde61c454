//! The translator: V2 frames in, AI SDK UI chunks out, always a valid stream.
//!
//! # Ordering rules
//!
//! * **Which turn.** The translator follows one turn: the `message.create` that echoes
//!   the prompt's `requestId`; a `message.create` that echoes none is ours when it is
//!   the first on the default channel (no `channelType`, or `web`). Turn events of any
//!   other turn, and everything before ours starts, are dropped.
//! * **Opening.** Our `message.create` emits `start { messageId: turnId }`, `start-step`.
//!   Two streams open without one: a **resumed** turn ([`Translator::resume`]) replays the
//!   `init` snapshot of the turn in flight from `start`, a **continuation**
//!   ([`Translator::continuing`]) streams a turn already under way (after an answer), an
//!   **answer in the message** ([`Translator::answered_in`]) goes on in the client's message with
//!   the turn's calls taken on, and an **adopting** stream ([`Translator::adopting`]) follows
//!   the turn of the first turn event that arrives, when nothing said which turn waits on the
//!   answer.
//! * **Questions.** A `question` emits what the stream's [`QuestionView`] makes of it (a
//!   client-side tool call, an approval on the gated call's part, or a `data-question` part:
//!   [`asking`]) and ends the stream (`finish`): the turn waits for the user, whose answer is a
//!   new request. The answer's stream goes on in the same message
//!   ([`Translator::answered_in`]): `start` with its id, `start-step`, the turn's calls taken on
//!   where the client holds them.
//! * **Parts.** Text and reasoning parts open lazily and close before any tool chunk,
//!   question, part of the other kind, source, new persistent data part, or the end ([`parts`]).
//!   Tool chunks follow [`tools`]. An agent's data parts, sources and metadata (protocol 6) go
//!   out as `data-<name>`, `source-url` / `source-document` and `message-metadata` chunks.
//! * **The end**, whatever causes it ([`Ending`]): open parts close first, every tool still
//!   open gets `tool-output-error`, then `finish-step`, then exactly one ending:
//!   `finish`; `error` + `finish`; or `abort`. Nothing is emitted after it.
//! * **Metadata.** `start` carries `{ turnId, createdAt }` and `finish`
//!   `{ turnId, durationMs, toolCalls, toolErrors, usage?, model? }`
//!   ([`crate::ui::StartMetadata`]), timed by the translator's [`Clock`]; `usage` and `model` are
//!   the finalize's, when it reports them. The agent's own metadata (`message.metadata`) names
//!   none of these keys ([`crate::v2::RESERVED_METADATA_KEYS`]), so the client's merge keeps both.

mod asking;
mod ending;
mod parts;
mod tools;

pub use ending::{
    tool_reasons, EndCause, Ending, StreamOutcome, AGENT_ERROR, CONNECTION_LOST, CRASHED,
    FRAME_TOO_LARGE, READING_TOO_SLOWLY, TIMED_OUT,
};
pub use tools::{failure_text, tool_error_text};
pub use tools::{outcome as tool_outcome, DEFAULT_FAILURE, DEFAULT_TOOL_ERROR};

use crate::questions::QuestionView;
use crate::session::when::epoch_ms;
use crate::session::{Message, Part};
use crate::ui::{status_chunk, AppData, FinishMetadata, StartMetadata, UiChunk};
use crate::v2::{
    read_raw_model, read_raw_usage, DataFields, DeltaKind, Frame, MessageCreate, Source, TurnDelta,
    TurnPart, Usage,
};
use parts::OpenParts;
use tools::one_line;
use tools::Tools;

/// Where the translator is in the turn it follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The prompt is sent; our `message.create` has not arrived.
    Waiting,
    /// Our turn is streaming.
    Open,
    /// The ending was emitted; every later input is ignored.
    Ended,
}

/// What one frame did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The frame was ours and emitted zero or more chunks.
    Forwarded,
    /// The frame belongs to no open turn of ours, or carries nothing for the client.
    Ignored,
    /// The frame ended the stream.
    Ended,
}

/// Milliseconds since the Unix epoch. The core reads no clock of its own (`SystemTime` does not
/// exist in a Worker): the edge passes `Date.now`, the CLI the system clock, tests a fixed one.
pub type Clock = fn() -> u64;

/// The clock of a translator that was given none: every time is 0.
pub fn no_clock() -> u64 {
    0
}

/// The V2 → UI chunk state machine of one POST. A clone is how a stream learns the ending it
/// would write without ending ([`crate::turn_stream::TurnStream::fault_ending`]).
#[derive(Debug, Clone)]
pub struct Translator {
    request_id: Option<String>,
    turn_id: Option<String>,
    phase: Phase,
    parts: OpenParts,
    tools: Tools,
    outcome: Option<StreamOutcome>,
    clock: Clock,
    /// When the turn started, as `start`'s `createdAt` said.
    started_ms: u64,
    /// For an adopting stream, the message id it opens with once the first turn event shows
    /// which turn is ours.
    adopt: Option<String>,
    /// What questions become in this stream.
    questions: QuestionView,
    /// What the turn's `message.finalize` reported it cost, and the model.
    usage: Option<Usage>,
    model: Option<String>,
    /// The agent's code for the error that ended the stream, when it gave one.
    error_code: Option<String>,
    /// The name and id of each data part the message holds (protocol 6): one that comes again
    /// replaces it, as the client does, and is no new part.
    data_keys: Vec<(String, String)>,
}

impl Translator {
    /// A translator for the turn started by the prompt with `request_id`.
    pub fn new(request_id: Option<&str>) -> Self {
        Translator::with_clock(request_id, no_clock)
    }

    /// [`Translator::new`], timing the metadata with `clock`.
    pub fn with_clock(request_id: Option<&str>, clock: Clock) -> Self {
        Translator {
            request_id: request_id.map(str::to_owned),
            turn_id: None,
            phase: Phase::Waiting,
            parts: OpenParts::default(),
            tools: Tools::default(),
            outcome: None,
            clock,
            started_ms: 0,
            adopt: None,
            questions: QuestionView::default(),
            usage: None,
            model: None,
            error_code: None,
            data_keys: Vec::new(),
        }
    }

    /// This translator showing questions as `questions` says (the default: client-side tool
    /// calls, full trace). Set before the first frame.
    pub fn with_questions(mut self, questions: QuestionView) -> Self {
        self.questions = questions;
        self
    }

    /// A translator that picks up `message`, the turn in flight in a session's `init`, and
    /// appends the chunks that rebuild it from `start`: `start { messageId: id }`, `start-step`,
    /// then each part in order, as the live stream would have built it (text and reasoning as
    /// one delta each, tool calls moved to their snapshot state, answered questions). The last
    /// part stays open when it is text or reasoning, since the live events continue it. A
    /// pending question ends the stream there, as it does live. The turn's later events
    /// follow through [`Translator::push`]. Questions show as `questions` says.
    /// `createdAt` is the message's own, when it gives one.
    pub fn resume(
        message: &Message,
        clock: Clock,
        questions: QuestionView,
        out: &mut Vec<UiChunk>,
    ) -> Self {
        let id = message.id.clone();
        let mut translator = Translator::opened_on(message, id, clock, questions, out);
        for part in &message.parts {
            if translator.phase == Phase::Ended {
                break;
            }
            translator.replay(message, part, out);
        }
        translator
    }

    /// A translator for the rest of `message`, the turn in flight, after the user answered its
    /// question in the client's message `message_id` (a tool output or a tool approval): it opens
    /// at once with `start { messageId: message_id }` (the same message: nothing is duplicated)
    /// and `start-step`, takes on the turn's tool calls where the client holds them, and ends the
    /// call `denied_call` as denied (`tool-output-denied`) when the answer denied its approval.
    pub fn answered_in(
        message: &Message,
        message_id: String,
        denied_call: Option<&str>,
        clock: Clock,
        questions: QuestionView,
        out: &mut Vec<UiChunk>,
    ) -> Self {
        let mut translator = Translator::opened_on(message, message_id, clock, questions, out);
        translator.take_on(message, denied_call, out);
        translator
    }

    /// A translator of turn `message` (a snapshot's turn in flight), opened as the message
    /// `message_id`, dated from the snapshot's `createdAt` when it gives one.
    fn opened_on(
        message: &Message,
        message_id: String,
        clock: Clock,
        questions: QuestionView,
        out: &mut Vec<UiChunk>,
    ) -> Self {
        let mut translator = Translator::with_clock(None, clock).with_questions(questions);
        let created = message.created_at.as_ref().and_then(epoch_ms);
        translator.open(&message.id, message_id, created, out);
        translator
    }

    /// A translator for turn `turn_id`, already under way, as the message `message_id`, opened
    /// at once: the rest of a turn after the user answered its question in a message of their
    /// own (a `data-answer` part: the rest is a new message), or after an answer in the client's
    /// message when the agent's `init` did not list the turn; or a turn picked up mid-way from
    /// an agent that sends no `init` (`message_id` is then the turn id).
    pub fn continuing(
        turn_id: &str,
        message_id: String,
        clock: Clock,
        out: &mut Vec<UiChunk>,
    ) -> Self {
        let mut translator = Translator::with_clock(None, clock);
        translator.open(turn_id, message_id, None, out);
        translator
    }

    /// A translator that waits for the first turn event of any turn and streams that turn as
    /// the new message `message_id`: the rest of the turn an answer resumed, when the agent's
    /// `init` did not say which turn waits (an agent that leaves the turn in flight out of it).
    /// A session-level `error` before any turn event (the agent refusing the answer) ends the
    /// stream with its text.
    pub fn adopting(message_id: String, clock: Clock) -> Self {
        Translator {
            adopt: Some(message_id),
            ..Translator::with_clock(None, clock)
        }
    }

    /// Where the turn is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The id of the turn followed, once it started.
    pub fn turn_id(&self) -> Option<&str> {
        self.turn_id.as_deref()
    }

    /// How the stream ended, once it has: `finished`, `agent_error`, `canceled`, or for an
    /// outside cause `connection_lost`, `timeout`, `client_gone`. For logs.
    pub fn outcome(&self) -> Option<StreamOutcome> {
        self.outcome
    }

    /// The time now, by the translator's clock.
    pub fn now(&self) -> u64 {
        (self.clock)()
    }

    /// The tool calls the stream showed, and how many of them failed.
    pub fn tool_counts(&self) -> (u64, u64) {
        self.tools.counts()
    }

    /// The tokens the turn used and the model that answered, as its `message.finalize` said.
    pub fn usage(&self) -> (Option<Usage>, Option<&str>) {
        (self.usage, self.model.as_deref())
    }

    /// The agent's code for the error that ended the stream (an `error` frame's `code`, or a
    /// failed finalize's `error.code`), when it gave one.
    pub fn error_code(&self) -> Option<&str> {
        self.error_code.as_deref()
    }

    /// The id of the part that a non-empty delta of `kind` from turn `turn_id` extends as things
    /// stand, if it extends one: the turn is ours and open, and a part of that kind is open.
    /// Pushed, such a delta emits exactly one delta chunk with that id and changes nothing
    /// else, so a caller may write that chunk itself instead ([`crate::turn_stream`] does).
    pub fn extended_part(&self, kind: DeltaKind, turn_id: &str) -> Option<&str> {
        if self.phase != Phase::Open || !self.is_ours(turn_id) {
            return None;
        }
        self.parts.open_id(kind)
    }

    /// Consumes one frame, appending the chunks it causes to `out`.
    pub fn push(&mut self, frame: Frame, out: &mut Vec<UiChunk>) -> Step {
        match (self.phase, frame) {
            (Phase::Ended, _) => Step::Ignored,
            // Whatever the stream waits for or shows, the session is gone (protocol 7).
            (_, Frame::Forgotten { .. }) => {
                self.end(EndCause::Forgotten, out);
                Step::Ended
            }
            (Phase::Waiting, frame) if self.adopt.is_some() => self.adopt_first(frame, out),
            (Phase::Waiting, Frame::MessageCreate(create)) => self.maybe_start(create, out),
            (Phase::Waiting, Frame::Error(err)) => self.fail_with(&err, out),
            (Phase::Waiting, _) => Step::Ignored,
            (Phase::Open, frame) => self.push_open(frame, out),
        }
    }

    /// Ends the stream for a cause outside the protocol (socket closed, timeout, client
    /// gone). Does nothing once the stream has ended.
    pub fn end(&mut self, cause: EndCause, out: &mut Vec<UiChunk>) {
        if self.end_with(cause.into(), out) == Step::Ended {
            self.outcome = Some(StreamOutcome::Cut(cause));
        }
    }

    /// An adopting stream's frame before its turn is known: the first turn event names it.
    fn adopt_first(&mut self, frame: Frame, out: &mut Vec<UiChunk>) -> Step {
        let turn_id = match &frame {
            Frame::TextDelta(d) | Frame::ReasoningDelta(d) => d.turn_id.clone(),
            Frame::ToolUpdate(update) => update.turn_id.clone(),
            Frame::Finalize(fin) => fin.turn_id.clone(),
            Frame::Data(_) | Frame::Source(_) | Frame::Metadata(_) => {
                frame.turn_id().unwrap_or_default().to_owned()
            }
            // A question names no turn: the metadata's turnId is then the message's id.
            Frame::Question(_) => self.adopt.clone().unwrap_or_default(),
            Frame::Error(err) => return self.fail_with(err, out),
            Frame::Complete => return self.end_with(Ending::Finished, out),
            _ => return Step::Ignored,
        };
        let message_id = self.adopt.take().unwrap_or_else(|| turn_id.clone());
        self.open(&turn_id, message_id, None, out);
        self.push_open(frame, out)
    }

    fn maybe_start(&mut self, create: MessageCreate, out: &mut Vec<UiChunk>) -> Step {
        let ours = match (&create.request_id, &self.request_id) {
            (Some(echoed), Some(sent)) => echoed == sent,
            (Some(_), None) | (None, _) => create.is_default_channel(),
        };
        if !ours {
            return Step::Ignored;
        }
        let message_id = create.turn_id.clone();
        self.open(&create.turn_id, message_id, None, out);
        Step::Forwarded
    }

    /// Emits `start` (with `createdAt`: `created_ms`, else now) and `start-step`.
    fn open(
        &mut self,
        turn_id: &str,
        message_id: String,
        created_ms: Option<u64>,
        out: &mut Vec<UiChunk>,
    ) {
        self.started_ms = created_ms.unwrap_or_else(self.clock);
        out.push(UiChunk::Start {
            message_id: Some(message_id),
            message_metadata: Some(StartMetadata {
                turn_id: turn_id.to_owned(),
                created_at: self.started_ms,
            }),
        });
        out.push(UiChunk::StartStep);
        self.turn_id = Some(turn_id.to_owned());
        self.phase = Phase::Open;
    }

    /// One part of a resumed snapshot, through the same rules as the live frame it stands for.
    fn replay(&mut self, message: &Message, part: &Part, out: &mut Vec<UiChunk>) {
        let turn_id = message.id.as_str();
        let delta = |text: &str| TurnDelta {
            turn_id: turn_id.to_owned(),
            delta: text.to_owned(),
        };
        match part {
            Part::Text { text, .. } => {
                self.parts.close(out);
                self.push_open(Frame::TextDelta(delta(text)), out);
            }
            Part::Reasoning { text } => {
                self.parts.close(out);
                self.push_open(Frame::ReasoningDelta(delta(text)), out);
            }
            Part::ToolCall(call) => {
                self.push_open(Frame::ToolUpdate(call.to_update(turn_id)), out);
            }
            Part::Question(question) if question.answer.is_some() => {
                self.replay_answered(message, question, out);
            }
            Part::Question(question) => {
                self.ask(question.clone(), out);
            }
            Part::Data(data) => self.data(data.clone(), out),
            Part::Source(source) => {
                let part = source.clone();
                let turn_id = turn_id.to_owned();
                self.push_open(Frame::Source(TurnPart { turn_id, part }), out);
            }
            Part::Metadata { metadata } => out.push(UiChunk::AgentMetadata {
                message_metadata: one_line(metadata.clone()),
            }),
            Part::Finish { .. } | Part::Error { .. } | Part::File(_) => {}
        }
    }

    fn is_ours(&self, turn_id: &str) -> bool {
        self.turn_id.as_deref() == Some(turn_id)
    }

    fn push_open(&mut self, frame: Frame, out: &mut Vec<UiChunk>) -> Step {
        match frame {
            Frame::TextDelta(d) if self.is_ours(&d.turn_id) => {
                self.parts.delta(DeltaKind::Text, d.delta, out)
            }
            Frame::ReasoningDelta(d) if self.is_ours(&d.turn_id) => {
                self.parts.delta(DeltaKind::Reasoning, d.delta, out)
            }
            Frame::Chunk(c) => self.parts.delta(DeltaKind::Text, c.content, out),
            Frame::ToolUpdate(update) if self.is_ours(&update.turn_id) => {
                if self.tools.would_emit(&update) {
                    self.parts.close(out);
                }
                self.tools.apply(update, out);
            }
            Frame::Data(data) if self.is_ours(&data.turn_id) => self.data(data.part, out),
            Frame::Source(source) if self.is_ours(&source.turn_id) => {
                self.parts.close(out);
                out.push(source_chunk(source.part));
            }
            Frame::Metadata(meta) if self.is_ours(&meta.turn_id) => {
                out.push(UiChunk::AgentMetadata {
                    message_metadata: one_line(meta.part),
                });
            }
            Frame::AgentStatus(status) => {
                let detail = status.detail.as_ref().and_then(|d| d.as_str());
                match status_chunk(&status.status, detail) {
                    Some(chunk) => out.push(chunk),
                    None => return Step::Ignored,
                }
            }
            Frame::Question(question) => return self.ask(question, out),
            Frame::Finalize(fin) if self.is_ours(&fin.turn_id) => {
                let reason_error = fin.error_text();
                self.usage = read_raw_usage(fin.usage.as_deref());
                self.model = read_raw_model(fin.model.as_deref());
                self.error_code = fin.error_code();
                if let Some(text) = fin.final_text {
                    if !self.parts.streamed_text() {
                        self.parts.delta(DeltaKind::Text, text, out);
                    }
                }
                return self.end_with(Ending::from_reason(fin.reason, reason_error), out);
            }
            Frame::Complete => return self.end_with(Ending::Finished, out),
            Frame::Error(err) => return self.fail_with(&err, out),
            _ => return Step::Ignored,
        }
        Step::Forwarded
    }

    /// An app's data part. One new to the message is a part of its own: an open text or reasoning
    /// part closes first, as the stored message starts a new part after it. A transient one, or
    /// one that replaces an earlier part (the same name and id), makes no part, and closes none.
    fn data(&mut self, part: DataFields, out: &mut Vec<UiChunk>) {
        let key = part.id.as_ref().map(|id| (part.name.clone(), id.clone()));
        let replaces = key.as_ref().is_some_and(|key| self.data_keys.contains(key));
        if !part.transient && !replaces {
            self.parts.close(out);
            self.data_keys.extend(key);
        }
        out.push(UiChunk::AppData(AppData {
            name: part.name,
            id: part.id,
            data: one_line(part.data),
            transient: part.transient,
        }));
    }

    /// Ends the stream with a session-level `error`, keeping its code.
    fn fail_with(&mut self, err: &crate::v2::SessionError, out: &mut Vec<UiChunk>) -> Step {
        if self.phase != Phase::Ended {
            self.error_code = err.code();
        }
        self.end_with(Ending::error(err.text()), out)
    }

    fn end_with(&mut self, ending: Ending, out: &mut Vec<UiChunk>) -> Step {
        if self.phase == Phase::Ended {
            return Step::Ignored;
        }
        let mut metadata = None;
        if self.phase == Phase::Open {
            self.parts.close(out);
            self.tools.close_all(ending.tool_reason(), out);
            out.push(UiChunk::FinishStep);
            let (tool_calls, tool_errors) = self.tools.counts();
            metadata = self.turn_id.clone().map(|turn_id| FinishMetadata {
                turn_id,
                duration_ms: (self.clock)().saturating_sub(self.started_ms),
                tool_calls,
                tool_errors,
                stopped: false,
                usage: self.usage,
                model: self.model.clone(),
            });
        }
        self.outcome = Some(ending.outcome());
        ending.emit(metadata, out);
        self.phase = Phase::Ended;
        Step::Ended
    }
}

/// A checked source's chunk: `source-url` with a `url`, else `source-document`.
fn source_chunk(source: Source) -> UiChunk {
    match source.url {
        Some(url) => UiChunk::SourceUrl {
            source_id: source.source_id,
            url,
            title: source.title,
        },
        None => UiChunk::SourceDocument {
            source_id: source.source_id,
            media_type: source.media_type.unwrap_or_default(),
            title: source.title.unwrap_or_default(),
            filename: source.filename,
        },
    }
}

#[cfg(test)]
#[path = "translator_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "resume_tests.rs"]
mod resume_tests;

#[cfg(test)]
#[path = "asking_tests.rs"]
mod asking_tests;

#[cfg(test)]
#[path = "extras_tests.rs"]
mod extras_tests;
