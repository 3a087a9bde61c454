//! The passthrough in Rust: what any workers-rs adapter pays for a chat turn in workerd, for
//! `bench/instructions.mjs --with pass-rs`. It does what the JavaScript passthrough
//! (`bench/passthrough`) does, its request driven from Rust through workers-rs, with the same
//! tricks as this project's worker: the body read as bytes and parsed with serde, the agent's
//! socket opened in one call, the frames of one event-loop turn handed over in one call, and
//! each frame written as `data: <frame>\n\n` (`bench/pass-frames`), one write a burst. No
//! settings, auth, log line or translation: those are the adapter's own work, which
//! `rust − pass-rs` then prices against `ts − pass`.
#![forbid(unsafe_code)]

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
        return answer("not found", 404);
    };
    let buffer = JsFuture::from(req.array_buffer()?).await?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let Some(content) = pass_frames::prompt_of(&bytes) else {
        return answer("bad request", 400);
    };
    let namespace = env.get_binding::<worker::ObjectNamespace>("SESSION_AGENT")?;
    let opened = JsFuture::from(open_agent(namespace.as_ref(), session, &content)).await?;
    let opened = js_sys::Array::from(&opened);
    let on_burst = Closure::<dyn FnMut(JsValue, Vec<u8>) -> u32>::new(burst).into_js_value();
    let piped = pipe(&opened.get(0), &opened.get(1), &req, &on_burst);
    ctx.as_ref().wait_until(&piped.get(1).unchecked_into())?;
    Ok(piped.get(0).unchecked_into())
}

/// One burst of frames (joined by U+001E), written as SSE events in one write. Answers 1 when
/// the turn's last frame was among them.
fn burst(writer: JsValue, frames: Vec<u8>) -> u32 {
    let mut out = Vec::with_capacity(frames.len() + 64);
    let complete = pass_frames::write_burst(&frames, &mut out);
    write(&writer, &out);
    u32::from(complete)
}

/// A plain-text answer with `status`.
fn answer(text: &str, status: u16) -> worker::Result<web_sys::Response> {
    let init = web_sys::ResponseInit::new();
    init.set_status(status);
    Ok(web_sys::Response::new_with_opt_str_and_init(
        Some(text),
        &init,
    )?)
}
