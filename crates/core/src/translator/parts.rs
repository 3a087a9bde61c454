//! Text and reasoning parts: opened lazily on the first delta, closed before anything else.

use crate::ui::UiChunk;
use crate::v2::DeltaKind;

/// At most one streamed part is open at a time. Ids are `text-N` / `reasoning-N`, with
/// `N` counting every part this stream opened, so no two parts share an id.
#[derive(Debug, Default, Clone)]
pub struct OpenParts {
    open: Option<(DeltaKind, String)>,
    opened: u64,
    text_parts: u64,
}

impl OpenParts {
    /// Appends `delta` to the open part of `kind`, first closing a part of the other kind
    /// and opening a new one where needed. An empty delta emits nothing.
    pub fn delta(&mut self, kind: DeltaKind, delta: String, out: &mut Vec<UiChunk>) {
        if delta.is_empty() {
            return;
        }
        let id = match self.open_id(kind) {
            Some(id) => id.to_owned(),
            None => self.open_new(kind, out),
        };
        out.push(match kind {
            DeltaKind::Text => UiChunk::TextDelta { id, delta },
            DeltaKind::Reasoning => UiChunk::ReasoningDelta { id, delta },
        });
    }

    /// The id of the open part, when it is of `kind`: the part a delta of that kind extends
    /// without opening or closing one.
    pub fn open_id(&self, kind: DeltaKind) -> Option<&str> {
        match &self.open {
            Some((open_kind, id)) if *open_kind == kind => Some(id),
            _ => None,
        }
    }

    /// Closes the open part, if any.
    pub fn close(&mut self, out: &mut Vec<UiChunk>) {
        if let Some((kind, id)) = self.open.take() {
            out.push(match kind {
                DeltaKind::Text => UiChunk::TextEnd { id },
                DeltaKind::Reasoning => UiChunk::ReasoningEnd { id },
            });
        }
    }

    /// Whether any text part was opened so far.
    pub fn streamed_text(&self) -> bool {
        self.text_parts > 0
    }

    fn open_new(&mut self, kind: DeltaKind, out: &mut Vec<UiChunk>) -> String {
        self.close(out);
        self.opened += 1;
        let id = match kind {
            DeltaKind::Text => {
                self.text_parts += 1;
                format!("text-{}", self.opened)
            }
            DeltaKind::Reasoning => format!("reasoning-{}", self.opened),
        };
        out.push(match kind {
            DeltaKind::Text => UiChunk::TextStart { id: id.clone() },
            DeltaKind::Reasoning => UiChunk::ReasoningStart { id: id.clone() },
        });
        self.open = Some((kind, id.clone()));
        id
    }
}

#[cfg(test)]
#[path = "parts_tests.rs"]
mod tests;
