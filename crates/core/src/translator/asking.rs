//! Questions in the stream: what an agent's `question` becomes for the stream's
//! [`QuestionView`] (a client-side tool call, an approval on the gated call's own part, or a
//! `data-question` part), live, in a resume's replay, and at the start of the answer's stream.

use serde_json::value::RawValue;

use super::tools::one_line;
use super::{Ending, Step, Translator};
use crate::questions::{
    approve_input, ask_input, client_call_id, raw, QuestionParts, QuestionView, APPROVE_TOOL_CALL,
    ASK_USER,
};
use crate::session::{Message, Part};
use crate::translator::tool_outcome;
use crate::ui::UiChunk;
use crate::v2::Question;

/// What a question needs of the call it gates: the call's name and its input so far.
type GatedCall<'a> = (&'a str, Option<&'a RawValue>);

impl Translator {
    /// A question the turn waits on: its parts for this stream's view, then the end of the stream
    /// (the turn waits for the user, whose answer is a new request).
    pub(super) fn ask(&mut self, question: Question, out: &mut Vec<UiChunk>) -> Step {
        self.parts.close(out);
        let view = self.questions;
        match view.parts() {
            QuestionParts::Data => out.push(data_question(question)),
            parts => {
                let gated = question
                    .tool_call_id
                    .as_deref()
                    .filter(|id| self.tools.open_call(id).is_some());
                match gated {
                    Some(call_id) if parts == QuestionParts::Approvals => {
                        let call_id = call_id.to_owned();
                        self.tools
                            .request_approval(&call_id, &question.question_id, out);
                    }
                    Some(call_id) => {
                        let gated = self.tools.open_call(call_id);
                        let input = client_input(&question, gated, &view);
                        self.client_call(&question, APPROVE_TOOL_CALL, input, None, out);
                    }
                    None => {
                        let input = ask_input(&question);
                        self.client_call(&question, ASK_USER, input, None, out);
                    }
                }
            }
        }
        self.end_with(Ending::AwaitingAnswer, out)
    }

    /// An answered question of a resumed snapshot, as the live stream and the answer's stream
    /// left it in the client: the question's tool call with its answer, then a new step (the
    /// answer's stream opened one; without it, the SDK's `lastAssistantMessageIsComplete…`
    /// helpers would find the answered call in the last step and send it again). The agent's
    /// calls still running go on across the step, as they do in the client.
    pub(super) fn replay_answered(
        &mut self,
        message: &Message,
        question: &Question,
        out: &mut Vec<UiChunk>,
    ) {
        self.parts.close(out);
        let view = self.questions;
        let gated = question
            .tool_call_id
            .as_deref()
            .and_then(|id| snapshot_call(message, id));
        match (view.parts(), gated) {
            (QuestionParts::Data, _) => {
                out.push(data_question(question.clone()));
                return;
            }
            // The call's own part shows the approval's outcome (it runs, or ended denied); no
            // helper sends a call that is not `approval-responded`.
            (QuestionParts::Approvals, Some(_)) => return,
            (_, Some(call)) => {
                let input = client_input(question, Some(call), &view);
                let answer = question.answer.as_ref().map(raw);
                self.client_call(question, APPROVE_TOOL_CALL, input, answer, out);
            }
            (_, None) => {
                let answer = question.answer.as_ref().map(raw);
                self.client_call(question, ASK_USER, ask_input(question), answer, out);
            }
        }
        out.push(UiChunk::FinishStep);
        out.push(UiChunk::StartStep);
    }

    /// Takes on the tool calls of `message`, the turn in flight whose question was answered, as
    /// the client holds them; and, when the answer denied the approval of `denied_call`, ends that
    /// call `output-denied` at once (it never runs).
    pub(super) fn take_on(
        &mut self,
        message: &Message,
        denied_call: Option<&str>,
        out: &mut Vec<UiChunk>,
    ) {
        for part in &message.parts {
            if let Part::ToolCall(call) = part {
                let outcome =
                    tool_outcome(call.status, call.result.as_deref(), call.error.as_ref());
                let failed = matches!(outcome, Some(Err(_)));
                self.tools
                    .resume_call(&call.call_id, &call.tool_name, outcome.is_none(), failed);
            }
        }
        if let (Some(call_id), QuestionParts::Approvals) = (denied_call, self.questions.parts()) {
            self.tools.deny(call_id, out);
        }
    }

    /// The chunks of the client-side tool call `tool_name` that stands for `question`: its start,
    /// its input, and its output once answered. Its call id is the question's, unless a tool call
    /// of the turn has that id.
    fn client_call(
        &mut self,
        question: &Question,
        tool_name: &str,
        input: Box<RawValue>,
        answer: Option<Box<RawValue>>,
        out: &mut Vec<UiChunk>,
    ) {
        let taken = |id: &str| self.tools.knows(id);
        let call_id = client_call_id(&question.question_id, taken);
        self.tools.reserve(&call_id);
        out.push(UiChunk::ToolInputStart {
            tool_call_id: call_id.clone(),
            tool_name: tool_name.to_owned(),
            provider_executed: false,
            dynamic: false,
        });
        out.push(UiChunk::ToolInputAvailable {
            tool_call_id: call_id.clone(),
            tool_name: tool_name.to_owned(),
            input,
            provider_executed: false,
            dynamic: false,
        });
        if let Some(output) = answer {
            out.push(UiChunk::ToolOutputAvailable {
                tool_call_id: call_id,
                output,
                provider_executed: false,
                dynamic: false,
            });
        }
    }
}

/// The input of an [`APPROVE_TOOL_CALL`] call for `question`, gating `call` (its input as the
/// view shows it; `{}` before the agent gave one).
fn client_input(
    question: &Question,
    call: Option<GatedCall<'_>>,
    view: &QuestionView,
) -> Box<RawValue> {
    let (name, input) = call.unwrap_or_default();
    let empty =
        RawValue::from_string("{}".to_owned()).unwrap_or_else(|_| RawValue::NULL.to_owned());
    // The snapshot's arguments are as the agent wrote them: on one line, for the SSE event.
    let shown = one_line(view.gated_input(input.unwrap_or(&empty)));
    approve_input(question, name, &shown)
}

/// The tool call `call_id` of a snapshot: its name and arguments.
fn snapshot_call<'a>(message: &'a Message, call_id: &str) -> Option<GatedCall<'a>> {
    message.parts.iter().find_map(|part| match part {
        Part::ToolCall(call) if call.call_id == call_id => {
            Some((call.tool_name.as_str(), call.args.as_deref()))
        }
        _ => None,
    })
}

/// A question as a `data-question` chunk.
pub(super) fn data_question(question: Question) -> UiChunk {
    UiChunk::DataQuestion {
        id: question.question_id.clone(),
        data: question,
    }
}
