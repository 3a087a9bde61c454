//! The passthrough's work in Rust (`bench/pass-frames`), called from a JavaScript request path
//! (`entry.js`): the prompt read from the AI SDK's body, and each burst of frames written as SSE
//! events. With `bench/pass-rs` (the same work, the request driven from Rust through workers-rs)
//! it splits what a turn costs a Rust adapter into the request path and the core.
#![forbid(unsafe_code)]

use wasm_bindgen::prelude::*;

/// The prompt of a chat request's body: its last message's first text part; `None` when the
/// body is not the AI SDK's.
#[wasm_bindgen(js_name = promptOf)]
pub fn prompt_of(body: &[u8]) -> Option<String> {
    pass_frames::prompt_of(body)
}

/// One burst of frames (joined by U+001E) as SSE events, after one byte: 1 when the turn's last
/// frame was among them, else 0.
#[wasm_bindgen]
pub fn burst(frames: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(frames.len() + 64);
    out.push(0);
    if pass_frames::write_burst(frames, &mut out) {
        out[0] = 1;
    }
    out
}
