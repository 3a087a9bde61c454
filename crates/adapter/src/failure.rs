//! What a handler's `?` carries: a [`Refusal`] from the catalogue (the request is answered with
//! it), or a fault of the runtime (logged, and answered `500 internal_error`). The entry point
//! writes either, and the log line takes its status and outcome from the refusal.

use crate::agent::upstream::UpstreamError;
use crate::refusal::Refusal;
use crate::request::RequestError;

#[derive(Debug)]
pub(crate) enum Failure {
    Refused(Refusal),
    /// A JavaScript call that threw, a response that could not be made.
    Fault(worker::Error),
}

impl std::fmt::Display for Failure {
    /// For a log line: the refusal's code and message, or the runtime's error.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Refused(refusal) => {
                write!(f, "{}: {}", refusal.kind.code, refusal.message)
            }
            Failure::Fault(err) => write!(f, "{err}"),
        }
    }
}

impl From<Refusal> for Failure {
    fn from(refusal: Refusal) -> Self {
        Failure::Refused(refusal)
    }
}

impl From<worker::Error> for Failure {
    fn from(err: worker::Error) -> Self {
        Failure::Fault(err)
    }
}

impl From<RequestError> for Failure {
    fn from(err: RequestError) -> Self {
        Failure::Refused(err.into())
    }
}

impl From<UpstreamError> for Failure {
    fn from(err: UpstreamError) -> Self {
        Failure::Refused(err.into())
    }
}
