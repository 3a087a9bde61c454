//! What the demo agent names and dates new things with: random ids (a turn's, a user message's
//! ref, a `/grow`'s base) and the time now, as a message's `createdAt`.

use serde_json::Value;

use crate::platform::clock::now_ms;

/// A random id `{prefix}{16 hex digits}`. The AI SDK client uses a turn id as the assistant
/// message's id, and a message's ref names it for good (R-ref), so ids must not repeat when the
/// object restarts.
pub(crate) fn new_id(prefix: &str) -> String {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        bytes = now_ms().to_le_bytes();
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("{prefix}{hex}")
}

/// Now, as a message's `createdAt` (an ISO 8601 string, as JavaScript's `Date` writes it).
pub(crate) fn now() -> Value {
    Value::String(js_sys::Date::new_0().to_iso_string().into())
}
