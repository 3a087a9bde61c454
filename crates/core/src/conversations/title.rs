//! A session's title: at first its first message's (the first line of its text, cut to about
//! [`DERIVED_TITLE_CHARS`] characters), then whatever a rename gives (`PATCH /api/sessions/:id`:
//! 1 to [`MAX_TITLE_CHARS`] characters once trimmed), or its agent's (a `title` frame, protocol 7:
//! the same bounds, `crate::v2::title`). A rename always wins: neither the turns nor the agent that
//! follow title a session again (`super::store`).

use crate::refusal::{Refusal, INVALID_BODY, INVALID_JSON, INVALID_TITLE};

/// The longest title made from a first message, in characters, its ellipsis included: 80, the
/// bound the AI SDK's chatbot template asks of its titles ("ensure it is not more than 80
/// characters long", vercel/chatbot's title prompt), a list row's line on a phone or a sidebar.
pub const DERIVED_TITLE_CHARS: usize = 80;

/// The longest title a rename gives, in characters (Unicode scalar values), once trimmed: an
/// agent's title's bound ([`crate::v2::title::MAX_TITLE_CHARS`], 200), one bound for both.
pub const MAX_TITLE_CHARS: usize = crate::v2::title::MAX_TITLE_CHARS;

/// What ends a title cut short.
pub const ELLIPSIS: char = '…';

/// The title of a session whose first message's text is `text`: its first line that holds more
/// than white space, trimmed, each control character (a tab) a space, and cut at a character's
/// boundary to [`DERIVED_TITLE_CHARS`] characters with [`ELLIPSIS`] as its last. Empty when the
/// message had no text (a file alone): a client shows its own placeholder.
pub fn derived(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("");
    let plain = |c: char| if c.is_control() { ' ' } else { c };
    match line.char_indices().nth(DERIVED_TITLE_CHARS) {
        None => line.chars().map(plain).collect(),
        Some(_) => {
            let kept: String = line
                .chars()
                .take(DERIVED_TITLE_CHARS - 1)
                .map(plain)
                .collect();
            let mut title = kept.trim_end().to_owned();
            title.push(ELLIPSIS);
            title
        }
    }
}

/// The title a rename's body (`{"title": "…"}`) gives: the string trimmed, 1 to
/// [`MAX_TITLE_CHARS`] characters; else the refusal that says what is wrong (`invalid_json`,
/// `invalid_body`, `invalid_title`). Other members are not its business.
pub fn renamed(body: &[u8]) -> Result<String, Refusal> {
    let invalid_json = || Refusal::new(INVALID_JSON, "The request body is not valid JSON.");
    let text = std::str::from_utf8(body).map_err(|_| invalid_json())?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|_| invalid_json())?;
    let Some(object) = value.as_object() else {
        return Err(Refusal::new(
            INVALID_BODY,
            "The request body must be a JSON object: {\"title\": \"…\"}.",
        ));
    };
    let title = object
        .get("title")
        .and_then(serde_json::Value::as_str)
        .map(str::trim)
        .filter(|title| !title.is_empty() && title.chars().count() <= MAX_TITLE_CHARS)
        .ok_or_else(invalid_title)?;
    Ok(title.to_owned())
}

fn invalid_title() -> Refusal {
    Refusal::new(
        INVALID_TITLE,
        format!("`title` must be a string of 1 to {MAX_TITLE_CHARS} characters, white space around it not counted."),
    )
}

#[cfg(test)]
#[path = "title_tests.rs"]
mod tests;
