//! The passthrough in Rust: what any workers-rs adapter pays for a chat turn in workerd, for
//! `bench/instructions.mjs --with pass-rs`. It does in Rust what the JavaScript passthrough
//! (`bench/passthrough`) does, with the same tricks as this project's worker: the body read as
//! bytes in one call and parsed with serde, the agent's socket opened in one call, the frames of
//! one event-loop turn handed over in one call, and each frame written as `data: <frame>\n\n`,
//! one write a burst. No settings, auth, log line or translation: those are the adapter's own
//! work, which `rust − pass-rs` then prices against `ts − pass`.
#![forbid(unsafe_code)]

use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use worker::{event, Context, Env};

#[wasm_bindgen(module = "/src/pipe.js")]
extern "C" {
    #[wasm_bindgen(js_name = openAgent)]
    fn open_agent(namespace: &JsValue, session_id: &str, content: &str) -> js_sys::Promise;

    fn pipe(
        socket: &JsValue,
        request_id: &JsValue,
        request: &web_sys::Request,
        on_burst: &JsValue,
    ) -> js_sys::Array;

    fn write(writer: &JsValue, bytes: &[u8]);
}

/// The demo agent's last frame of a turn, as it writes it.
const COMPLETE: &[u8] = br#"{"type":"complete"}"#;

/// What the passthrough reads of the AI SDK's body: the last message's first text part.
#[derive(Deserialize)]
struct Body {
    messages: Vec<Message>,
}

#[derive(Deserialize)]
struct Message {
    parts: Vec<Part>,
}

#[derive(Deserialize)]
struct Part {
    #[serde(rename = "type")]
    kind: String,
    text: Option<String>,
}

#[event(fetch)]
async fn fetch(req: web_sys::Request, env: Env, ctx: Context) -> worker::Result<web_sys::Response> {
    let url = req.url();
    let path = url
        .split_once("://")
        .map_or("", |(_, rest)| rest.find('/').map_or("", |at| &rest[at..]));
    let session = path
        .strip_prefix("/api/sessions/")
        .and_then(|rest| rest.strip_suffix("/chat"))
        .filter(|id| !id.is_empty() && !id.contains('/'));
    let (Some(session), "POST") = (session, req.method().as_str()) else {
        let init = web_sys::ResponseInit::new();
        init.set_status(404);
        return Ok(web_sys::Response::new_with_opt_str_and_init(
            Some("not found"),
            &init,
        )?);
    };
    let buffer = JsFuture::from(req.array_buffer()?).await?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let body: Body =
        serde_json::from_slice(&bytes).map_err(|e| worker::Error::RustError(e.to_string()))?;
    let content = body
        .messages
        .last()
        .and_then(|m| m.parts.iter().find(|p| p.kind == "text"))
        .and_then(|p| p.text.as_deref())
        .unwrap_or_default();
    let namespace = env.get_binding::<worker::ObjectNamespace>("SESSION_AGENT")?;
    let opened = JsFuture::from(open_agent(namespace.as_ref(), session, content)).await?;
    let opened = js_sys::Array::from(&opened);
    let on_burst = Closure::<dyn FnMut(JsValue, Vec<u8>) -> u32>::new(burst).into_js_value();
    let piped = pipe(&opened.get(0), &opened.get(1), &req, &on_burst);
    ctx.as_ref().wait_until(&piped.get(1).unchecked_into())?;
    Ok(piped.get(0).unchecked_into())
}

/// One burst of frames (joined by U+001E): each written as an SSE event, in one write. Answers 1
/// when the turn's last frame was among them.
fn burst(writer: JsValue, frames: Vec<u8>) -> u32 {
    let mut out = Vec::with_capacity(frames.len() + 64);
    let mut complete = false;
    for frame in frames.split(|&b| b == 0x1e) {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(frame);
        out.extend_from_slice(b"\n\n");
        complete |= frame == COMPLETE;
    }
    write(&writer, &out);
    u32::from(complete)
}
