//! Protocol 7's `forget`, the adapter's side (docs/agent-protocol.md, "`forget`"): what a frame on
//! the asking socket says of the agent's answer. The agent sends `forgotten` to every other socket
//! first, ends the turn in flight, deletes what it keeps, and only then answers the asking socket:
//! so only a `forgotten` naming this request says that nothing is kept any more.

use crate::v2::{frame_type, parse_frame, Frame, FORGOTTEN};

/// The agent's answer to a `forget`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// `forgotten` with the request's id: the agent keeps nothing of the session.
    Forgotten,
    /// An `error` on the asking socket (R-error-scope: it answers the `forget`), or a
    /// `forgotten` it cannot read: the session may still be kept. The text is for the log.
    Failed(String),
}

/// Reads `text`, a frame that came after the `forget` with `request_id`: the answer, or `None`
/// for a frame to pass over (the socket's `init`, the end of the turn in flight, which goes to
/// every socket, a `forgotten` of another request: another delete's notice, whose own answer
/// comes on its own socket).
pub fn read_answer(text: &str, request_id: &str) -> Option<Answer> {
    let kind = frame_type(text).ok()?;
    match kind.as_ref() {
        FORGOTTEN => match parse_frame(text) {
            Ok(Frame::Forgotten {
                request_id: Some(id),
            }) if id == request_id => Some(Answer::Forgotten),
            Ok(_) => None,
            Err(err) => Some(Answer::Failed(format!(
                "a forgotten frame it cannot read: {err}"
            ))),
        },
        "error" => Some(Answer::Failed(match parse_frame(text) {
            Ok(Frame::Error(error)) => format!(
                "the agent answered the forget with an error: {}",
                error.text().unwrap_or_default()
            ),
            _ => "an error frame it cannot read".to_owned(),
        })),
        _ => None,
    }
}

#[cfg(test)]
#[path = "forget_tests.rs"]
mod tests;
