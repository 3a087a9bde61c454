//! Parsing the AI SDK chat POST body into the prompt the agent gets.
//!
//! `DefaultChatTransport` of ai v5, v6 and v7 sends
//! `{ id, messages: UIMessage[], trigger, messageId?, …extra }` with the whole chat
//! history. The Durable Object keeps its own history, so only the latest message
//! matters: it must come from the user, and its text parts (joined by newlines) become
//! the prompt, its file parts (an `https:` URL of a public host or a base64 `data:` URL,
//! [`files`]) the prompt's attachments, its `id` the id the agent stores it under, and the ids of the messages
//! before it the branch it continues ([`Place`]: where the turn attaches, which is how a
//! regenerate, an edit or a fork takes messages back) — unless it carries a `data-answer` part (`{ questionId, answer }`),
//! which makes the request an answer to the agent's pending question instead of a prompt. The
//! last message may also be the assistant's, sent back with a question answered on its tool
//! part ([`answers`]): the request then answers that question, and the rest of the turn goes on
//! in that message.
//! Of the earlier messages only the ids are read ([`messages`]). The body may also carry
//! `onDisconnect` (`"abort"` or `"detach"`): what the client's going away does to the turn.
//! Ids are 1 to 256 bytes of valid Unicode ([`ids`]); the JSON forwarded to the agent (`context`,
//! the last message's `parts`) nests at most [`MAX_JSON_DEPTH`] levels ([`depth`]); a body whose
//! `Content-Length` declares more than the limit is refused before it is read ([`length`]).
//! Every bad shape is a [`RequestError`] that carries its HTTP status, a stable code and a
//! sentence saying what is wrong.

mod answers;
mod files;
mod host;
mod ids;
mod length;
mod messages;
mod stream;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

pub use crate::bounds::{nesting_depth, MAX_CONTEXT_BYTES, MAX_JSON_DEPTH};
pub use answers::Answer;
pub use files::{
    check_file, check_file_at, check_url, FileFault, FilesAt, UrlFault, MAX_FILENAME_BYTES,
    MAX_MEDIA_TYPE_BYTES,
};
pub use host::HostFault;
pub use ids::{read_id, IdFault, MAX_ID_BYTES};
pub use length::ContentLength;
use length::LengthFault;
use messages::{Element, Messages};
pub use stream::{BodyStream, StreamError};

use crate::refusal::{self, Code, Refusal};
use crate::trace::TraceMode;
use crate::v2::Attachment;
pub use crate::v2::OnDisconnect;

/// Limits on what a client may send. The defaults suit a chat UI; operators set them in
/// the worker's config. `max_prompt_chars` bounds an answer to the agent's question too (its
/// JSON text, an approval's `reason` in it): all that a user sends the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest body accepted, in bytes. Default 100 MiB, Workers' own limit on a request body
    /// (Free and Pro plans): the whole history travels with every POST, each earlier photo as a
    /// `data:` URL again, and the body is read as a stream ([`BodyStream`]), never held whole.
    pub max_body_bytes: usize,
    /// Most bytes held of a body at once: its last message (its `data:` URL files included),
    /// its other fields and the earlier messages' ids. Default 16 MiB: a file of
    /// `MAX_FILE_BYTES` (10 MiB) as a data URL is 13.4 MiB, with room for text; an isolate has
    /// 128 MB.
    pub max_message_bytes: usize,
    /// Most messages in `messages`. Default 1,000: far beyond any chat a person keeps.
    pub max_messages: usize,
    /// Longest prompt text, in characters. Default 100,000 (about 25k tokens): past the
    /// input a person types or pastes, short of any agent's context window.
    pub max_prompt_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 100 * 1024 * 1024,
            max_message_bytes: 16 * 1024 * 1024,
            max_messages: 1_000,
            max_prompt_chars: 100_000,
        }
    }
}

/// How a request answers the agent's question instead of prompting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The latest user message's `data-answer` part: the rest of the turn is a new message.
    Data(Answer),
    /// The assistant message sent back with a question answered on its tool part: the rest of
    /// the turn goes on in that message.
    InMessage(AnsweredMessage),
}

/// An assistant message sent back with a question answered on its tool part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnsweredMessage {
    /// The message's id: the answer's stream goes on in it.
    pub message_id: String,
    /// Every question of the message that has an answer, the newest last: the route sends the
    /// one the agent waits on.
    pub answers: Vec<Answer>,
}

/// Where the request's message goes in the conversation (protocol 4, docs/agent-protocol.md,
/// `prompt`): the `messageId` and `branch` of the `prompt`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    /// The id the client gave the message (its `id`), when it gave one.
    pub message_id: Option<String>,
    /// The ids of the messages before it in the client's list, oldest first, as a JSON array
    /// whose strings are as the body wrote them (`["m1","m2"]`, `[]` for a first message);
    /// `None` when one of them has no `id` (the agent then appends the message).
    pub branch: Option<String>,
}

/// The trigger of a regenerate (`chat.regenerate()`).
pub const REGENERATE: &str = "regenerate-message";

/// The trigger of a send or an edit (`chat.sendMessage()`). With [`REGENERATE`], the only
/// `trigger` a POST of ai 5, 6 and 7 carries (`DefaultChatTransport`; their third,
/// `resume-stream`, is the resume's GET).
pub const SUBMIT: &str = "submit-message";

/// What the agent is asked, and the request's bookkeeping fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRequest {
    /// The AI SDK chat id (`id`).
    pub chat_id: Option<String>,
    /// `submit-message` or `regenerate-message`.
    pub trigger: Option<String>,
    /// The message being edited (`submit-message`) or regenerated, when the client names one
    /// (the body's `messageId`).
    pub target_id: Option<String>,
    /// Where the message goes in the conversation.
    pub place: Place,
    /// The latest user message's text parts, joined by `\n`.
    pub text: String,
    /// The latest user message's file parts.
    pub attachments: Vec<Attachment>,
    /// How the request answers the agent's question, when it does.
    pub reply: Option<Reply>,
    /// The body's `onDisconnect`, when given.
    pub on_disconnect: Option<OnDisconnect>,
    /// The body's `trace` (`"minimal"`, `"normal"`, `"full"`), when given.
    pub trace: Option<TraceMode>,
    /// The body's `context`: the JSON text of an object, as it came (the page's
    /// `AgentChat.setContext`, or any client's), forwarded in the `prompt` without a second parse.
    pub context: Option<String>,
}

impl ChatRequest {
    /// Whether the body itself says that the turn takes messages back: a regenerate, or an edit
    /// (a `messageId` named). Only an agent of protocol 4 can; a fork (a list cut on the client,
    /// a new message after it) looks like a send until the agent compares it with its history.
    pub fn takes_back(&self) -> bool {
        self.reply.is_none()
            && (self.trigger.as_deref() == Some(REGENERATE) || self.target_id.is_some())
    }
}

/// Why a body was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    TooLarge {
        limit: usize,
    },
    /// What the body's stream would hold at once (its last message, with its other fields) is
    /// over `MAX_MESSAGE_BYTES` ([`BodyStream`]).
    MessageTooLarge {
        limit: usize,
    },
    /// The runtime could not read the body to its end: the connection, not the client's JSON.
    Unreadable,
    /// The `Content-Length` is not a number: the body cannot be framed ([`length`]).
    BadLength,
    NotJson(String),
    NotObject,
    InvalidField(String),
    MissingMessages,
    NoMessages,
    TooManyMessages {
        limit: usize,
    },
    InvalidMessage(String),
    /// The message at this position (from 0) has an `id` that is not a string of 1 to
    /// [`MAX_ID_BYTES`] bytes of valid Unicode.
    InvalidMessageId {
        index: usize,
        fault: IdFault,
    },
    /// The last message's part at this position (from 0) is a file the agent may not be given.
    InvalidAttachment {
        part: usize,
        fault: FileFault,
    },
    LastNotUser {
        role: String,
    },
    EmptyMessage,
    PromptTooLong {
        limit: usize,
    },
    /// An answer to the agent's question (its JSON, an approval's `reason` in it) is over the
    /// prompt's limit: what a user sends the agent is bounded alike, as a message or an answer.
    AnswerTooLong {
        limit: usize,
    },
}

impl RequestError {
    /// 413 for what is too big, 422 for well-formed bodies that ask nothing answerable, 400 for
    /// the rest.
    pub fn kind(&self) -> Code {
        match self {
            RequestError::TooLarge { .. } => refusal::BODY_TOO_LARGE,
            RequestError::MessageTooLarge { .. } => refusal::MESSAGE_TOO_LARGE,
            RequestError::Unreadable | RequestError::BadLength => refusal::BODY_UNREADABLE,
            RequestError::NotJson(_) => refusal::INVALID_JSON,
            RequestError::NotObject => refusal::INVALID_BODY,
            RequestError::InvalidField(_) => refusal::INVALID_FIELD,
            RequestError::MissingMessages => refusal::MISSING_MESSAGES,
            RequestError::NoMessages => refusal::NO_MESSAGES,
            RequestError::TooManyMessages { .. } => refusal::TOO_MANY_MESSAGES,
            RequestError::InvalidMessage(_) | RequestError::InvalidMessageId { .. } => {
                refusal::INVALID_MESSAGE
            }
            RequestError::InvalidAttachment { .. } => refusal::INVALID_ATTACHMENT,
            RequestError::LastNotUser { .. } => refusal::LAST_MESSAGE_NOT_FROM_USER,
            RequestError::EmptyMessage => refusal::EMPTY_MESSAGE,
            RequestError::PromptTooLong { .. } | RequestError::AnswerTooLong { .. } => {
                refusal::PROMPT_TOO_LONG
            }
        }
    }

    /// One sentence for the person reading the error.
    pub fn message(&self) -> String {
        match self {
            RequestError::TooLarge { limit } => {
                format!("The request body is larger than the limit of {limit} bytes.")
            }
            RequestError::MessageTooLarge { limit } => format!(
                "The last message is larger than the limit of {limit} bytes (its files included): send smaller files, or upload them first."
            ),
            RequestError::Unreadable => "The request body could not be read to its end.".into(),
            RequestError::BadLength => {
                "The request's `Content-Length` is not a number of bytes: its body cannot be read."
                    .into()
            }
            RequestError::NotJson(why) => format!("The request body is not valid JSON: {why}."),
            RequestError::NotObject => "The request body must be a JSON object.".into(),
            RequestError::InvalidField(why) => format!("The request body is malformed: {why}."),
            RequestError::MissingMessages => {
                "The request body must have a `messages` array.".into()
            }
            RequestError::NoMessages => "`messages` is empty: there is nothing to answer.".into(),
            RequestError::TooManyMessages { limit } => {
                format!("`messages` has more than the limit of {limit} messages.")
            }
            RequestError::InvalidMessage(why) => format!("The last message is malformed: {why}."),
            RequestError::InvalidMessageId { index, fault } => format!(
                "Message {index} of `messages` (counted from 0) has an `id` that {fault}: an id is a string of 1 to {MAX_ID_BYTES} bytes."
            ),
            RequestError::InvalidAttachment { part, fault } => format!(
                "File part {part} of the last message may not go to the agent: {fault}."
            ),
            RequestError::LastNotUser { role } => format!(
                "The last message must come from the user (or be the assistant's, with the agent's question answered on its tool part), not `{role}`."
            ),
            RequestError::EmptyMessage => {
                "The last message has no text and no file to send to the agent.".into()
            }
            RequestError::PromptTooLong { limit } => {
                format!("The message is longer than the limit of {limit} characters.")
            }
            RequestError::AnswerTooLong { limit } => {
                format!("The answer is longer than the limit of {limit} characters.")
            }
        }
    }
}

impl From<StreamError> for RequestError {
    fn from(err: StreamError) -> Self {
        match err {
            StreamError::TooLarge { limit } => RequestError::TooLarge { limit },
            StreamError::MessageTooLarge { limit } => RequestError::MessageTooLarge { limit },
            StreamError::NotJson(why) => RequestError::NotJson(why),
        }
    }
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for RequestError {}

impl From<RequestError> for Refusal {
    fn from(err: RequestError) -> Self {
        Refusal::new(err.kind(), err.message())
    }
}

#[derive(Deserialize)]
struct Body<'a> {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    trigger: Option<String>,
    #[serde(default, rename = "messageId", borrow)]
    message_id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    messages: Option<Messages<'a>>,
    #[serde(default, rename = "onDisconnect")]
    on_disconnect: Option<Value>,
    #[serde(default)]
    trace: Option<Value>,
    #[serde(default, borrow)]
    context: Option<&'a serde_json::value::RawValue>,
}

/// The last message, read.
struct LastMessage {
    id: Option<String>,
    role: String,
    parts: Vec<Value>,
}

impl LastMessage {
    /// Reads the last message, the one at position `index`.
    fn read(element: Element<'_>, index: usize) -> Result<Self, RequestError> {
        let malformed = |why: &str| RequestError::InvalidMessage(why.to_owned());
        if !element.object {
            return Err(malformed("it is not a JSON object"));
        }
        let id = match element.id.filter(|id| id.get() != "null") {
            None => None,
            Some(raw) => Some(
                read_id(raw).map_err(|fault| RequestError::InvalidMessageId { index, fault })?,
            ),
        };
        let role = element.role.ok_or_else(|| malformed("it has no `role`"))?;
        let role = serde_json::from_str::<String>(role.get())
            .map_err(|_| malformed("its `role` is not a string"))?;
        let parts = element
            .parts
            .ok_or_else(|| malformed("it has no `parts`"))?;
        // Checked first: serde_json refuses what nests past 128 levels as if it were no array.
        if nesting_depth(parts.get()) > MAX_JSON_DEPTH {
            return Err(RequestError::InvalidMessage(format!(
                "its `parts` nest deeper than the limit of {MAX_JSON_DEPTH} levels of arrays and objects"
            )));
        }
        let parts = serde_json::from_str::<Vec<Value>>(parts.get())
            .map_err(|_| malformed("its `parts` is not an array"))?;
        Ok(LastMessage { id, role, parts })
    }
}

/// What the request's `Content-Length` (`header`) says of its body, read against `max`, the body
/// limit, before the body: a length over it is [`RequestError::TooLarge`], a value that is no
/// number [`RequestError::BadLength`] ([`length`]).
pub fn declared_body_length(
    header: Option<&str>,
    max: usize,
) -> Result<ContentLength, RequestError> {
    length::read_length(header, max).map_err(|fault| match fault {
        LengthFault::Over => RequestError::TooLarge { limit: max },
        LengthFault::NotANumber => RequestError::BadLength,
    })
}

/// Parses a chat POST body.
pub fn parse_chat_request(body: &[u8], limits: &Limits) -> Result<ChatRequest, RequestError> {
    parse_chat_request_at(body, limits, None)
}

/// Parses a chat POST body whose file parts may name files this worker serves (`at`).
pub fn parse_chat_request_at(
    body: &[u8],
    limits: &Limits,
    at: Option<&FilesAt<'_>>,
) -> Result<ChatRequest, RequestError> {
    if body.len() > limits.max_body_bytes {
        return Err(RequestError::TooLarge {
            limit: limits.max_body_bytes,
        });
    }
    let text = std::str::from_utf8(body).map_err(|_| RequestError::NotJson("not UTF-8".into()))?;
    let parsed = read_body(text)?;
    let trace = match &parsed.trace {
        None | Some(Value::Null) => None,
        Some(value) => Some(value.as_str().and_then(TraceMode::parse).ok_or_else(|| {
            RequestError::InvalidField("`trace` must be \"minimal\", \"normal\" or \"full\"".into())
        })?),
    };
    let on_disconnect = match &parsed.on_disconnect {
        None | Some(Value::Null) => None,
        Some(value) => Some(
            value
                .as_str()
                .and_then(OnDisconnect::parse)
                .ok_or_else(|| {
                    RequestError::InvalidField(
                        "`onDisconnect` must be \"abort\" or \"detach\"".into(),
                    )
                })?,
        ),
    };
    let trigger = match parsed.trigger {
        None => None,
        Some(trigger) if trigger == SUBMIT || trigger == REGENERATE => Some(trigger),
        Some(_) => {
            return Err(RequestError::InvalidField(format!(
                "`trigger` must be \"{SUBMIT}\" or \"{REGENERATE}\""
            )))
        }
    };
    let target_id = match parsed.message_id.filter(|raw| raw.get() != "null") {
        None => None,
        Some(raw) => Some(read_id(raw).map_err(|fault| {
            RequestError::InvalidField(format!(
                "`messageId` {fault}: an id is a string of 1 to {MAX_ID_BYTES} bytes"
            ))
        })?),
    };
    let context = read_context(parsed.context)?;
    let Some(Messages::Array {
        count,
        last,
        branch,
    }) = parsed.messages
    else {
        return Err(RequestError::MissingMessages);
    };
    if count > limits.max_messages {
        return Err(RequestError::TooManyMessages {
            limit: limits.max_messages,
        });
    }
    if let Some((index, fault)) = branch.bad_id {
        return Err(RequestError::InvalidMessageId { index, fault });
    }
    let last = last.ok_or(RequestError::NoMessages)?;
    let mut last = LastMessage::read(last, count - 1)?;
    let message_id = last.id.clone();
    let (text, attachments, reply) = if last.role == "user" {
        let (text, attachments, answer) = read_parts(&mut last.parts, at)?;
        if text.trim().is_empty() && attachments.is_empty() && answer.is_none() {
            return Err(RequestError::EmptyMessage);
        }
        if text.chars().count() > limits.max_prompt_chars {
            return Err(RequestError::PromptTooLong {
                limit: limits.max_prompt_chars,
            });
        }
        (text, attachments, answer.map(Reply::Data))
    } else {
        let answered = read_answered(last)?;
        (String::new(), Vec::new(), Some(Reply::InMessage(answered)))
    };
    let answers: &[Answer] = match &reply {
        Some(Reply::Data(answer)) => std::slice::from_ref(answer),
        Some(Reply::InMessage(answered)) => &answered.answers,
        None => &[],
    };
    if answers
        .iter()
        .any(|answer| json_chars(&answer.answer) > limits.max_prompt_chars)
    {
        return Err(RequestError::AnswerTooLong {
            limit: limits.max_prompt_chars,
        });
    }
    Ok(ChatRequest {
        chat_id: parsed.id,
        trigger,
        target_id,
        place: Place {
            message_id,
            branch: branch.json,
        },
        text,
        attachments,
        reply,
        on_disconnect,
        trace,
        context,
    })
}

/// A last message that is not the user's: the assistant's, sent back with its question answered,
/// or else refused.
fn read_answered(last: LastMessage) -> Result<AnsweredMessage, RequestError> {
    let refused = || RequestError::LastNotUser {
        role: last.role.clone(),
    };
    if last.role != "assistant" {
        return Err(refused());
    }
    let answers = answers::read_answers(&last.parts).map_err(RequestError::InvalidMessage)?;
    match (last.id.as_deref(), answers.is_empty()) {
        (Some(id), false) if !id.is_empty() => Ok(AnsweredMessage {
            message_id: id.to_owned(),
            answers,
        }),
        (_, false) => Err(RequestError::InvalidMessage(
            "the assistant message with the answered question has no string `id`".into(),
        )),
        (_, true) => Err(refused()),
    }
}

/// The body's `context`: absent or `null` is none; anything but an object, or one over
/// [`MAX_CONTEXT_BYTES`] or nested deeper than [`MAX_JSON_DEPTH`], is refused.
fn read_context(raw: Option<&serde_json::value::RawValue>) -> Result<Option<String>, RequestError> {
    let Some(raw) = raw else { return Ok(None) };
    let text = raw.get();
    if text == "null" {
        return Ok(None);
    }
    if !text.starts_with('{') {
        return Err(RequestError::InvalidField(
            "`context` must be a JSON object".into(),
        ));
    }
    if text.len() > MAX_CONTEXT_BYTES {
        return Err(RequestError::InvalidField(format!(
            "`context` is {} bytes of JSON, over the limit of {MAX_CONTEXT_BYTES}",
            text.len()
        )));
    }
    if nesting_depth(text) > MAX_JSON_DEPTH {
        return Err(RequestError::InvalidField(format!(
            "`context` nests deeper than the limit of {MAX_JSON_DEPTH} levels of arrays and objects"
        )));
    }
    Ok(Some(text.to_owned()))
}

/// The body, read in one pass. When that fails, a second look says why: the text is not JSON
/// (`invalid_json`), or JSON but not an object (`not_object`), or an object with a field of the
/// wrong shape (`invalid_field`). Errors say where they are counted from the value's first byte.
fn read_body(text: &str) -> Result<Body<'_>, RequestError> {
    let value = text.trim_start_matches([' ', '\t', '\n', '\r']);
    match serde_json::from_str::<Body<'_>>(value) {
        // An array may fill a struct by position: only an object is a body.
        Ok(body) if value.starts_with('{') => Ok(body),
        Ok(_) => Err(RequestError::NotObject),
        Err(err) => {
            let raw: &RawValue =
                serde_json::from_str(text).map_err(|e| RequestError::NotJson(e.to_string()))?;
            Err(if raw.get().starts_with('{') {
                RequestError::InvalidField(err.to_string())
            } else {
                RequestError::NotObject
            })
        }
    }
}

/// The characters of `value`'s JSON text, as the `answer` frame carries it.
fn json_chars(value: &Value) -> usize {
    value.to_string().chars().count()
}

/// A part's string field `name`.
fn str_field<'a>(part: &'a Value, name: &str) -> Option<&'a str> {
    part.get(name).and_then(Value::as_str)
}

/// The part type that answers a question (`sendMessage({ parts: [{ type: "data-answer", … }] })`).
pub const ANSWER_PART: &str = "data-answer";

/// Joins the text parts, collects the file parts and reads the `data-answer` part; other part
/// types are ignored.
fn read_parts(
    parts: &mut [Value],
    at: Option<&FilesAt<'_>>,
) -> Result<(String, Vec<Attachment>, Option<Answer>), RequestError> {
    let mut texts: Vec<&str> = Vec::new();
    let mut files = Vec::new();
    let mut answer = None;
    for (i, part) in parts.iter_mut().enumerate() {
        match part.get("type").and_then(Value::as_str) {
            Some("text") => texts.push(str_field(part, "text").ok_or_else(|| {
                RequestError::InvalidMessage(format!("text part {i} has no string `text`"))
            })?),
            Some("file") => {
                let (Some(media_type), Some(_)) =
                    (str_field(part, "mediaType"), str_field(part, "url"))
                else {
                    return Err(RequestError::InvalidMessage(format!(
                        "file part {i} needs string `mediaType` and `url`"
                    )));
                };
                let media_type = media_type.to_owned();
                let filename = str_field(part, "filename").map(str::to_owned);
                // Moved out of the part, not copied: a data: URL may be megabytes.
                let url = match part.get_mut("url").map(Value::take) {
                    Some(Value::String(url)) => url,
                    _ => String::new(),
                };
                check_file_at(&media_type, &url, filename.as_deref(), at)
                    .map_err(|fault| RequestError::InvalidAttachment { part: i, fault })?;
                files.push(Attachment {
                    media_type,
                    url,
                    filename,
                    size: None,
                });
            }
            Some(ANSWER_PART) => {
                if answer.is_some() {
                    return Err(RequestError::InvalidMessage(format!(
                        "part {i} is a second `{ANSWER_PART}` part; a message answers one question"
                    )));
                }
                let data = part.get("data");
                let question_id = data
                    .and_then(|d| d.get("questionId"))
                    .and_then(Value::as_str);
                let value = data.and_then(|d| d.get("answer"));
                let (Some(question_id), Some(value)) = (question_id, value) else {
                    return Err(RequestError::InvalidMessage(format!(
                        "`{ANSWER_PART}` part {i} needs `data.questionId` (a string) and `data.answer`"
                    )));
                };
                answer = Some(Answer {
                    question_id: question_id.to_owned(),
                    answer: value.clone(),
                    denied_call: None,
                });
            }
            Some(_) => {}
            None => {
                return Err(RequestError::InvalidMessage(format!(
                    "part {i} has no string `type`"
                )))
            }
        }
    }
    Ok((texts.join("\n"), files, answer))
}

#[cfg(test)]
#[path = "request_context_tests.rs"]
mod context_tests;
#[cfg(test)]
#[path = "request_inputs_tests.rs"]
mod inputs_tests;
#[cfg(test)]
#[path = "request_place_tests.rs"]
mod place_tests;
#[cfg(test)]
#[path = "request_tests.rs"]
mod tests;
