//! The request as the route handlers see it: the runtime's `Request`, for its body and its
//! signal, and its head (its id and time, method, URL and the headers any route reads), read in
//! one call into JavaScript (`incoming.js`; [`RequestHead`] says why).

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use crate::request_head::{Field, HeaderSet, RequestHead};

/// One request: its head, read once, and the runtime's `Request`.
pub(crate) struct RequestIn<'a> {
    /// The runtime's request: its body and its `signal`. Its head is read from [`RequestIn::head`].
    pub(crate) raw: &'a web_sys::Request,
    pub(crate) head: RequestHead,
}

impl<'a> RequestIn<'a> {
    /// Reads `raw`'s head; `None` when the runtime gives a head of another shape, which the
    /// Fetch standard rules out (`RequestHead::parse`), or bytes that are not UTF-8, which
    /// `TextEncoder` never writes.
    ///
    /// Only the headers of `read` are read: any other reads as absent.
    pub(crate) fn read(raw: &'a web_sys::Request, read: HeaderSet) -> Option<RequestIn<'a>> {
        let text = String::from_utf8(js_read_head(raw, read.bits())).ok()?;
        RequestHead::parse(text).map(|head| RequestIn { raw, head })
    }

    /// A header's value, `None` when the request does not carry it.
    pub(crate) fn header(&self, field: Field) -> Option<&str> {
        self.head.header(field)
    }
}

/// The bytes of an `ArrayBuffer` (a body read whole), copied into WebAssembly memory in one call.
pub(crate) fn bytes_of(buffer: &JsValue) -> Vec<u8> {
    js_bytes_of(buffer)
}

#[wasm_bindgen(module = "/src/inbound/incoming.js")]
extern "C" {
    #[wasm_bindgen(js_name = readHead)]
    fn js_read_head(request: &web_sys::Request, read: u32) -> Vec<u8>;

    #[wasm_bindgen(js_name = bytesOf)]
    fn js_bytes_of(buffer: &JsValue) -> Vec<u8>;
}
