//! How a stream ends: the one closing sequence every cause maps to.

use crate::ui::{FinishMetadata, UiChunk};
use crate::v2::FinishReason;

/// `errorText` when the socket to the agent closed before the turn ended.
pub const CONNECTION_LOST: &str = "connection to the agent was lost";
/// `errorText` when the agent stayed silent past a timeout.
pub const TIMED_OUT: &str = "the agent did not respond in time";
/// `errorText` when the agent sent a frame over the size limit: the turn cannot be shown whole.
pub const FRAME_TOO_LARGE: &str = "the agent sent a message larger than the limit";
/// `errorText` when the client reads slower than the agent sends, past the buffer's bound.
pub const READING_TOO_SLOWLY: &str = "the client is reading too slowly";
/// `errorText` when the adapter's WebAssembly instance was lost mid-stream (a panic).
pub const CRASHED: &str = "the stream stopped on an internal error";
/// `errorText` when the session was deleted mid-stream (the agent's `forgotten`, protocol 7).
pub const FORGOTTEN: &str = "this conversation was deleted";
/// `errorText` when the agent reported an error without any text.
pub const AGENT_ERROR: &str = "the agent reported an error";

pub use crate::ui::tool_reasons;

/// A cause of the end that comes from outside the V2 protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndCause {
    /// The WebSocket to the agent closed or failed before the turn ended.
    SocketClosed,
    /// The agent sent nothing within a timeout.
    Timeout,
    /// The HTTP client went away (or stopped the turn).
    ClientGone,
    /// The agent sent a frame over the size limit, which was not read: going on would show a
    /// turn with a hole in it.
    FrameTooLarge,
    /// More bytes wait for the client than the buffer's bound: it reads slower than the agent
    /// sends, and holding on would grow the isolate until the runtime kills it.
    SlowClient,
    /// The adapter's WebAssembly instance was lost (a panic: its own, or the agent's where the
    /// agent shares its instance). No Rust code runs after that: this ending is written ahead
    /// of time ([`crate::turn_stream::TurnStream::fault_ending`]) for JavaScript to send.
    Crashed,
    /// The session was forgotten (its user deleted it, or its retention ran out): the agent's
    /// `forgotten` on this socket. The agent ends its turn itself; nothing is left to show.
    Forgotten,
}

impl EndCause {
    /// The word for this cause in logs.
    pub fn label(self) -> &'static str {
        match self {
            EndCause::SocketClosed => "connection_lost",
            EndCause::Timeout => "timeout",
            EndCause::ClientGone => "client_gone",
            EndCause::FrameTooLarge => "frame_too_large",
            EndCause::SlowClient => "slow_client",
            EndCause::Crashed => "crashed",
            EndCause::Forgotten => "forgotten",
        }
    }
}

/// How a stream ended: by the protocol (the agent's `message.finalize` or `error`), or for a
/// cause outside it. One value, compared as one: its word is for logs only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamOutcome {
    Finished,
    AgentError,
    Canceled,
    AwaitingAnswer,
    Cut(EndCause),
}

impl StreamOutcome {
    /// The word for this outcome in logs and turn records.
    pub fn label(self) -> &'static str {
        match self {
            StreamOutcome::Finished => "finished",
            StreamOutcome::AgentError => "agent_error",
            StreamOutcome::Canceled => "canceled",
            StreamOutcome::AwaitingAnswer => "awaiting_answer",
            StreamOutcome::Cut(cause) => cause.label(),
        }
    }
}

/// The closing sequence of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The turn ended normally: `finish`.
    Finished,
    /// The turn failed: `error { errorText }`, then `finish`.
    Failed(String),
    /// The turn was canceled: `abort`.
    Canceled,
    /// The turn asked the user something and waits for the answer: `finish`. The turn goes on
    /// in the stream of the request that answers.
    AwaitingAnswer,
}

impl Ending {
    /// A failure with the agent's text, or [`AGENT_ERROR`] when it gave none.
    pub fn error(text: Option<String>) -> Self {
        Ending::Failed(text.unwrap_or_else(|| AGENT_ERROR.to_owned()))
    }

    /// The ending of a `message.finalize` with `reason` (and its `error` text).
    pub fn from_reason(reason: FinishReason, error: Option<String>) -> Self {
        match reason {
            FinishReason::EndTurn | FinishReason::Unknown => Ending::Finished,
            FinishReason::Error => Ending::error(error),
            FinishReason::Canceled => Ending::Canceled,
        }
    }

    /// How a stream that ends so ended.
    pub fn outcome(&self) -> StreamOutcome {
        match self {
            Ending::Finished => StreamOutcome::Finished,
            Ending::Failed(_) => StreamOutcome::AgentError,
            Ending::Canceled => StreamOutcome::Canceled,
            Ending::AwaitingAnswer => StreamOutcome::AwaitingAnswer,
        }
    }

    /// The `errorText` given to every tool the ending finds still open.
    pub fn tool_reason(&self) -> &'static str {
        match self {
            Ending::Canceled => tool_reasons::CANCELED,
            Ending::AwaitingAnswer => tool_reasons::AWAITING_ANSWER,
            Ending::Finished | Ending::Failed(_) => tool_reasons::INTERRUPTED,
        }
    }

    /// Appends the ending chunks; `finish` carries `metadata`. `abort` has no place for it: a
    /// `message-metadata` chunk before it does (ai@5.0.0 has it), `stopped` set.
    pub fn emit(self, metadata: Option<FinishMetadata>, out: &mut Vec<UiChunk>) {
        match self {
            Ending::Finished | Ending::AwaitingAnswer => out.push(UiChunk::Finish {
                message_metadata: metadata,
            }),
            Ending::Failed(error_text) => {
                out.push(UiChunk::Error { error_text });
                out.push(UiChunk::Finish {
                    message_metadata: metadata,
                });
            }
            Ending::Canceled => {
                if let Some(meta) = metadata {
                    out.push(UiChunk::MessageMetadata {
                        message_metadata: FinishMetadata {
                            stopped: true,
                            ..meta
                        },
                    });
                }
                out.push(UiChunk::Abort);
            }
        }
    }
}

impl From<EndCause> for Ending {
    fn from(cause: EndCause) -> Self {
        match cause {
            EndCause::SocketClosed => Ending::Failed(CONNECTION_LOST.to_owned()),
            EndCause::Timeout => Ending::Failed(TIMED_OUT.to_owned()),
            EndCause::ClientGone => Ending::Canceled,
            EndCause::FrameTooLarge => Ending::Failed(FRAME_TOO_LARGE.to_owned()),
            EndCause::SlowClient => Ending::Failed(READING_TOO_SLOWLY.to_owned()),
            EndCause::Crashed => Ending::Failed(CRASHED.to_owned()),
            EndCause::Forgotten => Ending::Failed(FORGOTTEN.to_owned()),
        }
    }
}
