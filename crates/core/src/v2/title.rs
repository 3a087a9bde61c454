//! The agent's title for its session (`title`, protocol 7, R-title): what a `title` frame may
//! hold, as the caller's list keeps it. A leaf of `v2`, so that the frame's reader and the list's
//! rules (`crate::conversations::title`) name one bound.

use super::frame_error::FrameError;

/// The longest title, in characters (Unicode scalar values), once trimmed: 200 (issue 69), room
/// for any name a person types, while a page of 100 stays small; a rename's too.
pub const MAX_TITLE_CHARS: usize = 200;

/// The title an agent's `title` frame gives: `text` trimmed, each control character (a line
/// break, a tab) a space, 1 to [`MAX_TITLE_CHARS`] characters; `None` for anything else (the
/// frame is then skipped and logged, and the session keeps its title).
pub fn from_agent(text: &str) -> Option<String> {
    let text = text.trim();
    let fits = !text.is_empty() && text.chars().nth(MAX_TITLE_CHARS).is_none();
    fits.then(|| {
        text.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    })
}

/// What is wrong with a `title` frame [`from_agent`] refused.
pub fn not_a_title() -> FrameError {
    FrameError(format!(
        "a title frame's `title` must be 1 to {MAX_TITLE_CHARS} characters, white space around it not counted"
    ))
}

#[cfg(test)]
#[path = "title_tests.rs"]
mod tests;
